/*
 * TableBucketResource: create, read, list and delete table buckets, and the bucket-level settings
 * the model puts on the same resource: storage class, metrics configuration and maintenance
 * configuration. (Encryption, policy and replication are resources of their own, in
 * table_bucket_encryption.c, table_bucket_policy.c and table_bucket_replication.c; tags are in
 * tags.c.)
 *
 * The catalog stores the buckets (catalog/table_bucket.h) and their settings
 * (catalog/settings.h); this file keeps AWS's rules. Names follow AWS's table bucket rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html), which
 * bucket_name.h shares with S3's general purpose buckets. A bucket without a stored setting has
 * AWS's default (STANDARD; maintenance enabled, 3 and 10 days) or, for metrics, none.
 *
 * Floe records these settings and reports them back; unreferenced file removal runs with the
 * bucket's maintenance setting (runtime/maintenance/); Floe publishes no metrics and stores every
 * object the same way whatever the storage class.
 */
#include "base/bucket_name.h"
#include "bucket_settings.h"
#include "call/transaction.h"
#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "catalog/table_bucket.h"
#include "floe_api.h"
#include "table_bucket_encryption.h"

#define DEFAULT_PAGE_SIZE 1000

/* AWS's defaults for unreferenced file removal, which is enabled on every new bucket (rules.h). */
#define DEFAULT_UNREFERENCED_DAYS FLOE_RULES_DEFAULT_UNREFERENCED_DAYS
#define DEFAULT_NON_CURRENT_DAYS FLOE_RULES_DEFAULT_NON_CURRENT_DAYS

/* Stores the bucket's row; *id is its row id. ConflictException if the name is taken. */
static int insert_bucket(floe_call_t *call, const char *name, int64_t *id)
{
    switch (floe_table_bucket_create(call, name, id)) {
    case FLOE_OK:
        return FLOE_OK;
    case FLOE_EEXISTS:
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_BUCKET,
                         "The bucket that you tried to create already exists, and you own it.");
    default:
        return FLOE_EFAIL;
    }
}

/* The settings CreateTableBucket may carry, stored by the operations that own them, in the
 * transaction that creates the bucket: a refused setting creates no bucket. */
static int configure_new_bucket(floe_call_t *call, const floe_CreateTableBucketRequest *in, int64_t id)
{
    if (in->encryptionConfiguration != NULL) {
        floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, id};
        if (floe_encryption_write(call, &bucket, in->encryptionConfiguration))
            return FLOE_EFAIL;
    }
    if (in->storageClassConfiguration != NULL &&
        floe_bucket_storage_class_write(call, id, in->storageClassConfiguration->storageClass))
        return FLOE_EFAIL;
    if (in->tags != NULL) {
        floe_resource_t resource = {FLOE_RESOURCE_TABLE_BUCKET, id};
        if (floe_rules_tags_add(call, &resource, in->tags))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* The bucket and the settings CreateTableBucket gives it, in one transaction: a refused setting
 * leaves no bucket behind. */
static int create_bucket(floe_call_t *call, void *arg)
{
    const floe_CreateTableBucketRequest *in = arg;
    int64_t id = 0;

    if (insert_bucket(call, in->name, &id))
        return FLOE_EFAIL;
    return configure_new_bucket(call, in, id);
}

int floe_handle_CreateTableBucket(floe_call_t *call, const floe_CreateTableBucketRequest *in,
                                  floe_CreateTableBucketResponse *out)
{
    if (!floe_bucket_name_is_valid(in->name, FLOE_BUCKET_NAME_TABLE))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET, "The specified bucket name is not valid.");
    if (floe_call_in_transaction(call, create_bucket, (void *)in))
        return FLOE_EFAIL;
    out->arn = floe_arn_table_bucket(call, in->name);
    return FLOE_OK;
}

int floe_handle_GetTableBucket(floe_call_t *call, const floe_GetTableBucketRequest *in,
                               floe_GetTableBucketResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    out->arn = bucket.arn;
    out->name = bucket.name;
    out->ownerAccountId = floe_call_account(call);
    out->createdAt = bucket.created_at;
    out->has_createdAt = true;
    out->tableBucketId = bucket.bucket_id;
    out->type = floe_TableBucketType_from_string(bucket.type);
    return FLOE_OK;
}

/* A listed bucket as ListTableBuckets shows it. */
static void bucket_summary(floe_call_t *call, const floe_bucket_row_t *b, floe_TableBucketSummary *s)
{
    s->name = b->name;
    s->arn = b->arn;
    s->ownerAccountId = floe_call_account(call);
    s->createdAt = b->created_at;
    s->has_createdAt = true;
    s->tableBucketId = b->bucket_id;
    s->type = floe_TableBucketType_from_string(b->type);
}

