/*
 * The S3 Tables resource side of authorization (table_access.h): the owner's account from the ARN,
 * the principal and the resource with its policies (input_cache.h: from memory while they have not
 * changed, else one lookup each), then authz.c's decision.
 */
#include <string.h>

#include "authz/input_cache.h"
#include "authz/table_access.h"

int floe_authz_table_access(floe_call_t *call, const char *access_key, const char *source_ip, const char *action,
                            const floe_authz_target_t *target, floe_authz_decision_t *out)
{
    floe_authz_request_t r = {0};
    floe_principal_t *principal;
    floe_scope_t owner = call->scope;

    if (floe_authz_principal_of_key(call, access_key, &principal))
        return floe_fail(call, FLOE_EDENIED, FLOE_SUBJECT_REQUEST, "The security token included in the request is invalid.");
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
        if (floe_authz_resource_of(call, target->arn, target->namespace_, target->name, &r))
            return FLOE_EFAIL;
    } else {
        r.resource = floe_call_printf(call, "%s*", call->arn_bucket_prefix);
    }
    r.owner = owner.account_id;
    return floe_authz_decide(call, principal, &r, out);
}
