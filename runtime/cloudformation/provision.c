/*
 * The provisioning of provision.h: the table of resource types (which properties replace a
 * resource, which name it), the dispatch to each type's file, the property helpers they share
 * (provision_props.h), and the two small types: the resource policies and AWS::CDK::Metadata.
 *
 * The checks a request would pass before reaching an S3 Tables handler (the model's lengths and
 * patterns) are run here with the model's own validators, so a template meets the API's limits
 * and messages: CloudFormation is a second front door to the same operations.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "base/ids.h"
#include "call/transaction.h"
#include "catalog/lookup.h"
#include "catalog/policy.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "catalog/tags.h"
#include "cloudformation/provision.h"
#include "cloudformation/provision_props.h"
#include "floe_codec.h"

#define TYPE_TABLE_BUCKET "AWS::S3Tables::TableBucket"
#define TYPE_NAMESPACE "AWS::S3Tables::Namespace"
#define TYPE_TABLE "AWS::S3Tables::Table"
#define TYPE_TABLE_BUCKET_POLICY "AWS::S3Tables::TableBucketPolicy"
#define TYPE_TABLE_POLICY "AWS::S3Tables::TablePolicy"
#define TYPE_CDK_METADATA "AWS::CDK::Metadata"

#define POLICY_REASON_MAX 160
/* TagResource: keys of 1 to 128 and values of 0 to 256 characters
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_TagResource.html). */
#define TAG_KEY_MAX 128
#define TAG_VALUE_MAX 256
#define STATUS_ENABLED "Enabled"
#define STATUS_DISABLED "Disabled"

/* One resource type. The replacing properties are those with causesReplacement "yes" in
 * models/cloudformation/s3tables-resource-types.json (a unit test holds the two together); the
 * naming properties are those a second resource could not share with the first. */
typedef struct resource_kind {
    const char *type;
    const char *const *replacing;  /* NULL-terminated */
    const char *const *naming;     /* NULL-terminated */
    int (*create)(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink);
    int (*update)(floe_call_t *call, const char *physical_id, const cJSON *old_props, const cJSON *new_props,
                  const floe_provision_sink_t *sink);
    int (*remove)(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink);
    bool is_iam; /* create, update and remove are floe_provision_iam's (provision_iam.c) */
} resource_kind_t;

/* ---- property helpers (provision_props.h) ---- */

static int fail_property(floe_call_t *call, const char *name, const char *expected)
{
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s must be %s.", name, expected);
}

int floe_provision_string(floe_call_t *call, const cJSON *props, const char *name, bool is_required, const char **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(props, name);

    *out = NULL;
    if (item == NULL || cJSON_IsNull(item))
        return is_required ? floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                                       "Property %s is required.", name) : FLOE_OK;
    if (!cJSON_IsString(item))
        return fail_property(call, name, "a string");
    *out = item->valuestring;
    return FLOE_OK;
}

int floe_provision_object(floe_call_t *call, const cJSON *props, const char *name, const cJSON **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(props, name);

    *out = NULL;
    if (item == NULL || cJSON_IsNull(item))
        return FLOE_OK;
    if (!cJSON_IsObject(item))
        return fail_property(call, name, "an object");
    *out = item;
    return FLOE_OK;
}

int floe_provision_int(floe_call_t *call, const cJSON *props, const char *name, bool *has, int32_t *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(props, name);
    double v;

    *has = false;
    if (item == NULL || cJSON_IsNull(item))
        return FLOE_OK;
    if (!cJSON_IsNumber(item))
        return fail_property(call, name, "an integer");
    v = item->valuedouble;
    if (v < INT32_MIN || v > INT32_MAX || v != (double)(int32_t)v)
        return fail_property(call, name, "an integer");
    *has = true;
    *out = (int32_t)v;
    return FLOE_OK;
}

