/*
 * Managed policies attached to users and roles: Attach, Detach and ListAttached for both kinds
 * through the same functions.
 */
#include "iam_common.h"

static int attach(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *arn)
{
    floe_iam_entity_t e;
    floe_iam_managed_policy_t p;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_policy_get(&call->super, arn, &p);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException,
                             "Policy %s does not exist or is not attachable.", arn);
    if (rc != FLOE_OK)
        return rc;
    return floe_iam_attach(&call->super, kind, e.row, p.row);
}

static int detach(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *arn)
{
    floe_iam_entity_t e;
    floe_iam_managed_policy_t p;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK || (rc = floe_iam_find_policy(call, arn, &p)) != FLOE_OK)
        return rc;
    rc = floe_iam_detach(&call->super, kind, e.row, p.row);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "Policy %s was not found.", arn);
    return rc;
}

static int list(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *marker, bool has_max,
                int32_t max, floe_iam_attachedPoliciesListType **out, char **next_marker, bool *is_truncated)
{
    floe_iam_entity_t e;
    floe_iam_attached_t *all;
    size_t n, start, end;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK ||
        (rc = floe_iam_attached_list(&call->super, kind, e.row, &all, &n)) != FLOE_OK ||
        (rc = floe_iam_page(call, marker, has_max, max, n, &start, &end, next_marker, is_truncated)) != FLOE_OK)
        return rc;
    *out = floe_call_alloc(&call->super, sizeof(**out));
    (*out)->items = floe_call_alloc(&call->super, sizeof(*(*out)->items) * (end - start + 1));
    for (size_t i = start; i < end; i++) {
        (*out)->items[(*out)->n].PolicyName = all[i].name;
        (*out)->items[(*out)->n++].PolicyArn = all[i].arn;
    }
    return FLOE_OK;
}

int floe_iam_handle_AttachUserPolicy(floe_query_call_t *call, const floe_iam_AttachUserPolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return attach(call, FLOE_IAM_USER, in->UserName, in->PolicyArn);
}

int floe_iam_handle_AttachRolePolicy(floe_query_call_t *call, const floe_iam_AttachRolePolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return attach(call, FLOE_IAM_ROLE, in->RoleName, in->PolicyArn);
}

int floe_iam_handle_DetachUserPolicy(floe_query_call_t *call, const floe_iam_DetachUserPolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return detach(call, FLOE_IAM_USER, in->UserName, in->PolicyArn);
}

int floe_iam_handle_DetachRolePolicy(floe_query_call_t *call, const floe_iam_DetachRolePolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return detach(call, FLOE_IAM_ROLE, in->RoleName, in->PolicyArn);
}

int floe_iam_handle_ListAttachedUserPolicies(floe_query_call_t *call, const floe_iam_ListAttachedUserPoliciesRequest *in,
                                             floe_iam_ListAttachedUserPoliciesResponse *out)
{
    return list(call, FLOE_IAM_USER, in->UserName, in->Marker, in->has_MaxItems, in->MaxItems, &out->AttachedPolicies,
                &out->Marker, &out->IsTruncated);
}

int floe_iam_handle_ListAttachedRolePolicies(floe_query_call_t *call, const floe_iam_ListAttachedRolePoliciesRequest *in,
                                             floe_iam_ListAttachedRolePoliciesResponse *out)
{
    return list(call, FLOE_IAM_ROLE, in->RoleName, in->Marker, in->has_MaxItems, in->MaxItems, &out->AttachedPolicies,
                &out->Marker, &out->IsTruncated);
}
