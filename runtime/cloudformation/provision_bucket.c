/*
 * AWS::S3Tables::TableBucket and AWS::S3Tables::Namespace (provision.h), made with the catalog's
 * table bucket, settings, tags and namespace functions under the API's rules: CreateTableBucket
 * with its encryption, storage class, maintenance (UnreferencedFileRemoval), metrics and tags;
 * in-place updates as PutTableBucketEncryption, PutTableBucketStorageClass,
 * PutTableBucketMaintenanceConfiguration, Put/DeleteTableBucketMetricsConfiguration,
 * Put/DeleteTableBucketReplication and Tag/UntagResource do them; CreateNamespace, DeleteNamespace
 * and DeleteTableBucket.
 *
 * Every change and its record are one transaction. A property an update removes returns the
 * bucket to AWS's default for it (AES256, STANDARD, unreferenced file removal enabled with 3 and
 * 10 days, no metrics, no replication).
 */
#include <string.h>

#include "base/bucket_name.h"
#include "base/ids.h"
#include "call/transaction.h"
#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "catalog/namespace.h"
#include "catalog/replication.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "catalog/table_bucket.h"
#include "cloudformation/provision_props.h"

#define NAMESPACE_ID_SEPARATOR '|'

/* ---- a bucket's settings ---- */

/* EncryptionConfiguration {SSEAlgorithm, KMSKeyArn} as the API's shape. */
static int read_encryption(floe_call_t *call, const cJSON *config, floe_EncryptionConfiguration **out)
{
    floe_EncryptionConfiguration *e = floe_EncryptionConfiguration_new(call);
    const char *algorithm, *key;

    if (floe_provision_string(call, config, "SSEAlgorithm", false, &algorithm) ||
        floe_provision_string(call, config, "KMSKeyArn", false, &key))
        return FLOE_EFAIL;
    e->sseAlgorithm = algorithm != NULL ? floe_SSEAlgorithm_from_string(algorithm) : FLOE_SSEAlgorithm_AES256;
    if (e->sseAlgorithm == 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%s' at 'encryptionConfiguration.sseAlgorithm' failed to "
                         "satisfy constraint: Member must satisfy enum value set: [AES256, aws:kms]",
                         algorithm);
    e->kmsKeyArn = floe_call_strdup(call, key);
    *out = e;
    return FLOE_OK;
}

static int apply_encryption(floe_call_t *call, int64_t bucket_id, const cJSON *props)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_EncryptionConfiguration *e = NULL;
    const cJSON *config;

    if (floe_provision_object(call, props, "EncryptionConfiguration", &config))
        return FLOE_EFAIL;
    if (config == NULL)
        return floe_settings_bucket_encryption_delete(call, bucket_id);
    if (read_encryption(call, config, &e))
        return FLOE_EFAIL;
    return floe_rules_encryption_write(call, &bucket, e);
}

int floe_provision_storage_class(floe_call_t *call, const cJSON *props, floe_StorageClass *out)
{
    const cJSON *config;
    const char *name;

    *out = 0;
    if (floe_provision_object(call, props, "StorageClassConfiguration", &config))
        return FLOE_EFAIL;
    if (config == NULL)
        return FLOE_OK;
    if (floe_provision_string(call, config, "StorageClass", false, &name))
        return FLOE_EFAIL;
    if (name == NULL)
        return FLOE_OK;
    if ((*out = floe_StorageClass_from_string(name)) == 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%s' at 'storageClassConfiguration.storageClass' failed to "
                         "satisfy constraint: Member must satisfy enum value set: [STANDARD, INTELLIGENT_TIERING]",
                         name);
    return FLOE_OK;
}

static int apply_storage_class(floe_call_t *call, int64_t bucket_id, const cJSON *props)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_StorageClass storage_class;

    if (floe_provision_storage_class(call, props, &storage_class))
        return FLOE_EFAIL;
    return floe_settings_storage_class_put(call, &bucket,
                                           storage_class != 0 ? storage_class : FLOE_StorageClass_STANDARD);
}