bool floe_provision_changed(const cJSON *old_props, const cJSON *new_props, const char *name)
{
    const cJSON *a = old_props != NULL ? cJSON_GetObjectItemCaseSensitive(old_props, name) : NULL;
    const cJSON *b = new_props != NULL ? cJSON_GetObjectItemCaseSensitive(new_props, name) : NULL;

    if (a == NULL || b == NULL)
        return a != b;
    return !cJSON_Compare(a, b, true);
}

int floe_provision_status(floe_call_t *call, const cJSON *config, const char *config_name, floe_MaintenanceStatus *out)
{
    const char *status;

    if (floe_provision_string(call, config, "Status", false, &status))
        return FLOE_EFAIL;
    if (status == NULL || strcasecmp(status, STATUS_ENABLED) == 0)
        *out = FLOE_MaintenanceStatus_ENABLED;
    else if (strcasecmp(status, STATUS_DISABLED) == 0)
        *out = FLOE_MaintenanceStatus_DISABLED;
    else
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s.Status must be Enabled or Disabled.",
                         config_name);
    return FLOE_OK;
}

/* Runs one of the model's validators (floe_codec.h) on a value the API would take as `member`. */
static int check_model(floe_call_t *call, int (*validate)(const char *, const floe_path_t *, floe_violation_t *),
                       const char *value, const char *member)
{
    floe_path_t path = {NULL, member, -1};
    floe_violation_t v;

    if (validate(value, &path, &v) == 0)
        return FLOE_OK;
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", v.message);
}

int floe_provision_check_namespace_name(floe_call_t *call, const char *name)
{
    if (check_model(call, floe_validate_NamespaceName, name, "namespace"))
        return FLOE_EFAIL;
    if (!floe_rules_namespace_name_is_allowed(name))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_NAMESPACE, FLOE_RULES_MESSAGE_NAMESPACE_NAME);
    return FLOE_OK;
}

int floe_provision_check_table_name(floe_call_t *call, const char *name)
{
    if (check_model(call, floe_validate_TableName, name, "name"))
        return FLOE_EFAIL;
    if (!floe_rules_table_name_is_allowed(name))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE, FLOE_RULES_MESSAGE_TABLE_NAME);
    return FLOE_OK;
}

int floe_provision_check_policy(floe_call_t *call, const char *document)
{
    char why[POLICY_REASON_MAX];

    if (check_model(call, floe_validate_ResourcePolicy, document, "resourcePolicy"))
        return FLOE_EFAIL;
    if (floe_policy_check(document, why, sizeof(why)))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", why);
    return FLOE_OK;
}

/* A tag key's or value's length, counted in code points as the model counts it. (TagKey and
 * TagValue came with a later model than some Floe builds against, so their generated validators
 * may not exist: the limits are AWS's documented ones.) */
static int check_length(floe_call_t *call, const char *value, size_t min, size_t max, const char *member)
{
    size_t n = floe_codec_utf8_length(value);

    if (n < min)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must "
                         "have length greater than or equal to %zu",
                         value, member, min);
    if (n > max)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must "
                         "have length less than or equal to %zu",
                         value, member, max);
    return FLOE_OK;
}

/* One {Key, Value} of a Tags list into tags->keys[i], tags->values[i]. */
static int read_tag(floe_call_t *call, const cJSON *item, floe_Tags *tags, size_t i)
{
    const char *key, *value;

    if (!cJSON_IsObject(item))
        return fail_property(call, "Tags", "a list of {Key, Value}");
    if (floe_provision_string(call, item, "Key", true, &key) || floe_provision_string(call, item, "Value", true, &value))
        return FLOE_EFAIL;
    if (check_length(call, key, 1, TAG_KEY_MAX, "tags.key") || check_length(call, value, 0, TAG_VALUE_MAX, "tags.value"))
        return FLOE_EFAIL;
    tags->keys[i] = floe_call_strdup(call, key);
    tags->values[i] = floe_call_strdup(call, value);
    return FLOE_OK;
}

