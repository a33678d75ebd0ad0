/*
 * AWS::S3Tables::Table (provision.h), made as CreateTable makes a table: the catalog's draft,
 * first metadata (from IcebergMetadata, through catalog/iceberg_create.h) and insert, with the
 * encryption inherited from the bucket, the storage class, the tags and the maintenance settings
 * (Compaction, SnapshotManagement) in the insert's transaction, together with the stack's record.
 * In place: TableName and Namespace by RenameTable (the ARN stays), maintenance as
 * PutTableMaintenanceConfiguration and tags as Tag/UntagResource, in one transaction. Deleted as
 * DeleteTable deletes it.
 */
#include <stdlib.h>
#include <string.h>

#include "call/transaction.h"
#include "catalog/arn.h"
#include "catalog/iceberg_create.h"
#include "catalog/lookup.h"
#include "catalog/maintenance.h"
#include "catalog/rules.h"
#include "catalog/table.h"
#include "cloudformation/provision_props.h"

#define FORMAT_ICEBERG "ICEBERG"
#define WITHOUT_METADATA_YES "Yes"
#define WHY_MAX 256

/* AWS's messages (catalog/table_rules.h). */
#define MESSAGE_TABLE_EXISTS "A table with an identical name already exists in the namespace."
#define MESSAGE_NO_DESTINATION "The specified destination namespace does not exist."

/* ---- IcebergMetadata into the API's floe_IcebergMetadata ---- */

static int fail_metadata(floe_call_t *call, const char *what)
{
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property IcebergMetadata.%s is not valid.", what);
}

/* An integer member of a list item; `is_required` ones must be there. */
static int item_int(floe_call_t *call, const cJSON *item, const char *name, bool is_required, bool *has, int32_t *out)
{
    if (floe_provision_int(call, item, name, has, out))
        return FLOE_EFAIL;
    return is_required && !*has ? fail_metadata(call, name) : FLOE_OK;
}

static int read_schema(floe_call_t *call, const cJSON *in, floe_IcebergSchema **out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(in, "SchemaFieldList"), *item;
    floe_IcebergSchema *schema = floe_IcebergSchema_new(call);
    size_t i = 0;

    if (!cJSON_IsArray(list))
        return fail_metadata(call, "IcebergSchema.SchemaFieldList");
    schema->fields = floe_SchemaFieldList_new(call, (size_t)cJSON_GetArraySize(list));
    cJSON_ArrayForEach(item, list)
    {
        floe_SchemaField *f = &schema->fields->items[i++];
        const cJSON *required = cJSON_GetObjectItemCaseSensitive(item, "Required");
        const char *name, *type;
        if (item_int(call, item, "Id", false, &f->has_id, &f->id) ||
            floe_provision_string(call, item, "Name", true, &name) ||
            floe_provision_string(call, item, "Type", true, &type))
            return FLOE_EFAIL;
        f->name = floe_call_strdup(call, name);
        f->type = floe_call_strdup(call, type);
        f->required = cJSON_IsTrue(required);
    }
    *out = schema;
    return FLOE_OK;
}

/* A SchemaV2Field's Type is a type name or a nested type object; the API takes it as JSON text. */
static char *v2_type_text(floe_call_t *call, const cJSON *type)
{
    if (cJSON_IsString(type) || cJSON_IsObject(type))
        return floe_call_keep(call, cJSON_PrintUnformatted(type));
    return NULL;
}

static int read_schema_v2(floe_call_t *call, const cJSON *in, floe_IcebergSchemaV2 **out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(in, "SchemaV2FieldList"), *item;
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(in, "IdentifierFieldIds");
    floe_IcebergSchemaV2 *schema = floe_IcebergSchemaV2_new(call);
    size_t i = 0;

    if (!cJSON_IsArray(list))
        return fail_metadata(call, "IcebergSchemaV2.SchemaV2FieldList");
    schema->type = FLOE_SchemaV2FieldType_STRUCT;
    if (item_int(call, in, "SchemaId", false, &schema->has_schemaId, &schema->schemaId))
        return FLOE_EFAIL;
    schema->fields = floe_SchemaV2FieldList_new(call, (size_t)cJSON_GetArraySize(list));
    cJSON_ArrayForEach(item, list)
    {
        floe_SchemaV2Field *f = &schema->fields->items[i++];
        const char *name, *doc;
        if (item_int(call, item, "Id", true, &f->has_id, &f->id) ||
            floe_provision_string(call, item, "Name", true, &name) ||
            floe_provision_string(call, item, "Doc", false, &doc))
            return FLOE_EFAIL;
        if ((f->type = v2_type_text(call, cJSON_GetObjectItemCaseSensitive(item, "Type"))) == NULL)
            return fail_metadata(call, "IcebergSchemaV2.SchemaV2FieldList.Type");
        f->name = floe_call_strdup(call, name);
        f->doc = floe_call_strdup(call, doc);
        f->required = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "Required"));
        f->has_required = true;
    }
    if (cJSON_IsArray(ids)) {
        const cJSON *id;
        size_t j = 0;
        schema->identifierFieldIds = floe_IntegerList_new(call, (size_t)cJSON_GetArraySize(ids));
        cJSON_ArrayForEach(id, ids) schema->identifierFieldIds->items[j++] = (int32_t)id->valuedouble;
    }
    *out = schema;
    return FLOE_OK;
}

