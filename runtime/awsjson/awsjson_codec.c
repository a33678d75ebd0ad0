/*
 * The generic codec of awsjson_codec.h. Every function walks one shape descriptor; the layout
 * of the C values it reads and writes is the one awsjson_service.h states, which the generated
 * <prefix>_api.h declares. Three walks:
 *
 *   parse:     cJSON value ──(shape)──▶ pool-allocated typed value   (type errors, enum values)
 *   validate:  typed value ──(shape)──▶ first violation              (@required, @length, @range, @pattern)
 *   serialize: typed value ──(shape)──▶ JSON text                    (present members only)
 *
 * A request's nesting is bounded (MAX_DEPTH) so a recursive shape cannot let a request decide
 * how deep the stack goes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "awsjson/awsjson_codec.h"
#include "base/log.h"

#define MAX_DEPTH 32
#define PATH_NAME_MAX 128
#define ENUM_MESSAGE_MAX 1024
#define CONSTRAINT_MAX 512

/* Every generated enum is an int-sized C enum (values 1..n). */
_Static_assert(sizeof(floe_status_t) == sizeof(int), "enums are int-sized");

typedef struct generic_list {
    size_t n;
    void *items;
} generic_list_t;

typedef struct generic_map {
    size_t n;
    void *keys;
    void *values;
} generic_map_t;

typedef struct parse_ctx {
    const floe_awsjson_service_t *svc;
    floe_call_t *call;
    floe_violation_t *v;
    floe_awsjson_parse_rc_t rc;
} parse_ctx_t;


/* Bytes of one list item or map value of shape s: structures by value, lists and maps by pointer. */
static size_t element_size(const floe_awsjson_shape_t *s)
{
    switch (s->kind) {
    case FLOE_AWSJSON_ENUM: return sizeof(int);
    case FLOE_AWSJSON_BOOLEAN: return sizeof(bool);
    case FLOE_AWSJSON_INTEGER: return sizeof(int32_t);
    case FLOE_AWSJSON_LONG: return sizeof(int64_t);
    case FLOE_AWSJSON_DOUBLE: return sizeof(double);
    case FLOE_AWSJSON_TIMESTAMP: return sizeof(floe_timestamp_t);
    case FLOE_AWSJSON_STRUCTURE:
    case FLOE_AWSJSON_UNION: return s->size;
    default: return sizeof(void *);
    }
}

/* The size of the value an aggregate pointer points at. */
static size_t aggregate_size(const floe_awsjson_shape_t *s)
{
    if (s->kind == FLOE_AWSJSON_LIST)
        return sizeof(generic_list_t);
    if (s->kind == FLOE_AWSJSON_MAP)
        return sizeof(generic_map_t);
    return s->size;
}

/* ---- parse ---- */

static int parse_slot(parse_ctx_t *c, const floe_awsjson_shape_t *s, uint32_t flags, const cJSON *j, void *slot,
                      const floe_path_t *path, int depth, bool by_value);

static int not_shaped(parse_ctx_t *c, const floe_path_t *path, const char *expected)
{
    floe_violation_type(c->v, path, expected);
    c->rc = FLOE_AWSJSON_NOT_SHAPED;
    return FLOE_EFAIL;
}

static int parse_enum(parse_ctx_t *c, const floe_awsjson_shape_t *s, const cJSON *j, int *out, const floe_path_t *path)
{
    char message[ENUM_MESSAGE_MAX];
    size_t len;

    if (!cJSON_IsString(j))
        return not_shaped(c, path, "a string");
    for (uint32_t i = 1; i <= s->n_values; i++) {
        if (strcmp(j->valuestring, floe_awsjson_value(c->svc, s, i)) == 0) {
            *out = (int)i;
            return 0;
        }
    }
    len = (size_t)snprintf(message, sizeof(message), "Member must satisfy enum value set: [");
    for (uint32_t i = 1; i <= s->n_values && len < sizeof(message); i++)
        len += (size_t)snprintf(message + len, sizeof(message) - len, "%s%s", i > 1 ? ", " : "",
                                floe_awsjson_value(c->svc, s, i));
    if (len < sizeof(message))
        snprintf(message + len, sizeof(message) - len, "]");
    floe_violation_set(c->v, path, j->valuestring, message);
    c->rc = FLOE_AWSJSON_INVALID;
    return FLOE_EFAIL;
}