/* The type filter's wire value; NULL for none. */
static const char *list_type(const floe_ListTableBucketsRequest *in)
{
    return in->type != 0 ? floe_TableBucketType_values[in->type] : NULL;
}

int floe_handle_ListTableBuckets(floe_call_t *call, const floe_ListTableBucketsRequest *in,
                                 floe_ListTableBucketsResponse *out)
{
    int page_size = in->has_maxBuckets ? in->maxBuckets : DEFAULT_PAGE_SIZE;
    floe_table_bucket_page_t page;

    switch (floe_table_bucket_list(call, in->prefix, list_type(in), in->continuationToken, page_size, &page)) {
    case FLOE_OK:
        break;
    case FLOE_EINVAL:
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "The continuation token is not valid.");
    default:
        return FLOE_EFAIL;
    }
    out->tableBuckets = floe_TableBucketSummaryList_new(call, page.n);
    for (size_t i = 0; i < page.n; i++)
        bucket_summary(call, &page.items[i], &out->tableBuckets->items[i]);
    out->continuationToken = page.continuation_token;
    return FLOE_OK;
}

/* A bucket that still has a namespace is not deleted; its settings and tags go with it. */
int floe_handle_DeleteTableBucket(floe_call_t *call, const floe_DeleteTableBucketRequest *in, floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    switch (floe_table_bucket_delete(call, bucket.id)) {
    case FLOE_OK:
        return FLOE_OK;
    case FLOE_EINUSE:
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_BUCKET, "The bucket that you tried to delete is not empty.");
    default:
        return FLOE_EFAIL;
    }
}

/* ---- storage class ---- */

int floe_bucket_storage_class_read(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out)
{
    /* "If not specified, the service default storage class will be used." (rules.h) */
    return floe_rules_bucket_storage_class(call, bucket_id, out);
}

int floe_bucket_storage_class_write(floe_call_t *call, int64_t bucket_id, floe_StorageClass storage_class)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};

    return floe_settings_storage_class_put(call, &bucket, storage_class);
}

int floe_handle_PutTableBucketStorageClass(floe_call_t *call, const floe_PutTableBucketStorageClassRequest *in,
                                           floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_bucket_storage_class_write(call, bucket.id, in->storageClassConfiguration->storageClass);
}

int floe_handle_GetTableBucketStorageClass(floe_call_t *call, const floe_GetTableBucketStorageClassRequest *in,
                                           floe_GetTableBucketStorageClassResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    out->storageClassConfiguration = floe_StorageClassConfiguration_new(call);
    return floe_bucket_storage_class_read(call, bucket.id, &out->storageClassConfiguration->storageClass);
}

/* ---- metrics configuration ---- */

/* Putting the configuration again keeps its id: the operation is idempotent. */
int floe_handle_PutTableBucketMetricsConfiguration(floe_call_t *call,
                                                   const floe_PutTableBucketMetricsConfigurationRequest *in,
                                                   floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_settings_bucket_metrics_put(call, bucket.id);
}

int floe_handle_GetTableBucketMetricsConfiguration(floe_call_t *call,
                                                   const floe_GetTableBucketMetricsConfigurationRequest *in,
                                                   floe_GetTableBucketMetricsConfigurationResponse *out)
{
    floe_bucket_row_t bucket;
    char *configuration_id;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_settings_bucket_metrics_get(call, bucket.id, &configuration_id))
        return FLOE_EFAIL;
    if (configuration_id == NULL)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_BUCKET,
                         "The specified metrics configuration does not exist.");
    out->tableBucketARN = bucket.arn;
    out->id = configuration_id;
    return FLOE_OK;
}

/* Deleting a configuration that is not there succeeds: the bucket ends up without one either way. */
int floe_handle_DeleteTableBucketMetricsConfiguration(floe_call_t *call,
                                                      const floe_DeleteTableBucketMetricsConfigurationRequest *in,
                                                      floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_settings_bucket_metrics_delete(call, bucket.id);
}

/* ---- maintenance configuration ---- */

/* AWS: the settings of a maintenance configuration are those of its type (PUT .../maintenance/{type}).
 * The model cannot tie the union member to the path label, so the handler does. */
static bool maintenance_settings_match_type(floe_TableBucketMaintenanceType type,
                                            const floe_TableBucketMaintenanceSettings *settings)
{
    return settings == NULL || (type == FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL &&
                                settings->tag == FLOE_TableBucketMaintenanceSettings_TAG_icebergUnreferencedFileRemoval);
}

