/*
 * The schema index, checks and fresh id assignment of iceberg_schema.h. Both walks recurse
 * through the type tree; its depth is bounded by the JSON nesting limit (iceberg_json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_schema.h"

#define WHERE_MAX 200
#define INITIAL_FIELDS 16
/* "key-id" or "value-id" */
#define ID_KEY_MAX 16

/* "field 'a.b'" for messages, or "schema" at the top. */
static void describe(const char *path, char *where, size_t size)
{
    if (path == NULL || *path == '\0')
        snprintf(where, size, "schema");
    else
        snprintf(where, size, "field '%s'", path);
}

/* parent.child, or child at the top level; the caller frees. */
static char *join_name(const char *parent, const char *child)
{
    size_t p = parent != NULL ? strlen(parent) : 0, c = strlen(child);
    char *s = floe_xmalloc(p + c + 2);
    if (p > 0) {
        memcpy(s, parent, p);
        s[p] = '.';
        memcpy(s + p + 1, child, c + 1);
    } else {
        memcpy(s, child, c + 1);
    }
    return s;
}

static int bad_type(const char *path, const char *text, floe_iceberg_error_t *err)
{
    char where[WHERE_MAX];
    describe(path, where, sizeof(where));
    if (text != NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Invalid type '%s' for %s: expected one of %s, or a struct, list or map.", text, where,
                                 floe_iceberg_primitive_names);
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                             "Invalid type for %s: expected a primitive type string or a struct, list or map object.",
                             where);
}

/* The "type" member of a nested type object: "struct", "list" or "map", else NULL. */
static const char *nested_kind(const cJSON *type)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(type, "type");
    if (!cJSON_IsString(kind))
        return NULL;
    if (strcmp(kind->valuestring, "struct") == 0 || strcmp(kind->valuestring, "list") == 0 ||
        strcmp(kind->valuestring, "map") == 0)
        return kind->valuestring;
    return NULL;
}

/* Two sibling struct fields with the same name: the later one is at index i. */
static bool name_repeats(const cJSON *fields, const cJSON *field, const char *name)
{
    for (const cJSON *f = fields->child; f != NULL && f != field; f = f->next) {
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(f, "name");
        if (cJSON_IsString(other) && strcmp(other->valuestring, name) == 0)
            return true;
    }
    return false;
}

/* ==== index ==== */

typedef struct index_walk {
    floe_iceberg_schema_index_t *idx;
    floe_iceberg_error_t *err;
} index_walk_t;

typedef struct field_context {
    bool in_collection;
    bool under_optional;
} field_context_t;

static int index_type(index_walk_t *w, const cJSON *type, const char *path, field_context_t ctx);

static int add_field(index_walk_t *w, int32_t id, const char *name, const cJSON *type, bool required,
                     field_context_t ctx)
{
    floe_iceberg_schema_index_t *idx = w->idx;
    floe_iceberg_field_t *f;
    const floe_iceberg_field_t *twin = floe_iceberg_schema_find(idx, id);

    if (id < 0)
        return floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "Field '%s' has a negative id %d.", name, (int)id);
    if (twin != NULL)
        return floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "Field id %d is used by both '%s' and '%s'.", (int)id,
                                 twin->name, name);
    if (idx->n_fields == idx->cap_fields) {
        idx->cap_fields = idx->cap_fields ? idx->cap_fields * 2 : INITIAL_FIELDS;
        idx->fields = floe_xrealloc(idx->fields, idx->cap_fields * sizeof(*idx->fields));
    }
    f = &idx->fields[idx->n_fields++];
    *f = (floe_iceberg_field_t){.id = id,
                                .name = floe_xstrdup(name),
                                .type = type,
                                .required = required,
                                .in_collection = ctx.in_collection,
                                .under_optional = ctx.under_optional};
    if (cJSON_IsString(type))
        f->is_primitive = floe_iceberg_primitive_parse(type->valuestring, &f->primitive) == 0;
    if (id > idx->highest_id)
        idx->highest_id = id;
    return 0;
}