int floe_provision_tags(floe_call_t *call, const cJSON *props, floe_Tags **out)
{
    const cJSON *list = props != NULL ? cJSON_GetObjectItemCaseSensitive(props, "Tags") : NULL;
    floe_Tags *tags;
    size_t i = 0;
    const cJSON *item;

    if (list != NULL && !cJSON_IsNull(list) && !cJSON_IsArray(list))
        return fail_property(call, "Tags", "a list of {Key, Value}");
    tags = floe_Tags_new(call, list != NULL ? (size_t)cJSON_GetArraySize(list) : 0);
    cJSON_ArrayForEach(item, list)
    {
        if (read_tag(call, item, tags, i++))
            return FLOE_EFAIL;
    }
    *out = tags;
    return FLOE_OK;
}

static bool has_key(const floe_Tags *tags, const char *key)
{
    for (size_t i = 0; i < tags->n; i++) {
        if (strcmp(tags->keys[i], key) == 0)
            return true;
    }
    return false;
}

int floe_provision_retag(floe_call_t *call, const floe_resource_t *owner, const cJSON *old_props,
                         const cJSON *new_props)
{
    floe_Tags *before, *after;
    floe_TagKeyList *gone;
    size_t n = 0;

    if (floe_provision_tags(call, old_props, &before) || floe_provision_tags(call, new_props, &after))
        return FLOE_EFAIL;
    gone = floe_TagKeyList_new(call, before->n);
    for (size_t i = 0; i < before->n; i++) {
        if (!has_key(after, before->keys[i]))
            gone->items[n++] = before->keys[i];
    }
    gone->n = n;
    if (n > 0 && floe_tags_remove(call, owner, gone))
        return FLOE_EFAIL;
    return after->n > 0 ? floe_rules_tags_add(call, owner, after) : FLOE_OK;
}

int floe_provision_report(floe_call_t *call, const floe_provision_sink_t *sink, const char *physical_id,
                          cJSON *attributes)
{
    floe_provision_outcome_t outcome;
    int rc;

    if (attributes == NULL)
        attributes = cJSON_CreateObject();
    outcome.physical_id = floe_call_strdup(call, physical_id);
    outcome.attributes = attributes;
    rc = sink->record(call, &outcome, sink->arg);
    cJSON_Delete(attributes);
    return rc;
}

void floe_provision_forget_not_found(floe_call_t *call)
{
    if (call->failure.code == FLOE_ENOTFOUND)
        floe_call_clear_failure(call);
}

/* ---- AWS::S3Tables::TableBucketPolicy and AWS::S3Tables::TablePolicy ---- */

/* The ResourcePolicy property: a JSON document, given as an object or as its text. */
static int policy_document(floe_call_t *call, const cJSON *props, const char **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(props, "ResourcePolicy");
    char *text;

    if (item == NULL || cJSON_IsNull(item))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_POLICY, "Property ResourcePolicy is required.");
    if (cJSON_IsString(item)) {
        *out = item->valuestring;
        return FLOE_OK;
    }
    if (!cJSON_IsObject(item))
        return fail_property(call, "ResourcePolicy", "a JSON object or its text");
    text = floe_call_keep(call, cJSON_PrintUnformatted(item));
    *out = text;
    return FLOE_OK;
}

typedef struct policy_args {
    const cJSON *props;
    const char *physical_id; /* a delete's; NULL for a create or update */
    bool is_table;
    const floe_provision_sink_t *sink;
} policy_args_t;

/* The owner a policy resource names: its TableBucketARN or TableARN property (or, for a delete,
 * its physical id, which is that ARN). Fills the table row for a table's. */
