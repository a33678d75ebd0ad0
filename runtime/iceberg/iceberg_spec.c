/*
 * Binding of partition and sort fields, as declared in iceberg_spec.h. Fields are checked one at
 * a time, in order, so the first bad field is the one reported.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_spec.h"

#define WHERE_MAX 160

static const char transform_names[] = "identity, bucket[N], truncate[W], year, month, day, hour or void";

/* The schema field a source-id names, translated through map when there is one. */
static const floe_iceberg_field_t *find_source(const floe_iceberg_schema_index_t *schema,
                                               const floe_iceberg_id_map_t *map, int32_t source_id)
{
    int32_t id = source_id;
    if (map != NULL && floe_iceberg_id_map_get(map, source_id, &id) != 0)
        return NULL;
    return floe_iceberg_schema_find(schema, id);
}

/* Source column and transform checks shared by partition and sort fields; *transform_out gets the
 * canonical transform text. */
static int bind_source(const cJSON *in, const char *where, const floe_iceberg_schema_index_t *schema,
                       const floe_iceberg_id_map_t *map, const floe_iceberg_field_t **source_out, char *transform_out,
                       size_t transform_size, floe_iceberg_error_t *err)
{
    int32_t source_id;
    const char *text;
    const floe_iceberg_field_t *source;
    floe_iceberg_transform_t t;
    char type_text[FLOE_ICEBERG_TYPE_TEXT_MAX];

    if (floe_iceberg_json_get_int32(in, "source-id", where, &source_id, err) != 0 ||
        floe_iceberg_json_get_string(in, "transform", where, &text, err) != 0)
        return err->code;
    source = find_source(schema, map, source_id);
    if (source == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s refers to unknown source-id %d.", where,
                                 (int)source_id);
    if (!source->is_primitive)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: source column '%s' is not a primitive type.", where,
                                 source->name);
    if (floe_iceberg_transform_parse(text, &t) != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s has an invalid transform '%s': expected %s.", where,
                                 text, transform_names);
    if (!floe_iceberg_transform_accepts(&t, &source->primitive)) {
        floe_iceberg_primitive_format(&source->primitive, type_text, sizeof(type_text));
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "%s: transform '%s' cannot apply to column '%s' of type %s.", where, text,
                                 source->name, type_text);
    }
    floe_iceberg_transform_format(&t, transform_out, transform_size);
    *source_out = source;
    return 0;
}

/* ==== partition fields ==== */

static bool name_taken(const cJSON *bound, const char *name)
{
    for (const cJSON *f = bound->child; f != NULL; f = f->next) {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(f, "name")->valuestring, name) == 0)
            return true;
    }
    return false;
}

static bool field_id_taken(const cJSON *bound, int32_t id)
{
    for (const cJSON *f = bound->child; f != NULL; f = f->next) {
        int64_t other;
        if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(f, "field-id"), &other) == 0 && other == id)
            return true;
    }
    return false;
}

/* PartitionSpec.Builder.checkAndAddPartitionName: a partition may share a column's name only when
 * it is the identity partition of that column. */
static int check_partition_name(const char *name, const char *transform, const floe_iceberg_field_t *source,
                                const floe_iceberg_schema_index_t *schema, const cJSON *bound,
                                floe_iceberg_error_t *err)
{
    const floe_iceberg_field_t *column = floe_iceberg_schema_find_name(schema, name);

    if (*name == '\0')
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A partition field name must not be empty.");
    if (name_taken(bound, name))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Partition field name '%s' is used more than once.", name);
    if (column != NULL && (strcmp(transform, "identity") != 0 || column->id != source->id))
        return floe_iceberg_fail(
            err, FLOE_ICEBERG_EINVALID,
            "Partition field name '%s' is a column name; only an identity partition of that column may use it.", name);
    return 0;
}

static int bind_partition_field(const cJSON *in, const floe_iceberg_schema_index_t *schema,
                                const floe_iceberg_id_map_t *map, bool assign_fresh, int32_t *last_id, cJSON *bound,
                                floe_iceberg_error_t *err)
{
    const char *name;
    char where[WHERE_MAX], transform[FLOE_ICEBERG_TYPE_TEXT_MAX];
    const floe_iceberg_field_t *source;
    int32_t field_id = 0;
    bool has_field_id = false;
    cJSON *out;

    if (!cJSON_IsObject(in))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Every partition field must be an object.");
    if (floe_iceberg_json_get_string(in, "name", "partition field", &name, err) != 0)
        return err->code;
    snprintf(where, sizeof(where), "Partition field '%s'", name);
    if (bind_source(in, where, schema, map, &source, transform, sizeof(transform), err) != 0)
        return err->code;
    if (source->in_collection)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: source column '%s' is inside a list or map.", where,
                                 source->name);
    if (check_partition_name(name, transform, source, schema, bound, err) != 0)
        return err->code;
    if (!assign_fresh && cJSON_GetObjectItemCaseSensitive(in, "field-id") != NULL) {
        if (floe_iceberg_json_get_opt_int32(in, "field-id", where, &field_id, err) != 0)
            return err->code;
        has_field_id = !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(in, "field-id"));
    }
    if (!has_field_id)
        field_id = *last_id + 1;
    if (field_id_taken(bound, field_id))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s reuses partition field id %d.", where, (int)field_id);
    if (field_id > *last_id)
        *last_id = field_id;
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "name", name);
    cJSON_AddStringToObject(out, "transform", transform);
    floe_iceberg_json_set_int(out, "source-id", source->id);
    floe_iceberg_json_set_int(out, "field-id", field_id);
    cJSON_AddItemToArray(bound, out);
    return 0;
}