static int index_struct(index_walk_t *w, const cJSON *type, const char *path, field_context_t ctx)
{
    const cJSON *fields;
    char where[WHERE_MAX];

    describe(path, where, sizeof(where));
    if (floe_iceberg_json_get_array(type, "fields", where, &fields, w->err) != 0)
        return w->err->code;
    for (const cJSON *f = fields->child; f != NULL; f = f->next) {
        int32_t id;
        const char *name;
        bool required;
        const cJSON *child_type = cJSON_GetObjectItemCaseSensitive(f, "type");
        char *full;
        int rc;

        if (!cJSON_IsObject(f))
            return floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "%s: every entry of 'fields' must be an object.",
                                     where);
        if (floe_iceberg_json_get_string(f, "name", where, &name, w->err) != 0)
            return w->err->code;
        full = join_name(path, name);
        describe(full, where, sizeof(where));
        rc = floe_iceberg_json_get_int32(f, "id", where, &id, w->err);
        if (rc == 0)
            rc = floe_iceberg_json_get_bool(f, "required", where, &required, w->err);
        if (rc == 0 && child_type == NULL)
            rc = floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "%s: 'type' is required.", where);
        if (rc == 0 && name_repeats(fields, f, name))
            rc = floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "Duplicate field name '%s'.", full);
        if (rc == 0)
            rc = add_field(w, id, full, child_type, required, ctx);
        if (rc == 0)
            w->idx->fields[w->idx->n_fields - 1].object = f;
        if (rc == 0)
            rc = index_type(w, child_type, full, (field_context_t){ctx.in_collection, ctx.under_optional || !required});
        free(full);
        if (rc != 0)
            return rc;
        describe(path, where, sizeof(where));
    }
    return 0;
}

static int index_list(index_walk_t *w, const cJSON *type, const char *path)
{
    int32_t id;
    bool required;
    const cJSON *element = cJSON_GetObjectItemCaseSensitive(type, "element");
    char where[WHERE_MAX], *name;
    int rc;

    describe(path, where, sizeof(where));
    if (floe_iceberg_json_get_int32(type, "element-id", where, &id, w->err) != 0 ||
        floe_iceberg_json_get_bool(type, "element-required", where, &required, w->err) != 0)
        return w->err->code;
    if (element == NULL)
        return floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "%s: 'element' is required.", where);
    name = join_name(path, "element");
    rc = add_field(w, id, name, element, required, (field_context_t){true, !required});
    if (rc == 0)
        rc = index_type(w, element, name, (field_context_t){true, !required});
    free(name);
    return rc;
}

static int index_map_part(index_walk_t *w, const cJSON *type, const char *path, const char *part, bool required)
{
    char id_key[ID_KEY_MAX], where[WHERE_MAX], *name;
    const cJSON *child = cJSON_GetObjectItemCaseSensitive(type, part);
    int32_t id;
    int rc;

    describe(path, where, sizeof(where));
    snprintf(id_key, sizeof(id_key), "%s-id", part);
    if (floe_iceberg_json_get_int32(type, id_key, where, &id, w->err) != 0)
        return w->err->code;
    if (child == NULL)
        return floe_iceberg_fail(w->err, FLOE_ICEBERG_EINVALID, "%s: '%s' is required.", where, part);
    name = join_name(path, part);
    rc = add_field(w, id, name, child, required, (field_context_t){true, !required});
    if (rc == 0)
        rc = index_type(w, child, name, (field_context_t){true, !required});
    free(name);
    return rc;
}

static int index_map(index_walk_t *w, const cJSON *type, const char *path)
{
    bool value_required;
    char where[WHERE_MAX];

    describe(path, where, sizeof(where));
    if (floe_iceberg_json_get_bool(type, "value-required", where, &value_required, w->err) != 0)
        return w->err->code;
    /* Iceberg map keys are always required. */
    if (index_map_part(w, type, path, "key", true) != 0)
        return w->err->code;
    return index_map_part(w, type, path, "value", value_required);
}

static int index_type(index_walk_t *w, const cJSON *type, const char *path, field_context_t ctx)
{
    floe_iceberg_primitive_t p;
    const char *kind;

    if (cJSON_IsString(type))
        return floe_iceberg_primitive_parse(type->valuestring, &p) == 0 ? 0 : bad_type(path, type->valuestring, w->err);
    kind = cJSON_IsObject(type) ? nested_kind(type) : NULL;
    if (kind == NULL)
        return bad_type(path, NULL, w->err);
    if (strcmp(kind, "struct") == 0)
        return index_struct(w, type, path, ctx);
    if (strcmp(kind, "list") == 0)
        return index_list(w, type, path);
    return index_map(w, type, path);
}

