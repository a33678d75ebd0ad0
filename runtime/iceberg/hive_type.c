/*
 * The Hive type parser of hive_type.h, recursive descent over
 *
 *   type      = primitive | "array<" type ">" | "map<" type "," type ">"
 *             | "struct<" [ name ":" type { "," name ":" type } ] ">"
 *   primitive = word [ "(" digits { "," digits } ")" ]
 *
 * with the primitives Iceberg's own Hive conversion accepts (tinyint and smallint widen to int,
 * char and varchar are strings).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iceberg/hive_type.h"

#define MAX_DEPTH 32
#define WORD_MAX 128

typedef struct parser {
    const char *p;
    int depth;
    floe_iceberg_error_t *err;
} parser_t;

static cJSON *parse_type(parser_t *ps);

static void skip_space(parser_t *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool eat(parser_t *ps, char c)
{
    skip_space(ps);
    if (*ps->p != c)
        return false;
    ps->p++;
    return true;
}

/* A name or keyword ([A-Za-z0-9_]+) into buf; false when there is none or it does not fit. */
static bool read_word(parser_t *ps, char buf[WORD_MAX])
{
    size_t n = 0;

    skip_space(ps);
    while (isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_')
        n++;
    if (n == 0 || n >= WORD_MAX)
        return false;
    memcpy(buf, ps->p, n);
    buf[n] = '\0';
    ps->p += n;
    return true;
}

static cJSON *fail(parser_t *ps, const char *what)
{
    if (ps->err->code == FLOE_ICEBERG_OK)
        floe_iceberg_fail(ps->err, FLOE_ICEBERG_EINVALID, "The column type is not a valid Hive type: %s.", what);
    return NULL;
}

/* A primitive's Iceberg name from its Hive keyword and arguments, or NULL. */
static cJSON *primitive(parser_t *ps, const char *word)
{
    static const struct {
        const char *hive, *iceberg;
    } names[] = {{"boolean", "boolean"}, {"tinyint", "int"},     {"smallint", "int"}, {"int", "int"},
                 {"integer", "int"},     {"bigint", "long"},     {"float", "float"},  {"double", "double"},
                 {"date", "date"},       {"string", "string"},   {"timestamp", "timestamp"},
                 {"binary", "binary"}};
    int precision, scale, length;
    char type[WORD_MAX];

    if (strcasecmp(word, "decimal") == 0) {
        int used = 0;
        if (!eat(ps, '(') || sscanf(ps->p, " %d , %d )%n", &precision, &scale, &used) != 2 || used == 0 ||
            precision < 1 || precision > 38 || scale < 0 || scale > precision)
            return fail(ps, "decimal needs (precision, scale) with 1 <= precision <= 38 and 0 <= scale <= precision");
        ps->p += used;
        snprintf(type, sizeof(type), "decimal(%d, %d)", precision, scale);
        return cJSON_CreateString(type);
    }
    if (strcasecmp(word, "char") == 0 || strcasecmp(word, "varchar") == 0) {
        int used = 0;
        if (!eat(ps, '(') || sscanf(ps->p, " %d )%n", &length, &used) != 1 || used == 0 || length < 1)
            return fail(ps, "char and varchar need a length");
        ps->p += used;
        return cJSON_CreateString("string");
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcasecmp(word, names[i].hive) == 0)
            return cJSON_CreateString(names[i].iceberg);
    }
    return fail(ps, "a type Iceberg has no counterpart for");
}

static cJSON *parse_list(parser_t *ps)
{
    cJSON *element = parse_type(ps), *list;

    if (element == NULL || !eat(ps, '>')) {
        cJSON_Delete(element);
        return fail(ps, "array<...> is not closed");
    }
    list = cJSON_CreateObject();
    cJSON_AddStringToObject(list, "type", "list");
    cJSON_AddItemToObject(list, "element", element);
    cJSON_AddBoolToObject(list, "element-required", false);
    return list;
}

static cJSON *parse_map(parser_t *ps)
{
    cJSON *key = parse_type(ps), *value = key != NULL && eat(ps, ',') ? parse_type(ps) : NULL, *map;

    if (value == NULL || !eat(ps, '>')) {
        cJSON_Delete(key);
        cJSON_Delete(value);
        return fail(ps, "map<key, value> is malformed");
    }
    map = cJSON_CreateObject();
    cJSON_AddStringToObject(map, "type", "map");
    cJSON_AddItemToObject(map, "key", key);
    cJSON_AddItemToObject(map, "value", value);
    cJSON_AddBoolToObject(map, "value-required", false);
    return map;
}

static cJSON *parse_struct(parser_t *ps)
{
    cJSON *st = cJSON_CreateObject(), *fields;
    char name[WORD_MAX];

    cJSON_AddStringToObject(st, "type", "struct");
    fields = cJSON_AddArrayToObject(st, "fields");
    if (eat(ps, '>'))
        return st;
    do {
        cJSON *type = read_word(ps, name) && eat(ps, ':') ? parse_type(ps) : NULL, *f;
        if (type == NULL) {
            cJSON_Delete(st);
            return fail(ps, "struct<name:type, ...> is malformed");
        }
        f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "name", name);
        cJSON_AddItemToObject(f, "type", type);
        cJSON_AddBoolToObject(f, "required", false);
        cJSON_AddItemToArray(fields, f);
    } while (eat(ps, ','));
    if (!eat(ps, '>')) {
        cJSON_Delete(st);
        return fail(ps, "struct<...> is not closed");
    }
    return st;
}

static cJSON *parse_type(parser_t *ps)
{
    char word[WORD_MAX];
    cJSON *out;

    if (++ps->depth > MAX_DEPTH)
        return fail(ps, "it is nested too deeply");
    if (!read_word(ps, word))
        return fail(ps, "a type name is missing");
    if (strcasecmp(word, "array") == 0 && eat(ps, '<'))
        out = parse_list(ps);
    else if (strcasecmp(word, "map") == 0 && eat(ps, '<'))
        out = parse_map(ps);
    else if (strcasecmp(word, "struct") == 0 && eat(ps, '<'))
        out = parse_struct(ps);
    else
        out = primitive(ps, word);
    ps->depth--;
    return out;
}

int floe_iceberg_type_from_hive(const char *text, cJSON **out, floe_iceberg_error_t *err)
{
    parser_t ps = {text, 0, err};
    cJSON *type;

    floe_iceberg_error_clear(err);
    *out = NULL;
    if ((type = parse_type(&ps)) == NULL)
        return FLOE_ICEBERG_EINVALID;
    skip_space(&ps);
    if (*ps.p != '\0') {
        cJSON_Delete(type);
        fail(&ps, "text follows the type");
        return FLOE_ICEBERG_EINVALID;
    }
    *out = type;
    return FLOE_ICEBERG_OK;
}
