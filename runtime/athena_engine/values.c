/* Result values and types as Athena reports them (values.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "athena/athena_csv.h"
#include "athena_engine/values.h"
#include "base/xalloc.h"

#define VARCHAR_PRECISION 2147483647 /* what Athena reports for an unbounded varchar */

static const struct {
    const char *trino, *athena;
    int precision;
} types[] = {
    {"boolean", "boolean", 0}, {"tinyint", "tinyint", 3},   {"smallint", "smallint", 5},
    {"integer", "integer", 10}, {"bigint", "bigint", 19},   {"real", "float", 17},
    {"double", "double", 17},   {"date", "date", 0},        {"varbinary", "varbinary", 1073741824},
    {"json", "json", 0},        {"uuid", "uuid", 0},        {"time", "time", 3},
};

void floe_athena_type_of(const char *trino, char out[FLOE_ATHENA_TYPE_MAX], int *precision, int *scale)
{
    size_t base = strcspn(trino, "(");

    *precision = 0;
    *scale = 0;
    snprintf(out, FLOE_ATHENA_TYPE_MAX, "%.*s", (int)base, trino);
    if (strncmp(trino, "varchar", base) == 0 || strncmp(trino, "char", base) == 0) {
        *precision = trino[base] == '(' ? atoi(trino + base + 1) : VARCHAR_PRECISION;
        return;
    }
    if (strncmp(trino, "decimal", base) == 0 && trino[base] == '(') {
        const char *comma = strchr(trino, ',');
        *precision = atoi(trino + base + 1);
        *scale = comma != NULL ? atoi(comma + 1) : 0;
        return;
    }
    if (strncmp(trino, "timestamp", strlen("timestamp")) == 0) {
        snprintf(out, FLOE_ATHENA_TYPE_MAX, "%s", strstr(trino, "with time zone") ? "timestamp with time zone"
                                                                                   : "timestamp");
        *precision = 3;
        return;
    }
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (strlen(types[i].trino) == base && strncmp(trino, types[i].trino, base) == 0) {
            snprintf(out, FLOE_ATHENA_TYPE_MAX, "%s", types[i].athena);
            *precision = types[i].precision;
            return;
        }
    }
}

/* The fewest significant digits (1 to 17) that read back as x, with x printed in them ("%.*e") in
 * digits. Fifteen digits read back for most values, and then the shortest form is those digits
 * without their trailing zeros (a normal double is far closer to its shortest decimal than 15-digit
 * steps are apart), so one print and one read settle it; else 16 or 17. */
static int shortest_digits(double x, char *digits, size_t size)
{
    int p = 15;
    char *e;

    snprintf(digits, size, "%.14e", x);
    if (fabs(x) >= DBL_MIN && strtod(digits, NULL) == x) {
        for (e = strchr(digits, 'e'); p > 1 && e[-1 - (15 - p)] == '0';)
            p--;
        memmove(e - (15 - p) - (p == 1), e, strlen(e) + 1); /* "1.000e+03" -> "1e+03", as "%.0e" */
        return p;
    }
    for (p = 1; p < 17; p++) {
        snprintf(digits, size, "%.*e", p - 1, x);
        if (strtod(digits, NULL) == x)
            break;
    }
    snprintf(digits, size, "%.*e", p - 1, x);
    return p;
}

/* x as Java's Double.toString prints it: the shortest digits that read back as x, in plain
 * notation from 1e-3 up to 1e7 (with at least one decimal) and as d.dddE<n> outside. */
static void java_double(double x, char *buf, size_t size)
{
    char digits[40];
    int p, exp;

    if (isnan(x) || isinf(x)) {
        snprintf(buf, size, "%s", isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
        return;
    }
    p = shortest_digits(x, digits, sizeof(digits));
    exp = atoi(strchr(digits, 'e') + 1);
    if (x == 0 || (fabs(x) >= 1e-3 && fabs(x) < 1e7)) {
        int decimals = (p - 1) - exp;
        snprintf(buf, size, "%.*f", decimals < 1 ? 1 : decimals, x);
        return;
    }
    *strchr(digits, 'e') = '\0';
    snprintf(buf, size, "%s%sE%d", digits, strchr(digits, '.') ? "" : ".0", exp);
}

/* ---- values inside arrays, maps and rows, and varbinary ---- */

/* The length of the name that begins Trino type t: "timestamp" of "timestamp(3) with time zone". */
static size_t base_length(const char *t)
{
    return strcspn(t, "(), ");
}

static bool is_type(const char *t, const char *name)
{
    size_t n = base_length(t);
    return n == strlen(name) && strncmp(t, name, n) == 0;
}

/* The ',' or ')' that ends the type argument (or row field) at t, at its own depth. */
static const char *argument_end(const char *t)
{
    bool quoted = false;
    int depth = 0;

    for (; *t != '\0'; t++) {
        if (*t == '"')
            quoted = !quoted; /* a doubled quote inside a name toggles twice */
        else if (quoted)
            continue;
        else if (*t == '(')
            depth++;
        else if ((*t == ')' && depth-- == 0) || (*t == ',' && depth == 0))
            return t;
    }
    return t;
}

/* The argument after the one that ends at `end`, or "" after the last. */
static const char *next_argument(const char *end)
{
    if (*end != ',')
        return "";
    for (end++; *end == ' ';)
        end++;
    return end;
}

static void put(floe_athena_csv_t *out, const char *s)
{
    floe_athena_csv_append(out, s, strlen(s));
}

static int base64_digit(char c)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *at = c != '\0' ? strchr(digits, c) : NULL;

    return at != NULL ? (int)(at - digits) : -1;
}

