/*
 * Inline policies of users and roles: Put, Get, Delete and List, for both kinds through the same
 * functions. Documents are validated as identity-based policies and answered URL-encoded, as IAM
 * stores and sends them.
 */
#include "iam_common.h"

static int put(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *name, const char *document)
{
    floe_iam_entity_t e;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK ||
        (rc = floe_iam_check_document(call, document, FLOE_POLICY_IDENTITY)) != FLOE_OK)
        return rc;
    return floe_iam_inline_put(&call->super, kind, e.row, name, document);
}

/* The stored name and the URL-encoded document of the inline policy `name`. */
static int get(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *name, char **owner_out,
               char **name_out, char **document)
{
    floe_iam_entity_t e;
    char *text;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_inline_get(&call->super, kind, e.row, name, name_out, &text);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "The %s policy with name %s cannot be found.",
                             floe_iam_kind_word(kind), name);
    if (rc != FLOE_OK)
        return rc;
    *owner_out = e.name;
    *document = floe_iam_url_encode(call, text);
    return FLOE_OK;
}

static int delete(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *name)
{
    floe_iam_entity_t e;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_inline_delete(&call->super, kind, e.row, name);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "The %s policy with name %s cannot be found.",
                             floe_iam_kind_word(kind), name);
    return rc;
}

static int list(floe_query_call_t *call, floe_iam_kind_t kind, const char *owner, const char *marker, bool has_max,
                int32_t max, floe_iam_policyNameListType **names, char **next_marker, bool *is_truncated)
{
    floe_iam_entity_t e;
    char **all;
    size_t n, start, end;
    int rc;

    if ((rc = floe_iam_find(call, kind, owner, &e)) != FLOE_OK ||
        (rc = floe_iam_inline_list(&call->super, kind, e.row, &all, &n)) != FLOE_OK ||
        (rc = floe_iam_page(call, marker, has_max, max, n, &start, &end, next_marker, is_truncated)) != FLOE_OK)
        return rc;
    *names = floe_call_alloc(&call->super, sizeof(**names));
    (*names)->items = all + start;
    (*names)->n = end - start;
    return FLOE_OK;
}

int floe_iam_handle_PutUserPolicy(floe_query_call_t *call, const floe_iam_PutUserPolicyRequest *in, floe_Unit *out)
{
    (void)out;
    return put(call, FLOE_IAM_USER, in->UserName, in->PolicyName, in->PolicyDocument);
}

int floe_iam_handle_PutRolePolicy(floe_query_call_t *call, const floe_iam_PutRolePolicyRequest *in, floe_Unit *out)
{
    (void)out;
    return put(call, FLOE_IAM_ROLE, in->RoleName, in->PolicyName, in->PolicyDocument);
}

int floe_iam_handle_GetUserPolicy(floe_query_call_t *call, const floe_iam_GetUserPolicyRequest *in,
                                  floe_iam_GetUserPolicyResponse *out)
{
    return get(call, FLOE_IAM_USER, in->UserName, in->PolicyName, &out->UserName, &out->PolicyName,
               &out->PolicyDocument);
}

int floe_iam_handle_GetRolePolicy(floe_query_call_t *call, const floe_iam_GetRolePolicyRequest *in,
                                  floe_iam_GetRolePolicyResponse *out)
{
    return get(call, FLOE_IAM_ROLE, in->RoleName, in->PolicyName, &out->RoleName, &out->PolicyName,
               &out->PolicyDocument);
}

int floe_iam_handle_DeleteUserPolicy(floe_query_call_t *call, const floe_iam_DeleteUserPolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return delete(call, FLOE_IAM_USER, in->UserName, in->PolicyName);
}

int floe_iam_handle_DeleteRolePolicy(floe_query_call_t *call, const floe_iam_DeleteRolePolicyRequest *in,
                                     floe_Unit *out)
{
    (void)out;
    return delete(call, FLOE_IAM_ROLE, in->RoleName, in->PolicyName);
}

int floe_iam_handle_ListUserPolicies(floe_query_call_t *call, const floe_iam_ListUserPoliciesRequest *in,
                                     floe_iam_ListUserPoliciesResponse *out)
{
    return list(call, FLOE_IAM_USER, in->UserName, in->Marker, in->has_MaxItems, in->MaxItems, &out->PolicyNames,
                &out->Marker, &out->IsTruncated);
}

int floe_iam_handle_ListRolePolicies(floe_query_call_t *call, const floe_iam_ListRolePoliciesRequest *in,
                                     floe_iam_ListRolePoliciesResponse *out)
{
    return list(call, FLOE_IAM_ROLE, in->RoleName, in->Marker, in->has_MaxItems, in->MaxItems, &out->PolicyNames,
                &out->Marker, &out->IsTruncated);
}
