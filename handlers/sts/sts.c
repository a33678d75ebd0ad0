/*
 * STS (AWS Security Token Service): GetCallerIdentity, the call the AWS CDK, Terraform and the
 * aws CLI make first to learn who their credentials are, and AssumeRole, which trades a caller's
 * credentials for a role's temporary ones. The other STS operations have no handler and answer
 * 501 (models/sts-overlay.json).
 *
 * Who signed (iam/principal.h): a key IAM created is its user, a key AssumeRole issued is the
 * role's session, and any other key is the root of the account the request acts in (scope.h: the
 * access key ID when it is 12 digits, else the server's --account-id). AWS's answers
 * (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html): for a root,
 * Arn arn:aws:iam::<account>:root and UserId the account ID; for a user, its ARN and unique id;
 * for an assumed role, arn:aws:sts::<account>:assumed-role/<role>/<session> and
 * <role id>:<session>.
 */
#include <string.h>

#include "authz/authz.h"
#include "base/log.h"
#include "iam/credential.h"
#include "iam/entity.h"
#include "iam/principal.h"
#include "policy/policy.h"
#include "sts_api.h"

#define ASSUME_ROLE_ACTION "sts:AssumeRole"
#define DEFAULT_DURATION_S 3600
#define POLICY_ERROR_MAX 512

/* The caller; a key no one owns (accepted only without --strict-signatures) acts as the root of
 * the request's account, as before IAM existed. */
static int caller(floe_query_call_t *call, floe_principal_t **p)
{
    int rc = floe_principal_of_key(&call->super, call->access_key, p);

    if (rc == FLOE_ENOTFOUND)
        rc = floe_principal_of_key(&call->super, NULL, p);
    return rc;
}

int floe_sts_handle_GetCallerIdentity(floe_query_call_t *call, const floe_sts_GetCallerIdentityRequest *in,
                                      floe_sts_GetCallerIdentityResponse *out)
{
    floe_principal_t *p;
    int rc = caller(call, &p);

    (void)in;
    if (rc != FLOE_OK)
        return rc;
    out->Account = floe_call_strdup(&call->super, p->account_id);
    out->UserId = (char *)p->user_id;
    out->Arn = (char *)p->arn;
    return FLOE_OK;
}

/* The role arn:aws:iam::<account>:role<path><name> names; FLOE_ENOTFOUND when there is none. */
static int role_of_arn(floe_query_call_t *call, const char *arn, floe_iam_entity_t *role)
{
    static const char prefix[] = "arn:aws:iam::";
    char account[FLOE_ACCOUNT_ID_LEN + 1];
    const char *name = strrchr(arn, '/');
    int rc;

    if (strncmp(arn, prefix, sizeof(prefix) - 1) != 0 || name == NULL ||
        !floe_scope_is_account_id(arn + sizeof(prefix) - 1, FLOE_ACCOUNT_ID_LEN) ||
        strncmp(arn + sizeof(prefix) - 1 + FLOE_ACCOUNT_ID_LEN, ":role/", 6) != 0)
        return FLOE_ENOTFOUND;
    memcpy(account, arn + sizeof(prefix) - 1, FLOE_ACCOUNT_ID_LEN);
    account[FLOE_ACCOUNT_ID_LEN] = '\0';
    if ((rc = floe_iam_entity_get_in(&call->super, FLOE_IAM_ROLE, account, name + 1, role)) != FLOE_OK)
        return rc;
    return strcmp(role->arn, arn) == 0 ? FLOE_OK : FLOE_ENOTFOUND; /* the path must be the role's */
}

/* Whether the role's trust policy lets `who` assume it; with `is_by_account` false, only through a
 * statement naming `who` itself (its ARN, its role's, or "*"), not its account. */
static bool is_trusted(const floe_iam_entity_t *role, const floe_principal_t *who, bool is_by_account)
{
    char err[POLICY_ERROR_MAX];
    floe_policy_t *trust = floe_policy_parse(role->trust_policy, strlen(role->trust_policy), FLOE_POLICY_TRUST, err,
                                             sizeof(err));
    floe_policy_request_t request = {
        .principal_arn = who->arn,
        .principal_account = is_by_account ? who->account_id : NULL,
        .action = ASSUME_ROLE_ACTION,
        .resource = role->arn,
        .role_arn = who->role_arn, /* a session assuming another role: a trust policy may name its role */
    };
    bool allowed;

    if (trust == NULL)
        return false;
    allowed = floe_policy_evaluate(trust, &request, NULL) == FLOE_POLICY_ALLOW;
    floe_policy_free(trust);
    return allowed;
}

