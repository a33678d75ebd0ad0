/*
 * The type strings and transforms of iceberg_types.h: small hand-written scanners rather than
 * regular expressions, since the grammar is a name and at most two bracketed integers.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iceberg/iceberg_types.h"

/* The format version that introduced the v3 types, and the one every other type has. */
#define TYPES_V3 3
#define TYPES_V1 1
/* Parameters longer than this many digits overflow int32 and are refused. */
#define PARAM_MAX_DIGITS 9

const char floe_iceberg_primitive_names[] =
    "boolean, int, long, float, double, decimal(P,S), date, time, timestamp, timestamptz, timestamp_ns, "
    "timestamptz_ns, string, uuid, fixed[L], binary, variant, unknown, geometry(C), geography(C, A)";

typedef struct named_kind {
    const char *name;
    int kind;
} named_kind_t;

static const named_kind_t simple_types[] = {
    {"boolean", FLOE_ICEBERG_BOOLEAN},
    {"int", FLOE_ICEBERG_INT},
    {"long", FLOE_ICEBERG_LONG},
    {"float", FLOE_ICEBERG_FLOAT},
    {"double", FLOE_ICEBERG_DOUBLE},
    {"date", FLOE_ICEBERG_DATE},
    {"time", FLOE_ICEBERG_TIME},
    {"timestamp", FLOE_ICEBERG_TIMESTAMP},
    {"timestamptz", FLOE_ICEBERG_TIMESTAMPTZ},
    {"timestamp_ns", FLOE_ICEBERG_TIMESTAMP_NS},
    {"timestamptz_ns", FLOE_ICEBERG_TIMESTAMPTZ_NS},
    {"string", FLOE_ICEBERG_STRING},
    {"uuid", FLOE_ICEBERG_UUID},
    {"binary", FLOE_ICEBERG_BINARY},
    {"variant", FLOE_ICEBERG_VARIANT},
    {"unknown", FLOE_ICEBERG_UNKNOWN},
    {"geometry", FLOE_ICEBERG_GEOMETRY},
    {"geography", FLOE_ICEBERG_GEOGRAPHY},
};

static const named_kind_t edge_algorithms[] = {
    {"spherical", FLOE_ICEBERG_EDGES_SPHERICAL}, {"vincenty", FLOE_ICEBERG_EDGES_VINCENTY},
    {"thomas", FLOE_ICEBERG_EDGES_THOMAS},       {"andoyer", FLOE_ICEBERG_EDGES_ANDOYER},
    {"karney", FLOE_ICEBERG_EDGES_KARNEY},
};

static const named_kind_t simple_transforms[] = {
    {"identity", FLOE_ICEBERG_IDENTITY}, {"year", FLOE_ICEBERG_YEAR}, {"month", FLOE_ICEBERG_MONTH},
    {"day", FLOE_ICEBERG_DAY},           {"hour", FLOE_ICEBERG_HOUR}, {"void", FLOE_ICEBERG_VOID},
};

static int find_name(const named_kind_t *table, size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++) {
        if (strcasecmp(table[i].name, text) == 0)
            return table[i].kind;
    }
    return 0;
}

static const char *find_kind(const named_kind_t *table, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        if (table[i].kind == kind)
            return table[i].name;
    }
    return "?";
}

/* A text cursor: each scan step advances p on success and returns false on a mismatch. */
static bool eat_word(const char **p, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(*p, word, n) != 0)
        return false;
    *p += n;
    return true;
}

static bool eat_char(const char **p, char c)
{
    if (**p != c)
        return false;
    (*p)++;
    return true;
}

static void skip_spaces(const char **p)
{
    while (isspace((unsigned char)**p))
        (*p)++;
}

