/*
 * The exact-integer JSON of iceberg_json.h.
 *
 * floe_iceberg_json_parse lets cJSON check the syntax and build the tree, then walks the tree in
 * document order beside a scanner over the same text that yields each number literal in turn
 * (skipping strings, so digits inside them never count). cJSON keeps members and elements in
 * document order, so the n-th number node is the n-th number literal. An integer literal of
 * magnitude 2^53 or more turns its node into a cJSON_Raw holding the integer's decimal digits.
 *
 * The same walk refuses an object that names a member twice. cJSON keeps both and its look-ups
 * find the first, while Java's Jackson keeps the last: the two would read different tables from
 * one file, and a duplicate of a member Floe models would be written back beside Floe's own.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"

/* 2^53: every integer below this magnitude is exact in a double. At 2^53 itself a double may be a
 * rounded 2^53 + 1, so from there on integers are held as Raw digits. */
#define EXACT_DOUBLE_LIMIT 9007199254740992.0
#define INT64_TEXT_MAX 24
/* How much of an over-long literal an error message quotes. */
#define QUOTED_LITERAL_MAX 40
/* Room for any double printed with %.17g. */
#define DOUBLE_TEXT_MAX 40

typedef struct number_scan {
    const char *text;
    size_t len;
    size_t pos;
} number_scan_t;

/* Finds the next number literal outside strings; false when there is none. */
static bool next_number(number_scan_t *s, const char **start, size_t *n)
{
    while (s->pos < s->len) {
        char c = s->text[s->pos];
        if (c == '"') {
            for (s->pos++; s->pos < s->len && s->text[s->pos] != '"'; s->pos++) {
                if (s->text[s->pos] == '\\')
                    s->pos++;
            }
            s->pos++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t begin = s->pos;
            while (s->pos < s->len && s->text[s->pos] != '\0' && strchr("+-0123456789.eE", s->text[s->pos]) != NULL)
                s->pos++;
            *start = s->text + begin;
            *n = s->pos - begin;
            return true;
        } else {
            s->pos++;
        }
    }
    return false;
}

static bool lexeme_is_integer(const char *p, size_t n)
{
    return n > 0 && memchr(p, '.', n) == NULL && memchr(p, 'e', n) == NULL && memchr(p, 'E', n) == NULL;
}

/* Strict decimal integer: the whole string, within int64. */
static int parse_int64_text(const char *s, int64_t *out)
{
    char *end;
    long long v;

    if (s == NULL || *s == '\0')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return -1;
    *out = (int64_t)v;
    return 0;
}

static void make_raw_int(cJSON *node, int64_t v)
{
    char text[INT64_TEXT_MAX];
    size_t n = (size_t)snprintf(text, sizeof(text), "%" PRId64, v);

    node->type = cJSON_Raw;
    node->valuestring = cJSON_malloc(n + 1);
    memcpy(node->valuestring, text, n + 1);
}

/* Matches a number node with its literal; keeps a big integer exact. */
static int fix_number(cJSON *node, number_scan_t *s, floe_iceberg_error_t *err)
{
    const char *lexeme;
    size_t n;
    char text[INT64_TEXT_MAX];
    int64_t v;

    if (!next_number(s, &lexeme, &n))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The JSON numbers could not be read.");
    if (!lexeme_is_integer(lexeme, n) || fabs(node->valuedouble) < EXACT_DOUBLE_LIMIT)
        return 0;
    if (n >= sizeof(text))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The integer %.*s is outside the 64-bit range.",
                                 (int)(n > QUOTED_LITERAL_MAX ? QUOTED_LITERAL_MAX : n), lexeme);
    memcpy(text, lexeme, n);
    text[n] = '\0';
    if (parse_int64_text(text, &v) != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The integer %s is outside the 64-bit range.", text);
    make_raw_int(node, v);
    return 0;
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Refuses an object with two members of one name; sorting keeps a large object O(n log n). */
static int check_unique_members(const cJSON *object, floe_iceberg_error_t *err)
{
    const char **keys;
    size_t n = 0, i = 0;
    int rc = 0;

    for (const cJSON *c = object->child; c != NULL; c = c->next)
        n++;
    if (n < 2)
        return 0;
    keys = floe_xmalloc(n * sizeof(*keys));
    for (const cJSON *c = object->child; c != NULL; c = c->next)
        keys[i++] = c->string != NULL ? c->string : "";
    qsort(keys, n, sizeof(*keys), compare_keys);
    for (i = 1; i < n && rc == 0; i++) {
        if (strcmp(keys[i - 1], keys[i]) == 0)
            rc = floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The JSON object has the member '%.*s' twice.",
                                   QUOTED_LITERAL_MAX, keys[i]);
    }
    free(keys);
    return rc;
}