/* A maintenance day count: the model's PositiveInteger. */
static int read_days(floe_call_t *call, const cJSON *config, const char *name, int32_t fallback, int32_t *out)
{
    bool has;

    if (floe_provision_int(call, config, name, &has, out))
        return FLOE_EFAIL;
    if (!has)
        *out = fallback;
    else if (*out < 1)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%d' at 'value.settings.icebergUnreferencedFileRemoval' "
                         "failed to satisfy constraint: Member must have value greater than or equal to 1",
                         (int)*out);
    return FLOE_OK;
}

/* UnreferencedFileRemoval {Status, UnreferencedDays, NoncurrentDays}; what it leaves out takes
 * AWS's default, as PutTableBucketMaintenanceConfiguration does. */
static int apply_maintenance(floe_call_t *call, int64_t bucket_id, const cJSON *props)
{
    floe_bucket_maintenance_t value = {FLOE_MaintenanceStatus_ENABLED, FLOE_RULES_DEFAULT_UNREFERENCED_DAYS,
                                       FLOE_RULES_DEFAULT_NON_CURRENT_DAYS};
    const cJSON *config;

    if (floe_provision_object(call, props, "UnreferencedFileRemoval", &config))
        return FLOE_EFAIL;
    if (config != NULL &&
        (floe_provision_status(call, config, "UnreferencedFileRemoval", &value.status) ||
         read_days(call, config, "UnreferencedDays", FLOE_RULES_DEFAULT_UNREFERENCED_DAYS, &value.unreferenced_days) ||
         read_days(call, config, "NoncurrentDays", FLOE_RULES_DEFAULT_NON_CURRENT_DAYS, &value.non_current_days)))
        return FLOE_EFAIL;
    return floe_settings_bucket_maintenance_put(call, bucket_id,
                                                FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL,
                                                &value);
}

/* MetricsConfiguration {Status}: Enabled puts the configuration (keeping its id), Disabled or
 * absent deletes it. */
static int apply_metrics(floe_call_t *call, int64_t bucket_id, const cJSON *props)
{
    floe_MaintenanceStatus status = FLOE_MaintenanceStatus_DISABLED;
    const cJSON *config;

    if (floe_provision_object(call, props, "MetricsConfiguration", &config) ||
        (config != NULL && floe_provision_status(call, config, "MetricsConfiguration", &status)))
        return FLOE_EFAIL;
    if (status == FLOE_MaintenanceStatus_ENABLED)
        return floe_settings_bucket_metrics_put(call, bucket_id);
    return floe_settings_bucket_metrics_delete(call, bucket_id);
}

/* One rule's Destinations [{DestinationTableBucketARN}] as the catalog keeps them. */
static int read_destinations(floe_call_t *call, const cJSON *rule, floe_replication_rule_t *out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(rule, "Destinations"), *item;
    size_t i = 0;

    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value at 'configuration.rules.member.destinations' failed to "
                         "satisfy constraint: Member must have length greater than or equal to 1");
    out->n_destinations = (size_t)cJSON_GetArraySize(list);
    out->destination_arns = floe_call_alloc(call, out->n_destinations * sizeof(char *));
    cJSON_ArrayForEach(item, list)
    {
        const char *arn;
        if (floe_provision_string(call, item, "DestinationTableBucketARN", true, &arn))
            return FLOE_EFAIL;
        out->destination_arns[i++] = floe_call_strdup(call, arn);
    }
    return FLOE_OK;
}

/* ReplicationConfiguration {Role, Rules: [{Destinations}]} put as PutTableBucketReplication puts
 * it, without a version token (the stack owns the configuration); absent, it is deleted as
 * DeleteTableBucketReplication deletes it (nothing to delete is no error here: the property is
 * the whole truth). */
