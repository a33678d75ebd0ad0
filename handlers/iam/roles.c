/*
 * IAM roles: CreateRole, GetRole, ListRoles, DeleteRole. The trust policy (who may assume the
 * role, handlers/sts/) is validated as one; MaxSessionDuration bounds the sessions STS issues.
 */
#include "iam_common.h"

int floe_iam_handle_CreateRole(floe_query_call_t *call, const floe_iam_CreateRoleRequest *in,
                               floe_iam_CreateRoleResponse *out)
{
    floe_iam_entity_t e = {
        .name = in->RoleName,
        .path = (char *)floe_iam_path_or_default(in->Path),
        .trust_policy = in->AssumeRolePolicyDocument,
        .description = in->Description,
        .max_session_duration = in->has_MaxSessionDuration ? in->MaxSessionDuration : FLOE_IAM_DEFAULT_MAX_SESSION_S,
    };
    int rc;

    if ((rc = floe_iam_check_document(call, in->AssumeRolePolicyDocument, FLOE_POLICY_TRUST)) != FLOE_OK)
        return rc;
    rc = floe_iam_entity_create(&call->super, FLOE_IAM_ROLE, &e);
    if (rc == FLOE_EEXISTS)
        return floe_iam_fail(call, FLOE_IAM_ERR_EntityAlreadyExistsException, "Role with name %s already exists.",
                             in->RoleName);
    if (rc != FLOE_OK)
        return rc;
    out->Role = floe_call_alloc(&call->super, sizeof(*out->Role));
    floe_iam_role_shape(call, &e, out->Role);
    return FLOE_OK;
}

int floe_iam_handle_GetRole(floe_query_call_t *call, const floe_iam_GetRoleRequest *in, floe_iam_GetRoleResponse *out)
{
    floe_iam_entity_t e;
    int rc = floe_iam_find(call, FLOE_IAM_ROLE, in->RoleName, &e);

    if (rc != FLOE_OK)
        return rc;
    out->Role = floe_call_alloc(&call->super, sizeof(*out->Role));
    floe_iam_role_shape(call, &e, out->Role);
    return FLOE_OK;
}

int floe_iam_handle_ListRoles(floe_query_call_t *call, const floe_iam_ListRolesRequest *in,
                              floe_iam_ListRolesResponse *out)
{
    floe_iam_entity_t *all;
    size_t n, start, end;
    int rc = floe_iam_entity_list(&call->super, FLOE_IAM_ROLE, in->PathPrefix, &all, &n);

    if (rc != FLOE_OK || (rc = floe_iam_page(call, in->Marker, in->has_MaxItems, in->MaxItems, n, &start, &end,
                                             &out->Marker, &out->IsTruncated)) != FLOE_OK)
        return rc;
    out->Roles = floe_call_alloc(&call->super, sizeof(*out->Roles));
    out->Roles->items = floe_call_alloc(&call->super, sizeof(*out->Roles->items) * (end - start + 1));
    for (size_t i = start; i < end; i++)
        floe_iam_role_shape(call, &all[i], &out->Roles->items[out->Roles->n++]);
    return FLOE_OK;
}

int floe_iam_handle_DeleteRole(floe_query_call_t *call, const floe_iam_DeleteRoleRequest *in, floe_Unit *out)
{
    floe_iam_entity_t e;
    const char *blocker = NULL;
    int rc;

    (void)out;
    if ((rc = floe_iam_find(call, FLOE_IAM_ROLE, in->RoleName, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_entity_delete(&call->super, FLOE_IAM_ROLE, e.row, &blocker);
    if (rc == FLOE_EINUSE)
        return floe_iam_delete_conflict(call, blocker);
    return rc;
}