int floe_iceberg_spec_bind(const cJSON *fields_in, const floe_iceberg_schema_index_t *schema,
                           const floe_iceberg_id_map_t *source_map, bool assign_fresh, int32_t *last_partition_id,
                           cJSON **fields_out, floe_iceberg_error_t *err)
{
    int32_t last_id = *last_partition_id;
    cJSON *bound;

    if (!cJSON_IsArray(fields_in))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A partition spec's 'fields' must be an array.");
    bound = cJSON_CreateArray();
    for (const cJSON *in = fields_in->child; in != NULL; in = in->next) {
        if (bind_partition_field(in, schema, source_map, assign_fresh, &last_id, bound, err) != 0) {
            cJSON_Delete(bound);
            return err->code;
        }
    }
    *last_partition_id = last_id;
    *fields_out = bound;
    return 0;
}

/* ==== sort fields ==== */

/* Reads a member that must be one of two words (case-insensitive), giving the canonical word. */
static int read_choice(const cJSON *in, const char *key, const char *where, const char *a, const char *b,
                       const char **out, floe_iceberg_error_t *err)
{
    const char *text;
    if (floe_iceberg_json_get_string(in, key, where, &text, err) != 0)
        return err->code;
    if (strcasecmp(text, a) == 0)
        *out = a;
    else if (strcasecmp(text, b) == 0)
        *out = b;
    else
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: '%s' must be %s or %s, not '%s'.", where, key, a, b,
                                 text);
    return 0;
}

static int bind_sort_field(const cJSON *in, size_t position, const floe_iceberg_schema_index_t *schema,
                           const floe_iceberg_id_map_t *map, cJSON *bound, floe_iceberg_error_t *err)
{
    char where[WHERE_MAX], transform[FLOE_ICEBERG_TYPE_TEXT_MAX];
    const char *direction = NULL, *null_order = NULL;
    const floe_iceberg_field_t *source;
    cJSON *out;

    snprintf(where, sizeof(where), "Sort field %zu", position + 1);
    if (!cJSON_IsObject(in))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s must be an object.", where);
    if (bind_source(in, where, schema, map, &source, transform, sizeof(transform), err) != 0 ||
        read_choice(in, "direction", where, "asc", "desc", &direction, err) != 0 ||
        read_choice(in, "null-order", where, "nulls-first", "nulls-last", &null_order, err) != 0)
        return err->code;
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "transform", transform);
    floe_iceberg_json_set_int(out, "source-id", source->id);
    cJSON_AddStringToObject(out, "direction", direction);
    cJSON_AddStringToObject(out, "null-order", null_order);
    cJSON_AddItemToArray(bound, out);
    return 0;
}

int floe_iceberg_sort_bind(const cJSON *fields_in, const floe_iceberg_schema_index_t *schema,
                           const floe_iceberg_id_map_t *source_map, cJSON **fields_out, floe_iceberg_error_t *err)
{
    cJSON *bound;
    size_t i = 0;

    if (!cJSON_IsArray(fields_in))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A sort order's 'fields' must be an array.");
    bound = cJSON_CreateArray();
    for (const cJSON *in = fields_in->child; in != NULL; in = in->next, i++) {
        if (bind_sort_field(in, i, schema, source_map, bound, err) != 0) {
            cJSON_Delete(bound);
            return err->code;
        }
    }
    *fields_out = bound;
    return 0;
}

/* ==== equality ==== */

static bool same_members(const cJSON *a, const cJSON *b, const char *const *keys)
{
    for (; *keys != NULL; keys++) {
        if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(a, *keys), cJSON_GetObjectItemCaseSensitive(b, *keys),
                           true))
            return false;
    }
    return true;
}

static bool same_fields(const cJSON *a, const cJSON *b, const char *const *keys)
{
    const cJSON *x, *y;
    if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
        return false;
    for (x = a->child, y = b->child; x != NULL && y != NULL; x = x->next, y = y->next) {
        if (!same_members(x, y, keys))
            return false;
    }
    return true;
}

bool floe_iceberg_spec_same(const cJSON *a, const cJSON *b)
{
    static const char *const keys[] = {"source-id", "transform", "name", NULL};
    return same_fields(a, b, keys);
}

bool floe_iceberg_sort_same(const cJSON *a, const cJSON *b)
{
    static const char *const keys[] = {"source-id", "transform", "direction", "null-order", NULL};
    return same_fields(a, b, keys);
}