static int parse_structure(parse_ctx_t *c, const floe_awsjson_shape_t *s, const cJSON *j, char *base,
                           const floe_path_t *path, int depth)
{
    if (!cJSON_IsObject(j))
        return not_shaped(c, path, "an object");
    for (uint32_t i = 0; i < s->n_members; i++) {
        const floe_awsjson_member_t *m = floe_awsjson_member(c->svc, s, i);
        const char *name = m->name != FLOE_AWSJSON_NO_NAME ? floe_awsjson_name(c->svc, m->name) : NULL;
        const cJSON *item = name != NULL ? cJSON_GetObjectItemCaseSensitive(j, name) : NULL;
        floe_path_t here = {path, name, -1};

        if (floe_codec_is_absent(item))
            continue;
        if (parse_slot(c, floe_awsjson_shape(c->svc, m->target), m->flags, item, base + m->offset, &here, depth + 1,
                       false) != 0)
            return FLOE_EFAIL;
        if (m->has_offset != FLOE_AWSJSON_NO_FLAG)
            *(bool *)(base + m->has_offset) = true;
    }
    return 0;
}

static int parse_list(parse_ctx_t *c, const floe_awsjson_shape_t *s, const cJSON *j, generic_list_t *list,
                      const floe_path_t *path, int depth)
{
    const floe_awsjson_member_t *item = floe_awsjson_member(c->svc, s, 0);
    const floe_awsjson_shape_t *target = floe_awsjson_shape(c->svc, item->target);
    size_t size = element_size(target);
    const cJSON *e;
    long i = 0;

    if (!cJSON_IsArray(j))
        return not_shaped(c, path, "an array");
    list->n = (size_t)cJSON_GetArraySize(j);
    list->items = floe_call_alloc(c->call, size * (list->n ? list->n : 1));
    cJSON_ArrayForEach(e, j)
    {
        floe_path_t here = {path, NULL, i};
        if (cJSON_IsNull(e))
            return not_shaped(c, &here, "not null");
        if (parse_slot(c, target, item->flags, e, (char *)list->items + size * (size_t)i, &here, depth + 1, true) != 0)
            return FLOE_EFAIL;
        i++;
    }
    return 0;
}

static int parse_map(parse_ctx_t *c, const floe_awsjson_shape_t *s, const cJSON *j, generic_map_t *map,
                     const floe_path_t *path, int depth)
{
    const floe_awsjson_member_t *value = floe_awsjson_member(c->svc, s, 1);
    const floe_awsjson_shape_t *key_shape = floe_awsjson_shape(c->svc, floe_awsjson_member(c->svc, s, 0)->target);
    const floe_awsjson_shape_t *value_shape = floe_awsjson_shape(c->svc, value->target);
    size_t key_size = element_size(key_shape), size = element_size(value_shape), n;
    const cJSON *e;
    size_t i = 0;

    if (!cJSON_IsObject(j))
        return not_shaped(c, path, "an object");
    n = (size_t)cJSON_GetArraySize(j);
    map->n = n;
    map->keys = floe_call_alloc(c->call, key_size * (n ? n : 1));
    map->values = floe_call_alloc(c->call, size * (n ? n : 1));
    cJSON_ArrayForEach(e, j)
    {
        floe_path_t here = {path, e->string, -1};
        cJSON key_json = {.type = cJSON_String, .valuestring = e->string};

        if (cJSON_IsNull(e))
            return not_shaped(c, &here, "not null");
        if (parse_slot(c, key_shape, 0, &key_json, (char *)map->keys + key_size * i, &here, depth + 1, true) != 0 ||
            parse_slot(c, value_shape, value->flags, e, (char *)map->values + size * i, &here, depth + 1, true) != 0)
            return FLOE_EFAIL;
        i++;
    }
    return 0;
}

static int parse_aggregate(parse_ctx_t *c, const floe_awsjson_shape_t *s, const cJSON *j, void *value,
                           const floe_path_t *path, int depth)
{
    if (s->kind == FLOE_AWSJSON_LIST)
        return parse_list(c, s, j, value, path, depth);
    if (s->kind == FLOE_AWSJSON_MAP)
        return parse_map(c, s, j, value, path, depth);
    return parse_structure(c, s, j, value, path, depth);
}

