/* Table buckets as Trino catalogs (catalogs.h). */
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

bool floe_catalogs_name_foreign(const char *sql, const char *account)
{
    for (const char *p = sql; (p = strcasestr(p, "s3tb_")) != NULL; p += 5) {
        char own[FLOE_TRINO_CATALOG_MAX];

        snprintf(own, sizeof(own), "s3tb_%s__", account);
        if (strncasecmp(p, own, strlen(own)) != 0)
            return true;
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

char *floe_catalogs_rewrite(const char *sql, const char *account, const char *region, floe_bucket_names_t *named)
{
    size_t prefix = strlen(FLOE_CATALOG_PREFIX);
    floe_athena_csv_t out = {0}; /* a growing buffer */
    const char *p = sql;

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
        floe_athena_csv_append(&out, p, 1);
        p++;
    }
    return out.data != NULL ? out.data : floe_xstrdup("");
}

char *floe_catalogs_unmap(const char *text, const char *account, const char *region, const floe_bucket_names_t *named)
{
    floe_athena_csv_t out = {0};
    const char *p = text;

    while (*p) {
        size_t i;

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
