/*
 * IAM users: CreateUser, GetUser, ListUsers, DeleteUser. A user exists in its account only; its
 * name is unique there whatever its case. GetUser without a name answers the caller's own user.
 * Messages are IAM's.
 */
#include <string.h>

#include "iam/principal.h"
#include "iam_common.h"

int floe_iam_handle_CreateUser(floe_query_call_t *call, const floe_iam_CreateUserRequest *in,
                               floe_iam_CreateUserResponse *out)
{
    floe_iam_entity_t e = {.name = in->UserName, .path = (char *)floe_iam_path_or_default(in->Path)};
    int rc = floe_iam_entity_create(&call->super, FLOE_IAM_USER, &e);

    if (rc == FLOE_EEXISTS)
        return floe_iam_fail(call, FLOE_IAM_ERR_EntityAlreadyExistsException, "User with name %s already exists.",
                             in->UserName);
    if (rc != FLOE_OK)
        return rc;
    out->User = floe_call_alloc(&call->super, sizeof(*out->User));
    floe_iam_user_shape(call, &e, out->User);
    return FLOE_OK;
}

int floe_iam_caller_user(floe_query_call_t *call, floe_iam_entity_t *e)
{
    floe_principal_t *p;
    const char *slash;
    int rc = floe_principal_of_key(&call->super, call->access_key, &p);

    if (rc != FLOE_OK && rc != FLOE_ENOTFOUND)
        return rc;
    if (rc == FLOE_ENOTFOUND || p->kind != FLOE_PRINCIPAL_USER)
        return floe_iam_fail(call, FLOE_IAM_ERR_ValidationError,
                             "Must specify userName when calling with non-User credentials");
    slash = strrchr(p->arn, '/');
    return floe_iam_find(call, FLOE_IAM_USER, slash + 1, e);
}

int floe_iam_handle_GetUser(floe_query_call_t *call, const floe_iam_GetUserRequest *in, floe_iam_GetUserResponse *out)
{
    floe_iam_entity_t e;
    int rc = in->UserName != NULL ? floe_iam_find(call, FLOE_IAM_USER, in->UserName, &e) : floe_iam_caller_user(call, &e);

    if (rc != FLOE_OK)
        return rc;
    out->User = floe_call_alloc(&call->super, sizeof(*out->User));
    floe_iam_user_shape(call, &e, out->User);
    return FLOE_OK;
}

int floe_iam_handle_ListUsers(floe_query_call_t *call, const floe_iam_ListUsersRequest *in,
                              floe_iam_ListUsersResponse *out)
{
    floe_iam_entity_t *all;
    size_t n, start, end;
    int rc = floe_iam_entity_list(&call->super, FLOE_IAM_USER, in->PathPrefix, &all, &n);

    if (rc != FLOE_OK || (rc = floe_iam_page(call, in->Marker, in->has_MaxItems, in->MaxItems, n, &start, &end,
                                             &out->Marker, &out->IsTruncated)) != FLOE_OK)
        return rc;
    out->Users = floe_call_alloc(&call->super, sizeof(*out->Users));
    out->Users->items = floe_call_alloc(&call->super, sizeof(*out->Users->items) * (end - start + 1));
    for (size_t i = start; i < end; i++)
        floe_iam_user_shape(call, &all[i], &out->Users->items[out->Users->n++]);
    return FLOE_OK;
}

int floe_iam_handle_DeleteUser(floe_query_call_t *call, const floe_iam_DeleteUserRequest *in, floe_Unit *out)
{
    floe_iam_entity_t e;
    const char *blocker = NULL;
    int rc;

    (void)out;
    if ((rc = floe_iam_find(call, FLOE_IAM_USER, in->UserName, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_entity_delete(&call->super, FLOE_IAM_USER, e.row, &blocker);
    if (rc == FLOE_EINUSE)
        return floe_iam_delete_conflict(call, blocker);
    return rc;
}