/*
 * --enforce-iam: the caller's own side of AssumeRole, as AWS's AssumeRole reference states it. An
 * explicit Deny in the caller's identity-based policies refuses. An Allow of sts:AssumeRole on the
 * role grants (a root's is implicit). Without one, only a trust policy that names the caller itself
 * within the role's own account grants (a resource-based policy granting a principal of its
 * account needs no identity-based allow); a trust policy naming the account, or a role of another
 * account, also needs the caller's allow. FLOE_OK when allowed, else AccessDenied with AWS's sentence.
 */
static int caller_may_assume(floe_query_call_t *call, const floe_principal_t *who, const floe_iam_entity_t *role)
{
    floe_authz_request_t r = {.action = ASSUME_ROLE_ACTION, .resource = role->arn};
    char owner[FLOE_ACCOUNT_ID_LEN + 1];
    floe_authz_decision_t d;

    memcpy(owner, role->arn + strlen("arn:aws:iam::"), FLOE_ACCOUNT_ID_LEN);
    owner[FLOE_ACCOUNT_ID_LEN] = '\0';
    r.owner = owner;
    floe_authz_evaluate(&call->super, who, &r, &d);
    if (d.identity_effect == FLOE_POLICY_ALLOW) /* a Deny would have won */
        return FLOE_OK;
    if (d.identity_effect != FLOE_POLICY_DENY &&
        (who->kind == FLOE_PRINCIPAL_ROOT || (strcmp(who->account_id, owner) == 0 && is_trusted(role, who, false))))
        return FLOE_OK;
    d.is_allowed = false;
    d.reason = d.identity_effect == FLOE_POLICY_DENY ? FLOE_AUTHZ_IDENTITY_DENY : FLOE_AUTHZ_NO_IDENTITY_ALLOW;
    floe_log("access denied: %s may not %s on %s (%s)", d.principal, d.action, d.resource,
             d.statement ? d.statement : "no statement allowed");
    return floe_sts_fail(call, FLOE_STS_ERR_AccessDenied, "%s", floe_authz_message(&call->super, &d));
}

int floe_sts_handle_AssumeRole(floe_query_call_t *call, const floe_sts_AssumeRoleRequest *in,
                               floe_sts_AssumeRoleResponse *out)
{
    floe_principal_t *who;
    floe_iam_entity_t role;
    floe_iam_session_t session;
    int32_t duration = in->has_DurationSeconds ? in->DurationSeconds : DEFAULT_DURATION_S;
    int rc;

    if ((rc = caller(call, &who)) != FLOE_OK)
        return rc;
    rc = role_of_arn(call, in->RoleArn, &role);
    if (rc != FLOE_OK && rc != FLOE_ENOTFOUND)
        return rc;
    /* AWS answers a role that does not exist as one that does not trust the caller */
    if (rc == FLOE_ENOTFOUND || !is_trusted(&role, who, true))
        return floe_sts_fail(call, FLOE_STS_ERR_AccessDenied,
                             "User: %s is not authorized to perform: %s on resource: %s", who->arn,
                             ASSUME_ROLE_ACTION, in->RoleArn);
    if (floe_call_config(&call->super)->enforce_iam && (rc = caller_may_assume(call, who, &role)) != FLOE_OK)
        return rc;
    if (duration > role.max_session_duration)
        return floe_sts_fail(call, FLOE_STS_ERR_ValidationError,
                             "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.");
    if ((rc = floe_iam_session_create(&call->super, role.row, in->RoleSessionName, duration, &session)) != FLOE_OK)
        return rc;
    out->Credentials = floe_call_alloc(&call->super, sizeof(*out->Credentials));
    out->Credentials->AccessKeyId = session.access_key_id;
    out->Credentials->SecretAccessKey = session.secret;
    out->Credentials->SessionToken = session.session_token;
    out->Credentials->Expiration = session.expires_at;
    out->Credentials->has_Expiration = true;
    out->AssumedRoleUser = floe_call_alloc(&call->super, sizeof(*out->AssumedRoleUser));
    out->AssumedRoleUser->AssumedRoleId = floe_call_printf(&call->super, "%s:%s", role.id, in->RoleSessionName);
    /* the session is the role's account's, whoever assumed it (role_of_arn read the account) */
    out->AssumedRoleUser->Arn = floe_call_printf(&call->super, "arn:aws:sts::%.12s:assumed-role/%s/%s",
                                                 role.arn + strlen("arn:aws:iam::"), role.name, in->RoleSessionName);
    return FLOE_OK;
}
