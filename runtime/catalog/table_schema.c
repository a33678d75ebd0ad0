/*
 * The columns of table_schema.h. Iceberg's type names become Glue's as Apache Iceberg's
 * IcebergToGlueConverter.toTypeString writes them: long is bigint, integer int, time, uuid and
 * string are string, fixed and binary are binary, timestamps (with or without zone) timestamp,
 * and nested types struct<a:t,...>, array<t> and map<k,v>.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/log.h"
#include "catalog/table.h"
#include "catalog/table_schema.h"
#include "store/store.h"

#define MAX_TYPE_DEPTH 32 /* deeper nesting is reported as string rather than walked */

/* Glue's name of a primitive Iceberg type ("long", "decimal(10, 2)", "fixed[16]"). */
static const char *primitive(floe_call_t *call, const char *type)
{
    static const struct {
        const char *iceberg, *glue;
    } names[] = {{"boolean", "boolean"}, {"int", "int"},         {"integer", "int"},       {"long", "bigint"},
                 {"float", "float"},     {"double", "double"},   {"date", "date"},         {"time", "string"},
                 {"string", "string"},   {"uuid", "string"},     {"binary", "binary"},     {"timestamp", "timestamp"},
                 {"timestamptz", "timestamp"}, {"timestamp_ns", "timestamp"}, {"timestamptz_ns", "timestamp"}};
    int precision, scale;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(type, names[i].iceberg) == 0)
            return names[i].glue;
    }
    if (sscanf(type, "decimal(%d,%d)", &precision, &scale) == 2) /* %d skips the space Iceberg writes */
        return floe_call_printf(call, "decimal(%d,%d)", precision, scale);
    if (strncmp(type, "fixed[", strlen("fixed[")) == 0)
        return "binary";
    return "string"; /* variant, geometry and what comes next: Glue has no name for them */
}

static const char *type_string(floe_call_t *call, const cJSON *type, int depth)
{
    const char *kind;
    const cJSON *f;
    char *out;
    bool first = true;

    if (cJSON_IsString(type))
        return primitive(call, type->valuestring);
    kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(type, "type"));
    if (kind == NULL || depth > MAX_TYPE_DEPTH)
        return "string";
    if (strcmp(kind, "list") == 0)
        return floe_call_printf(call, "array<%s>",
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "element"), depth + 1));
    if (strcmp(kind, "map") == 0)
        return floe_call_printf(call, "map<%s,%s>",
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "key"), depth + 1),
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "value"), depth + 1));
    out = "struct<";
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(type, "fields"))
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "name"));
        out = floe_call_printf(call, "%s%s%s:%s", out, first ? "" : ",", name ? name : "",
                               type_string(call, cJSON_GetObjectItemCaseSensitive(f, "type"), depth + 1));
        first = false;
    }
    return floe_call_printf(call, "%s>", out);
}

/* The schema of `metadata` whose schema-id is its current-schema-id (a v1 file: "schema"). */
static const cJSON *current_schema(const cJSON *metadata)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(metadata, "current-schema-id"), *s;

    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(metadata, "schemas"))
    {
        const cJSON *sid = cJSON_GetObjectItemCaseSensitive(s, "schema-id");
        if (cJSON_IsNumber(id) && cJSON_IsNumber(sid) && sid->valuedouble == id->valuedouble)
            return s;
    }
    return cJSON_GetObjectItemCaseSensitive(metadata, "schema");
}

static void read_column(floe_call_t *call, const cJSON *field, floe_table_column_t *c)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(field, "id");

    c->name = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(field, "name")));
    c->type = (char *)type_string(call, cJSON_GetObjectItemCaseSensitive(field, "type"), 0);
    c->comment = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(field, "doc")));
    c->id = cJSON_IsNumber(id) ? id->valueint : 0;
    c->required = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(field, "required"));
}

/* The columns of the metadata file at `key` of `bucket`: none when it cannot be read or parsed. */
static int columns_of_file(floe_call_t *call, const char *bucket, const char *key, floe_table_column_t **columns,
                           size_t *n)
{
    const cJSON *fields, *f;
    cJSON *metadata;
    char *json = NULL;
    size_t len;

    if (floe_store_read_object(floe_call_state(call), floe_call_config(call)->data_dir, bucket, key, &json, &len) !=
        FLOE_OK)
        return FLOE_OK; /* a pointer to a file not written yet (UpdateTableMetadataLocation allows it): no columns */
    floe_call_keep(call, json);
    if ((metadata = cJSON_ParseWithLength(json, len)) == NULL)
        return FLOE_OK;
    fields = cJSON_GetObjectItemCaseSensitive(current_schema(metadata), "fields");
    *columns = floe_call_alloc(call, sizeof(floe_table_column_t) * ((size_t)cJSON_GetArraySize(fields) + 1));
    cJSON_ArrayForEach(f, fields)
        read_column(call, f, &(*columns)[(*n)++]);
    cJSON_Delete(metadata);
    return FLOE_OK;
}

int floe_table_schema_columns(floe_call_t *call, const floe_table_row_t *t, floe_table_column_t **columns, size_t *n)
{
    *columns = NULL;
    *n = 0;
    if (t->metadata_location == NULL)
        return FLOE_OK;
    if (!floe_table_location_is_inside(t, t->metadata_location)) {
        floe_log("table %s: its metadata location is outside its warehouse", t->name);
        return floe_fail_internal(call, "reading a table's columns");
    }
    /* every pointer lies inside the warehouse (catalog/table.c): the key follows "s3://<warehouse>/" */
    return columns_of_file(call, t->warehouse_bucket,
                           t->metadata_location + strlen("s3://") + strlen(t->warehouse_bucket) + 1, columns, n);
}

int floe_table_schema_columns_at(floe_call_t *call, const char *location, floe_table_column_t **columns, size_t *n)
{
    const char *bucket = location + strlen("s3://"), *slash;

    *columns = NULL;
    *n = 0;
    if (strncmp(location, "s3://", strlen("s3://")) != 0 || (slash = strchr(bucket, '/')) == NULL || slash == bucket)
        return FLOE_OK;
    return columns_of_file(call, floe_call_printf(call, "%.*s", (int)(slash - bucket), bucket), slash + 1, columns, n);
}
