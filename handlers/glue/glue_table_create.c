/*
 * Glue's CreateTable in a table bucket's child catalog: an Iceberg table (OpenTableFormatInput's
 * IcebergInput, MetadataOperation CREATE) becomes an S3 table of the namespace DatabaseName,
 * created the way the S3 Tables API and the Iceberg REST catalog create one (catalog/table.h,
 * design note 2 of catalog/table.c: the first metadata file, then the row), with the bucket's
 * encryption and storage class as S3 Tables' CreateTable gives them.
 *
 * The schema is CreateIcebergTableInput.Schema when given (Iceberg's own field types), else the
 * Glue (Hive) columns of TableInput.StorageDescriptor, as AWS's guide creates an S3 table with
 * `aws glue create-table ... --open-table-format-input '{"IcebergInput": {"MetadataOperation":
 * "CREATE", "Version": "2"}}'`, nested types too (iceberg/hive_type.h). CreateIcebergTableInput's
 * PartitionSpec and WriteOrder go into the request as the REST catalog's partition-spec and
 * write-order.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "catalog/iceberg_create.h"
#include "catalog/rules.h"
#include "catalog/table.h"
#include "glue_names.h"
#include "glue_table_default.h"
#include "iceberg/hive_type.h"

#define TABLE_NAME_MAX 255
#define ICEBERG_FORMAT "ICEBERG"

/* A schema from Glue columns ({"type": "struct", "fields": [...]}), or fails the call. Nested
 * types get their ids when the table is created. */
static int schema_from_columns(floe_awsjson_call_t *call, const floe_glue_ColumnList *columns, cJSON *schema)
{
    cJSON *fields = cJSON_AddArrayToObject(schema, "fields");
    floe_iceberg_error_t err;

    for (size_t i = 0; columns != NULL && i < columns->n; i++) {
        const floe_glue_Column *c = &columns->items[i];
        cJSON *f = cJSON_CreateObject(), *type;

        cJSON_AddItemToArray(fields, f);
        if (floe_iceberg_type_from_hive(c->Type != NULL ? c->Type : "", &type, &err) != FLOE_ICEBERG_OK)
            return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "Column %s has type %s: %s", c->Name,
                                  c->Type ? c->Type : "(none)", err.message);
        cJSON_AddNumberToObject(f, "id", (double)(i + 1));
        cJSON_AddStringToObject(f, "name", c->Name);
        cJSON_AddItemToObject(f, "type", type);
        cJSON_AddBoolToObject(f, "required", false);
        if (c->Comment != NULL)
            cJSON_AddStringToObject(f, "doc", c->Comment);
    }
    return FLOE_OK;
}

/* A schema from CreateIcebergTableInput.Schema, whose field types are Iceberg JSON. */
static int schema_from_iceberg(floe_awsjson_call_t *call, const floe_glue_IcebergSchema *in, cJSON *schema)
{
    cJSON *fields = cJSON_AddArrayToObject(schema, "fields");

    for (size_t i = 0; i < in->Fields->n; i++) {
        const floe_glue_IcebergStructField *src = &in->Fields->items[i];
        cJSON *f = cJSON_CreateObject(), *type = cJSON_Parse(src->Type);

        cJSON_AddItemToArray(fields, f);
        if (type == NULL)
            return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "Field %s has no valid type.", src->Name);
        cJSON_AddNumberToObject(f, "id", src->Id);
        cJSON_AddStringToObject(f, "name", src->Name);
        cJSON_AddItemToObject(f, "type", type);
        cJSON_AddBoolToObject(f, "required", src->Required);
        if (src->Doc != NULL)
            cJSON_AddStringToObject(f, "doc", src->Doc);
    }
    return FLOE_OK;
}

/* CreateIcebergTableInput.PartitionSpec as the REST catalog's partition-spec; a FieldId of 0
 * (unset: partition field ids start at 1000) lets the catalog number the field. */
static void add_partition_spec(const floe_glue_IcebergPartitionSpec *in, cJSON *request)
{
    cJSON *spec = cJSON_AddObjectToObject(request, "partition-spec");
    cJSON *fields = cJSON_AddArrayToObject(spec, "fields");

    cJSON_AddNumberToObject(spec, "spec-id", in->SpecId);
    for (size_t i = 0; in->Fields != NULL && i < in->Fields->n; i++) {
        const floe_glue_IcebergPartitionField *src = &in->Fields->items[i];
        cJSON *f = cJSON_CreateObject();
        cJSON_AddItemToArray(fields, f);
        cJSON_AddNumberToObject(f, "source-id", src->SourceId);
        if (src->FieldId != 0)
            cJSON_AddNumberToObject(f, "field-id", src->FieldId);
        cJSON_AddStringToObject(f, "name", src->Name);
        cJSON_AddStringToObject(f, "transform", src->Transform);
    }
}

/* CreateIcebergTableInput.WriteOrder as the REST catalog's write-order. */
static void add_write_order(const floe_glue_IcebergSortOrder *in, cJSON *request)
{
    cJSON *order = cJSON_AddObjectToObject(request, "write-order");
    cJSON *fields = cJSON_AddArrayToObject(order, "fields");

    cJSON_AddNumberToObject(order, "order-id", in->OrderId);
    for (size_t i = 0; in->Fields != NULL && i < in->Fields->n; i++) {
        const floe_glue_IcebergSortField *src = &in->Fields->items[i];
        cJSON *f = cJSON_CreateObject();
        cJSON_AddItemToArray(fields, f);
        cJSON_AddNumberToObject(f, "source-id", src->SourceId);
        cJSON_AddStringToObject(f, "transform", src->Transform);
        cJSON_AddStringToObject(f, "direction", src->Direction == FLOE_GLUE_IcebergSortDirection_DESC ? "desc" : "asc");
        cJSON_AddStringToObject(f, "null-order",
                                src->NullOrder == FLOE_GLUE_IcebergNullOrder_NULLS_LAST ? "nulls-last" : "nulls-first");
    }
}

