/*
 * The ARN helpers of arn.h. Only the shape matters here: the generated validators have already
 * checked each ARN against the model's pattern.
 */
#include <string.h>

#include "arn.h"

#define ARN_PARTITION "aws"
#define ARN_SERVICE "s3tables"

static char *prefix(floe_call_t *call)
{
    const floe_config_t *c = floe_call_config(call);
    return floe_call_printf(call, "arn:" ARN_PARTITION ":" ARN_SERVICE ":%s:%s:bucket/", c->region, c->account_id);
}

char *floe_arn_table_bucket(floe_call_t *call, const char *bucket)
{
    const floe_config_t *c = floe_call_config(call);
    return floe_call_printf(call, "arn:" ARN_PARTITION ":" ARN_SERVICE ":%s:%s:bucket/%s", c->region, c->account_id,
                            bucket);
}

char *floe_arn_table(floe_call_t *call, const char *bucket, const char *table_id)
{
    const floe_config_t *c = floe_call_config(call);
    return floe_call_printf(call, "arn:" ARN_PARTITION ":" ARN_SERVICE ":%s:%s:bucket/%s/table/%s", c->region,
                            c->account_id, bucket, table_id);
}

/* The text after "arn:aws:s3tables:{region}:{account}:bucket/", or NULL. */
static const char *after_prefix(floe_call_t *call, const char *arn)
{
    const char *p = prefix(call);
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
    static const char marker[] = "/table/";
    const char *rest = after_prefix(call, arn), *mark;

    if (rest == NULL || (mark = strstr(rest, marker)) == NULL || mark == rest)
        return -1;
    if (mark[sizeof(marker) - 1] == '\0' || strchr(mark + sizeof(marker) - 1, '/') != NULL)
        return -1;
    *bucket = floe_call_strndup(call, rest, (size_t)(mark - rest));
    *table_id = floe_call_strdup(call, mark + sizeof(marker) - 1);
    return 0;
}