static int read_partition_spec(floe_call_t *call, const cJSON *in, floe_IcebergPartitionSpec **out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(in, "Fields"), *item;
    floe_IcebergPartitionSpec *spec = floe_IcebergPartitionSpec_new(call);
    size_t i = 0;

    if (!cJSON_IsArray(list))
        return fail_metadata(call, "IcebergPartitionSpec.Fields");
    if (item_int(call, in, "SpecId", false, &spec->has_specId, &spec->specId))
        return FLOE_EFAIL;
    spec->fields = floe_IcebergPartitionFieldList_new(call, (size_t)cJSON_GetArraySize(list));
    cJSON_ArrayForEach(item, list)
    {
        floe_IcebergPartitionField *f = &spec->fields->items[i++];
        const char *transform, *name;
        if (item_int(call, item, "SourceId", true, &f->has_sourceId, &f->sourceId) ||
            item_int(call, item, "FieldId", false, &f->has_fieldId, &f->fieldId) ||
            floe_provision_string(call, item, "Transform", true, &transform) ||
            floe_provision_string(call, item, "Name", true, &name))
            return FLOE_EFAIL;
        f->transform = floe_call_strdup(call, transform);
        f->name = floe_call_strdup(call, name);
    }
    *out = spec;
    return FLOE_OK;
}

static int read_sort_order(floe_call_t *call, const cJSON *in, floe_IcebergSortOrder **out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(in, "Fields"), *item;
    floe_IcebergSortOrder *order = floe_IcebergSortOrder_new(call);
    size_t i = 0;

    if (!cJSON_IsArray(list))
        return fail_metadata(call, "IcebergSortOrder.Fields");
    if (item_int(call, in, "OrderId", false, &order->has_orderId, &order->orderId))
        return FLOE_EFAIL;
    order->fields = floe_IcebergSortFieldList_new(call, (size_t)cJSON_GetArraySize(list));
    cJSON_ArrayForEach(item, list)
    {
        floe_IcebergSortField *f = &order->fields->items[i++];
        const char *transform, *direction, *null_order;
        if (item_int(call, item, "SourceId", true, &f->has_sourceId, &f->sourceId) ||
            floe_provision_string(call, item, "Transform", true, &transform) ||
            floe_provision_string(call, item, "Direction", true, &direction) ||
            floe_provision_string(call, item, "NullOrder", true, &null_order))
            return FLOE_EFAIL;
        f->transform = floe_call_strdup(call, transform);
        if ((f->direction = floe_IcebergSortDirection_from_string(direction)) == 0)
            return fail_metadata(call, "IcebergSortOrder.Fields.Direction");
        if ((f->nullOrder = floe_IcebergNullOrder_from_string(null_order)) == 0)
            return fail_metadata(call, "IcebergSortOrder.Fields.NullOrder");
    }
    *out = order;
    return FLOE_OK;
}

static int read_properties(floe_call_t *call, const cJSON *in, floe_TableProperties **out)
{
    const cJSON *item;
    floe_TableProperties *props = floe_TableProperties_new(call, (size_t)cJSON_GetArraySize(in));
    size_t i = 0;

    cJSON_ArrayForEach(item, in)
    {
        if (!cJSON_IsString(item))
            return fail_metadata(call, "TableProperties");
        props->keys[i] = floe_call_strdup(call, item->string);
        props->values[i++] = floe_call_strdup(call, item->valuestring);
    }
    *out = props;
    return FLOE_OK;
}

/* IcebergMetadata {IcebergSchema | IcebergSchemaV2, IcebergPartitionSpec, IcebergSortOrder,
 * TableProperties} as CreateTable's metadata.iceberg, whose shapes it mirrors. */