/* The REST catalog's CreateTableRequest for the new table ({name, schema, properties}), which
 * floe_iceberg_metadata_create_from_request turns into the first metadata file. */
static int create_request(floe_awsjson_call_t *call, const floe_glue_CreateTableRequest *in, const char *name,
                          cJSON *request)
{
    const floe_glue_CreateIcebergTableInput *ice = in->OpenTableFormatInput->IcebergInput->CreateIcebergTableInput;
    const floe_glue_IcebergInput *iceberg = in->OpenTableFormatInput->IcebergInput;
    cJSON *schema = cJSON_AddObjectToObject(request, "schema");
    cJSON *properties = cJSON_AddObjectToObject(request, "properties");

    cJSON_AddStringToObject(request, "name", name);
    cJSON_AddStringToObject(schema, "type", "struct");
    cJSON_AddNumberToObject(schema, "schema-id", 0);
    if (iceberg->Version != NULL)
        cJSON_AddStringToObject(properties, "format-version", iceberg->Version);
    if (ice != NULL) {
        for (size_t i = 0; ice->Properties != NULL && i < ice->Properties->n; i++)
            cJSON_AddStringToObject(properties, ice->Properties->keys[i], ice->Properties->values[i]);
        if (ice->PartitionSpec != NULL)
            add_partition_spec(ice->PartitionSpec, request);
        if (ice->WriteOrder != NULL)
            add_write_order(ice->WriteOrder, request);
        return schema_from_iceberg(call, ice->Schema, schema);
    }
    return schema_from_columns(call,
                               in->TableInput != NULL && in->TableInput->StorageDescriptor != NULL
                                   ? in->TableInput->StorageDescriptor->Columns
                                   : NULL,
                               schema);
}

/* What S3 Tables' CreateTable gives a table it creates without settings: its bucket's encryption
 * and storage class. */
static int inherit_bucket_settings(floe_call_t *call, int64_t table_id, int64_t bucket_id, const void *ctx)
{
    (void)ctx;
    if (floe_rules_table_encryption_create(call, table_id, bucket_id, NULL))
        return FLOE_EFAIL;
    return floe_rules_table_storage_class_create(call, table_id, bucket_id, 0);
}

/* S3 Tables' table name rule: 1 to 255 lowercase letters, numbers and underscores, beginning and
 * ending with a letter or a number. */
static bool table_name_is_valid(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n <= TABLE_NAME_MAX && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == n &&
           floe_rules_table_name_is_allowed(name);
}

/* Renders and stores the first metadata file, then inserts the row. */
static int store_table(floe_awsjson_call_t *call, const floe_glue_CreateTableRequest *in, floe_table_draft_t *t)
{
    cJSON *request = cJSON_CreateObject();
    floe_iceberg_error_t err;
    int rc;
    char *json = NULL, *location;
    int built;

    built = create_request(call, in, t->name, request);
    location = floe_call_printf(&call->super, "s3://%s", t->warehouse);
    if (built == FLOE_OK && floe_iceberg_metadata_create_from_request(request, t->table_id, location,
                                                                      floe_call_now(&call->super), &json,
                                                                      &err) != FLOE_ICEBERG_OK)
        built = floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "%s", err.message);
    cJSON_Delete(request);
    if (built != FLOE_OK)
        return FLOE_EFAIL;
    floe_call_keep(&call->super, json);
    if (floe_table_store_first_metadata(&call->super, t, json))
        return FLOE_EFAIL;
    rc = floe_table_insert(&call->super, t, inherit_bucket_settings, NULL);
    if (rc == FLOE_EEXISTS)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Table already exists.");
    return rc == FLOE_OK ? FLOE_OK : FLOE_EFAIL;
}

int floe_glue_handle_CreateTable(floe_awsjson_call_t *call, const floe_glue_CreateTableRequest *in,
                                 floe_glue_CreateTableResponse *out)
{
    const char *name = in->Name != NULL ? in->Name : in->TableInput != NULL ? in->TableInput->Name : NULL;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_draft_t t;
    int rc;
    glue_catalog_ref_t ref;
    (void)out;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return glue_default_create_table(call, in);
    if (in->OpenTableFormatInput == NULL || in->OpenTableFormatInput->IcebergInput == NULL ||
        in->OpenTableFormatInput->IcebergInput->MetadataOperation != FLOE_GLUE_MetadataOperation_CREATE)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Floe creates only Iceberg tables: give OpenTableFormatInput.IcebergInput with "
                              "MetadataOperation CREATE.");
    if (name == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The table needs a Name.");
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket))
        return FLOE_EFAIL;
    if (floe_lookup_namespace(&call->super, &bucket, in->DatabaseName, &ns))
        return FLOE_EFAIL;
    if (!table_name_is_valid(name))
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "%s", FLOE_RULES_MESSAGE_TABLE_NAME);
    rc = floe_table_draft(&call->super, &bucket, &ns, name, ICEBERG_FORMAT, &t);
    if (rc == FLOE_EEXISTS)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Table already exists.");
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    return store_table(call, in, &t);
}