static int parse_double(parse_ctx_t *c, const cJSON *j, double *out, const floe_path_t *path)
{
    if (cJSON_IsNumber(j) && isfinite(j->valuedouble)) {
        *out = j->valuedouble;
        return 0;
    }
    /* AWS's JSON protocols send the non-finite ones as strings */
    if (cJSON_IsString(j) && (strcmp(j->valuestring, "NaN") == 0 || strcmp(j->valuestring, "Infinity") == 0 ||
                              strcmp(j->valuestring, "-Infinity") == 0)) {
        *out = j->valuestring[0] == 'N' ? NAN : j->valuestring[0] == '-' ? -INFINITY : INFINITY;
        return 0;
    }
    return not_shaped(c, path, "a number");
}

/* Parses j into `slot`, the storage of one value of shape s: a member field (by_value false: an
 * aggregate is a pointer there) or a list item or map value (by_value: structures in place). */
static int parse_slot(parse_ctx_t *c, const floe_awsjson_shape_t *s, uint32_t flags, const cJSON *j, void *slot,
                      const floe_path_t *path, int depth, bool by_value)
{
    floe_violation_t *v = c->v;
    int rc = 0;

    if (depth > MAX_DEPTH)
        return not_shaped(c, path, "nested less deeply");
    switch (s->kind) {
    case FLOE_AWSJSON_STRING:
    case FLOE_AWSJSON_BLOB: rc = floe_codec_string(c->call->pool, j, path, slot, v); break;
    case FLOE_AWSJSON_DOCUMENT: rc = floe_codec_document(c->call->pool, j, path, slot, v); break;
    case FLOE_AWSJSON_ENUM: return parse_enum(c, s, j, slot, path);
    case FLOE_AWSJSON_BOOLEAN: rc = floe_codec_bool(j, path, slot, v); break;
    case FLOE_AWSJSON_INTEGER: rc = floe_codec_int32(j, path, slot, v); break;
    case FLOE_AWSJSON_LONG: rc = floe_codec_int64(j, path, slot, v); break;
    case FLOE_AWSJSON_DOUBLE: return parse_double(c, j, slot, path);
    case FLOE_AWSJSON_TIMESTAMP: rc = floe_codec_timestamp(j, path, slot, v); break;
    default:
        if ((s->kind == FLOE_AWSJSON_STRUCTURE || s->kind == FLOE_AWSJSON_UNION) && by_value)
            return parse_aggregate(c, s, j, slot, path, depth);
        *(void **)slot = floe_call_alloc(c->call, aggregate_size(s));
        return parse_aggregate(c, s, j, *(void **)slot, path, depth);
    }
    (void)flags;
    if (rc != 0)
        c->rc = FLOE_AWSJSON_NOT_SHAPED;
    return rc;
}

floe_awsjson_parse_rc_t floe_awsjson_parse(floe_call_t *call, const floe_awsjson_service_t *svc,
                                           const floe_awsjson_shape_t *shape, const char *body, size_t n, void *out,
                                           floe_violation_t *v)
{
    parse_ctx_t c = {svc, call, v, FLOE_AWSJSON_PARSED};
    cJSON *j;

    if (body == NULL || n == 0)
        return FLOE_AWSJSON_PARSED;
    if ((j = cJSON_ParseWithLength(body, n)) == NULL) {
        snprintf(v->message, sizeof(v->message), "The request body is not valid JSON.");
        return FLOE_AWSJSON_NOT_SHAPED;
    }
    if (parse_structure(&c, shape, j, out, NULL, 0) != 0 && c.rc == FLOE_AWSJSON_PARSED)
        c.rc = FLOE_AWSJSON_NOT_SHAPED;
    cJSON_Delete(j);
    return c.rc;
}

/* ---- validate ---- */

static int validate_slot(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const void *slot,
                         const floe_path_t *path, floe_violation_t *v, int depth, bool by_value);

static int bounds(const floe_awsjson_shape_t *s, int64_t n, const char *text, const floe_path_t *path,
                  floe_violation_t *v, bool is_range)
{
    char constraint[CONSTRAINT_MAX];

    if (n < s->min) {
        snprintf(constraint, sizeof(constraint), "Member must have %s greater than or equal to %" PRId64,
                 is_range ? "value" : "length", s->min);
    } else if (n > s->max) {
        snprintf(constraint, sizeof(constraint), "Member must have %s less than or equal to %" PRId64,
                 is_range ? "value" : "length", s->max);
    } else {
        return 0;
    }
    if (text != NULL)
        floe_violation_set(v, path, text, constraint);
    else
        floe_violation_set_int(v, path, n, constraint);
    return FLOE_EFAIL;
}