static int apply_replication(floe_call_t *call, int64_t bucket_id, const char *bucket_arn, const cJSON *props)
{
    const cJSON *config, *rules, *item;
    floe_replication_rule_t *stored;
    char token[FLOE_UUID_LEN + 1];
    const char *role;
    size_t n = 0;

    if (floe_provision_object(call, props, "ReplicationConfiguration", &config))
        return FLOE_EFAIL;
    if (config == NULL)
        return floe_replication_remove(call, FLOE_REPLICATION_OF_BUCKET, bucket_id);
    if (floe_provision_string(call, config, "Role", true, &role))
        return FLOE_EFAIL;
    rules = cJSON_GetObjectItemCaseSensitive(config, "Rules");
    if (!cJSON_IsArray(rules) || cJSON_GetArraySize(rules) == 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value at 'configuration.rules' failed to satisfy constraint: "
                         "Member must have length greater than or equal to 1");
    stored = floe_call_alloc(call, (size_t)cJSON_GetArraySize(rules) * sizeof(*stored));
    cJSON_ArrayForEach(item, rules)
    {
        if (read_destinations(call, item, &stored[n++]))
            return FLOE_EFAIL;
    }
    if (floe_replication_check_destinations(call, stored, n, bucket_arn, "A table bucket cannot replicate to itself."))
        return FLOE_EFAIL;
    return floe_replication_write(call, FLOE_REPLICATION_OF_BUCKET, bucket_id, role, stored, n, token);
}

/* The settings a create gives (old_props NULL) or an update changes, each as its own operation would. */
static int apply_bucket_settings(floe_call_t *call, int64_t bucket_id, const char *bucket_arn, const cJSON *old_props,
                                 const cJSON *props)
{
    bool is_create = old_props == NULL;

    if ((is_create ? cJSON_HasObjectItem(props, "ReplicationConfiguration")
                   : floe_provision_changed(old_props, props, "ReplicationConfiguration")) &&
        apply_replication(call, bucket_id, bucket_arn, props))
        return FLOE_EFAIL;
    if ((is_create ? cJSON_HasObjectItem(props, "EncryptionConfiguration")
                   : floe_provision_changed(old_props, props, "EncryptionConfiguration")) &&
        apply_encryption(call, bucket_id, props))
        return FLOE_EFAIL;
    if ((is_create ? cJSON_HasObjectItem(props, "StorageClassConfiguration")
                   : floe_provision_changed(old_props, props, "StorageClassConfiguration")) &&
        apply_storage_class(call, bucket_id, props))
        return FLOE_EFAIL;
    if ((is_create ? cJSON_HasObjectItem(props, "UnreferencedFileRemoval")
                   : floe_provision_changed(old_props, props, "UnreferencedFileRemoval")) &&
        apply_maintenance(call, bucket_id, props))
        return FLOE_EFAIL;
    if ((is_create ? cJSON_HasObjectItem(props, "MetricsConfiguration")
                   : floe_provision_changed(old_props, props, "MetricsConfiguration")) &&
        apply_metrics(call, bucket_id, props))
        return FLOE_EFAIL;
    if (is_create || floe_provision_changed(old_props, props, "Tags")) {
        floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
        return floe_provision_retag(call, &bucket, old_props, props);
    }
    return FLOE_OK;
}

static cJSON *bucket_attributes(const char *arn)
{
    cJSON *attrs = cJSON_CreateObject();
    cJSON_AddStringToObject(attrs, "TableBucketARN", arn);
    return attrs;
}

/* ---- AWS::S3Tables::TableBucket ---- */

typedef struct bucket_args {
    const char *physical_id; /* an update's or delete's */
    const cJSON *old_props, *props;
    const floe_provision_sink_t *sink;
} bucket_args_t;

static int create_bucket(floe_call_t *call, void *arg)
{
    const bucket_args_t *a = arg;
    const char *name;
    int64_t id = 0;

    if (floe_provision_string(call, a->props, "TableBucketName", true, &name))
        return FLOE_EFAIL;
    if (!floe_bucket_name_is_valid(name, FLOE_BUCKET_NAME_TABLE))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET, "The specified bucket name is not valid.");
    switch (floe_table_bucket_create(call, name, &id)) {
    case FLOE_OK:
        break;
    case FLOE_EEXISTS:
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_BUCKET,
                         "The bucket that you tried to create already exists, and you own it.");
    default:
        return FLOE_EFAIL;
    }
    const char *arn = floe_arn_table_bucket(call, name);
    if (apply_bucket_settings(call, id, arn, NULL, a->props))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, arn, bucket_attributes(arn));
}