static int check_identifier(const floe_iceberg_schema_index_t *idx, const cJSON *item, floe_iceberg_error_t *err)
{
    int64_t id;
    const floe_iceberg_field_t *f;
    const char *why = NULL;

    if (floe_iceberg_json_int64(item, &id) != 0 || id < INT32_MIN || id > INT32_MAX)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "schema: 'identifier-field-ids' must hold integers.");
    f = floe_iceberg_schema_find(idx, (int32_t)id);
    if (f == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Identifier field id %d is not a field of the schema.",
                                 (int)id);
    if (!f->is_primitive)
        why = "it is not a primitive field";
    else if (!f->required)
        why = "it is not a required field";
    else if (f->primitive.kind == FLOE_ICEBERG_FLOAT || f->primitive.kind == FLOE_ICEBERG_DOUBLE)
        why = "it is a float or double field";
    else if (f->in_collection)
        why = "it is nested in a list or map";
    else if (f->under_optional)
        why = "it is nested in an optional field";
    if (why != NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Field '%s' cannot be an identifier field: %s.", f->name,
                                 why);
    return 0;
}

static int check_identifiers(const cJSON *schema, const floe_iceberg_schema_index_t *idx, floe_iceberg_error_t *err)
{
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(schema, "identifier-field-ids");

    if (ids == NULL || cJSON_IsNull(ids))
        return 0;
    if (!cJSON_IsArray(ids))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "schema: 'identifier-field-ids' must be an array.");
    for (const cJSON *item = ids->child; item != NULL; item = item->next) {
        if (check_identifier(idx, item, err) != 0)
            return err->code;
    }
    return 0;
}

int floe_iceberg_schema_index(const cJSON *schema, floe_iceberg_schema_index_t *idx, floe_iceberg_error_t *err)
{
    index_walk_t w = {idx, err};
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(schema, "type");

    memset(idx, 0, sizeof(*idx));
    if (!cJSON_IsObject(schema))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A schema must be a JSON object.");
    if (kind != NULL && !(cJSON_IsString(kind) && strcmp(kind->valuestring, "struct") == 0))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "schema: 'type' must be \"struct\".");
    if (index_struct(&w, schema, NULL, (field_context_t){false, false}) != 0 ||
        check_identifiers(schema, idx, err) != 0) {
        floe_iceberg_schema_index_dispose(idx);
        return err->code;
    }
    return 0;
}

void floe_iceberg_schema_index_dispose(floe_iceberg_schema_index_t *idx)
{
    for (size_t i = 0; i < idx->n_fields; i++)
        free(idx->fields[i].name);
    free(idx->fields);
    memset(idx, 0, sizeof(*idx));
}

const floe_iceberg_field_t *floe_iceberg_schema_find(const floe_iceberg_schema_index_t *idx, int32_t id)
{
    for (size_t i = 0; i < idx->n_fields; i++) {
        if (idx->fields[i].id == id)
            return &idx->fields[i];
    }
    return NULL;
}

const floe_iceberg_field_t *floe_iceberg_schema_find_name(const floe_iceberg_schema_index_t *idx, const char *name)
{
    for (size_t i = 0; i < idx->n_fields; i++) {
        if (strcmp(idx->fields[i].name, name) == 0)
            return &idx->fields[i];
    }
    return NULL;
}

/* ==== equality ==== */

/* A copy without schema-id, with an empty identifier list dropped and the struct type spelled. */
static cJSON *comparable(const cJSON *schema)
{
    cJSON *copy = cJSON_Duplicate(schema, true);
    const cJSON *ids;

    if (copy == NULL)
        abort();
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "schema-id");
    ids = cJSON_GetObjectItemCaseSensitive(copy, "identifier-field-ids");
    if (ids != NULL && (cJSON_IsNull(ids) || cJSON_GetArraySize(ids) == 0))
        cJSON_DeleteItemFromObjectCaseSensitive(copy, "identifier-field-ids");
    if (cJSON_GetObjectItemCaseSensitive(copy, "type") == NULL)
        cJSON_AddStringToObject(copy, "type", "struct");
    return copy;
}

