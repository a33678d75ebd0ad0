/*
 * New tables (iceberg_create.h). The S3 Tables shapes are first turned into the Iceberg JSON
 * shapes the REST catalog uses, so both front doors share floe_iceberg_new_table and its checks.
 *
 * The generated model changes over time: members such as schemaV2, partitionSpec, writeOrder,
 * properties and SchemaField.id are missing from older S3 Tables models. floe_api.h declares them
 * for every model version; built from an older one they are simply never set (NULL, has_ false).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "catalog/iceberg_create.h"
#include "iceberg/iceberg_evolve.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_spec.h"

/* Java's newTableMetadata ids: the first schema and spec are 0, the first real sort order 1. */
#define INITIAL_SCHEMA_ID 0
#define INITIAL_SPEC_ID 0
#define UNSORTED_ORDER_ID 0
#define INITIAL_SORT_ORDER_ID 1
#define FORMAT_VERSION_PROPERTY "format-version"
/* Iceberg Java's TableMetadata.newTableMetadata stores this in every new table's properties
 * (PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0): a writer that finds no codec in a table falls back
 * to gzip (PARQUET_COMPRESSION_DEFAULT), several times slower to write and read than zstd. */
#define PARQUET_CODEC_PROPERTY "write.parquet.compression-codec"
#define NEW_TABLE_PARQUET_CODEC "zstd"

/* TableProperties.RESERVED_PROPERTIES other than format-version: derived, never stored. */
static const char *const reserved_properties[] = {
    "uuid",
    "snapshot-count",
    "current-snapshot-summary",
    "current-snapshot-id",
    "current-snapshot-timestamp-ms",
    "current-schema",
    "default-partition-spec",
    "default-sort-order",
    NULL,
};

/* ==== the shared builder ==== */

static int add_spec(floe_iceberg_metadata_t *md, const cJSON *spec, const floe_iceberg_schema_index_t *idx,
                    const floe_iceberg_id_map_t *map, floe_iceberg_error_t *err)
{
    const cJSON *fields = NULL;
    cJSON *bound, *out;
    int32_t last_id = FLOE_ICEBERG_PARTITION_ID_START - 1;
    cJSON *empty = cJSON_CreateArray();
    int rc;

    if (spec != NULL && !cJSON_IsNull(spec) &&
        floe_iceberg_json_get_array(spec, "fields", "partition spec", &fields, err) != 0) {
        cJSON_Delete(empty);
        return err->code;
    }
    rc = floe_iceberg_spec_bind(fields != NULL ? fields : empty, idx, map, true, &last_id, &bound, err);
    cJSON_Delete(empty);
    if (rc != 0)
        return rc;
    out = cJSON_CreateObject();
    floe_iceberg_json_set_int(out, "spec-id", INITIAL_SPEC_ID);
    cJSON_AddItemToObject(out, "fields", bound);
    cJSON_AddItemToArray(md->partition_specs, out);
    md->default_spec_id = INITIAL_SPEC_ID;
    md->last_partition_id = last_id;
    return 0;
}

static int add_sort_order(floe_iceberg_metadata_t *md, const cJSON *order, const floe_iceberg_schema_index_t *idx,
                          const floe_iceberg_id_map_t *map, floe_iceberg_error_t *err)
{
    const cJSON *fields = NULL;
    cJSON *bound, *out;
    int32_t order_id;

    if (order != NULL && !cJSON_IsNull(order) &&
        floe_iceberg_json_get_array(order, "fields", "sort order", &fields, err) != 0)
        return err->code;
    if (fields == NULL || cJSON_GetArraySize(fields) == 0) {
        bound = cJSON_CreateArray();
        order_id = UNSORTED_ORDER_ID;
    } else if (floe_iceberg_sort_bind(fields, idx, map, &bound, err) != 0) {
        return err->code;
    } else {
        order_id = INITIAL_SORT_ORDER_ID;
    }
    out = cJSON_CreateObject();
    floe_iceberg_json_set_int(out, "order-id", order_id);
    cJSON_AddItemToObject(out, "fields", bound);
    cJSON_AddItemToArray(md->sort_orders, out);
    md->default_sort_order_id = order_id;
    return 0;
}

static bool is_reserved(const char *key)
{
    for (const char *const *r = reserved_properties; *r != NULL; r++) {
        if (strcmp(*r, key) == 0)
            return true;
    }
    return false;
}