static int walk(cJSON *node, int depth, number_scan_t *s, floe_iceberg_error_t *err)
{
    if (depth > FLOE_ICEBERG_JSON_MAX_DEPTH)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The JSON is nested more than %d levels deep.",
                                 FLOE_ICEBERG_JSON_MAX_DEPTH);
    if (cJSON_IsNumber(node))
        return fix_number(node, s, err);
    if (cJSON_IsObject(node) && check_unique_members(node, err) != 0)
        return err->code;
    for (cJSON *child = node->child; child != NULL; child = child->next) {
        if (walk(child, depth + 1, s, err) != 0)
            return err->code;
    }
    return 0;
}

static bool only_whitespace(const char *p, const char *end)
{
    for (; p < end; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            return false;
    }
    return true;
}

cJSON *floe_iceberg_json_parse(const char *text, size_t len, floe_iceberg_error_t *err)
{
    const char *end = NULL;
    cJSON *root;
    number_scan_t scan;

    if (text == NULL || len == 0) {
        floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The JSON document is empty.");
        return NULL;
    }
    root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (root == NULL || end == NULL || !only_whitespace(end, text + len)) {
        size_t at = (end != NULL && end >= text) ? (size_t)(end - text) : 0;
        floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The JSON is malformed near byte %zu.", at);
        cJSON_Delete(root);
        return NULL;
    }
    scan = (number_scan_t){text, (size_t)(end - text), 0};
    if (walk(root, 1, &scan, err) != 0) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int floe_iceberg_json_int64(const cJSON *item, int64_t *out)
{
    double d;

    if (item == NULL)
        return -1;
    if (cJSON_IsRaw(item))
        return parse_int64_text(item->valuestring, out);
    if (!cJSON_IsNumber(item))
        return -1;
    d = item->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) >= EXACT_DOUBLE_LIMIT)
        return -1;
    *out = (int64_t)d;
    return 0;
}

cJSON *floe_iceberg_json_new_int(int64_t v)
{
    cJSON *node = cJSON_CreateNumber((double)v);
    if (node == NULL)
        abort(); /* allocation failure aborts, as floe_xmalloc does */
    if (fabs((double)v) >= EXACT_DOUBLE_LIMIT)
        make_raw_int(node, v);
    return node;
}

void floe_iceberg_json_set(cJSON *object, const char *key, cJSON *value)
{
    if (cJSON_GetObjectItemCaseSensitive(object, key) != NULL)
        cJSON_ReplaceItemInObjectCaseSensitive(object, key, value);
    else
        cJSON_AddItemToObject(object, key, value);
}

void floe_iceberg_json_set_int(cJSON *object, const char *key, int64_t v)
{
    floe_iceberg_json_set(object, key, floe_iceberg_json_new_int(v));
}

/* ---- member readers ---- */

static const cJSON *member(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNull(item) ? NULL : item;
}

static int missing(const char *key, const char *where, floe_iceberg_error_t *err)
{
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: '%s' is required.", where, key);
}

static int wrong_kind(const char *key, const char *where, const char *kind, floe_iceberg_error_t *err)
{
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: '%s' must be %s.", where, key, kind);
}

int floe_iceberg_json_get_opt_int64(const cJSON *object, const char *key, const char *where, int64_t *out,
                                    floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    if (item == NULL)
        return 0;
    if (floe_iceberg_json_int64(item, out) != 0)
        return wrong_kind(key, where, "a 64-bit integer", err);
    return 0;
}

