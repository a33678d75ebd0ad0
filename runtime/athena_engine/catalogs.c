/* Athena's catalogs as Trino catalogs (catalogs.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "athena/athena_csv.h"
#include "athena_engine/catalogs.h"
#include "athena_engine/hive_ddl.h"
#include "base/engine_key.h"
#include "base/xalloc.h"

void floe_bucket_names_add(floe_bucket_names_t *b, const char *name, size_t len)
{
    for (size_t i = 0; i < b->n; i++) {
        if (strlen(b->names[i]) == len && memcmp(b->names[i], name, len) == 0)
            return;
    }
    b->names = floe_xrealloc(b->names, (b->n + 1) * sizeof(*b->names));
    b->names[b->n] = floe_xmalloc(len + 1);
    memcpy(b->names[b->n], name, len);
    b->names[b->n++][len] = '\0';
}

void floe_bucket_names_dispose(floe_bucket_names_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->names[i]);
    free(b->names);
    b->names = NULL;
    b->n = 0;
    b->default_catalog = false;
}

static void underscored(char *s)
{
    for (; *s; s++) {
        if (*s == '-')
            *s = '_';
    }
}

void floe_trino_catalog_name(const char *account, const char *region, const char *bucket,
                             char out[FLOE_TRINO_CATALOG_MAX])
{
    snprintf(out, FLOE_TRINO_CATALOG_MAX, "s3tb_%s__%s__%s", account, region, bucket);
    underscored(out);
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void hyphenated(char *s)
{
    for (; *s; s++) {
        if (*s == '_')
            *s = '-';
    }
}

bool floe_trino_catalog_parts(const char *catalog, char account[FLOE_TRINO_CATALOG_MAX],
                              char region[FLOE_TRINO_CATALOG_MAX], char bucket[FLOE_TRINO_CATALOG_MAX])
{
    const char *a = catalog + strlen("s3tb_"), *r, *b;

    if (strncmp(catalog, "s3tb_", 5) != 0 || (r = strstr(a, "__")) == NULL || (b = strstr(r + 2, "__")) == NULL)
        return false;
    snprintf(account, FLOE_TRINO_CATALOG_MAX, "%.*s", (int)(r - a), a);
    snprintf(region, FLOE_TRINO_CATALOG_MAX, "%.*s", (int)(b - (r + 2)), r + 2);
    snprintf(bucket, FLOE_TRINO_CATALOG_MAX, "%s", b + 2);
    hyphenated(region);
    hyphenated(bucket);
    return *account && *region && *bucket;
}

void floe_trino_default_catalog_name(const char *account, const char *region, bool hive,
                                     char out[FLOE_TRINO_CATALOG_MAX])
{
    snprintf(out, FLOE_TRINO_CATALOG_MAX, "%s%s__%s", hive ? "adc_" : "adci_", account, region);
    underscored(out);
}

bool floe_trino_default_catalog_parts(const char *catalog, char account[FLOE_TRINO_CATALOG_MAX],
                                      char region[FLOE_TRINO_CATALOG_MAX])
{
    size_t prefix = strncmp(catalog, "adc_", 4) == 0 ? 4 : strncmp(catalog, "adci_", 5) == 0 ? 5 : 0;
    const char *a = catalog + prefix, *r = prefix > 0 ? strstr(a, "__") : NULL;

    if (r == NULL)
        return false;
    snprintf(account, FLOE_TRINO_CATALOG_MAX, "%.*s", (int)(r - a), a);
    snprintf(region, FLOE_TRINO_CATALOG_MAX, "%s", r + 2);
    hyphenated(region);
    return *account && *region;
}

/* True when p holds a hidden catalog name's account part, 12 digits and "__", of another account. */
static bool foreign_account_at(const char *p, const char *account)
{
    for (int i = 0; i < 12; i++) {
        if (!isdigit((unsigned char)p[i]))
            return false;
    }
    return p[12] == '_' && p[13] == '_' && strncmp(p, account, 12) != 0;
}

bool floe_catalogs_name_foreign(const char *sql, const char *account)
{
    static const char *const prefixes[] = {"s3tb_", "adc_", "adci_"};

    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        for (const char *p = sql; (p = strcasestr(p, prefixes[i])) != NULL; p += strlen(prefixes[i])) {
            if ((p == sql || !is_name_char(p[-1])) && foreign_account_at(p + strlen(prefixes[i]), account))
                return true;
        }
    }
    return false;
}

