/*
 * The ARN helpers of arn.h. Only the shape matters here: the generated validators have already
 * checked each ARN against the model's pattern.
 */
#include <string.h>

#include "base/failure.h"
#include "catalog/arn.h"

#define TABLE_MARKER "/table/"

/* Concatenates up to three strings into the call's pool. */
static char *concat3(floe_call_t *call, const char *a, const char *b, const char *c)
{
    size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
    char *out = floe_call_alloc(call, na + nb + nc + 1);
    memcpy(out, a, na);
    memcpy(out + na, b, nb);
    memcpy(out + na + nb, c, nc);
    return out;
}

char *floe_arn_table_bucket(floe_call_t *call, const char *bucket)
{
    return concat3(call, call->arn_bucket_prefix, bucket, "");
}

char *floe_arn_table(floe_call_t *call, const char *bucket, const char *table_id)
{
    char *bucket_arn = concat3(call, call->arn_bucket_prefix, bucket, TABLE_MARKER);
    return concat3(call, bucket_arn, table_id, "");
}

/* The text after "arn:aws:s3tables:{region}:{account}:bucket/", or NULL. */
static const char *after_prefix(floe_call_t *call, const char *arn)
{
    const char *p = call->arn_bucket_prefix;
    size_t n = strlen(p);
    return strncmp(arn, p, n) == 0 ? arn + n : NULL;
}

char *floe_arn_parse_table_bucket(floe_call_t *call, const char *arn)
{
    const char *rest = after_prefix(call, arn);
    if (rest == NULL || *rest == '\0' || strchr(rest, '/') != NULL)
        return NULL;
    return floe_call_strdup(call, rest);
}

int floe_arn_parse_table(floe_call_t *call, const char *arn, char **bucket, char **table_id)
{
    static const char marker[] = TABLE_MARKER;
    const char *rest = after_prefix(call, arn), *mark;

    if (rest == NULL || (mark = strstr(rest, marker)) == NULL || mark == rest)
        return FLOE_EFAIL;
    if (mark[sizeof(marker) - 1] == '\0' || strchr(mark + sizeof(marker) - 1, '/') != NULL)
        return FLOE_EFAIL;
    *bucket = floe_call_strndup(call, rest, (size_t)(mark - rest));
    *table_id = floe_call_strdup(call, mark + sizeof(marker) - 1);
    return FLOE_OK;
}

/* The ARN's fields are arn:partition:service:region:account:resource. */
#define ARN_ACCOUNT_FIELD 4
#define S3TABLES_SERVICE "s3tables"

bool floe_arn_is_other_account(floe_call_t *call, const char *arn)
{
    const char *field = arn, *end;
    const char *account = floe_call_account(call);

    for (int i = 0; i < ARN_ACCOUNT_FIELD; i++) {
        if ((field = strchr(field, ':')) == NULL)
            return false;
        field++;
        if (i == 1 && strncmp(field, S3TABLES_SERVICE ":", sizeof(S3TABLES_SERVICE)) != 0)
            return false;
    }
    if ((end = strchr(field, ':')) == NULL)
        return false;
    return (size_t)(end - field) != strlen(account) || strncmp(field, account, (size_t)(end - field)) != 0;
}
