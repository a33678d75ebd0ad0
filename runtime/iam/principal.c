/*
 * Principals from access keys (principal.h). A key IAM or STS issued (credential.h) is its user's
 * or its session's; a key given with --credentials, a 12-digit one, or none at all is the root of
 * the account the call acts in. The identity policies are read with the entity's cached
 * statements: an indexed lookup per policy, no parsing.
 */
#include <string.h>

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
    if (access_key == NULL || is_configured(floe_call_config(call), access_key) ||
        floe_scope_is_account_id(access_key, strlen(access_key))) {
        root_of(call, p);
        return FLOE_OK;
    }
    if ((rc = floe_iam_key_owner(call, access_key, &owner)) != FLOE_OK)
        return rc;
    return issued_to(call, &owner, p);
}