static int policy_owner(floe_call_t *call, const policy_args_t *a, const char *arn, floe_resource_t *owner,
                        floe_table_row_t *table)
{
    floe_bucket_row_t bucket;

    if (a->is_table) {
        if (floe_lookup_table_by_arn(call, arn, table))
            return FLOE_EFAIL;
        *owner = (floe_resource_t){FLOE_RESOURCE_TABLE, table->id};
        return FLOE_OK;
    }
    if (floe_lookup_bucket(call, arn, &bucket))
        return FLOE_EFAIL;
    *owner = (floe_resource_t){FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    return FLOE_OK;
}

/* A table policy's attributes: the names of the table it is on. */
static cJSON *table_policy_attributes(const floe_table_row_t *t)
{
    cJSON *attrs = cJSON_CreateObject();
    cJSON_AddStringToObject(attrs, "TableARN", t->arn);
    cJSON_AddStringToObject(attrs, "TableBucketARN", t->bucket.arn);
    cJSON_AddStringToObject(attrs, "Namespace", t->ns.name);
    cJSON_AddStringToObject(attrs, "TableName", t->name);
    return attrs;
}

/* The body of a policy's create or update (PutTableBucketPolicy / PutTablePolicy), in one
 * transaction with its record. */
static int put_policy(floe_call_t *call, void *arg)
{
    const policy_args_t *a = arg;
    const char *arn = NULL, *document = NULL;
    floe_resource_t owner;
    floe_table_row_t table;

    if (floe_provision_string(call, a->props, a->is_table ? "TableARN" : "TableBucketARN", true, &arn) ||
        policy_document(call, a->props, &document) || policy_owner(call, a, arn, &owner, &table) ||
        floe_provision_check_policy(call, document) || floe_settings_policy_put(call, &owner, document))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, arn, a->is_table ? table_policy_attributes(&table) : NULL);
}

/* DeleteTableBucketPolicy / DeleteTablePolicy: an owner already gone took its policy with it. */
static int delete_policy(floe_call_t *call, void *arg)
{
    const policy_args_t *a = arg;
    floe_resource_t owner;
    floe_table_row_t table;

    if (policy_owner(call, a, a->physical_id, &owner, &table)) {
        if (call->failure.code != FLOE_ENOTFOUND)
            return FLOE_EFAIL;
        floe_provision_forget_not_found(call);
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    }
    if (floe_settings_policy_delete(call, &owner))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

static int bucket_policy_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    policy_args_t a = {props, NULL, false, sink};
    return floe_call_in_transaction(call, put_policy, &a);
}

static int bucket_policy_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                                const cJSON *new_props, const floe_provision_sink_t *sink)
{
    policy_args_t a = {new_props, NULL, false, sink};
    (void)physical_id;
    (void)old_props;
    return floe_call_in_transaction(call, put_policy, &a);
}

static int bucket_policy_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    policy_args_t a = {NULL, physical_id, false, sink};
    return floe_call_in_transaction(call, delete_policy, &a);
}

static int table_policy_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    policy_args_t a = {props, NULL, true, sink};
    return floe_call_in_transaction(call, put_policy, &a);
}

static int table_policy_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                               const cJSON *new_props, const floe_provision_sink_t *sink)
{
    policy_args_t a = {new_props, NULL, true, sink};
    (void)physical_id;
    (void)old_props;
    return floe_call_in_transaction(call, put_policy, &a);
}

static int table_policy_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    policy_args_t a = {NULL, physical_id, true, sink};
    return floe_call_in_transaction(call, delete_policy, &a);
}

/* ---- AWS::CDK::Metadata: accepted, and nothing is made ---- */

typedef struct report_args {
    const char *physical_id;
    const floe_provision_sink_t *sink;
} report_args_t;

/* A change that changes nothing but the stack's record of the resource. */
static int report_only(floe_call_t *call, void *arg)
{
    const report_args_t *a = arg;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

static int metadata_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    char id[FLOE_UUID_LEN + 1];
    report_args_t a = {id, sink};
    (void)props;

    floe_uuid_v4(id);
    return floe_call_in_transaction(call, report_only, &a);
}

static int metadata_update(floe_call_t *call, const char *physical_id, const cJSON *old_props, const cJSON *new_props,
                           const floe_provision_sink_t *sink)
{
    report_args_t a = {physical_id, sink};
    (void)old_props;
    (void)new_props;
    return floe_call_in_transaction(call, report_only, &a);
}

static int metadata_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    report_args_t a = {physical_id, sink};
    return floe_call_in_transaction(call, report_only, &a);
}

