/*
 * Customer managed policies: CreatePolicy, GetPolicy, GetPolicyVersion, DeletePolicy. A policy
 * is named by its ARN in the request's account; AWS managed policies do not exist in Floe, so
 * their ARNs are not found.
 */
#include <string.h>

#include "iam_common.h"

static void policy_shape(const floe_iam_managed_policy_t *p, floe_iam_Policy *out)
{
    memset(out, 0, sizeof(*out));
    out->PolicyName = p->name;
    out->PolicyId = p->id;
    out->Arn = p->arn;
    out->Path = p->path;
    out->DefaultVersionId = p->default_version;
    out->AttachmentCount = p->attachment_count;
    out->has_AttachmentCount = true;
    out->PermissionsBoundaryUsageCount = 0;
    out->has_PermissionsBoundaryUsageCount = true;
    out->IsAttachable = true;
    out->Description = p->description;
    out->CreateDate = p->created_at;
    out->has_CreateDate = true;
    out->UpdateDate = p->updated_at;
    out->has_UpdateDate = true;
}

int floe_iam_find_policy(floe_query_call_t *call, const char *arn, floe_iam_managed_policy_t *out)
{
    int rc = floe_iam_policy_get(&call->super, arn, out);

    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "Policy %s was not found.", arn);
    return rc;
}

int floe_iam_handle_CreatePolicy(floe_query_call_t *call, const floe_iam_CreatePolicyRequest *in,
                                 floe_iam_CreatePolicyResponse *out)
{
    floe_iam_managed_policy_t p = {
        .name = in->PolicyName, .path = (char *)floe_iam_path_or_default(in->Path), .description = in->Description};
    int rc;

    if ((rc = floe_iam_check_document(call, in->PolicyDocument, FLOE_POLICY_IDENTITY)) != FLOE_OK)
        return rc;
    rc = floe_iam_policy_create(&call->super, &p, in->PolicyDocument);
    if (rc == FLOE_EEXISTS)
        return floe_iam_fail(call, FLOE_IAM_ERR_EntityAlreadyExistsException,
                             "A policy called %s already exists. Duplicate names are not allowed.", in->PolicyName);
    if (rc != FLOE_OK)
        return rc;
    out->Policy = floe_call_alloc(&call->super, sizeof(*out->Policy));
    policy_shape(&p, out->Policy);
    return FLOE_OK;
}

int floe_iam_handle_GetPolicy(floe_query_call_t *call, const floe_iam_GetPolicyRequest *in,
                              floe_iam_GetPolicyResponse *out)
{
    floe_iam_managed_policy_t p;
    int rc = floe_iam_find_policy(call, in->PolicyArn, &p);

    if (rc != FLOE_OK)
        return rc;
    out->Policy = floe_call_alloc(&call->super, sizeof(*out->Policy));
    policy_shape(&p, out->Policy);
    return FLOE_OK;
}

int floe_iam_handle_GetPolicyVersion(floe_query_call_t *call, const floe_iam_GetPolicyVersionRequest *in,
                                     floe_iam_GetPolicyVersionResponse *out)
{
    floe_iam_managed_policy_t p;
    char *document;
    floe_timestamp_t created_at;
    int rc;

    if ((rc = floe_iam_find_policy(call, in->PolicyArn, &p)) != FLOE_OK)
        return rc;
    rc = floe_iam_policy_version(&call->super, p.row, in->VersionId, &document, &created_at);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "Policy %s version %s does not exist.",
                             in->PolicyArn, in->VersionId);
    if (rc != FLOE_OK)
        return rc;
    out->PolicyVersion = floe_call_alloc(&call->super, sizeof(*out->PolicyVersion));
    out->PolicyVersion->Document = floe_iam_url_encode(call, document);
    out->PolicyVersion->VersionId = in->VersionId;
    out->PolicyVersion->IsDefaultVersion = strcmp(in->VersionId, p.default_version) == 0;
    out->PolicyVersion->CreateDate = created_at;
    out->PolicyVersion->has_CreateDate = true;
    return FLOE_OK;
}

int floe_iam_handle_DeletePolicy(floe_query_call_t *call, const floe_iam_DeletePolicyRequest *in, floe_Unit *out)
{
    floe_iam_managed_policy_t p;
    int rc;

    (void)out;
    if ((rc = floe_iam_find_policy(call, in->PolicyArn, &p)) != FLOE_OK)
        return rc;
    rc = floe_iam_policy_delete(&call->super, p.row);
    if (rc == FLOE_EINUSE)
        return floe_iam_fail(call, FLOE_IAM_ERR_DeleteConflictException, "Cannot delete a policy attached to entities.");
    return rc;
}