/* Trino sends a varbinary in base64; Athena prints its bytes in hex, two digits each, spaced. */
static void put_varbinary(floe_athena_csv_t *out, const char *base64)
{
    unsigned bits = 0;
    int n = 0;
    bool first = true;

    for (; *base64 != '\0' && *base64 != '='; base64++) {
        int d = base64_digit(*base64);
        char hex[4];

        if (d < 0)
            continue;
        bits = (bits << 6 | (unsigned)d) & 0xfff;
        if ((n += 6) < 8)
            continue;
        n -= 8;
        snprintf(hex, sizeof(hex), "%s%02x", first ? "" : " ", (bits >> n) & 0xff);
        put(out, hex);
        first = false;
    }
}

static void put_value(floe_athena_csv_t *out, const cJSON *v, const char *type);

/* A row field at f, `name type` or an anonymous `type`: its type; *name and *name_length its name
 * as Athena prints it (unquoted), *name NULL when it has none. */
static const char *field_type(const char *f, const char **name, size_t *name_length)
{
    size_t n = base_length(f);

    *name = NULL;
    if (*f == '"') {
        for (n = 1; f[n] != '\0' && !(f[n] == '"' && f[n + 1] != '"'); n += f[n] == '"' ? 2 : 1)
            ;
        *name = f + 1;
        *name_length = n - 1;
        return f[n] == '"' ? f + n + 1 + (f[n + 1] == ' ') : f + n;
    }
    if (f[n] != ' ')
        return f; /* `integer`, `timestamp(3) with time zone`: no name before the type */
    *name = f;
    *name_length = n;
    return f + n + 1;
}

/* [a, b], {key=value, ...} or {field=value, ...}: as Athena prints arrays, maps and rows. */
static void put_composite(floe_athena_csv_t *out, const cJSON *v, const char *type)
{
    const char *argument = type + base_length(type) + 1; /* after "array(", "map(" or "row(" */
    const char *second = next_argument(argument_end(argument));
    const cJSON *item;
    bool first = true;

    put(out, is_type(type, "array") ? "[" : "{");
    cJSON_ArrayForEach(item, v)
    {
        put(out, first ? "" : ", ");
        first = false;
        if (is_type(type, "map")) {
            put(out, item->string != NULL ? item->string : ""); /* a key: an object's member name */
            put(out, "=");
            put_value(out, item, second);
        } else if (is_type(type, "row")) {
            const char *name;
            size_t name_length = 0;
            const char *field = field_type(argument, &name, &name_length);

            if (name != NULL) {
                floe_athena_csv_append(out, name, name_length);
                put(out, "=");
            }
            put_value(out, item, field);
            argument = next_argument(argument_end(argument));
        } else {
            put_value(out, item, argument);
        }
    }
    put(out, is_type(type, "array") ? "]" : "}");
}

/* A number as Athena prints one of its type: doubles and reals as Java does, else an integer. */
static const char *number_text(double x, const char *type, char buf[FLOE_VALUE_TEXT_MAX])
{
    if (is_type(type, "double") || is_type(type, "real"))
        java_double(x, buf, FLOE_VALUE_TEXT_MAX);
    else
        snprintf(buf, FLOE_VALUE_TEXT_MAX, "%lld", (long long)x);
    return buf;
}

static bool is_composite(const char *type)
{
    return (is_type(type, "array") || is_type(type, "map") || is_type(type, "row")) && type[base_length(type)] == '(';
}

/* v, of Trino type `type`, inside an array, map or row: a NULL there is `null`. */
static void put_value(floe_athena_csv_t *out, const cJSON *v, const char *type)
{
    char buf[FLOE_VALUE_TEXT_MAX];
    char *json;

    if (v == NULL || cJSON_IsNull(v)) {
        put(out, "null");
    } else if (is_composite(type) && (cJSON_IsArray(v) || cJSON_IsObject(v))) {
        put_composite(out, v, type);
    } else if (cJSON_IsString(v)) {
        if (is_type(type, "varbinary"))
            put_varbinary(out, v->valuestring);
        else
            put(out, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        put(out, cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNumber(v)) {
        put(out, number_text(v->valuedouble, type, buf));
    } else {
        json = cJSON_PrintUnformatted(v); /* a type Floe does not know: Trino's JSON */
        put(out, json);
        free(json);
    }
}

const char *floe_value_text(const cJSON *v, const char *type, char buf[FLOE_VALUE_TEXT_MAX], char **owned)
{
    floe_athena_csv_t text = {0};

    *owned = NULL;
    if (v == NULL || cJSON_IsNull(v))
        return NULL;
    if (cJSON_IsString(v) && !is_type(type, "varbinary"))
        return v->valuestring;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNumber(v))
        return number_text(v->valuedouble, type, buf);
    put_value(&text, v, type);
    *owned = text.data != NULL ? text.data : floe_xstrdup("");
    return *owned;
}

const char *floe_athena_substatement_type(const char *update_type, bool has_count, const char *word)
{
    static const char *const same[] = {"INSERT", "UPDATE", "DELETE", "MERGE"};

    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
        if (strcmp(update_type, same[i]) == 0)
            return same[i];
    if (strcmp(update_type, "CREATE TABLE") == 0)
        return has_count ? "CREATE_TABLE_AS_SELECT" : "CREATE_TABLE";
    if (strcmp(update_type, "DROP TABLE") == 0)
        return "DROP_TABLE";
    if (*update_type == '\0' && (strcmp(word, "SELECT") == 0 || strcmp(word, "WITH") == 0 ||
                                 strcmp(word, "VALUES") == 0 || strcmp(word, "TABLE") == 0))
        return "SELECT";
    return NULL;
}