static int read_metadata(floe_call_t *call, const cJSON *in, floe_IcebergMetadata **out)
{
    floe_IcebergMetadata *m = floe_IcebergMetadata_new(call);
    const cJSON *part;

    if ((part = cJSON_GetObjectItemCaseSensitive(in, "IcebergSchema")) != NULL && read_schema(call, part, &m->schema))
        return FLOE_EFAIL;
    if ((part = cJSON_GetObjectItemCaseSensitive(in, "IcebergSchemaV2")) != NULL &&
        read_schema_v2(call, part, &m->schemaV2))
        return FLOE_EFAIL;
    if ((part = cJSON_GetObjectItemCaseSensitive(in, "IcebergPartitionSpec")) != NULL &&
        read_partition_spec(call, part, &m->partitionSpec))
        return FLOE_EFAIL;
    if ((part = cJSON_GetObjectItemCaseSensitive(in, "IcebergSortOrder")) != NULL &&
        read_sort_order(call, part, &m->writeOrder))
        return FLOE_EFAIL;
    if ((part = cJSON_GetObjectItemCaseSensitive(in, "TableProperties")) != NULL && cJSON_IsObject(part) &&
        read_properties(call, part, &m->properties))
        return FLOE_EFAIL;
    *out = m;
    return FLOE_OK;
}

/* ---- maintenance ---- */

static int fail_maintenance_value(floe_call_t *call, const char *name)
{
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                     "1 validation error detected: Value at '%s' failed to satisfy constraint: Member must have value "
                     "greater than or equal to 1",
                     name);
}

/* A setting the model types PositiveInteger (`member` in the API), kept in *out when given. */
static int read_positive(floe_call_t *call, const cJSON *config, const char *name, const char *member, int32_t *out)
{
    bool has;
    int32_t v;

    if (floe_provision_int(call, config, name, &has, &v))
        return FLOE_EFAIL;
    if (has && v < 1)
        return fail_maintenance_value(call, member);
    if (has)
        *out = v;
    return FLOE_OK;
}

/* Compaction {Status, TargetFileSizeMB} or SnapshotManagement {Status, MinSnapshotsToKeep,
 * MaxSnapshotAgeHours}; what it leaves out takes AWS's default, as a Put does. */
static int read_maintenance(floe_call_t *call, const cJSON *config, floe_TableMaintenanceType type,
                            floe_table_maintenance_t *out)
{
    bool is_compaction = type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION, has;
    int32_t v;

    floe_maintenance_default(type, out);
    if (config == NULL)
        return FLOE_OK;
    if (floe_provision_status(call, config, is_compaction ? "Compaction" : "SnapshotManagement", &out->status))
        return FLOE_EFAIL;
    if (is_compaction) {
        if (floe_provision_int(call, config, "TargetFileSizeMB", &has, &v))
            return FLOE_EFAIL;
        if (has && (v < FLOE_RULES_MIN_TARGET_FILE_SIZE_MB || v > FLOE_RULES_MAX_TARGET_FILE_SIZE_MB))
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "targetFileSizeMB must be between %d and %d.",
                             FLOE_RULES_MIN_TARGET_FILE_SIZE_MB, FLOE_RULES_MAX_TARGET_FILE_SIZE_MB);
        if (has)
            out->target_file_size_mb = v;
        return FLOE_OK;
    }
    if (read_positive(call, config, "MinSnapshotsToKeep", "minSnapshotsToKeep", &out->min_snapshots_to_keep))
        return FLOE_EFAIL;
    return read_positive(call, config, "MaxSnapshotAgeHours", "maxSnapshotAgeHours", &out->max_snapshot_age_hours);
}

/* Writes one maintenance property of a table: on a create only when given (no row is the
 * default), on an update when it changed (a removed one returns to the default). */
static int apply_one_maintenance(floe_call_t *call, int64_t table_id, const cJSON *old_props, const cJSON *props,
                                 const char *name, floe_TableMaintenanceType type)
{
    floe_table_maintenance_t value;
    const cJSON *config;

    if (old_props == NULL ? !cJSON_HasObjectItem(props, name) : !floe_provision_changed(old_props, props, name))
        return FLOE_OK;
    if (floe_provision_object(call, props, name, &config) || read_maintenance(call, config, type, &value))
        return FLOE_EFAIL;
    return floe_maintenance_write(call, table_id, type, &value);
}

