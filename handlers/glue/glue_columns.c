/*
 * The columns of glue_columns.h. Iceberg's type names become Glue's as Apache Iceberg's
 * IcebergToGlueConverter.toTypeString writes them: long is bigint, integer int, time, uuid and
 * string are string, fixed and binary are binary, timestamps (with or without zone) timestamp,
 * and nested types struct<a:t,...>, array<t> and map<k,v>.
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "catalog/table.h"
#include "glue_columns.h"
#include "store/store.h"

#define MAX_TYPE_DEPTH 32 /* deeper nesting is reported as string rather than walked */

/* Glue's name of a primitive Iceberg type ("long", "decimal(10, 2)", "fixed[16]"). */
static const char *primitive(floe_awsjson_call_t *call, const char *type)
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
        return floe_call_printf(&call->super, "decimal(%d,%d)", precision, scale);
    if (strncmp(type, "fixed[", strlen("fixed[")) == 0)
        return "binary";
    return "string"; /* variant, geometry and what comes next: Glue has no name for them */
}

static const char *type_string(floe_awsjson_call_t *call, const cJSON *type, int depth)
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
        return floe_call_printf(&call->super, "array<%s>",
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "element"), depth + 1));
    if (strcmp(kind, "map") == 0)
        return floe_call_printf(&call->super, "map<%s,%s>",
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "key"), depth + 1),
                                type_string(call, cJSON_GetObjectItemCaseSensitive(type, "value"), depth + 1));
    out = "struct<";
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(type, "fields"))
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "name"));
        out = floe_call_printf(&call->super, "%s%s%s:%s", out, first ? "" : ",", name ? name : "",
                               type_string(call, cJSON_GetObjectItemCaseSensitive(f, "type"), depth + 1));
        first = false;
    }
    return floe_call_printf(&call->super, "%s>", out);
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

static void fill_column(floe_awsjson_call_t *call, const cJSON *field, floe_glue_Column *c)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(field, "id");
    const char *doc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(field, "doc"));
    floe_glue_ParametersMap *p = FLOE_GLUE_NEW(call, ParametersMap);

    c->Name = floe_call_strdup(&call->super, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(field, "name")));
    c->Type = (char *)type_string(call, cJSON_GetObjectItemCaseSensitive(field, "type"), 0);
    c->Comment = floe_call_strdup(&call->super, doc);
    p->n = 3;
    p->keys = floe_call_alloc(&call->super, 3 * sizeof(char *));
    p->values = floe_call_alloc(&call->super, 3 * sizeof(char *));
    p->keys[0] = "iceberg.field.current";
    p->values[0] = "true";
    p->keys[1] = "iceberg.field.id";
    p->values[1] = floe_call_printf(&call->super, "%d", cJSON_IsNumber(id) ? id->valueint : 0);
    p->keys[2] = "iceberg.field.optional";
    p->values[2] = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(field, "required")) ? "false" : "true";
    c->Parameters = p;
}

int glue_columns_of(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_glue_ColumnList **out)
{
    floe_glue_ColumnList *list = FLOE_GLUE_NEW(call, ColumnList);
    const cJSON *fields, *f;
    cJSON *metadata;
    const char *key;
    char *json = NULL;
    size_t len, i = 0;

    *out = list;
    if (t->metadata_location == NULL)
        return FLOE_OK;
    if (!floe_table_location_is_inside(t, t->metadata_location))
        return floe_glue_fail_internal(call, "a table's metadata location is outside its warehouse");
    /* every pointer lies inside the warehouse (catalog/table.c): the key follows "s3://<warehouse>/" */
    key = t->metadata_location + strlen("s3://") + strlen(t->warehouse_bucket) + 1;
    if (floe_store_read_object(floe_call_state(&call->super), floe_call_config(&call->super)->data_dir,
                               t->warehouse_bucket, key, &json, &len) != FLOE_OK)
        return FLOE_OK; /* a pointer to a file not written yet (UpdateTableMetadataLocation allows it): no columns */
    floe_call_keep(&call->super, json);
    metadata = cJSON_ParseWithLength(json, len);
    if (metadata == NULL)
        return FLOE_OK;
    fields = cJSON_GetObjectItemCaseSensitive(current_schema(metadata), "fields");
    list->items = floe_call_alloc(&call->super, sizeof(floe_glue_Column) * ((size_t)cJSON_GetArraySize(fields) + 1));
    cJSON_ArrayForEach(f, fields)
        fill_column(call, f, &list->items[i++]);
    list->n = i;
    cJSON_Delete(metadata);
    return FLOE_OK;
}