bool floe_iceberg_schema_same(const cJSON *a, const cJSON *b)
{
    cJSON *ca = comparable(a), *cb = comparable(b);
    bool same = cJSON_Compare(ca, cb, true);
    cJSON_Delete(ca);
    cJSON_Delete(cb);
    return same;
}

/* ==== fresh ids ==== */

typedef struct fresh {
    int32_t last_id;
    floe_iceberg_id_map_t *map;
    floe_iceberg_error_t *err;
} fresh_t;

int floe_iceberg_id_map_get(const floe_iceberg_id_map_t *map, int32_t from, int32_t *to)
{
    for (size_t i = 0; i < map->n; i++) {
        if (map->pairs[i].from == from) {
            *to = map->pairs[i].to;
            return 0;
        }
    }
    return -1;
}

void floe_iceberg_id_map_dispose(floe_iceberg_id_map_t *map)
{
    free(map->pairs);
    memset(map, 0, sizeof(*map));
}

/* Records that the input's `key` id (if the input has one) became `to`. */
static int map_input_id(fresh_t *f, const cJSON *in, const char *key, const char *path, int32_t to)
{
    int32_t from, ignored;
    char where[WHERE_MAX];

    describe(path, where, sizeof(where));
    if (cJSON_GetObjectItemCaseSensitive(in, key) == NULL)
        return 0;
    if (floe_iceberg_json_get_opt_int32(in, key, where, &from, f->err) != 0)
        return f->err->code;
    if (floe_iceberg_id_map_get(f->map, from, &ignored) == 0)
        return floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "Field id %d is used twice in the input schema.",
                                 (int)from);
    if (f->map->n == f->map->cap) {
        f->map->cap = f->map->cap ? f->map->cap * 2 : INITIAL_FIELDS;
        f->map->pairs = floe_xrealloc(f->map->pairs, f->map->cap * sizeof(*f->map->pairs));
    }
    f->map->pairs[f->map->n++] = (struct floe_iceberg_id_pair){from, to};
    return 0;
}

static cJSON *fresh_type(fresh_t *f, const cJSON *in, const char *path);

/* initial-default and write-default (v3) travel with the field; floe_iceberg_schema_check_version
 * judges them once the table's format version is known. */
static void copy_defaults(const cJSON *in, cJSON *out)
{
    static const char *const keys[] = {"initial-default", "write-default"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(in, keys[i]);
        if (v != NULL && !cJSON_IsNull(v))
            cJSON_AddItemToObject(out, keys[i], cJSON_Duplicate(v, true));
    }
}

static cJSON *fresh_field(fresh_t *f, const cJSON *in, int32_t id, const char *parent)
{
    const char *name, *doc = NULL;
    bool required;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(in, "type"), *doc_item;
    char where[WHERE_MAX], *full;
    cJSON *out, *fresh;

    describe(parent, where, sizeof(where));
    if (floe_iceberg_json_get_string(in, "name", where, &name, f->err) != 0)
        return NULL;
    full = join_name(parent, name);
    describe(full, where, sizeof(where));
    doc_item = cJSON_GetObjectItemCaseSensitive(in, "doc");
    if (doc_item != NULL && !cJSON_IsNull(doc_item) &&
        floe_iceberg_json_get_string(in, "doc", where, &doc, f->err) != 0)
        goto Fail;
    if (floe_iceberg_json_get_bool(in, "required", where, &required, f->err) != 0)
        goto Fail;
    if (type == NULL) {
        floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "%s: 'type' is required.", where);
        goto Fail;
    }
    if ((fresh = fresh_type(f, type, full)) == NULL)
        goto Fail;
    free(full);
    out = cJSON_CreateObject();
    floe_iceberg_json_set_int(out, "id", id);
    cJSON_AddStringToObject(out, "name", name);
    cJSON_AddBoolToObject(out, "required", required);
    cJSON_AddItemToObject(out, "type", fresh);
    if (doc != NULL)
        cJSON_AddStringToObject(out, "doc", doc);
    copy_defaults(in, out);
    return out;
