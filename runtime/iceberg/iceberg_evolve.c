/*
 * The format-version and evolution rules of iceberg_evolve.h, on the field index of
 * iceberg_schema.h: each check walks the index once.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "iceberg/iceberg_evolve.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"

#define V3 3
#define DEFAULT_TEXT_MAX 64
#define UUID_TEXT_LEN 36

static bool is_hex_of_length(const char *s, long bytes)
{
    size_t n = strlen(s);
    if (n % 2 != 0 || (bytes >= 0 && n != (size_t)bytes * 2))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)s[i]))
            return false;
    }
    return true;
}

/* -?digits[.digits] with exactly `scale` digits after the point (Java parses a BigDecimal and
 * requires the column's scale). */
static bool is_decimal_text(const char *s, int32_t scale)
{
    const char *dot;
    if (*s == '-')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    dot = s;
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0' && (*dot == '.' ? (int32_t)(s - dot - 1) : 0) == scale;
}

static bool primitive_value_ok(const floe_iceberg_primitive_t *p, const cJSON *v)
{
    int64_t i;

    switch (p->kind) {
    case FLOE_ICEBERG_BOOLEAN: return cJSON_IsBool(v);
    case FLOE_ICEBERG_INT: return floe_iceberg_json_int64(v, &i) == 0 && i >= INT32_MIN && i <= INT32_MAX;
    case FLOE_ICEBERG_LONG: return floe_iceberg_json_int64(v, &i) == 0;
    case FLOE_ICEBERG_FLOAT:
    case FLOE_ICEBERG_DOUBLE: return cJSON_IsNumber(v);
    case FLOE_ICEBERG_DECIMAL: return cJSON_IsString(v) && is_decimal_text(v->valuestring, p->scale);
    case FLOE_ICEBERG_UUID: return cJSON_IsString(v) && strlen(v->valuestring) == UUID_TEXT_LEN;
    case FLOE_ICEBERG_FIXED: return cJSON_IsString(v) && is_hex_of_length(v->valuestring, p->length);
    case FLOE_ICEBERG_BINARY: return cJSON_IsString(v) && is_hex_of_length(v->valuestring, -1);
    case FLOE_ICEBERG_VARIANT:
    case FLOE_ICEBERG_UNKNOWN:
    case FLOE_ICEBERG_GEOMETRY:
    case FLOE_ICEBERG_GEOGRAPHY: return false; /* null only */
    default: return cJSON_IsString(v);           /* date, time, timestamps, string: ISO text */
    }
}

/* A nested default: the JSON container of its kind (struct: object, list: array, map: object of
 * "keys" and "values" arrays); members are not checked one by one. */
static bool nested_value_ok(const cJSON *type, const cJSON *v)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(type, "type");
    if (!cJSON_IsString(kind))
        return false;
    if (strcmp(kind->valuestring, "list") == 0)
        return cJSON_IsArray(v);
    if (strcmp(kind->valuestring, "map") == 0)
        return cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(v, "keys")) &&
               cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(v, "values"));
    return cJSON_IsObject(v);
}

static int check_default(const floe_iceberg_field_t *f, const char *key, int format_version,
                         floe_iceberg_error_t *err)
{
    const cJSON *v = f->object != NULL ? cJSON_GetObjectItemCaseSensitive(f->object, key) : NULL;
    char text[DEFAULT_TEXT_MAX];
    char *printed;
    bool ok;

    if (v == NULL || cJSON_IsNull(v))
        return 0;
    printed = cJSON_PrintUnformatted(v);
    snprintf(text, sizeof(text), "%s", printed != NULL ? printed : "?");
    cJSON_free(printed);
    if (format_version < V3 && strcmp(key, "initial-default") == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Invalid schema for v%d:\n- Invalid initial default for %s: non-null default (%s) is "
                                 "not supported until v%d",
                                 format_version, f->name, text, V3);
    ok = f->is_primitive ? primitive_value_ok(&f->primitive, v) : nested_value_ok(f->type, v);
    if (!ok)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Invalid %s for %s: %s is not a valid value of its type.",
                                 key, f->name, text);
    return 0;
}

int floe_iceberg_schema_check_version(const cJSON *schema, int format_version, floe_iceberg_error_t *err)
{
    floe_iceberg_schema_index_t idx;
    char type_text[FLOE_ICEBERG_TYPE_TEXT_MAX];
    int rc = 0;

    if (floe_iceberg_schema_index(schema, &idx, err) != 0)
        return err->code;
    for (size_t i = 0; i < idx.n_fields && rc == 0; i++) {
        const floe_iceberg_field_t *f = &idx.fields[i];
        int needs = f->is_primitive ? floe_iceberg_primitive_min_version(&f->primitive) : 1;
        if (format_version < needs) {
            floe_iceberg_primitive_format(&f->primitive, type_text, sizeof(type_text));
            rc = floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                   "Invalid schema for v%d:\n- Invalid type for %s: %s is not supported until v%d",
                                   format_version, f->name, type_text, needs);
        }
        if (rc == 0)
            rc = check_default(f, "initial-default", format_version, err);
        if (rc == 0)
            rc = check_default(f, "write-default", format_version, err);
    }
    floe_iceberg_schema_index_dispose(&idx);
    return rc;
}