/* A Put replaces the whole value: what it leaves out takes AWS's default, as on a new bucket. The
 * ranges AWS documents (at least 1 day each) are the model's PositiveInteger, checked before. */
static floe_bucket_maintenance_t maintenance_to_store(const floe_TableBucketMaintenanceConfigurationValue *in)
{
    const floe_IcebergUnreferencedFileRemovalSettings *removal =
        in->settings != NULL ? in->settings->icebergUnreferencedFileRemoval : NULL;
    floe_bucket_maintenance_t value = {
        .status = in->status != 0 ? in->status : FLOE_MaintenanceStatus_ENABLED,
        .unreferenced_days =
            removal != NULL && removal->has_unreferencedDays ? removal->unreferencedDays : DEFAULT_UNREFERENCED_DAYS,
        .non_current_days =
            removal != NULL && removal->has_nonCurrentDays ? removal->nonCurrentDays : DEFAULT_NON_CURRENT_DAYS,
    };
    return value;
}

int floe_handle_PutTableBucketMaintenanceConfiguration(floe_call_t *call,
                                                       const floe_PutTableBucketMaintenanceConfigurationRequest *in,
                                                       floe_Unit *out)
{
    floe_bucket_maintenance_t value;
    floe_bucket_row_t bucket;
    (void)out;

    if (!maintenance_settings_match_type(in->type, in->value->settings))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET, "The settings do not match the maintenance type %s.",
                         floe_TableBucketMaintenanceType_values[in->type]);
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    value = maintenance_to_store(in->value);
    return floe_settings_bucket_maintenance_put(call, bucket.id, in->type, &value);
}

/* One type's configuration as the API shows it. Unreferenced file removal is the only bucket-level
 * type; its settings are the union member of the same name. */
static floe_TableBucketMaintenanceConfigurationValue *maintenance_value(floe_call_t *call,
                                                                        const floe_bucket_maintenance_t *stored)
{
    floe_TableBucketMaintenanceConfigurationValue *value = floe_TableBucketMaintenanceConfigurationValue_new(call);
    floe_IcebergUnreferencedFileRemovalSettings *removal = floe_IcebergUnreferencedFileRemovalSettings_new(call);

    removal->unreferencedDays = stored->unreferenced_days;
    removal->has_unreferencedDays = true;
    removal->nonCurrentDays = stored->non_current_days;
    removal->has_nonCurrentDays = true;
    value->status = stored->status;
    value->settings = floe_TableBucketMaintenanceSettings_new(call);
    value->settings->tag = FLOE_TableBucketMaintenanceSettings_TAG_icebergUnreferencedFileRemoval;
    value->settings->icebergUnreferencedFileRemoval = removal;
    return value;
}

/* The configuration of one maintenance type: the stored one, or AWS's default. */
static int read_maintenance(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                            floe_bucket_maintenance_t *out)
{
    static const floe_bucket_maintenance_t aws_default = {
        FLOE_MaintenanceStatus_ENABLED, DEFAULT_UNREFERENCED_DAYS, DEFAULT_NON_CURRENT_DAYS};

    if (floe_settings_bucket_maintenance_get(call, bucket_id, type, out))
        return FLOE_EFAIL;
    if (out->status == 0)
        *out = aws_default;
    return FLOE_OK;
}

int floe_bucket_maintenance_status_read(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                       floe_MaintenanceStatus *out)
{
    floe_bucket_maintenance_t value;

    if (read_maintenance(call, bucket_id, type, &value))
        return FLOE_EFAIL;
    *out = value.status;
    return FLOE_OK;
}

/* Every bucket-level maintenance type is listed, configured or not, as AWS lists its defaults. */
int floe_handle_GetTableBucketMaintenanceConfiguration(floe_call_t *call,
                                                       const floe_GetTableBucketMaintenanceConfigurationRequest *in,
                                                       floe_GetTableBucketMaintenanceConfigurationResponse *out)
{
    floe_TableBucketMaintenanceConfiguration *config =
        floe_TableBucketMaintenanceConfiguration_new(call, FLOE_TableBucketMaintenanceType__COUNT);
    floe_bucket_maintenance_t stored;
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    for (size_t i = 0; i < config->n; i++) {
        config->keys[i] = (floe_TableBucketMaintenanceType)(i + 1);
        if (read_maintenance(call, bucket.id, config->keys[i], &stored))
            return FLOE_EFAIL;
        config->values[i] = *maintenance_value(call, &stored);
    }
    out->tableBucketARN = bucket.arn;
    out->configuration = config;
    return FLOE_OK;
}