/* ---- the table of types ---- */

static const char *const bucket_replacing[] = {"TableBucketName", NULL};
static const char *const bucket_naming[] = {"TableBucketName", NULL};
static const char *const namespace_replacing[] = {"Namespace", "TableBucketARN", NULL};
static const char *const namespace_naming[] = {"Namespace", "TableBucketARN", NULL};
static const char *const table_replacing[] = {"IcebergMetadata", "OpenTableFormat", "StorageClassConfiguration",
                                              "TableBucketARN", "WithoutMetadata", NULL};
static const char *const table_naming[] = {"TableName", "Namespace", "TableBucketARN", NULL};
static const char *const bucket_policy_replacing[] = {"TableBucketARN", NULL};
static const char *const table_policy_replacing[] = {"TableARN", NULL};
static const char *const nothing[] = {NULL};
static const char *const role_replacing[] = {"Path", "RoleName", NULL};
static const char *const role_naming[] = {"RoleName", NULL};
static const char *const user_replacing[] = {"UserName", NULL};
static const char *const user_naming[] = {"UserName", NULL};
static const char *const managed_policy_replacing[] = {"Description", "ManagedPolicyName", "Path", NULL};
static const char *const managed_policy_naming[] = {"ManagedPolicyName", NULL};
static const char *const access_key_replacing[] = {"Serial", "UserName", NULL};
static const char *const role_policy_replacing[] = {"PolicyName", "RoleName", NULL};
static const char *const user_policy_replacing[] = {"PolicyName", "UserName", NULL};

static int namespace_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                            const cJSON *new_props, const floe_provision_sink_t *sink)
{
    /* Both of a namespace's properties replace it: nothing can change in place. */
    report_args_t a = {physical_id, sink};
    (void)old_props;
    (void)new_props;
    return floe_call_in_transaction(call, report_only, &a);
}

static const resource_kind_t kinds[] = {
    {TYPE_TABLE_BUCKET, bucket_replacing, bucket_naming, floe_provision_bucket_create, floe_provision_bucket_update,
     floe_provision_bucket_delete, false},
    {TYPE_NAMESPACE, namespace_replacing, namespace_naming, floe_provision_namespace_create, namespace_update,
     floe_provision_namespace_delete, false},
    {TYPE_TABLE, table_replacing, table_naming, floe_provision_table_create, floe_provision_table_update,
     floe_provision_table_delete, false},
    {TYPE_TABLE_BUCKET_POLICY, bucket_policy_replacing, nothing, bucket_policy_create, bucket_policy_update,
     bucket_policy_delete, false},
    {TYPE_TABLE_POLICY, table_policy_replacing, nothing, table_policy_create, table_policy_update,
     table_policy_delete, false},
    {TYPE_CDK_METADATA, nothing, nothing, metadata_create, metadata_update, metadata_delete, false},
    /* the AWS::IAM types: replacing properties as the model's causesReplacement says */
    {"AWS::IAM::Role", role_replacing, role_naming, NULL, NULL, NULL, true},
    {"AWS::IAM::User", user_replacing, user_naming, NULL, NULL, NULL, true},
    {"AWS::IAM::ManagedPolicy", managed_policy_replacing, managed_policy_naming, NULL, NULL, NULL, true},
    {"AWS::IAM::Policy", nothing, nothing, NULL, NULL, NULL, true},
    {"AWS::IAM::AccessKey", access_key_replacing, nothing, NULL, NULL, NULL, true},
    {"AWS::IAM::RolePolicy", role_policy_replacing, role_policy_replacing, NULL, NULL, NULL, true},
    {"AWS::IAM::UserPolicy", user_policy_replacing, user_policy_replacing, NULL, NULL, NULL, true},
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static const resource_kind_t *kind_of(const char *type)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (strcmp(kinds[i].type, type) == 0)
            return &kinds[i];
    }
    return NULL;
}