/* The end of the literal or comment at p (p itself when there is none), so a rewrite skips it. */
static const char *skip_literal(const char *p)
{
    if (*p == '\'') {
        for (p++; *p; p++) {
            if (*p == '\'' && p[1] == '\'')
                p++;
            else if (*p == '\'')
                return p + 1;
        }
        return p;
    }
    if (p[0] == '-' && p[1] == '-') {
        const char *eol = strchr(p, '\n');
        return eol != NULL ? eol : p + strlen(p);
    }
    if (p[0] == '/' && p[1] == '*') {
        const char *close = strstr(p + 2, "*/");
        return close != NULL ? close + 2 : p + strlen(p);
    }
    return p;
}

/* The length of `awsdatacatalog`, bare or double-quoted, any case, at p when a '.' follows it (0
 * when not there), so `awsdatacatalog.db.t` names the default catalog. */
static size_t default_catalog_at(const char *sql, const char *p)
{
    static const char word[] = "awsdatacatalog";
    size_t len = sizeof(word) - 1, quoted = *p == '"';
    const char *after;

    if ((p > sql && (is_name_char(p[-1]) || p[-1] == '.')) || strncasecmp(p + quoted, word, len) != 0 ||
        (quoted && p[len + 1] != '"'))
        return 0;
    after = p + len + 2 * quoted;
    if (is_name_char(*after))
        return 0;
    while (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r')
        after++;
    return *after == '.' ? len + 2 * quoted : 0;
}

char *floe_catalogs_rewrite(const char *sql, const char *account, const char *region, floe_bucket_names_t *named)
{
    size_t prefix = strlen(FLOE_CATALOG_PREFIX);
    floe_athena_csv_t out = {0}; /* a growing buffer */
    const char *p = sql;
    size_t len;

    while (*p) {
        const char *after = skip_literal(p), *close;

        if (after != p) {
            floe_athena_csv_append(&out, p, (size_t)(after - p));
            p = after;
            continue;
        }
        if (*p == '"' && strncmp(p + 1, FLOE_CATALOG_PREFIX, prefix) == 0 &&
            (close = strchr(p + 1 + prefix, '"')) != NULL && close > p + 1 + prefix) {
            char name[FLOE_TRINO_CATALOG_MAX], bucket[FLOE_TRINO_CATALOG_MAX];
            size_t len = (size_t)(close - (p + 1 + prefix));

            snprintf(bucket, sizeof(bucket), "%.*s", (int)len, p + 1 + prefix);
            floe_bucket_names_add(named, bucket, strlen(bucket));
            floe_trino_catalog_name(account, region, bucket, name);
            floe_athena_csv_append(&out, name, strlen(name));
            p = close + 1;
            continue;
        }
        if ((len = default_catalog_at(sql, p)) > 0) {
            char name[FLOE_TRINO_CATALOG_MAX];

            floe_trino_default_catalog_name(account, region, false, name);
            floe_athena_csv_append(&out, name, strlen(name));
            named->default_catalog = true;
            p += len;
            continue;
        }
        floe_athena_csv_append(&out, p, 1);
        p++;
    }
    return out.data != NULL ? out.data : floe_xstrdup("");
}

char *floe_catalogs_unmap(const char *text, const char *account, const char *region, const floe_bucket_names_t *named)
{
    floe_athena_csv_t out = {0};
    const char *p = text;
    char hive[FLOE_TRINO_CATALOG_MAX], iceberg[FLOE_TRINO_CATALOG_MAX];

    floe_trino_default_catalog_name(account, region, true, hive);
    floe_trino_default_catalog_name(account, region, false, iceberg);
    while (*p) {
        size_t i;

        if (strncmp(p, hive, strlen(hive)) == 0 || strncmp(p, iceberg, strlen(iceberg)) == 0) {
            floe_athena_csv_append(&out, "awsdatacatalog", strlen("awsdatacatalog"));
            p += strlen(strncmp(p, hive, strlen(hive)) == 0 ? hive : iceberg);
            continue;
        }

        for (i = 0; i < named->n; i++) {
            char name[FLOE_TRINO_CATALOG_MAX];

            floe_trino_catalog_name(account, region, named->names[i], name);
            if (strncmp(p, name, strlen(name)) == 0) {
                floe_athena_csv_append(&out, FLOE_CATALOG_PREFIX, strlen(FLOE_CATALOG_PREFIX));
                floe_athena_csv_append(&out, named->names[i], strlen(named->names[i]));
                p += strlen(name);
                break;
            }
        }
        if (i == named->n)
            floe_athena_csv_append(&out, p++, 1);
    }
    return out.data != NULL ? out.data : floe_xstrdup("");
}

char *floe_catalog_create_sql(const char *catalog, const char *floe_url, const char *account, const char *region,
                              const char *bucket, const char *engine_secret)
{
    char key[FLOE_ENGINE_KEY_LEN + 1], *sql;
    size_t size = 2048 + sizeof(FLOE_ATHENA_ICEBERG_PROPERTIES) + 2 * strlen(floe_url) + strlen(catalog) + strlen(bucket) + strlen(engine_secret);

    floe_engine_key_of(account, key);
    sql = floe_xmalloc(size);
    snprintf(sql, size,
                 "CREATE CATALOG %s USING iceberg WITH ("
                 "\"iceberg.catalog.type\" = 'rest', "
                 "\"iceberg.rest-catalog.uri\" = '%s/iceberg', "
                 "\"iceberg.rest-catalog.warehouse\" = 'arn:aws:s3tables:%s:%s:bucket/%s', "
                 "\"iceberg.rest-catalog.sigv4-enabled\" = 'true', "
                 "\"iceberg.rest-catalog.signing-name\" = 's3tables', "
                 "\"iceberg.rest-catalog.view-endpoints-enabled\" = 'false', "
                 "\"iceberg.allowed-extra-properties\" = '%s', " /* Athena's TBLPROPERTIES, kept */
                 "\"fs.native-s3.enabled\" = 'true', "
                 "\"s3.endpoint\" = '%s', \"s3.region\" = '%s', \"s3.path-style-access\" = 'true', "
                 "\"s3.aws-access-key\" = '%s', \"s3.aws-secret-key\" = '%s')",
                 catalog, floe_url, region, account, bucket, FLOE_ATHENA_ICEBERG_PROPERTIES, floe_url, region, key,
                 engine_secret);
    return sql;
}

/* Glue's table and column statistics are not kept by Floe (GetColumnStatisticsForTable answers 501),
 * so neither connector asks for them or writes them. */
char *floe_default_catalog_create_sql(const char *catalog, bool hive, const char *other, const char *floe_url,
                                      const char *account, const char *region, const char *engine_secret)
{
    char key[FLOE_ENGINE_KEY_LEN + 1], *sql;
    size_t size = 2048 + sizeof(FLOE_ATHENA_ICEBERG_PROPERTIES) + 2 * strlen(floe_url) + strlen(catalog) +
                  strlen(other) + strlen(engine_secret);

    floe_engine_key_of(account, key);
    sql = floe_xmalloc(size);
    snprintf(sql, size,
             "CREATE CATALOG %s USING %s WITH ("
             "%s = '%s', "
             "%s"
             "\"hive.metastore.glue.region\" = '%s', \"hive.metastore.glue.endpoint-url\" = '%s', "
             "\"hive.metastore.glue.catalogid\" = '%s', "
             "\"hive.metastore.glue.aws-access-key\" = '%s', \"hive.metastore.glue.aws-secret-key\" = '%s', "
             "\"fs.native-s3.enabled\" = 'true', "
             "\"s3.endpoint\" = '%s', \"s3.region\" = '%s', \"s3.path-style-access\" = 'true', "
             "\"s3.aws-access-key\" = '%s', \"s3.aws-secret-key\" = '%s')",
             catalog, hive ? "hive" : "iceberg", hive ? "\"hive.iceberg-catalog-name\"" : "\"iceberg.hive-catalog-name\"",
             other,
             hive ? "\"hive.metastore\" = 'glue', \"hive.non-managed-table-writes-enabled\" = 'true', "
                    "\"hive.table-statistics-enabled\" = 'false', \"hive.collect-column-statistics-on-write\" = 'false', "
                  : "\"iceberg.catalog.type\" = 'glue', \"iceberg.table-statistics-enabled\" = 'false', "
                    "\"iceberg.extended-statistics.collect-on-write\" = 'false', "
                    "\"iceberg.allowed-extra-properties\" = '" FLOE_ATHENA_ICEBERG_PROPERTIES "', ",
             region, floe_url, account, key, engine_secret, floe_url, region, key, engine_secret);
    return sql;
}
