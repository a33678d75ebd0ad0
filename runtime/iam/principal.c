/*
 * Principals from access keys (principal.h). A key IAM or STS issued (credential.h) is its user's
 * or its session's; a key given with --credentials, a 12-digit one, Floe's engine key, or none at all is the root of
 * the account the call acts in. The identity policies are read with the entity's cached
 * statements: an indexed lookup per policy, no parsing.
 */
#include <string.h>

#include "base/engine_key.h"
#include "iam/credential.h"
#include "iam/entity.h"
#include "iam/principal.h"

static bool is_configured(const floe_config_t *config, const char *access_key)
{
    for (size_t i = 0; config != NULL && i < config->n_credentials; i++) {
        if (strcmp(config->credentials[i].access_key, access_key) == 0)
            return true;
    }
    return false;
}

static void root_of(floe_call_t *call, floe_principal_t *p)
{
    p->kind = FLOE_PRINCIPAL_ROOT;
    memcpy(p->account_id, call->scope.account_id, sizeof(p->account_id));
    p->arn = floe_call_printf(call, "arn:aws:iam::%s:root", p->account_id);
    p->user_id = floe_call_strdup(call, p->account_id);
}

/* A user's or an assumed role's principal, from whose key it is. */
static int issued_to(floe_call_t *call, const floe_iam_key_owner_t *owner, floe_principal_t *p)
{
    const char **docs;
    size_t n;
    int rc;

    memcpy(p->account_id, owner->account_id, sizeof(p->account_id));
    if (owner->is_session) {
        p->kind = FLOE_PRINCIPAL_ASSUMED_ROLE;
        p->arn = floe_call_printf(call, "arn:aws:sts::%s:assumed-role/%s/%s", p->account_id, owner->name,
                                  owner->session_name);
        p->role_arn = floe_iam_entity_arn(call, FLOE_IAM_ROLE, p->account_id, owner->path, owner->name);
        p->user_id = floe_call_printf(call, "%s:%s", owner->id, owner->session_name);
        p->expires_at = owner->expires_at;
    } else {
        p->kind = FLOE_PRINCIPAL_USER;
        p->arn = floe_iam_entity_arn(call, FLOE_IAM_USER, p->account_id, owner->path, owner->name);
        p->user_id = owner->id;
    }
    rc = floe_iam_entity_documents(call, owner->is_session ? FLOE_IAM_ROLE : FLOE_IAM_USER, owner->row, &docs, &n);
    p->policies = docs;
    p->n_policies = n;
    return rc;
}

int floe_principal_of_key(floe_call_t *call, const char *access_key, floe_principal_t **out)
{
    floe_principal_t *p = floe_call_alloc(call, sizeof(*p));
    floe_iam_key_owner_t owner;
    int rc;

    memset(p, 0, sizeof(*p));
    *out = p;
    /* Floe's engine acts as the root: Athena authorized the query before it ran (engine_key.h) */
    if (access_key == NULL || is_configured(floe_call_config(call), access_key) ||
        floe_scope_is_account_id(access_key, strlen(access_key)) ||
        floe_engine_key_account(access_key, strlen(access_key), NULL)) {
        root_of(call, p);
        return FLOE_OK;
    }
    if ((rc = floe_iam_key_owner(call, access_key, &owner)) != FLOE_OK)
        return rc;
    return issued_to(call, &owner, p);
}

/* The principal's account from an "arn:aws:<service>::<account>:<rest>" ARN; *rest is what follows. */
static bool arn_account(const char *arn, char *account, const char **rest)
{
    const char *a = strstr(arn, "::"), *end;

    if (strncmp(arn, "arn:aws:", 8) != 0 || a == NULL || (end = strchr(a + 2, ':')) == NULL ||
        !floe_scope_is_account_id(a + 2, (size_t)(end - a - 2)))
        return false;
    memcpy(account, a + 2, FLOE_ACCOUNT_ID_LEN);
    account[FLOE_ACCOUNT_ID_LEN] = '\0';
    *rest = end + 1;
    return true;
}

int floe_principal_of_arn(floe_call_t *call, const char *arn, floe_principal_t **out)
{
    floe_principal_t *p = floe_call_alloc(call, sizeof(*p));
    floe_iam_entity_t entity;
    const char *rest, *name, *slash;
    const char **docs;
    char *role = NULL;
    bool is_session;
    int rc;

    memset(p, 0, sizeof(*p));
    *out = p;
    if (!arn_account(arn, p->account_id, &rest))
        return FLOE_ENOTFOUND;
    if (strcmp(rest, "root") == 0) {
        p->kind = FLOE_PRINCIPAL_ROOT;
        p->arn = floe_call_strdup(call, arn);
        p->user_id = floe_call_strdup(call, p->account_id);
        return FLOE_OK;
    }
    is_session = strncmp(rest, "assumed-role/", 13) == 0;
    if (!is_session && strncmp(rest, "user/", 5) != 0)
        return FLOE_ENOTFOUND;
    if (is_session) { /* assumed-role/<role>/<session> */
        if ((slash = strchr(rest + 13, '/')) == NULL)
            return FLOE_ENOTFOUND;
        role = floe_call_strndup(call, rest + 13, (size_t)(slash - rest - 13));
    }
    name = is_session ? role : strrchr(rest, '/') + 1; /* a user's name follows its path's last '/' */
    if ((rc = floe_iam_entity_get_in(call, is_session ? FLOE_IAM_ROLE : FLOE_IAM_USER, p->account_id, name, &entity)))
        return rc;
    p->kind = is_session ? FLOE_PRINCIPAL_ASSUMED_ROLE : FLOE_PRINCIPAL_USER;
    p->arn = floe_call_strdup(call, arn);
    p->role_arn = is_session ? entity.arn : NULL;
    p->user_id = is_session ? floe_call_printf(call, "%s:%s", entity.id, slash + 1) : entity.id;
    rc = floe_iam_entity_documents(call, is_session ? FLOE_IAM_ROLE : FLOE_IAM_USER, entity.row, &docs, &p->n_policies);
    p->policies = docs;
    return rc;
}