int floe_iceberg_schemas_check_version(const cJSON *schemas, int format_version, floe_iceberg_error_t *err)
{
    for (const cJSON *s = schemas != NULL ? schemas->child : NULL; s != NULL; s = s->next) {
        if (floe_iceberg_schema_check_version(s, format_version, err) != 0)
            return err->code;
    }
    return 0;
}

/* The spec's allowed promotions ("Schema Evolution"). */
static bool promotes(const floe_iceberg_primitive_t *from, const floe_iceberg_primitive_t *to, int format_version)
{
    if (from->kind == to->kind) {
        if (from->kind == FLOE_ICEBERG_DECIMAL)
            return from->scale == to->scale && to->precision >= from->precision;
        if (from->kind == FLOE_ICEBERG_FIXED)
            return from->length == to->length;
        if (from->kind == FLOE_ICEBERG_GEOMETRY || from->kind == FLOE_ICEBERG_GEOGRAPHY)
            return strcmp(from->crs, to->crs) == 0 && from->algorithm == to->algorithm;
        return true;
    }
    if (from->kind == FLOE_ICEBERG_INT && to->kind == FLOE_ICEBERG_LONG)
        return true;
    if (from->kind == FLOE_ICEBERG_FLOAT && to->kind == FLOE_ICEBERG_DOUBLE)
        return true;
    return format_version >= V3 && from->kind == FLOE_ICEBERG_DATE &&
           (to->kind == FLOE_ICEBERG_TIMESTAMP || to->kind == FLOE_ICEBERG_TIMESTAMP_NS);
}

/* A nested type's kind ("struct", "list", "map"), or "" for a primitive. */
static const char *kind_of(const floe_iceberg_field_t *f)
{
    const cJSON *k = f->is_primitive ? NULL : cJSON_GetObjectItemCaseSensitive(f->type, "type");
    return cJSON_IsString(k) ? k->valuestring : "";
}

static bool type_change_ok(const floe_iceberg_field_t *was, const floe_iceberg_field_t *now, int format_version)
{
    if (was->is_primitive && was->primitive.kind == FLOE_ICEBERG_UNKNOWN)
        return format_version >= V3;
    if (was->is_primitive != now->is_primitive)
        return false;
    if (was->is_primitive)
        return promotes(&was->primitive, &now->primitive, format_version);
    return strcmp(kind_of(was), kind_of(now)) == 0;
}

static void describe_type(const floe_iceberg_field_t *f, char *buf, size_t size)
{
    if (f->is_primitive)
        floe_iceberg_primitive_format(&f->primitive, buf, size);
    else
        snprintf(buf, size, "%s", kind_of(f));
}

static int check_field_change(const floe_iceberg_field_t *was, const floe_iceberg_field_t *now, int format_version,
                              floe_iceberg_error_t *err)
{
    char from[FLOE_ICEBERG_TYPE_TEXT_MAX], to[FLOE_ICEBERG_TYPE_TEXT_MAX];
    const cJSON *old_default, *new_default;

    if (!type_change_ok(was, now, format_version)) {
        describe_type(was, from, sizeof(from));
        describe_type(now, to, sizeof(to));
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot change column type: %s: %s -> %s", now->name,
                                 from, to);
    }
    old_default = was->object != NULL ? cJSON_GetObjectItemCaseSensitive(was->object, "initial-default") : NULL;
    new_default = now->object != NULL ? cJSON_GetObjectItemCaseSensitive(now->object, "initial-default") : NULL;
    if (old_default != NULL && !cJSON_IsNull(old_default) &&
        (new_default == NULL || !cJSON_Compare(old_default, new_default, true)))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot change the initial default of %s: it is fixed once set.", now->name);
    return 0;
}

static int check_added_field(const floe_iceberg_field_t *now, int format_version, floe_iceberg_error_t *err)
{
    const cJSON *initial = now->object != NULL ? cJSON_GetObjectItemCaseSensitive(now->object, "initial-default") : NULL;

    if (format_version >= V3 && now->object != NULL && now->required && !now->under_optional &&
        (initial == NULL || cJSON_IsNull(initial)))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Incompatible change: cannot add required column without a default value: %s",
                                 now->name);
    return 0;
}

int floe_iceberg_schema_check_evolution(const cJSON *current, const cJSON *next, int format_version,
                                        int32_t last_column_id, bool has_rows, floe_iceberg_error_t *err)
{
    floe_iceberg_schema_index_t was, now;
    int rc = 0;

    if (floe_iceberg_schema_index(current, &was, err) != 0)
        return err->code;
    if (floe_iceberg_schema_index(next, &now, err) != 0) {
        floe_iceberg_schema_index_dispose(&was);
        return err->code;
    }
    for (size_t i = 0; i < now.n_fields && rc == 0; i++) {
        const floe_iceberg_field_t *f = &now.fields[i];
        const floe_iceberg_field_t *old = floe_iceberg_schema_find(&was, f->id);
        if (old != NULL)
            rc = check_field_change(old, f, format_version, err);
        else if (f->id > last_column_id && has_rows)
            rc = check_added_field(f, format_version, err);
    }
    floe_iceberg_schema_index_dispose(&was);
    floe_iceberg_schema_index_dispose(&now);
    return rc;
}
