/*
 * The catalog ids of iceberg_rest_glue.h. A Glue catalog id is an optional 12-digit account, then
 * catalog names separated by '/' (or ':' in a path prefix); see
 * https://docs.aws.amazon.com/glue/latest/dg/iceberg-rest-apis.html ("Prefix and catalog path parameter").
 */
#include <stdio.h>
#include <string.h>

#include "base/bucket_name.h"
#include "iceberg_rest/iceberg_rest_glue.h"

#define CATALOG_NAME_MAX 255

static bool is_separator(char c)
{
    return c == '/' || c == ':';
}

/* A catalog name Glue could hold: letters, digits, '_' and '-'. */
static bool is_catalog_name(const char *s, size_t n)
{
    if (n == 0 || n > CATALOG_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

floe_glue_catalog_kind_t floe_glue_catalog_parse(const char *id, floe_glue_catalog_t *out)
{
    char account[FLOE_ACCOUNT_ID_LEN + 1] = "";
    const char *p = id, *name, *bucket;
    size_t n;

    if (id == NULL || *id == '\0')
        return FLOE_GLUE_CATALOG_MALFORMED;
    if (strcmp(id, ":") == 0)
        return FLOE_GLUE_CATALOG_OTHER; /* Glue's name for the caller's default catalog */
    if (strspn(p, "0123456789") == FLOE_ACCOUNT_ID_LEN && (p[FLOE_ACCOUNT_ID_LEN] == '\0' || p[FLOE_ACCOUNT_ID_LEN] == ':')) {
        memcpy(account, p, FLOE_ACCOUNT_ID_LEN);
        p += FLOE_ACCOUNT_ID_LEN;
        if (*p == '\0')
            return FLOE_GLUE_CATALOG_OTHER; /* the account's default catalog */
        p++;
    }
    name = p;
    n = strcspn(name, "/:");
    if (!is_catalog_name(name, n) || strspn(name, "0123456789") >= n) /* all digits: an account id gone wrong */
        return FLOE_GLUE_CATALOG_MALFORMED;
    if (n != strlen(FLOE_GLUE_S3TABLES_CATALOG) || memcmp(name, FLOE_GLUE_S3TABLES_CATALOG, n) != 0) {
        /* another catalog, perhaps nested: well-formed if every name is */
        for (p = name + n; *p != '\0'; p += n) {
            p++;
            n = strcspn(p, "/:");
            if (!is_catalog_name(p, n))
                return FLOE_GLUE_CATALOG_MALFORMED;
        }
        return FLOE_GLUE_CATALOG_OTHER;
    }
    if (name[n] == '\0')
        return FLOE_GLUE_CATALOG_OTHER; /* s3tablescatalog itself holds no databases */
    if (!is_separator(name[n]))
        return FLOE_GLUE_CATALOG_MALFORMED;
    bucket = name + n + 1;
    if (strlen(bucket) > FLOE_GLUE_BUCKET_NAME_MAX || !floe_bucket_name_is_valid(bucket, FLOE_BUCKET_NAME_TABLE))
        return FLOE_GLUE_CATALOG_MALFORMED; /* also a third level: '/' and ':' are not in bucket names */
    memcpy(out->account_id, account, sizeof(account));
    memcpy(out->bucket, bucket, strlen(bucket) + 1);
    return FLOE_GLUE_CATALOG_TABLE_BUCKET;
}

void floe_glue_catalog_prefix(const char *account_id, const char *bucket, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s:%s:%s", FLOE_GLUE_CATALOGS_SEGMENT, account_id, FLOE_GLUE_S3TABLES_CATALOG, bucket);
}

floe_glue_warehouse_rc_t floe_glue_warehouse_of(const char *catalog_id, const floe_scope_t *scope,
                                                floe_glue_warehouse_t *out)
{
    floe_glue_catalog_t c;
    const char *account;

    switch (floe_glue_catalog_parse(catalog_id, &c)) {
    case FLOE_GLUE_CATALOG_MALFORMED: return FLOE_GLUE_WAREHOUSE_MALFORMED;
    case FLOE_GLUE_CATALOG_OTHER: return FLOE_GLUE_WAREHOUSE_NOT_EMULATED;
    case FLOE_GLUE_CATALOG_TABLE_BUCKET: break;
    }
    account = c.account_id[0] != '\0' ? c.account_id : scope->account_id;
    if (strcmp(account, scope->account_id) != 0)
        return FLOE_GLUE_WAREHOUSE_OTHER_ACCOUNT;
    snprintf(out->arn, sizeof(out->arn), "arn:aws:s3tables:%s:%s:bucket/%s", scope->region, account, c.bucket);
    floe_glue_catalog_prefix(account, c.bucket, out->prefix, sizeof(out->prefix));
    return FLOE_GLUE_WAREHOUSE_OK;
}