static bool is_listed(const char *const *names, const char *name)
{
    for (size_t i = 0; names[i] != NULL; i++) {
        if (strcmp(names[i], name) == 0)
            return true;
    }
    return false;
}

bool floe_provision_type_is_known(const char *type)
{
    return kind_of(type) != NULL;
}

/* The types whose resource schema names a tag property (tagInformation in
 * models/cloudformation/s3tables-resource-types.json and iam-resource-types.json): TableBucket,
 * Table, IAM's Role and User, all "Tags" (IAM's are accepted and not kept). */
bool floe_provision_takes_tags(const char *type)
{
    return strcmp(type, TYPE_TABLE_BUCKET) == 0 || strcmp(type, TYPE_TABLE) == 0 ||
           strcmp(type, "AWS::IAM::Role") == 0 || strcmp(type, "AWS::IAM::User") == 0;
}

bool floe_provision_causes_replacement(const char *type, const char *property)
{
    const resource_kind_t *kind = kind_of(type);
    /* AWS::CDK::Metadata's properties (Analytics, ...) change nothing. */
    if (kind != NULL && kind->replacing == nothing)
        return false;
    return kind == NULL || is_listed(kind->replacing, property);
}

bool floe_provision_member_differs(const cJSON *old_props, const cJSON *new_props, const char *name)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(old_props, name);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(new_props, name);

    if (a == NULL || b == NULL)
        return a != b;
    return !cJSON_Compare(a, b, true);
}

bool floe_provision_keeps_name(const char *type, const cJSON *old_props, const cJSON *new_props)
{
    const resource_kind_t *kind = kind_of(type);

    if (kind == NULL || kind->naming[0] == NULL)
        return false;
    for (size_t i = 0; kind->naming[i] != NULL; i++) {
        if (floe_provision_changed(old_props, new_props, kind->naming[i]))
            return false;
    }
    return true;
}

const char *floe_provision_name(const char *type, const cJSON *props)
{
    const resource_kind_t *kind = kind_of(type);

    if (kind == NULL || kind->naming[0] == NULL)
        return NULL;
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(props, kind->naming[0]));
}

static int fail_unknown_type(floe_call_t *call, const char *type)
{
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Resource type %s is not supported.", type);
}

int floe_provision_create(floe_call_t *call, const char *type, const cJSON *props, floe_provision_record_fn record,
                          void *arg)
{
    const resource_kind_t *kind = kind_of(type);
    floe_provision_sink_t sink = {record, arg};
    cJSON *empty = NULL;
    int rc;

    if (kind == NULL)
        return fail_unknown_type(call, type);
    if (props == NULL)
        props = empty = cJSON_CreateObject();
    rc = kind->is_iam ? floe_provision_iam(call, FLOE_PROVISION_IAM_CREATE, type, NULL, NULL, props, &sink)
                      : kind->create(call, props, &sink);
    cJSON_Delete(empty);
    return rc;
}

int floe_provision_update(floe_call_t *call, const char *type, const char *physical_id, const cJSON *old_props,
                          const cJSON *new_props, floe_provision_record_fn record, void *arg)
{
    const resource_kind_t *kind = kind_of(type);
    floe_provision_sink_t sink = {record, arg};

    if (kind == NULL)
        return fail_unknown_type(call, type);
    if (kind->is_iam)
        return floe_provision_iam(call, FLOE_PROVISION_IAM_UPDATE, type, physical_id, old_props, new_props, &sink);
    return kind->update(call, physical_id, old_props, new_props, &sink);
}

int floe_provision_delete(floe_call_t *call, const char *type, const char *physical_id, const cJSON *props,
                          floe_provision_record_fn record, void *arg)
{
    const resource_kind_t *kind = kind_of(type);
    floe_provision_sink_t sink = {record, arg};

    if (kind == NULL)
        return fail_unknown_type(call, type);
    if (kind->is_iam)
        return floe_provision_iam(call, FLOE_PROVISION_IAM_DELETE, type, physical_id, props, NULL, &sink);
    return kind->remove(call, physical_id, &sink);
}