/* The creator's properties over the defaults of a new table (NEW_TABLE_PARQUET_CODEC). */
static int add_properties(floe_iceberg_metadata_t *md, const cJSON *properties, floe_iceberg_error_t *err)
{
    floe_iceberg_json_set(md->properties, PARQUET_CODEC_PROPERTY, cJSON_CreateString(NEW_TABLE_PARQUET_CODEC));
    if (properties == NULL || cJSON_IsNull(properties))
        return 0;
    if (!cJSON_IsObject(properties))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Table properties must be an object of strings.");
    for (const cJSON *p = properties->child; p != NULL; p = p->next) {
        if (!cJSON_IsString(p))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Table property '%s' must be a string.", p->string);
        if (strcmp(p->string, FORMAT_VERSION_PROPERTY) == 0) {
            if (strcmp(p->valuestring, "2") != 0 && strcmp(p->valuestring, "3") != 0)
                return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                         "Unsupported format version: v%s (supported: v2 and v3)", p->valuestring);
            md->format_version = p->valuestring[0] - '0';
            continue;
        }
        if (!is_reserved(p->string))
            floe_iceberg_json_set(md->properties, p->string, cJSON_CreateString(p->valuestring));
    }
    return 0;
}

int floe_iceberg_new_table(const cJSON *schema, const cJSON *spec, const cJSON *order, const cJSON *properties,
                           const char *table_uuid, const char *location, int64_t now_ms, floe_iceberg_metadata_t *md,
                           floe_iceberg_error_t *err)
{
    floe_iceberg_id_map_t map = {0};
    floe_iceberg_schema_index_t idx = {0};
    cJSON *fresh = NULL;
    int rc;

    floe_iceberg_metadata_init(md);
    if (table_uuid == NULL || location == NULL) {
        rc = floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A new table needs a UUID and a location.");
        goto Exit;
    }
    if ((rc = floe_iceberg_schema_fresh(schema, &fresh, &map, &md->last_column_id, err)) != 0)
        goto Exit;
    cJSON_AddItemToArray(md->schemas, fresh);
    md->current_schema_id = INITIAL_SCHEMA_ID;
    if ((rc = floe_iceberg_schema_index(fresh, &idx, err)) != 0 || (rc = add_spec(md, spec, &idx, &map, err)) != 0 ||
        (rc = add_sort_order(md, order, &idx, &map, err)) != 0 || (rc = add_properties(md, properties, err)) != 0 ||
        (rc = floe_iceberg_schema_check_version(fresh, md->format_version, err)) != 0)
        goto Exit;
    md->table_uuid = floe_xstrdup(table_uuid);
    md->location = floe_iceberg_location_normalize(location);
    md->last_updated_ms = now_ms;
    md->last_sequence_number = 0;
Exit:
    floe_iceberg_id_map_dispose(&map);
    floe_iceberg_schema_index_dispose(&idx);
    if (rc != 0)
        floe_iceberg_metadata_dispose(md);
    return rc;
}

/* ==== S3 Tables shapes to Iceberg JSON ==== */

static cJSON *empty_schema(void)
{
    cJSON *schema = cJSON_CreateObject();
    cJSON_AddStringToObject(schema, "type", "struct");
    cJSON_AddArrayToObject(schema, "fields");
    return schema;
}

/* The model documents `schema` as primitive types only, nested ones going in schemaV2. */
static bool is_primitive(const char *type)
{
    floe_iceberg_primitive_t primitive;
    return floe_iceberg_primitive_parse(type, &primitive) == 0;
}

/* `schema`: flat fields with primitive type strings; a field without an id is known by its
 * position, the id it will receive. */
static int schema_from_fields(const floe_IcebergSchema *in, cJSON **out, floe_iceberg_error_t *err)
{
    cJSON *schema = empty_schema(), *fields = cJSON_GetObjectItemCaseSensitive(schema, "fields");
    size_t n = in->fields != NULL ? in->fields->n : 0;

    for (size_t i = 0; i < n; i++) {
        const floe_SchemaField *f = &in->fields->items[i];
        cJSON *field = cJSON_CreateObject();
        int64_t id = (int64_t)i + 1;
        if (f->has_id)
            id = f->id;
        cJSON_AddItemToArray(fields, field);
        if (f->name == NULL || f->type == NULL) {
            cJSON_Delete(schema);
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Schema field %zu needs a name and a type.", i + 1);
        }
        if (!is_primitive(f->type)) {
            cJSON_Delete(schema);
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "Invalid type '%.40s' for schema field '%.40s': schema takes primitive types "
                                     "only; nested types (struct, list, map) go in schemaV2, as JSON objects. "
                                     "Primitive types: %s.",
                                     f->type, f->name, floe_iceberg_primitive_names);
        }
        floe_iceberg_json_set_int(field, "id", id);
        cJSON_AddStringToObject(field, "name", f->name);
        cJSON_AddBoolToObject(field, "required", f->required);
        cJSON_AddStringToObject(field, "type", f->type);
    }
    *out = schema;
    return 0;
}

