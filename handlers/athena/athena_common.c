/*
 * The shared workgroup lookup and paging of athena_common.h, and what holds a query or named
 * query for --enforce-iam.
 */
#include <string.h>

#include "athena_common.h"
#include "catalog/page_token.h"

static const char *const encryption_options[] = {NULL, "SSE_S3", "SSE_KMS", "CSE_KMS"};

const char *athena_workgroup_or_primary(const char *name)
{
    return name != NULL && name[0] != '\0' ? name : FLOE_ATHENA_PRIMARY_WORKGROUP;
}

int athena_workgroup_require(floe_awsjson_call_t *call, const char *name, floe_athena_workgroup_row_t *out)
{
    bool found;

    if (floe_athena_workgroup_ensure_primary(&call->super) ||
        floe_athena_workgroup_read(&call->super, name, &found, out))
        return floe_athena_fail_internal(call, "reading an Athena workgroup");
    if (!found)
        return floe_athena_fail(call, FLOE_ATHENA_ERR_InvalidRequestException, "WorkGroup is not found.");
    return FLOE_OK;
}

int athena_page_size(bool has_max_results, int32_t max_results, int fallback, int max)
{
    int n = has_max_results && max_results > 0 ? max_results : fallback;
    return n > max ? max : n;
}

const char *athena_page_after(floe_awsjson_call_t *call, const char *listing, const char *next_token)
{
    const char *after;

    if (next_token == NULL)
        return "";
    if ((after = floe_page_token_decode(&call->super, listing, next_token)) == NULL)
        floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_INPUT",
                                "Malformed nextPageToken %s", next_token);
    return after;
}

char *athena_page_token(floe_awsjson_call_t *call, const char *listing, const char *last_key)
{
    return floe_page_token_encode(&call->super, listing, last_key);
}

char *athena_page_token_seq(floe_awsjson_call_t *call, const char *listing, int64_t seq)
{
    return athena_page_token(call, listing, floe_call_printf(&call->super, "%lld", (long long)seq));
}

const char *athena_encryption_text(floe_athena_EncryptionOption option)
{
    return (size_t)option < sizeof(encryption_options) / sizeof(encryption_options[0]) ? encryption_options[option]
                                                                                         : NULL;
}

floe_athena_EncryptionOption athena_encryption_enum(const char *text)
{
    for (size_t i = 1; text != NULL && i < sizeof(encryption_options) / sizeof(encryption_options[0]); i++) {
        if (strcmp(text, encryption_options[i]) == 0)
            return (floe_athena_EncryptionOption)i;
    }
    return 0;
}

/* --enforce-iam decides an operation naming a query or named query by id on its workgroup (the
 * overlay's authorize.owner), as Athena's service authorization reference names it. */
int floe_athena_owner_of_QueryExecutionId(floe_awsjson_call_t *call, const char *id, bool *found, const char **name)
{
    floe_athena_query_row_t q;

    if (floe_athena_query_read(&call->super, id, found, &q))
        return FLOE_EFAIL;
    *name = *found ? q.workgroup : NULL;
    return FLOE_OK;
}

int floe_athena_owner_of_NamedQueryId(floe_awsjson_call_t *call, const char *id, bool *found, const char **name)
{
    floe_athena_named_query_row_t q;

    if (floe_athena_named_query_read(&call->super, id, found, &q))
        return FLOE_EFAIL;
    *name = *found ? q.workgroup : NULL;
    return FLOE_OK;
}