int floe_provision_bucket_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    bucket_args_t a = {NULL, NULL, props, sink};
    return floe_call_in_transaction(call, create_bucket, &a);
}

static int update_bucket(floe_call_t *call, void *arg)
{
    const bucket_args_t *a = arg;
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, a->physical_id, &bucket) ||
        apply_bucket_settings(call, bucket.id, bucket.arn, a->old_props, a->props))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, bucket.arn, bucket_attributes(bucket.arn));
}

int floe_provision_bucket_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                                 const cJSON *new_props, const floe_provision_sink_t *sink)
{
    bucket_args_t a = {physical_id, old_props, new_props, sink};
    return floe_call_in_transaction(call, update_bucket, &a);
}

/* DeleteTableBucket: a bucket that still has a namespace is not deleted. */
static int delete_bucket(floe_call_t *call, void *arg)
{
    const bucket_args_t *a = arg;
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, a->physical_id, &bucket)) {
        if (call->failure.code != FLOE_ENOTFOUND)
            return FLOE_EFAIL;
        floe_provision_forget_not_found(call);
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    }
    switch (floe_table_bucket_delete(call, bucket.id)) {
    case FLOE_OK:
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    case FLOE_EINUSE:
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_BUCKET, "The bucket that you tried to delete is not empty.");
    default:
        return FLOE_EFAIL;
    }
}

int floe_provision_bucket_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    bucket_args_t a = {physical_id, NULL, NULL, sink};
    return floe_call_in_transaction(call, delete_bucket, &a);
}

/* ---- AWS::S3Tables::Namespace ---- */

typedef struct namespace_args {
    const char *physical_id;
    const cJSON *props;
    const floe_provision_sink_t *sink;
} namespace_args_t;

static int create_namespace(floe_call_t *call, void *arg)
{
    const namespace_args_t *a = arg;
    const char *bucket_arn, *name;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    bool is_taken;

    if (floe_provision_string(call, a->props, "TableBucketARN", true, &bucket_arn) ||
        floe_provision_string(call, a->props, "Namespace", true, &name) ||
        floe_provision_check_namespace_name(call, name) || floe_lookup_bucket(call, bucket_arn, &bucket) ||
        floe_namespace_insert(call, bucket.id, name, &ns, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_NAMESPACE,
                         "A namespace with an identical name already exists in the bucket.");
    return floe_provision_report(call, a->sink, floe_call_printf(call, "%s%c%s", bucket.arn, NAMESPACE_ID_SEPARATOR, name),
                                 NULL);
}

int floe_provision_namespace_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    namespace_args_t a = {NULL, props, sink};
    return floe_call_in_transaction(call, create_namespace, &a);
}

/* DeleteNamespace: a namespace that still has a table is not deleted. */
static int delete_namespace(floe_call_t *call, void *arg)
{
    const namespace_args_t *a = arg;
    const char *separator = strrchr(a->physical_id, NAMESPACE_ID_SEPARATOR);
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    bool has_tables;

    if (separator == NULL) /* not an id this file made: nothing of ours to delete */
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    if (floe_lookup_bucket(call, floe_call_strndup(call, a->physical_id, (size_t)(separator - a->physical_id)),
                           &bucket) ||
        floe_lookup_namespace(call, &bucket, separator + 1, &ns)) {
        if (call->failure.code != FLOE_ENOTFOUND)
            return FLOE_EFAIL;
        floe_provision_forget_not_found(call);
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    }
    if (floe_namespace_remove(call, ns.id, &has_tables))
        return FLOE_EFAIL;
    if (has_tables)
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_NAMESPACE,
                         "The namespace that you tried to delete is not empty.");
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

int floe_provision_namespace_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    namespace_args_t a = {physical_id, NULL, sink};
    return floe_call_in_transaction(call, delete_namespace, &a);
}