/* A schemaV2 field: its `type` is a JSON document (a type string or a nested type object). */
static int field_from_v2(const floe_SchemaV2Field *f, size_t position, cJSON *fields, floe_iceberg_error_t *err)
{
    cJSON *field, *type;

    if (f->name == NULL || f->type == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "schemaV2 field %zu needs a name and a type.", position);
    type = floe_iceberg_json_parse(f->type, strlen(f->type), err);
    if (type == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The type of schemaV2 field '%s' is not valid JSON.",
                                 f->name);
    field = cJSON_CreateObject();
    if (f->has_id)
        floe_iceberg_json_set_int(field, "id", f->id);
    cJSON_AddStringToObject(field, "name", f->name);
    cJSON_AddBoolToObject(field, "required", f->required);
    cJSON_AddItemToObject(field, "type", type);
    if (f->doc != NULL)
        cJSON_AddStringToObject(field, "doc", f->doc);
    cJSON_AddItemToArray(fields, field);
    return 0;
}

static int schema_from_v2(const floe_IcebergSchemaV2 *in, cJSON **out, floe_iceberg_error_t *err)
{
    cJSON *schema = empty_schema(), *fields = cJSON_GetObjectItemCaseSensitive(schema, "fields");
    size_t n = in->fields != NULL ? in->fields->n : 0;

    for (size_t i = 0; i < n; i++) {
        if (field_from_v2(&in->fields->items[i], i + 1, fields, err) != 0) {
            cJSON_Delete(schema);
            return err->code;
        }
    }
    if (in->identifierFieldIds != NULL) {
        cJSON *ids = cJSON_AddArrayToObject(schema, "identifier-field-ids");
        for (size_t i = 0; i < in->identifierFieldIds->n; i++)
            cJSON_AddItemToArray(ids, floe_iceberg_json_new_int(in->identifierFieldIds->items[i]));
    }
    *out = schema;
    return 0;
}

static int schema_from_input(const floe_IcebergMetadata *in, cJSON **out, floe_iceberg_error_t *err)
{
    if (in->schemaV2 != NULL && in->schema != NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Specify either schema or schemaV2, not both.");
    if (in->schemaV2 != NULL)
        return schema_from_v2(in->schemaV2, out, err);
    if (in->schema != NULL)
        return schema_from_fields(in->schema, out, err);
    *out = empty_schema();
    return 0;
}

static int spec_from_input(const floe_IcebergPartitionSpec *in, cJSON **out, floe_iceberg_error_t *err)
{
    cJSON *spec = cJSON_CreateObject(), *fields = cJSON_AddArrayToObject(spec, "fields");
    size_t n = in->fields != NULL ? in->fields->n : 0;

    for (size_t i = 0; i < n; i++) {
        const floe_IcebergPartitionField *f = &in->fields->items[i];
        cJSON *field = cJSON_CreateObject();
        cJSON_AddItemToArray(fields, field);
        if (f->name == NULL || f->transform == NULL) {
            cJSON_Delete(spec);
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Partition field %zu needs a name and a transform.",
                                     i + 1);
        }
        floe_iceberg_json_set_int(field, "source-id", f->sourceId);
        cJSON_AddStringToObject(field, "transform", f->transform);
        cJSON_AddStringToObject(field, "name", f->name);
    }
    *out = spec;
    return 0;
}

static int sort_field_from_input(const floe_IcebergSortField *f, size_t position, cJSON *fields,
                                 floe_iceberg_error_t *err)
{
    cJSON *field;

    if (f->transform == NULL || f->direction < 1 || f->direction > FLOE_IcebergSortDirection__COUNT ||
        f->nullOrder < 1 || f->nullOrder > FLOE_IcebergNullOrder__COUNT)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Sort field %zu needs a transform, a direction and a null order.", position);
    field = cJSON_CreateObject();
    floe_iceberg_json_set_int(field, "source-id", f->sourceId);
    cJSON_AddStringToObject(field, "transform", f->transform);
    cJSON_AddStringToObject(field, "direction", floe_IcebergSortDirection_values[f->direction]);
    cJSON_AddStringToObject(field, "null-order", floe_IcebergNullOrder_values[f->nullOrder]);
    cJSON_AddItemToArray(fields, field);
    return 0;
}