static int apply_maintenance(floe_call_t *call, int64_t table_id, const cJSON *old_props, const cJSON *props)
{
    if (apply_one_maintenance(call, table_id, old_props, props, "Compaction",
                              FLOE_TableMaintenanceType_ICEBERG_COMPACTION))
        return FLOE_EFAIL;
    return apply_one_maintenance(call, table_id, old_props, props, "SnapshotManagement",
                                 FLOE_TableMaintenanceType_ICEBERG_SNAPSHOT_MANAGEMENT);
}

static cJSON *table_attributes(const char *arn, const char *warehouse, const char *version_token)
{
    cJSON *attrs = cJSON_CreateObject();
    cJSON_AddStringToObject(attrs, "TableARN", arn);
    cJSON_AddItemToObject(attrs, "WarehouseLocation", cJSON_CreateString(warehouse));
    cJSON_AddStringToObject(attrs, "VersionToken", version_token);
    return attrs;
}

/* ---- create ---- */

typedef struct create_args {
    const cJSON *props;
    const floe_table_draft_t *draft;
    floe_StorageClass storage_class;
    const floe_provision_sink_t *sink;
} create_args_t;

/* What CreateTable sets besides the row, in the row's transaction, and the stack's record. */
static int configure_new_table(floe_call_t *call, int64_t table_id, int64_t bucket_id, const void *ctx)
{
    const create_args_t *a = ctx;
    floe_resource_t table = {FLOE_RESOURCE_TABLE, table_id};
    const floe_table_draft_t *t = a->draft;
    const char *arn = floe_arn_table(call, t->bucket.name, t->table_id);

    if (floe_rules_table_encryption_create(call, table_id, bucket_id, NULL) ||
        floe_rules_table_storage_class_create(call, table_id, bucket_id, a->storage_class) ||
        floe_provision_retag(call, &table, NULL, a->props) || apply_maintenance(call, table_id, NULL, a->props))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, arn,
                                 table_attributes(arn, floe_call_printf(call, "s3://%s", t->warehouse),
                                                  t->version_token));
}

/* The metadata.json text IcebergMetadata asks for (malloc'ed into *json), or *json NULL for a
 * table without metadata (WithoutMetadata: Yes, or no IcebergMetadata). */
static int render_metadata(floe_call_t *call, const cJSON *props, const floe_table_draft_t *t, char **json)
{
    char why[WHY_MAX], *location = floe_call_printf(call, "s3://%s", t->warehouse);
    const char *without;
    const cJSON *config;
    floe_IcebergMetadata *metadata;

    *json = NULL;
    if (floe_provision_string(call, props, "WithoutMetadata", false, &without) ||
        floe_provision_object(call, props, "IcebergMetadata", &config))
        return FLOE_EFAIL;
    if (without != NULL && strcmp(without, WITHOUT_METADATA_YES) != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property WithoutMetadata must be Yes.");
    if (config == NULL)
        return FLOE_OK;
    if (without != NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "IcebergMetadata and WithoutMetadata cannot be specified together.");
    if (read_metadata(call, config, &metadata))
        return FLOE_EFAIL;
    if (floe_iceberg_metadata_create(metadata, t->table_id, location, floe_call_now(call), json, why, sizeof(why)) != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", why);
    return FLOE_OK;
}

/* The lookups and checks before a draft: the bucket, the namespace and the name. */
static int resolve_target(floe_call_t *call, const cJSON *props, floe_bucket_row_t *bucket, floe_namespace_row_t *ns,
                          const char **name)
{
    const char *bucket_arn, *namespace, *format;

    if (floe_provision_string(call, props, "TableBucketARN", true, &bucket_arn) ||
        floe_provision_string(call, props, "Namespace", true, &namespace) ||
        floe_provision_string(call, props, "TableName", true, name) ||
        floe_provision_string(call, props, "OpenTableFormat", false, &format))
        return FLOE_EFAIL;
    if (format != NULL && strcmp(format, FORMAT_ICEBERG) != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "1 validation error detected: Value '%s' at 'format' failed to satisfy constraint: Member "
                         "must satisfy enum value set: [ICEBERG]",
                         format);
    if (floe_provision_check_table_name(call, *name))
        return FLOE_EFAIL;
    return floe_lookup_bucket(call, bucket_arn, bucket) || floe_lookup_namespace(call, bucket, namespace, ns);
}

int floe_provision_table_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink)
{
    create_args_t a = {props, NULL, 0, sink};
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_draft_t t;
    const char *name;
    char *json;
    int stored;

    if (resolve_target(call, props, &bucket, &ns, &name) || floe_provision_storage_class(call, props, &a.storage_class))
        return FLOE_EFAIL;
    switch (floe_table_draft(call, &bucket, &ns, name, FORMAT_ICEBERG, &t)) {
    case FLOE_OK: break;
    case FLOE_EEXISTS: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, MESSAGE_TABLE_EXISTS);
    default: return FLOE_EFAIL;
    }
    if (render_metadata(call, props, &t, &json))
        return FLOE_EFAIL;
    /* catalog/table.c design note 2: the metadata file first, then the row. */
    stored = json != NULL ? floe_table_store_first_metadata(call, &t, json) : FLOE_OK;
    free(json);
    if (stored != FLOE_OK)
        return FLOE_EFAIL;
    a.draft = &t;
    switch (floe_table_insert(call, &t, configure_new_table, &a)) {
    case FLOE_OK: return FLOE_OK;
    case FLOE_EEXISTS: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, MESSAGE_TABLE_EXISTS);
    default: return FLOE_EFAIL;
    }
}