/* The service's pattern i, compiled on first use: Glue has about a hundred, most of which a
 * server never meets, and compiling them all (JIT code included) would cost every start
 * milliseconds and idle memory. Serving threads may race to compile one; the first to publish
 * wins and the others free theirs. */
static void *compiled_pattern(const floe_awsjson_service_t *svc, int i)
{
    void *p = __atomic_load_n(&svc->compiled[i], __ATOMIC_ACQUIRE), *expected = NULL;

    if (p != NULL)
        return p;
    if ((p = floe_codec_regex_compile(svc->patterns[i])) == NULL)
        return NULL;
    if (!__atomic_compare_exchange_n(&svc->compiled[i], &expected, p, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        floe_codec_regex_free(p);
        return expected;
    }
    return p;
}

/* A pattern that does not compile is a generator fault (the unit tests compile every one): it is
 * logged and checks nothing rather than refusing every request. */
static bool pattern_matches(const floe_awsjson_service_t *svc, int i, const char *text)
{
    void *p = compiled_pattern(svc, i);

    if (p == NULL) {
        floe_log("%s: the model's pattern %s does not compile", svc->name, svc->patterns[i]);
        return true;
    }
    return floe_codec_regex_match(p, text);
}

static int validate_string(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const char *text,
                           const floe_path_t *path, floe_violation_t *v)
{
    char constraint[CONSTRAINT_MAX];

    if (bounds(s, (int64_t)floe_codec_utf8_length(text), text, path, v, false) != 0)
        return FLOE_EFAIL;
    if (s->pattern != FLOE_AWSJSON_NO_PATTERN && !pattern_matches(svc, s->pattern, text)) {
        snprintf(constraint, sizeof(constraint), "Member must satisfy regular expression pattern: %s",
                 svc->patterns[s->pattern]);
        floe_violation_set(v, path, text, constraint);
        return FLOE_EFAIL;
    }
    return 0;
}

/* AWS names a member in a violation lowerCamel ("at 'databaseInput.name'"). */
static const char *path_name(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s", name);
    if (buf[0] >= 'A' && buf[0] <= 'Z')
        buf[0] = (char)(buf[0] - 'A' + 'a');
    return buf;
}

static bool member_present(const floe_awsjson_service_t *svc, const floe_awsjson_member_t *m, const char *base)
{
    const void *field = base + m->offset;

    if (m->has_offset != FLOE_AWSJSON_NO_FLAG)
        return *(const bool *)(base + m->has_offset);
    switch (floe_awsjson_shape(svc, m->target)->kind) {
    case FLOE_AWSJSON_ENUM: return *(const int *)field != 0;
    case FLOE_AWSJSON_BOOLEAN:
    case FLOE_AWSJSON_INTEGER:
    case FLOE_AWSJSON_LONG:
    case FLOE_AWSJSON_DOUBLE:
    case FLOE_AWSJSON_TIMESTAMP: return true; /* has a default: always present */
    default: return *(void *const *)field != NULL;
    }
}

static int validate_structure(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const char *base,
                              const floe_path_t *path, floe_violation_t *v, int depth)
{
    uint32_t n_set = 0;

    for (uint32_t i = 0; i < s->n_members; i++) {
        const floe_awsjson_member_t *m = floe_awsjson_member(svc, s, i);
        char name[PATH_NAME_MAX];
        floe_path_t here = {path, NULL, -1};

        if (m->name == FLOE_AWSJSON_NO_NAME)
            continue;
        here.name = path_name(floe_awsjson_name(svc, m->name), name, sizeof(name));
        if (!member_present(svc, m, base)) {
            if (m->flags & FLOE_AWSJSON_REQUIRED) {
                floe_violation_set(v, &here, NULL, "Member must not be null");
                return FLOE_EFAIL;
            }
            continue;
        }
        n_set++;
        if (validate_slot(svc, floe_awsjson_shape(svc, m->target), base + m->offset, &here, v, depth + 1, false) != 0)
            return FLOE_EFAIL;
    }
    if (s->kind == FLOE_AWSJSON_UNION && n_set != 1) {
        floe_violation_set(v, path, NULL, "Member must have exactly one member set");
        return FLOE_EFAIL;
    }
    return 0;
}

static int validate_items(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *item, const char *items,
                          size_t n, const floe_path_t *path, floe_violation_t *v, int depth)
{
    size_t size = element_size(item);

    for (size_t i = 0; i < n; i++) {
        floe_path_t here = {path, NULL, (long)i};
        if (validate_slot(svc, item, items + size * i, &here, v, depth + 1, true) != 0)
            return FLOE_EFAIL;
    }
    return 0;
}

static int validate_aggregate(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const void *value,
                              const floe_path_t *path, floe_violation_t *v, int depth)
{
    if (s->kind == FLOE_AWSJSON_LIST) {
        const generic_list_t *list = value;
        if (s->has_constraint && bounds(s, (int64_t)list->n, NULL, path, v, false) != 0)
            return FLOE_EFAIL;
        return validate_items(svc, floe_awsjson_shape(svc, floe_awsjson_member(svc, s, 0)->target), list->items,
                              list->n, path, v, depth);
    }
    if (s->kind == FLOE_AWSJSON_MAP) {
        const generic_map_t *map = value;
        if (s->has_constraint && bounds(s, (int64_t)map->n, NULL, path, v, false) != 0)
            return FLOE_EFAIL;
        if (validate_items(svc, floe_awsjson_shape(svc, floe_awsjson_member(svc, s, 0)->target), map->keys, map->n,
                           path, v, depth) != 0)
            return FLOE_EFAIL;
        return validate_items(svc, floe_awsjson_shape(svc, floe_awsjson_member(svc, s, 1)->target), map->values,
                              map->n, path, v, depth);
    }
    return validate_structure(svc, s, value, path, v, depth);
}

static int validate_slot(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const void *slot,
                         const floe_path_t *path, floe_violation_t *v, int depth, bool by_value)
{
    if (depth > MAX_DEPTH)
        return 0; /* parsing refused anything deeper */
    switch (s->kind) {
    case FLOE_AWSJSON_STRING:
        return s->has_constraint ? validate_string(svc, s, *(char *const *)slot, path, v) : 0;
    case FLOE_AWSJSON_INTEGER:
        return s->has_constraint ? bounds(s, *(const int32_t *)slot, NULL, path, v, true) : 0;
    case FLOE_AWSJSON_LONG:
        return s->has_constraint ? bounds(s, *(const int64_t *)slot, NULL, path, v, true) : 0;
    case FLOE_AWSJSON_STRUCTURE:
    case FLOE_AWSJSON_UNION:
    case FLOE_AWSJSON_LIST:
    case FLOE_AWSJSON_MAP:
        if (by_value && (s->kind == FLOE_AWSJSON_STRUCTURE || s->kind == FLOE_AWSJSON_UNION))
            return validate_aggregate(svc, s, slot, path, v, depth);
        return validate_aggregate(svc, s, *(void *const *)slot, path, v, depth);
    default: return 0;
    }
}

int floe_awsjson_validate(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape, const void *in,
                          floe_violation_t *v)
{
    return validate_structure(svc, shape, in, NULL, v, 0);
}

/* ---- serialize ---- */

static void write_slot(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, uint32_t flags,
                       const void *slot, floe_json_t *w, bool by_value);

static void write_double(floe_json_t *w, double d)
{
    char buf[32];

    if (isnan(d)) {
        floe_json_string(w, "NaN");
    } else if (isinf(d)) {
        floe_json_string(w, d > 0 ? "Infinity" : "-Infinity");
    } else {
        snprintf(buf, sizeof(buf), "%.17g", d);
        floe_json_raw(w, buf);
    }
}

static void write_structure(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const char *base,
                            floe_json_t *w)
{
    floe_json_object_begin(w);
    for (uint32_t i = 0; i < s->n_members; i++) {
        const floe_awsjson_member_t *m = floe_awsjson_member(svc, s, i);
        if (m->name == FLOE_AWSJSON_NO_NAME || !member_present(svc, m, base))
            continue;
        floe_json_key(w, floe_awsjson_name(svc, m->name));
        write_slot(svc, floe_awsjson_shape(svc, m->target), m->flags, base + m->offset, w, false);
    }
    floe_json_object_end(w);
}

/* An enum's wire value, "" for a value the C side never set right (0 is absent, never written). */
static const char *enum_text(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, int e)
{
    return e > 0 && (uint32_t)e <= s->n_values ? floe_awsjson_value(svc, s, (uint32_t)e) : "";
}

static void write_aggregate(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, const void *value,
                            floe_json_t *w)
{
    if (s->kind == FLOE_AWSJSON_LIST) {
        const generic_list_t *list = value;
        const floe_awsjson_member_t *item = floe_awsjson_member(svc, s, 0);
        const floe_awsjson_shape_t *target = floe_awsjson_shape(svc, item->target);
        size_t size = element_size(target);

        floe_json_array_begin(w);
        for (size_t i = 0; i < list->n; i++)
            write_slot(svc, target, item->flags, (const char *)list->items + size * i, w, true);
        floe_json_array_end(w);
    } else if (s->kind == FLOE_AWSJSON_MAP) {
        const generic_map_t *map = value;
        const floe_awsjson_member_t *v = floe_awsjson_member(svc, s, 1);
        const floe_awsjson_shape_t *key = floe_awsjson_shape(svc, floe_awsjson_member(svc, s, 0)->target);
        const floe_awsjson_shape_t *target = floe_awsjson_shape(svc, v->target);
        size_t key_size = element_size(key), size = element_size(target);

        floe_json_object_begin(w);
        for (size_t i = 0; i < map->n; i++) {
            const void *k = (const char *)map->keys + key_size * i;
            floe_json_key(w, key->kind == FLOE_AWSJSON_ENUM ? enum_text(svc, key, *(const int *)k) : *(char *const *)k);
            write_slot(svc, target, v->flags, (const char *)map->values + size * i, w, true);
        }
        floe_json_object_end(w);
    } else {
        write_structure(svc, s, value, w);
    }
}

static void write_slot(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s, uint32_t flags,
                       const void *slot, floe_json_t *w, bool by_value)
{
    switch (s->kind) {
    case FLOE_AWSJSON_STRING:
    case FLOE_AWSJSON_BLOB: floe_json_string(w, *(char *const *)slot ? *(char *const *)slot : ""); break;
    case FLOE_AWSJSON_DOCUMENT: floe_json_raw(w, *(char *const *)slot ? *(char *const *)slot : "null"); break;
    case FLOE_AWSJSON_ENUM: floe_json_string(w, enum_text(svc, s, *(const int *)slot)); break;
    case FLOE_AWSJSON_BOOLEAN: floe_json_bool(w, *(const bool *)slot); break;
    case FLOE_AWSJSON_INTEGER: floe_json_int(w, *(const int32_t *)slot); break;
    case FLOE_AWSJSON_LONG: floe_json_int(w, *(const int64_t *)slot); break;
    case FLOE_AWSJSON_DOUBLE: write_double(w, *(const double *)slot); break;
    case FLOE_AWSJSON_TIMESTAMP:
        if (flags & FLOE_AWSJSON_DATE_TIME)
            floe_json_timestamp(w, *(const floe_timestamp_t *)slot);
        else
            floe_json_epoch_seconds(w, *(const floe_timestamp_t *)slot);
        break;
    default:
        if (by_value && (s->kind == FLOE_AWSJSON_STRUCTURE || s->kind == FLOE_AWSJSON_UNION))
            write_aggregate(svc, s, slot, w);
        else
            write_aggregate(svc, s, *(void *const *)slot, w);
    }
}

void floe_awsjson_serialize(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape, const void *out,
                            floe_json_t *w)
{
    write_structure(svc, shape, out, w);
}

char *floe_awsjson_to_json(floe_call_t *call, const floe_awsjson_service_t *svc, uint32_t shape, const void *value)
{
    floe_json_t w;
    char *out;

    floe_json_init(&w);
    floe_awsjson_serialize(svc, floe_awsjson_shape(svc, shape), value, &w);
    out = floe_call_alloc(call, w.len + 1);
    memcpy(out, w.buf, w.len);
    out[w.len] = '\0';
    floe_json_dispose(&w);
    return out;
}

int floe_awsjson_from_json(floe_call_t *call, const floe_awsjson_service_t *svc, uint32_t shape, const char *json,
                           void *out)
{
    const floe_awsjson_shape_t *s = floe_awsjson_shape(svc, shape);
    floe_violation_t v;

    memset(out, 0, s->size);
    if (json == NULL || floe_awsjson_parse(call, svc, s, json, strlen(json), out, &v) != FLOE_AWSJSON_PARSED)
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_awsjson_compile(const floe_awsjson_service_t *svc)
{
    for (size_t i = 0; i < svc->n_patterns; i++) {
        if (compiled_pattern(svc, (int)i) == NULL) {
            floe_log("%s: cannot compile the model's pattern %s", svc->name, svc->patterns[i]);
            return FLOE_EFAIL;
        }
    }
    return 0;
}
