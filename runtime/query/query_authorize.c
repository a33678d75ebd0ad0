/*
 * The awsQuery side of --enforce-iam (query_authorize.h). The resource comes from the operation's
 * generated `authorize` row, which names the form keys to read, so no operation is named here.
 * A user or role that exists is named by its stored ARN (its path included); one that does not
 * (a create, or a name that is no one's) by the path the request gives, else "/".
 */
#include <string.h>

#include "iam/entity.h"
#include "iam/principal.h"
#include "query/query_authorize.h"

/* The member's value, or NULL when the request leaves it out (or it is empty). */
static const char *member(const floe_query_form_t *form, const char *key)
{
    const char *value = key != NULL ? floe_query_form_get(form, key) : NULL;

    return value != NULL && *value != '\0' ? value : NULL;
}

/* The ARN of the user or role `rule` names, in the caller's account. */
static int entity_arn(floe_query_call_t *call, const floe_query_authorize_t *rule, const floe_query_form_t *form,
                      const floe_principal_t *caller, const char **arn)
{
    floe_iam_kind_t kind = rule->kind == FLOE_QUERY_AUTHORIZE_ROLE ? FLOE_IAM_ROLE : FLOE_IAM_USER;
    const char *name = member(form, rule->name), *path = member(form, rule->path);
    floe_iam_entity_t e;
    int rc;

    if (name == NULL) { /* a user operation without UserName acts on the signing user */
        *arn = caller->arn;
        return FLOE_OK;
    }
    if ((rc = floe_iam_entity_get(&call->super, kind, name, &e)) == FLOE_OK) {
        *arn = e.arn;
        return FLOE_OK;
    }
    if (rc != FLOE_ENOTFOUND)
        return rc;
    *arn = floe_iam_entity_arn(&call->super, kind, call->super.scope.account_id,
                               path != NULL ? path : FLOE_IAM_DEFAULT_PATH, name);
    return FLOE_OK;
}

/* The resource's ARN as `rule` names it, in the call's pool. */
static int resource_of(floe_query_call_t *call, const floe_query_authorize_t *rule, const floe_query_form_t *form,
                       const floe_principal_t *caller, const char **arn)
{
    const char *path = member(form, rule->path);

    switch (rule->kind) {
    case FLOE_QUERY_AUTHORIZE_USER:
    case FLOE_QUERY_AUTHORIZE_ROLE:
        return entity_arn(call, rule, form, caller, arn);
    case FLOE_QUERY_AUTHORIZE_POLICY:
        if (rule->arn != NULL) {
            *arn = member(form, rule->arn);
        } else {
            *arn = floe_call_printf(&call->super, "arn:aws:iam::%s:policy%s%s", call->super.scope.account_id,
                                    path != NULL ? path : FLOE_IAM_DEFAULT_PATH, member(form, rule->name));
        }
        break;
    case FLOE_QUERY_AUTHORIZE_ARN:
        *arn = member(form, rule->arn);
        break;
    default:
        *arn = "*";
        break;
    }
    if (*arn == NULL) /* a required member the validator let through empty */
        *arn = "*";
    return FLOE_OK;
}

int floe_query_authorize(floe_query_call_t *call, const floe_query_service_t *svc, const floe_query_operation_t *op,
                         const floe_query_form_t *form, const char *source_ip, bool *needed,
                         floe_authz_decision_t *out)
{
    const floe_query_authorize_t *rule = &op->authorize;
    floe_authz_request_t r = {0};
    floe_principal_t *caller;
    int rc;

    *needed = rule->kind != FLOE_QUERY_AUTHORIZE_NOT_EVALUATED && rule->kind != FLOE_QUERY_AUTHORIZE_FREE &&
              rule->kind != FLOE_QUERY_AUTHORIZE_HANDLER;
    if (!*needed)
        return FLOE_OK;
    if ((rc = floe_principal_of_key(&call->super, call->access_key, &caller)) != FLOE_OK)
        return rc;
    if ((rc = resource_of(call, rule, form, caller, &r.resource)) != FLOE_OK)
        return rc;
    r.action = floe_call_printf(&call->super, "%s:%s", svc->signing_name, op->name);
    r.owner = call->super.scope.account_id; /* IAM is global: the caller's account holds what it names */
    r.source_ip = source_ip;
    return floe_authz_decide(&call->super, caller, &r, out);
}
