/*
 * The CloudFormation API's own authorization (stack.h's floe_stack_authorize): the action on the
 * stack's ARN as AWS's service authorization reference names the stack resource type
 * (arn:aws:cloudformation:<region>:<account>:stack/<name>/<id>; a stack named but not by its id is
 * stack/<name>/ and a star, as AWS's denials of CreateStack and DescribeStacks name it).
 * CloudFormation has no resource policy: the caller's identity-based policies decide (an account's
 * root may do everything in its account).
 */
#include <string.h>

#include "authz/authz.h"
#include "cloudformation/stack.h"
#include "iam/principal.h"

#define ARN_PREFIX "arn:"

int floe_stack_authorize(floe_call_t *call, const char *access_key, const char *action, const char *stack_name,
                         const char **caller, char **why)
{
    floe_authz_request_t r = {.action = action, .owner = floe_call_account(call)};
    floe_authz_decision_t d;
    floe_principal_t *principal;

    *caller = NULL;
    if (!floe_call_config(call)->enforce_iam)
        return FLOE_OK;
    if (floe_principal_of_key(call, access_key, &principal) != FLOE_OK) {
        *why = floe_call_strdup(call, "The security token included in the request is invalid.");
        return call->failure.code != FLOE_OK ? FLOE_EFAIL : FLOE_EDENIED;
    }
    if (stack_name == NULL)
        r.resource = "*";
    else if (strncmp(stack_name, ARN_PREFIX, strlen(ARN_PREFIX)) == 0)
        r.resource = stack_name;
    else
        r.resource = floe_call_printf(call, "arn:aws:cloudformation:%s:%s:stack/%s/*", floe_call_region(call),
                                      r.owner, stack_name);
    floe_authz_decide(call, principal, &r, &d);
    if (!d.is_allowed) {
        *why = (char *)floe_authz_message(call, &d);
        return FLOE_EDENIED;
    }
    *caller = principal->arn;
    return FLOE_OK;
}
