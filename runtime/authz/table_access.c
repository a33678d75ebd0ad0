/*
 * The S3 Tables resource side of authorization (table_access.h): the owner's account from the ARN,
 * the policies of the bucket and table in one lookup (catalog/resource_policy.h), the resource's
 * ARN as AWS's service authorization reference names it, then authz.c's decision.
 */
#include <string.h>

#include "authz/table_access.h"
#include "catalog/resource_policy.h"
#include "iam/principal.h"

#define BUCKET_PART ":bucket/"
#define TABLE_PART "/table/"
#define ARN_PREFIX "arn:aws:s3tables:"

/* The bucket name and, for a table ARN, the table id an S3 Tables ARN names; false for another ARN. */
static bool arn_parts(floe_call_t *call, const char *arn, char **bucket, char **table_id)
{
    const char *b = strstr(arn, BUCKET_PART), *t;

    if (strncmp(arn, ARN_PREFIX, strlen(ARN_PREFIX)) != 0 || b == NULL)
        return false;
    b += strlen(BUCKET_PART);
    t = strstr(b, TABLE_PART);
    *bucket = floe_call_strdup(call, b);
    (*bucket)[t ? (size_t)(t - b) : strlen(b)] = '\0';
    *table_id = t ? floe_call_strdup(call, t + strlen(TABLE_PART)) : NULL;
    return **bucket != '\0';
}

/* The resource and its policies, looked up in the owner's scope (the call's by now). */
static int resource_of(floe_call_t *call, const floe_authz_target_t *t, floe_authz_request_t *r)
{
    floe_resource_policies_t policies;
    char *bucket, *table_id;
    int prefix_len;

    if (!arn_parts(call, t->arn, &bucket, &table_id)) {
        r->resource = t->arn; /* not an S3 Tables ARN: the operation refuses it */
        return FLOE_OK;
    }
    if (floe_resource_policies_get(call, bucket, t->namespace_, t->name, table_id, &policies))
        return FLOE_EFAIL;
    r->bucket_policy = policies.bucket_policy;
    r->table_policy = policies.table_policy;
    prefix_len = (int)((size_t)(strstr(t->arn, BUCKET_PART) - t->arn) + strlen(BUCKET_PART));
    r->resource = policies.has_table
                      ? floe_call_printf(call, "%.*s%s" TABLE_PART "%s", prefix_len, t->arn, bucket, policies.table_id)
                      : floe_call_printf(call, "%.*s%s", prefix_len, t->arn, bucket);
    return FLOE_OK;
}

int floe_authz_table_access(floe_call_t *call, const char *access_key, const char *source_ip, const char *action,
                            const floe_authz_target_t *target, floe_authz_decision_t *out)
{
    floe_authz_request_t r = {0};
    floe_principal_t *principal;
    floe_scope_t owner = call->scope;

    if (floe_principal_of_key(call, access_key, &principal))
        return floe_fail(call, FLOE_ERR_AccessDeniedException, "The security token included in the request is invalid.");
    r.action = action;
    r.namespace_ = target->namespace_;
    r.table_name = target->name;
    r.source_ip = source_ip;
    if (target->arn != NULL) {
        floe_scope_t named;
        floe_scope_from_arn(call->config, target->arn, &named);
        /* the owner's bucket is found in the owner's account; the region stays the endpoint's */
        memcpy(owner.account_id, named.account_id, sizeof(owner.account_id));
        floe_call_set_scope(call, &owner);
        if (resource_of(call, target, &r))
            return FLOE_EFAIL;
    } else {
        r.resource = floe_call_printf(call, "%s*", call->arn_bucket_prefix);
    }
    r.owner = owner.account_id;
    return floe_authz_decide(call, principal, &r, out);
}