Fail:
    free(full);
    return NULL;
}

static cJSON *fresh_struct(fresh_t *f, const cJSON *in, const char *path)
{
    const cJSON *fields;
    char where[WHERE_MAX];
    size_t n, i;
    int32_t *ids = NULL;
    cJSON *out = NULL, *out_fields;

    describe(path, where, sizeof(where));
    if (floe_iceberg_json_get_array(in, "fields", where, &fields, f->err) != 0)
        return NULL;
    n = (size_t)cJSON_GetArraySize(fields);
    ids = floe_xcalloc(n + 1, sizeof(*ids));
    /* A struct's own fields take ids before any of their types is visited (AssignFreshIds.struct). */
    i = 0;
    for (const cJSON *fld = fields->child; fld != NULL; fld = fld->next, i++) {
        if (!cJSON_IsObject(fld)) {
            floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "%s: every entry of 'fields' must be an object.", where);
            goto Exit;
        }
        ids[i] = ++f->last_id;
        if (map_input_id(f, fld, "id", path, ids[i]) != 0)
            goto Exit;
    }
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "type", "struct");
    out_fields = cJSON_AddArrayToObject(out, "fields");
    i = 0;
    for (const cJSON *fld = fields->child; fld != NULL; fld = fld->next, i++) {
        cJSON *nf = fresh_field(f, fld, ids[i], path);
        if (nf == NULL) {
            cJSON_Delete(out);
            out = NULL;
            goto Exit;
        }
        cJSON_AddItemToArray(out_fields, nf);
    }
Exit:
    free(ids);
    return out;
}

static cJSON *fresh_list(fresh_t *f, const cJSON *in, const char *path)
{
    int32_t id = ++f->last_id;
    bool required;
    const cJSON *element = cJSON_GetObjectItemCaseSensitive(in, "element");
    char where[WHERE_MAX], *name;
    cJSON *fresh, *out;

    describe(path, where, sizeof(where));
    if (map_input_id(f, in, "element-id", path, id) != 0 ||
        floe_iceberg_json_get_bool(in, "element-required", where, &required, f->err) != 0)
        return NULL;
    if (element == NULL) {
        floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "%s: 'element' is required.", where);
        return NULL;
    }
    name = join_name(path, "element");
    fresh = fresh_type(f, element, name);
    free(name);
    if (fresh == NULL)
        return NULL;
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "type", "list");
    floe_iceberg_json_set_int(out, "element-id", id);
    cJSON_AddItemToObject(out, "element", fresh);
    cJSON_AddBoolToObject(out, "element-required", required);
    return out;
}

static cJSON *fresh_map_part(fresh_t *f, const cJSON *in, const char *path, const char *part)
{
    const cJSON *child = cJSON_GetObjectItemCaseSensitive(in, part);
    char where[WHERE_MAX], *name;
    cJSON *fresh;

    if (child == NULL) {
        describe(path, where, sizeof(where));
        floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "%s: '%s' is required.", where, part);
        return NULL;
    }
    name = join_name(path, part);
    fresh = fresh_type(f, child, name);
    free(name);
    return fresh;
}

static cJSON *fresh_map(fresh_t *f, const cJSON *in, const char *path)
{
    int32_t key_id = ++f->last_id, value_id = ++f->last_id;
    bool value_required;
    char where[WHERE_MAX];
    cJSON *key, *value, *out;

    describe(path, where, sizeof(where));
    if (map_input_id(f, in, "key-id", path, key_id) != 0 || map_input_id(f, in, "value-id", path, value_id) != 0 ||
        floe_iceberg_json_get_bool(in, "value-required", where, &value_required, f->err) != 0)
        return NULL;
    if ((key = fresh_map_part(f, in, path, "key")) == NULL)
        return NULL;
    if ((value = fresh_map_part(f, in, path, "value")) == NULL) {
        cJSON_Delete(key);
        return NULL;
    }
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "type", "map");
    floe_iceberg_json_set_int(out, "key-id", key_id);
    cJSON_AddItemToObject(out, "key", key);
    floe_iceberg_json_set_int(out, "value-id", value_id);
    cJSON_AddItemToObject(out, "value", value);
    cJSON_AddBoolToObject(out, "value-required", value_required);
    return out;
}

