/* Result values and types as Athena reports them (values.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "athena_engine/values.h"

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

const char *floe_value_text(const cJSON *v, const char *type, char buf[FLOE_VALUE_TEXT_MAX], char **owned)
{
    *owned = NULL;
    if (v == NULL || cJSON_IsNull(v))
        return NULL;
    if (cJSON_IsString(v))
        return v->valuestring;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNumber(v)) {
        if (strcmp(type, "double") == 0 || strcmp(type, "float") == 0)
            java_double(v->valuedouble, buf, FLOE_VALUE_TEXT_MAX);
        else
            snprintf(buf, FLOE_VALUE_TEXT_MAX, "%lld", (long long)v->valuedouble);
        return buf;
    }
    *owned = cJSON_PrintUnformatted(v);
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
