/*
 * The shared helpers of iam_common.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/percent.h"
#include "iam_common.h"

#define DEFAULT_MAX_ITEMS 100
#define POLICY_ERROR_MAX 512

const char *floe_iam_kind_word(floe_iam_kind_t kind)
{
    return kind == FLOE_IAM_USER ? "user" : "role";
}

int floe_iam_delete_conflict(floe_query_call_t *call, const char *blocker)
{
    return floe_iam_fail(call, FLOE_IAM_ERR_DeleteConflictException, "Cannot delete entity, must %s first.",
                         strcmp(blocker, "attached policies") == 0 ? "detach all policies"
                                                                    : floe_call_printf(&call->super, "delete %s", blocker));
}

int floe_iam_find(floe_query_call_t *call, floe_iam_kind_t kind, const char *name, floe_iam_entity_t *out)
{
    int rc = floe_iam_entity_get(&call->super, kind, name, out);

    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "The %s with name %s cannot be found.",
                             floe_iam_kind_word(kind), name);
    return rc;
}

int floe_iam_check_policy(floe_query_call_t *call, const char *document, floe_policy_kind_t kind,
                          floe_iam_error_t error)
{
    char err[POLICY_ERROR_MAX];
    floe_policy_t *policy = floe_policy_parse(document, strlen(document), kind, err, sizeof(err));

    if (policy == NULL)
        return floe_iam_fail(call, error, "%s", err);
    floe_policy_free(policy);
    return FLOE_OK;
}

int floe_iam_check_document(floe_query_call_t *call, const char *document, floe_policy_kind_t kind)
{
    return floe_iam_check_policy(call, document, kind, FLOE_IAM_ERR_MalformedPolicyDocumentException);
}

char *floe_iam_url_encode(floe_query_call_t *call, const char *document)
{
    size_t n = strlen(document);
    char *out = floe_call_alloc(&call->super, FLOE_PERCENT_ENCODED_MAX(n));

    floe_percent_encode(out, document, n, false);
    return out;
}

const char *floe_iam_path_or_default(const char *path)
{
    return path != NULL ? path : FLOE_IAM_DEFAULT_PATH;
}

void floe_iam_user_shape(floe_query_call_t *call, const floe_iam_entity_t *e, floe_iam_User *out)
{
    (void)call;
    memset(out, 0, sizeof(*out));
    out->Path = e->path;
    out->UserName = e->name;
    out->UserId = e->id;
    out->Arn = e->arn;
    out->CreateDate = e->created_at;
    out->has_CreateDate = true;
}

void floe_iam_role_shape(floe_query_call_t *call, const floe_iam_entity_t *e, floe_iam_Role *out)
{
    memset(out, 0, sizeof(*out));
    out->Path = e->path;
    out->RoleName = e->name;
    out->RoleId = e->id;
    out->Arn = e->arn;
    out->CreateDate = e->created_at;
    out->has_CreateDate = true;
    out->AssumeRolePolicyDocument = e->trust_policy != NULL ? floe_iam_url_encode(call, e->trust_policy) : NULL;
    out->Description = e->description;
    out->MaxSessionDuration = e->max_session_duration;
    out->has_MaxSessionDuration = true;
}

int floe_iam_page(floe_query_call_t *call, const char *marker, bool has_max, int32_t max, size_t n, size_t *start,
                  size_t *end, char **next_marker, bool *is_truncated)
{
    size_t limit = has_max && max > 0 ? (size_t)max : DEFAULT_MAX_ITEMS;
    char *tail = NULL;

    *start = 0;
    if (marker != NULL) {
        unsigned long long at = strtoull(marker, &tail, 10);
        if (*marker == '\0' || *tail != '\0' || at > n)
            return floe_iam_fail(call, FLOE_IAM_ERR_ValidationError, "Invalid Marker.");
        *start = (size_t)at;
    }
    *end = n - *start > limit ? *start + limit : n;
    *is_truncated = *end < n;
    *next_marker = *is_truncated ? floe_call_printf(&call->super, "%zu", *end) : NULL;
    return FLOE_OK;
}
