/*
 * The pre-check of writer's schemas before Avro C parses them (avro_schema.h). Follows the Avro
 * spec's "Schema Declaration".
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/xalloc.h"
#include "iceberg/avro_container.h"
#include "iceberg/avro_datum.h"
#include "iceberg/avro_schema.h"

/** The most named types one schema may define. */
#define NAMES_MAX 4096

typedef struct names {
    const char *name[NAMES_MAX];
    size_t n;
} names_t;

static const char *const primitives[] = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"};

static bool is_primitive(const char *s)
{
    for (size_t i = 0; i < sizeof(primitives) / sizeof(primitives[0]); i++)
        if (strcmp(s, primitives[i]) == 0)
            return true;
    return false;
}

/* An Avro name: [A-Za-z_][A-Za-z0-9_]*, dotted segments allowed for full names. */
static bool is_name(const char *s)
{
    bool at_start = true;

    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '.' && !at_start) {
            at_start = true;
            continue;
        }
        if (!(isalpha(c) || c == '_' || (!at_start && isdigit(c))) || c >= 0x80)
            return false;
        at_start = false;
    }
    return !at_start;
}

static bool is_defined(const names_t *names, const char *s)
{
    for (size_t i = 0; i < names->n; i++)
        if (strcmp(names->name[i], s) == 0)
            return true;
    return false;
}

static const char *string_member(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int check_type(const cJSON *t, names_t *names, int depth);

/* A record's, enum's or fixed's name: valid and not defined before. */
static int define(const cJSON *o, names_t *names)
{
    const char *name = string_member(o, "name");

    if (name == NULL || !is_name(name) || is_primitive(name) || is_defined(names, name) || names->n == NAMES_MAX)
        return -1;
    names->name[names->n++] = name;
    return 0;
}

/* Names in `list` (fields' "name" members, or enum symbols when is_symbols) are valid and distinct. */
static int check_distinct(const cJSON *list, bool is_symbols)
{
    for (const cJSON *a = list->child; a != NULL; a = a->next) {
        const char *x = is_symbols ? cJSON_GetStringValue(a) : string_member(a, "name");
        if (x == NULL || !is_name(x))
            return -1;
        for (const cJSON *b = list->child; b != a; b = b->next)
            if (strcmp(x, is_symbols ? cJSON_GetStringValue(b) : string_member(b, "name")) == 0)
                return -1;
    }
    return 0;
}

static int check_record(const cJSON *o, names_t *names, int depth)
{
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(o, "fields");

    if (define(o, names) != 0 || !cJSON_IsArray(fields) || check_distinct(fields, false) != 0)
        return -1;
    for (const cJSON *f = fields->child; f != NULL; f = f->next)
        if (!cJSON_IsObject(f) || check_type(cJSON_GetObjectItemCaseSensitive(f, "type"), names, depth + 1) != 0)
            return -1;
    return 0;
}

static int check_object(const cJSON *o, names_t *names, int depth)
{
    const char *type = string_member(o, "type");
    const cJSON *size;

    if (type == NULL)
        return -1;
    if (is_primitive(type))
        return 0;
    if (strcmp(type, "record") == 0 || strcmp(type, "error") == 0)
        return check_record(o, names, depth);
    if (strcmp(type, "enum") == 0) {
        const cJSON *symbols = cJSON_GetObjectItemCaseSensitive(o, "symbols");
        return define(o, names) == 0 && cJSON_IsArray(symbols) && check_distinct(symbols, true) == 0 ? 0 : -1;
    }
    if (strcmp(type, "fixed") == 0) {
        size = cJSON_GetObjectItemCaseSensitive(o, "size");
        return define(o, names) == 0 && cJSON_IsNumber(size) && size->valuedouble >= 0 &&
                       size->valuedouble <= INT32_MAX && size->valuedouble == (double)(int32_t)size->valuedouble
                   ? 0
                   : -1;
    }
    if (strcmp(type, "array") == 0)
        return check_type(cJSON_GetObjectItemCaseSensitive(o, "items"), names, depth + 1);
    if (strcmp(type, "map") == 0)
        return check_type(cJSON_GetObjectItemCaseSensitive(o, "values"), names, depth + 1);
    return is_defined(names, type) ? 0 : -1;
}

static int check_type(const cJSON *t, names_t *names, int depth)
{
    if (t == NULL || depth > FLOE_AVRO_DEPTH_MAX)
        return -1;
    if (cJSON_IsString(t))
        return is_primitive(t->valuestring) || is_defined(names, t->valuestring) ? 0 : -1;
    if (cJSON_IsArray(t)) { /* a union: of anything but unions */
        if (t->child == NULL)
            return -1;
        for (const cJSON *b = t->child; b != NULL; b = b->next)
            if (cJSON_IsArray(b) || check_type(b, names, depth + 1) != 0)
                return -1;
        return 0;
    }
    return cJSON_IsObject(t) ? check_object(t, names, depth) : -1;
}

int floe_avro_schema_check(const char *json, size_t len, char *err, size_t err_size)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    names_t *names;
    int rc;

    if (root == NULL)
        return floe_avro_fail(err, err_size, "header: avro.schema is not JSON");
    names = floe_xcalloc(1, sizeof(*names)); /* NAMES_MAX pointers: off the stack */
    rc = check_type(root, names, 0);
    free(names);
    cJSON_Delete(root);
    return rc == 0 ? 0 : floe_avro_fail(err, err_size, "header: avro.schema is not an Avro schema Floe reads");
}