static int order_from_input(const floe_IcebergSortOrder *in, cJSON **out, floe_iceberg_error_t *err)
{
    cJSON *order = cJSON_CreateObject(), *fields = cJSON_AddArrayToObject(order, "fields");
    size_t n = in->fields != NULL ? in->fields->n : 0;

    for (size_t i = 0; i < n; i++) {
        if (sort_field_from_input(&in->fields->items[i], i + 1, fields, err) != 0) {
            cJSON_Delete(order);
            return err->code;
        }
    }
    *out = order;
    return 0;
}

static cJSON *properties_from_input(const floe_TableProperties *in)
{
    cJSON *props = cJSON_CreateObject();
    for (size_t i = 0; i < in->n; i++) {
        if (in->keys[i] != NULL && in->values[i] != NULL)
            floe_iceberg_json_set(props, in->keys[i], cJSON_CreateString(in->values[i]));
    }
    return props;
}

/* Converts every part *in has; the caller deletes whatever is non-NULL, even on failure. */
static int parts_from_input(const floe_IcebergMetadata *in, cJSON **schema, cJSON **spec, cJSON **order, cJSON **props,
                            floe_iceberg_error_t *err)
{
    if (in == NULL) {
        *schema = empty_schema();
        return 0;
    }
    if (schema_from_input(in, schema, err) != 0)
        return err->code;
    if (in->partitionSpec != NULL && spec_from_input(in->partitionSpec, spec, err) != 0)
        return err->code;
    if (in->writeOrder != NULL && order_from_input(in->writeOrder, order, err) != 0)
        return err->code;
    if (in->properties != NULL)
        *props = properties_from_input(in->properties);
    (void)spec;
    (void)order;
    (void)props;
    return 0;
}

/* Builds, serializes and releases; shared by both front doors. */
static int build_text(const cJSON *schema, const cJSON *spec, const cJSON *order, const cJSON *props,
                      const char *table_uuid, const char *location, int64_t now_ms, char **json_out,
                      floe_iceberg_error_t *err)
{
    floe_iceberg_metadata_t md;

    if (floe_iceberg_new_table(schema, spec, order, props, table_uuid, location, now_ms, &md, err) != 0)
        return err->code;
    *json_out = floe_iceberg_metadata_serialize(&md);
    floe_iceberg_metadata_dispose(&md);
    return 0;
}

int floe_iceberg_metadata_create(const floe_IcebergMetadata *in, const char *table_uuid, const char *location,
                                 int64_t now_ms, char **json_out, char *why, size_t why_len)
{
    cJSON *schema = NULL, *spec = NULL, *order = NULL, *props = NULL;
    floe_iceberg_error_t err;
    int rc;

    floe_iceberg_error_clear(&err);
    rc = parts_from_input(in, &schema, &spec, &order, &props, &err);
    if (rc == 0)
        rc = build_text(schema, spec, order, props, table_uuid, location, now_ms, json_out, &err);
    if (rc != 0 && why != NULL && why_len > 0)
        snprintf(why, why_len, "%s", err.message);
    cJSON_Delete(schema);
    cJSON_Delete(spec);
    cJSON_Delete(order);
    cJSON_Delete(props);
    return rc;
}

int floe_iceberg_metadata_create_from_request(const cJSON *request, const char *table_uuid, const char *location,
                                              int64_t now_ms, char **json_out, floe_iceberg_error_t *err)
{
    const cJSON *schema;

    floe_iceberg_error_clear(err);
    if (!cJSON_IsObject(request))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The create-table request must be a JSON object.");
    if (floe_iceberg_json_get_object(request, "schema", "create-table request", &schema, err) != 0)
        return err->code;
    return build_text(schema, cJSON_GetObjectItemCaseSensitive(request, "partition-spec"),
                      cJSON_GetObjectItemCaseSensitive(request, "write-order"),
                      cJSON_GetObjectItemCaseSensitive(request, "properties"), table_uuid, location, now_ms, json_out,
                      err);
}