/* ---- update in place ---- */

typedef struct change_args {
    const char *physical_id;
    const cJSON *old_props, *props;
    const floe_provision_sink_t *sink;
} change_args_t;

/* RenameTable: to the TableName and Namespace of props, keeping the ARN. */
static int rename_table(floe_call_t *call, const floe_table_row_t *t, const cJSON *props)
{
    const char *namespace, *name;
    floe_namespace_row_t dest;

    if (floe_provision_string(call, props, "Namespace", true, &namespace) ||
        floe_provision_string(call, props, "TableName", true, &name) || floe_provision_check_table_name(call, name))
        return FLOE_EFAIL;
    if (floe_lookup_namespace(call, &t->bucket, namespace, &dest))
        return call->failure.code == FLOE_ENOTFOUND
                   ? floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_NAMESPACE, MESSAGE_NO_DESTINATION)
                   : FLOE_EFAIL;
    switch (floe_table_rename(call, t, &dest, name, NULL)) {
    case FLOE_OK: return FLOE_OK;
    case FLOE_EEXISTS: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, MESSAGE_TABLE_EXISTS);
    case FLOE_ENOTFOUND: return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_TABLE,
                                          "The specified table does not exist.");
    case FLOE_ECHANGED: /* no token was given: a rename cannot be stale */
    default: return FLOE_EFAIL;
    }
}

static int update_table(floe_call_t *call, void *arg)
{
    const change_args_t *a = arg;
    floe_resource_t owner;
    floe_table_row_t t;

    if (floe_lookup_table_by_arn(call, a->physical_id, &t))
        return FLOE_EFAIL;
    owner = (floe_resource_t){FLOE_RESOURCE_TABLE, t.id};
    if ((floe_provision_changed(a->old_props, a->props, "Namespace") ||
         floe_provision_changed(a->old_props, a->props, "TableName")) &&
        rename_table(call, &t, a->props))
        return FLOE_EFAIL;
    if (apply_maintenance(call, t.id, a->old_props, a->props))
        return FLOE_EFAIL;
    if (floe_provision_changed(a->old_props, a->props, "Tags") &&
        floe_provision_retag(call, &owner, a->old_props, a->props))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, t.arn,
                                 table_attributes(t.arn, floe_table_warehouse_location(call, &t), t.version_token));
}

int floe_provision_table_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                                const cJSON *new_props, const floe_provision_sink_t *sink)
{
    change_args_t a = {physical_id, old_props, new_props, sink};
    return floe_call_in_transaction(call, update_table, &a);
}

/* ---- delete ---- */

static int record_deleted(floe_call_t *call, void *arg)
{
    const change_args_t *a = arg;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* DeleteTable; the catalog commits the delete itself, so the record follows in its own
 * transaction (provision.h). A table already gone counts as deleted. */
int floe_provision_table_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink)
{
    change_args_t a = {physical_id, NULL, NULL, sink};
    floe_table_row_t t;

    if (floe_lookup_table_by_arn(call, physical_id, &t)) {
        if (call->failure.code != FLOE_ENOTFOUND)
            return FLOE_EFAIL;
        floe_provision_forget_not_found(call);
        return floe_call_in_transaction(call, record_deleted, &a);
    }
    switch (floe_table_delete(call, &t, NULL)) {
    case FLOE_OK:
    case FLOE_ENOTFOUND:
        return floe_call_in_transaction(call, record_deleted, &a);
    default:
        return FLOE_EFAIL;
    }
}