/* One to PARAM_MAX_DIGITS decimal digits. */
static bool eat_int(const char **p, int32_t *out)
{
    int32_t v = 0;
    int n = 0;
    while (isdigit((unsigned char)**p)) {
        if (++n > PARAM_MAX_DIGITS)
            return false;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    *out = v;
    return n > 0;
}

/* decimal(P,S): Java's pattern is decimal\((\d+),\s*(\d+)\) */
static int parse_decimal(const char *p, floe_iceberg_primitive_t *out)
{
    int32_t precision, scale;
    if (!eat_word(&p, "decimal") || !eat_char(&p, '(') || !eat_int(&p, &precision) || !eat_char(&p, ','))
        return -1;
    skip_spaces(&p);
    if (!eat_int(&p, &scale) || !eat_char(&p, ')') || *p != '\0')
        return -1;
    if (precision < 1 || precision > FLOE_ICEBERG_DECIMAL_MAX_PRECISION || scale > precision)
        return -1;
    *out = (floe_iceberg_primitive_t){.kind = FLOE_ICEBERG_DECIMAL, .precision = precision, .scale = scale};
    return 0;
}

/* fixed[L]: Java's pattern is fixed\[\s*(\d+)\s*\] */
static int parse_fixed(const char *p, floe_iceberg_primitive_t *out)
{
    int32_t length;
    if (!eat_word(&p, "fixed") || !eat_char(&p, '['))
        return -1;
    skip_spaces(&p);
    if (!eat_int(&p, &length))
        return -1;
    skip_spaces(&p);
    if (!eat_char(&p, ']') || *p != '\0' || length < 1)
        return -1;
    *out = (floe_iceberg_primitive_t){.kind = FLOE_ICEBERG_FIXED, .length = length};
    return 0;
}

/* Copies the text up to one of `stops`, trimmed of spaces, into crs; false when empty or too long. */
static bool eat_crs(const char **p, const char *stops, char *crs)
{
    const char *start, *end;
    skip_spaces(p);
    start = *p;
    while (**p != '\0' && strchr(stops, **p) == NULL)
        (*p)++;
    end = *p;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    if (end == start || (size_t)(end - start) >= FLOE_ICEBERG_CRS_MAX)
        return false;
    memcpy(crs, start, (size_t)(end - start));
    crs[end - start] = '\0';
    return true;
}

/* geometry(C) and geography(C[, A]): Java's geometry\s*(?:\(\s*([^)]*?)\s*\))? and
 * geography\s*(?:\(\s*([^,]*?)\s*(?:,\s*(\w*)\s*)?\))? */
static int parse_geo(const char *p, floe_iceberg_primitive_kind_t kind, floe_iceberg_primitive_t *out)
{
    char word[16];
    size_t n = 0;
    *out = (floe_iceberg_primitive_t){.kind = kind};
    p += kind == FLOE_ICEBERG_GEOMETRY ? strlen("geometry") : strlen("geography");
    skip_spaces(&p);
    if (!eat_char(&p, '('))
        return -1;
    if (!eat_crs(&p, kind == FLOE_ICEBERG_GEOMETRY ? ")" : "),", out->crs))
        return -1;
    if (kind == FLOE_ICEBERG_GEOGRAPHY && eat_char(&p, ',')) {
        skip_spaces(&p);
        while (isalnum((unsigned char)*p) && n + 1 < sizeof(word))
            word[n++] = *p++;
        word[n] = '\0';
        skip_spaces(&p);
        out->algorithm = (floe_iceberg_edge_algorithm_t)find_name(
            edge_algorithms, sizeof(edge_algorithms) / sizeof(edge_algorithms[0]), word);
        if (out->algorithm == FLOE_ICEBERG_EDGES_DEFAULT)
            return -1;
    }
    return eat_char(&p, ')') && *p == '\0' ? 0 : -1;
}

int floe_iceberg_primitive_min_version(const floe_iceberg_primitive_t *p)
{
    switch (p->kind) {
    case FLOE_ICEBERG_TIMESTAMP_NS:
    case FLOE_ICEBERG_TIMESTAMPTZ_NS:
    case FLOE_ICEBERG_VARIANT:
    case FLOE_ICEBERG_UNKNOWN:
    case FLOE_ICEBERG_GEOMETRY:
    case FLOE_ICEBERG_GEOGRAPHY: return TYPES_V3;
    default: return TYPES_V1;
    }
}

int floe_iceberg_primitive_parse(const char *text, floe_iceberg_primitive_t *out)
{
    int kind;

    if (text == NULL)
        return -1;
    kind = find_name(simple_types, sizeof(simple_types) / sizeof(simple_types[0]), text);
    if (kind != 0) {
        *out = (floe_iceberg_primitive_t){.kind = (floe_iceberg_primitive_kind_t)kind};
        return 0;
    }
    if (strncasecmp(text, "decimal", 7) == 0)
        return parse_decimal(text, out);
    if (strncasecmp(text, "fixed", 5) == 0)
        return parse_fixed(text, out);
    if (strncasecmp(text, "geometry", 8) == 0)
        return parse_geo(text, FLOE_ICEBERG_GEOMETRY, out);
    if (strncasecmp(text, "geography", 9) == 0)
        return parse_geo(text, FLOE_ICEBERG_GEOGRAPHY, out);
    return -1;
}

void floe_iceberg_primitive_format(const floe_iceberg_primitive_t *p, char *buf, size_t size)
{
    if (p->kind == FLOE_ICEBERG_DECIMAL)
        snprintf(buf, size, "decimal(%d, %d)", (int)p->precision, (int)p->scale);
    else if (p->kind == FLOE_ICEBERG_FIXED)
        snprintf(buf, size, "fixed[%d]", (int)p->length);
    else if (p->kind == FLOE_ICEBERG_GEOGRAPHY && p->algorithm != FLOE_ICEBERG_EDGES_DEFAULT)
        snprintf(buf, size, "geography(%s, %s)", p->crs[0] != '\0' ? p->crs : "OGC:CRS84",
                 find_kind(edge_algorithms, sizeof(edge_algorithms) / sizeof(edge_algorithms[0]), p->algorithm));
    else if ((p->kind == FLOE_ICEBERG_GEOMETRY || p->kind == FLOE_ICEBERG_GEOGRAPHY) && p->crs[0] != '\0')
        snprintf(buf, size, "%s(%s)", p->kind == FLOE_ICEBERG_GEOMETRY ? "geometry" : "geography", p->crs);
    else
        snprintf(buf, size, "%s", find_kind(simple_types, sizeof(simple_types) / sizeof(simple_types[0]), p->kind));
}

/* bucket[N] / truncate[W]: Java's pattern is (\w+)\[(\d+)\], and both need a positive parameter. */
static int parse_sized_transform(const char *p, const char *name, floe_iceberg_transform_kind_t kind,
                                 floe_iceberg_transform_t *out)
{
    int32_t param;
    if (!eat_word(&p, name) || !eat_char(&p, '[') || !eat_int(&p, &param) || !eat_char(&p, ']') || *p != '\0' ||
        param < 1)
        return -1;
    *out = (floe_iceberg_transform_t){.kind = kind, .param = param};
    return 0;
}

int floe_iceberg_transform_parse(const char *text, floe_iceberg_transform_t *out)
{
    int kind;

    if (text == NULL)
        return -1;
    kind = find_name(simple_transforms, sizeof(simple_transforms) / sizeof(simple_transforms[0]), text);
    if (kind != 0) {
        *out = (floe_iceberg_transform_t){.kind = (floe_iceberg_transform_kind_t)kind};
        return 0;
    }
    if (strncasecmp(text, "bucket", 6) == 0)
        return parse_sized_transform(text, "bucket", FLOE_ICEBERG_BUCKET, out);
    if (strncasecmp(text, "truncate", 8) == 0)
        return parse_sized_transform(text, "truncate", FLOE_ICEBERG_TRUNCATE, out);
    return -1;
}

void floe_iceberg_transform_format(const floe_iceberg_transform_t *t, char *buf, size_t size)
{
    if (t->kind == FLOE_ICEBERG_BUCKET)
        snprintf(buf, size, "bucket[%d]", (int)t->param);
    else if (t->kind == FLOE_ICEBERG_TRUNCATE)
        snprintf(buf, size, "truncate[%d]", (int)t->param);
    else
        snprintf(buf, size, "%s",
                 find_kind(simple_transforms, sizeof(simple_transforms) / sizeof(simple_transforms[0]), t->kind));
}

static bool is_timestamp(floe_iceberg_primitive_kind_t k)
{
    return k == FLOE_ICEBERG_TIMESTAMP || k == FLOE_ICEBERG_TIMESTAMPTZ || k == FLOE_ICEBERG_TIMESTAMP_NS ||
           k == FLOE_ICEBERG_TIMESTAMPTZ_NS;
}

bool floe_iceberg_transform_accepts(const floe_iceberg_transform_t *t, const floe_iceberg_primitive_t *source)
{
    floe_iceberg_primitive_kind_t k = source->kind;

    switch (t->kind) {
    case FLOE_ICEBERG_VOID: return true;
    case FLOE_ICEBERG_IDENTITY:
        return k != FLOE_ICEBERG_VARIANT && k != FLOE_ICEBERG_GEOMETRY && k != FLOE_ICEBERG_GEOGRAPHY;
    case FLOE_ICEBERG_BUCKET:
        return k != FLOE_ICEBERG_BOOLEAN && k != FLOE_ICEBERG_FLOAT && k != FLOE_ICEBERG_DOUBLE && k < FLOE_ICEBERG_VARIANT;
    case FLOE_ICEBERG_TRUNCATE:
        return k == FLOE_ICEBERG_INT || k == FLOE_ICEBERG_LONG || k == FLOE_ICEBERG_DECIMAL ||
               k == FLOE_ICEBERG_STRING || k == FLOE_ICEBERG_BINARY;
    case FLOE_ICEBERG_YEAR:
    case FLOE_ICEBERG_MONTH:
    case FLOE_ICEBERG_DAY: return k == FLOE_ICEBERG_DATE || is_timestamp(k);
    case FLOE_ICEBERG_HOUR: return is_timestamp(k);
    }
    return false;
}