int floe_iceberg_json_get_int64(const cJSON *object, const char *key, const char *where, int64_t *out,
                                floe_iceberg_error_t *err)
{
    if (member(object, key) == NULL)
        return missing(key, where, err);
    return floe_iceberg_json_get_opt_int64(object, key, where, out, err);
}

int floe_iceberg_json_get_opt_int32(const cJSON *object, const char *key, const char *where, int32_t *out,
                                    floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    int64_t v;
    if (item == NULL)
        return 0;
    if (floe_iceberg_json_int64(item, &v) != 0 || v < INT32_MIN || v > INT32_MAX)
        return wrong_kind(key, where, "a 32-bit integer", err);
    *out = (int32_t)v;
    return 0;
}

int floe_iceberg_json_get_int32(const cJSON *object, const char *key, const char *where, int32_t *out,
                                floe_iceberg_error_t *err)
{
    if (member(object, key) == NULL)
        return missing(key, where, err);
    return floe_iceberg_json_get_opt_int32(object, key, where, out, err);
}

int floe_iceberg_json_get_string(const cJSON *object, const char *key, const char *where, const char **out,
                                 floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    if (item == NULL)
        return missing(key, where, err);
    if (!cJSON_IsString(item))
        return wrong_kind(key, where, "a string", err);
    *out = item->valuestring;
    return 0;
}

int floe_iceberg_json_get_bool(const cJSON *object, const char *key, const char *where, bool *out,
                               floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    if (item == NULL)
        return missing(key, where, err);
    if (!cJSON_IsBool(item))
        return wrong_kind(key, where, "true or false", err);
    *out = cJSON_IsTrue(item);
    return 0;
}

int floe_iceberg_json_get_array(const cJSON *object, const char *key, const char *where, const cJSON **out,
                                floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    if (item == NULL)
        return missing(key, where, err);
    if (!cJSON_IsArray(item))
        return wrong_kind(key, where, "an array", err);
    *out = item;
    return 0;
}

int floe_iceberg_json_get_object(const cJSON *object, const char *key, const char *where, const cJSON **out,
                                 floe_iceberg_error_t *err)
{
    const cJSON *item = member(object, key);
    if (item == NULL)
        return missing(key, where, err);
    if (!cJSON_IsObject(item))
        return wrong_kind(key, where, "an object", err);
    *out = item;
    return 0;
}

/* ---- writer ---- */

static void write_number(floe_json_t *w, const cJSON *v)
{
    char text[DOUBLE_TEXT_MAX];
    double d = v->valuedouble;
    int64_t i;

    if (floe_iceberg_json_int64(v, &i) == 0) {
        floe_json_int(w, i);
    } else if (!isfinite(d)) {
        floe_json_raw(w, "null");
    } else {
        snprintf(text, sizeof(text), "%.17g", d);
        floe_json_raw(w, text);
    }
}

void floe_iceberg_json_write(floe_json_t *w, const cJSON *v)
{
    switch (v->type & 0xFF) {
    case cJSON_False: floe_json_bool(w, false); break;
    case cJSON_True: floe_json_bool(w, true); break;
    case cJSON_Number: write_number(w, v); break;
    case cJSON_String: floe_json_string(w, v->valuestring != NULL ? v->valuestring : ""); break;
    case cJSON_Raw: floe_json_raw(w, v->valuestring != NULL ? v->valuestring : "null"); break;
    case cJSON_Array:
        floe_json_array_begin(w);
        for (const cJSON *c = v->child; c != NULL; c = c->next)
            floe_iceberg_json_write(w, c);
        floe_json_array_end(w);
        break;
    case cJSON_Object:
        floe_json_object_begin(w);
        for (const cJSON *c = v->child; c != NULL; c = c->next) {
            floe_json_key(w, c->string != NULL ? c->string : "");
            floe_iceberg_json_write(w, c);
        }
        floe_json_object_end(w);
        break;
    default: floe_json_raw(w, "null"); break;
    }
}

char *floe_iceberg_json_print(const cJSON *v)
{
    floe_json_t w;

    floe_json_init(&w);
    floe_iceberg_json_write(&w, v);
    return w.buf; /* the writer's buffer becomes the caller's */
}