static cJSON *fresh_type(fresh_t *f, const cJSON *in, const char *path)
{
    floe_iceberg_primitive_t p;
    char canonical[FLOE_ICEBERG_TYPE_TEXT_MAX];
    const char *kind;

    if (cJSON_IsString(in)) {
        if (floe_iceberg_primitive_parse(in->valuestring, &p) != 0) {
            bad_type(path, in->valuestring, f->err);
            return NULL;
        }
        floe_iceberg_primitive_format(&p, canonical, sizeof(canonical));
        return cJSON_CreateString(canonical);
    }
    kind = cJSON_IsObject(in) ? nested_kind(in) : NULL;
    if (kind == NULL) {
        bad_type(path, NULL, f->err);
        return NULL;
    }
    if (strcmp(kind, "struct") == 0)
        return fresh_struct(f, in, path);
    if (strcmp(kind, "list") == 0)
        return fresh_list(f, in, path);
    return fresh_map(f, in, path);
}

/* Translates the input's identifier-field-ids into the fresh ids. */
static int fresh_identifiers(fresh_t *f, const cJSON *schema_in, cJSON *schema_out)
{
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(schema_in, "identifier-field-ids");
    cJSON *out;

    if (ids == NULL || cJSON_IsNull(ids))
        return 0;
    if (!cJSON_IsArray(ids))
        return floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID, "schema: 'identifier-field-ids' must be an array.");
    out = cJSON_CreateArray();
    for (const cJSON *item = ids->child; item != NULL; item = item->next) {
        int64_t from;
        int32_t to;
        if (floe_iceberg_json_int64(item, &from) != 0 || from < INT32_MIN || from > INT32_MAX ||
            floe_iceberg_id_map_get(f->map, (int32_t)from, &to) != 0) {
            cJSON_Delete(out);
            return floe_iceberg_fail(f->err, FLOE_ICEBERG_EINVALID,
                                     "schema: identifier-field-ids must name field ids of the schema.");
        }
        cJSON_AddItemToArray(out, floe_iceberg_json_new_int(to));
    }
    if (cJSON_GetArraySize(out) > 0)
        floe_iceberg_json_set(schema_out, "identifier-field-ids", out);
    else
        cJSON_Delete(out);
    return 0;
}

/* Puts "type" and "schema-id" first and "fields" last, as Java's SchemaParser writes them. */
static cJSON *arrange_schema(cJSON *fresh)
{
    cJSON *out = cJSON_CreateObject();
    cJSON *ids = cJSON_DetachItemFromObjectCaseSensitive(fresh, "identifier-field-ids");

    cJSON_AddStringToObject(out, "type", "struct");
    floe_iceberg_json_set_int(out, "schema-id", 0);
    if (ids != NULL)
        cJSON_AddItemToObject(out, "identifier-field-ids", ids);
    cJSON_AddItemToObject(out, "fields", cJSON_DetachItemFromObjectCaseSensitive(fresh, "fields"));
    cJSON_Delete(fresh);
    return out;
}

int floe_iceberg_schema_fresh(const cJSON *schema_in, cJSON **schema_out, floe_iceberg_id_map_t *map,
                              int32_t *last_column_id, floe_iceberg_error_t *err)
{
    fresh_t f = {0, map, err};
    floe_iceberg_schema_index_t idx;
    cJSON *out;

    memset(map, 0, sizeof(*map));
    if (!cJSON_IsObject(schema_in))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A schema must be a JSON object.");
    out = fresh_struct(&f, schema_in, NULL);
    if (out == NULL || fresh_identifiers(&f, schema_in, out) != 0)
        goto Fail;
    out = arrange_schema(out);
    /* The fresh tree is well-typed; the index adds the name and identifier-field checks. */
    if (floe_iceberg_schema_index(out, &idx, err) != 0)
        goto Fail;
    floe_iceberg_schema_index_dispose(&idx);
    *schema_out = out;
    *last_column_id = f.last_id;
    return 0;
Fail:
    cJSON_Delete(out);
    floe_iceberg_id_map_dispose(map);
    return err->code;
}
