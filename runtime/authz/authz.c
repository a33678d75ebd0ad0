/*
 * The decision of authz.h, in the order of AWS's policy evaluation logic
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html and
 * ..._evaluation-logic-cross-account.html):
 *
 *   1. an explicit Deny in an identity-based policy, then in a resource policy: denied;
 *   2. the resource's own account: an Allow of either side grants (a root needs none), but a
 *      resource policy's Allow that names only the account does not grant its users and roles;
 *   3. another account: the identity side (a root's is implicit) and a resource policy must both allow.
 *
 * Not evaluated: permission boundaries, SCPs, session policies, Lake Formation (docs/authorization.md).
 */
#include <string.h>

#include "authz/authz.h"
#include "authz/policy_cache.h"
#include "base/log.h"

#define N_CONTEXT_KEYS 7 /* the keys every request carries (context_of) */
#define MISSING_MAX 64   /* distinct condition keys a simulation reports missing */

typedef struct side {
    floe_policy_effect_t effect;
    const char *statement;
    floe_authz_source_t source;
    size_t index;
} side_t;

/* The strongest answer of `text` (one document) folded into `side`: a Deny beats an Allow beats nothing. */
static void fold(floe_call_t *call, side_t *side, const char *text, floe_authz_source_t source, size_t index,
                 const floe_policy_request_t *req)
{
    floe_policy_t *uncached;
    const floe_policy_t *policy;
    const char *statement = NULL;
    floe_policy_effect_t effect;

    if (text == NULL || side->effect == FLOE_POLICY_DENY)
        return;
    policy = floe_policy_cache_get(text, source == FLOE_AUTHZ_SOURCE_IDENTITY ? FLOE_POLICY_IDENTITY
                                                                            : FLOE_POLICY_RESOURCE, &uncached);
    effect = policy != NULL ? floe_policy_evaluate(policy, req, &statement) : FLOE_POLICY_NO_MATCH;
    if (effect != FLOE_POLICY_NO_MATCH && (effect == FLOE_POLICY_DENY || side->effect == FLOE_POLICY_NO_MATCH)) {
        side->effect = effect;
        side->statement = floe_call_strdup(call, statement); /* an uncached policy's dies with it */
        side->source = source;
        side->index = index;
    }
    floe_policy_free(uncached);
}

static size_t context_of(const floe_principal_t *p, const floe_authz_request_t *r, floe_policy_context_key_t *ctx)
{
    size_t n = 0;

    for (size_t i = 0; i < r->n_context; i++)
        ctx[n++] = r->context[i];

    ctx[n++] = (floe_policy_context_key_t){"aws:PrincipalAccount", p->account_id};
    ctx[n++] = (floe_policy_context_key_t){"aws:PrincipalArn", p->role_arn ? p->role_arn : p->arn};
    ctx[n++] = (floe_policy_context_key_t){"aws:SecureTransport", "false"}; /* Floe serves plain HTTP */
    ctx[n++] = (floe_policy_context_key_t){"aws:ResourceAccount", r->owner};
    ctx[n++] = (floe_policy_context_key_t){"aws:SourceIp", r->source_ip};
    ctx[n++] = (floe_policy_context_key_t){"s3tables:namespace", r->namespace_};
    ctx[n++] = (floe_policy_context_key_t){"s3tables:tableName", r->table_name};
    return n;
}

static void decide(const floe_principal_t *p, const floe_authz_request_t *r, side_t *identity, side_t *resource,
                   floe_authz_decision_t *out)
{
    bool is_same_account = strcmp(p->account_id, r->owner) == 0;
    bool identity_allows = p->kind == FLOE_PRINCIPAL_ROOT || identity->effect == FLOE_POLICY_ALLOW;
    bool resource_allows = resource->effect == FLOE_POLICY_ALLOW;

    const side_t *decider = NULL;

    out->is_allowed = false;
    out->identity_effect = identity->effect;
    out->resource_effect = resource->effect;
    if (identity->effect == FLOE_POLICY_DENY) {
        out->reason = FLOE_AUTHZ_IDENTITY_DENY;
        decider = identity;
    } else if (resource->effect == FLOE_POLICY_DENY) {
        out->reason = FLOE_AUTHZ_RESOURCE_DENY;
        decider = resource;
    } else if (is_same_account ? (identity_allows || resource_allows) : (identity_allows && resource_allows)) {
        out->is_allowed = true;
        out->reason = FLOE_AUTHZ_ALLOWED;
        decider = resource_allows ? resource : identity;
    } else {
        out->reason = is_same_account || resource_allows ? FLOE_AUTHZ_NO_IDENTITY_ALLOW : FLOE_AUTHZ_NO_RESOURCE_ALLOW;
    }
    out->statement = decider ? decider->statement : NULL;
    out->source = decider && decider->statement ? decider->source : FLOE_AUTHZ_SOURCE_NONE;
    out->source_index = decider ? decider->index : 0;
}

/*
 * Within its own account, a user or a role's session is not granted by a resource policy's Allow
 * that names only the account (its id or root ARN): naming an account delegates to it, and its
 * administrator then grants its identities with identity-based policies (IAM's Principal element,
 * "AWS account principals"). The Allow stands only when it holds with no account named, that is
 * when a statement names the principal itself, its role or everyone.
 */
static void drop_account_only_allow(floe_call_t *call, side_t *resource, const floe_authz_request_t *r,
                                    const floe_policy_request_t *req)
{
    floe_policy_request_t unnamed = *req;
    side_t alone = {FLOE_POLICY_NO_MATCH, NULL, FLOE_AUTHZ_SOURCE_NONE, 0};

    unnamed.principal_account = NULL;
    fold(call, &alone, r->bucket_policy, FLOE_AUTHZ_SOURCE_BUCKET, 0, &unnamed);
    fold(call, &alone, r->table_policy, FLOE_AUTHZ_SOURCE_TABLE, 0, &unnamed);
    if (alone.effect == FLOE_POLICY_ALLOW)
        *resource = alone;
    else
        *resource = (side_t){FLOE_POLICY_NO_MATCH, NULL, FLOE_AUTHZ_SOURCE_NONE, 0};
}

/* The request as a policy reads it: who, what, on what, and every condition key it carries. */
static floe_policy_request_t policy_request(floe_call_t *call, const floe_principal_t *principal,
                                            const floe_authz_request_t *request)
{
    floe_policy_context_key_t *ctx = floe_call_alloc(call, sizeof(*ctx) * (N_CONTEXT_KEYS + request->n_context));
    size_t n_ctx = context_of(principal, request, ctx);

    return (floe_policy_request_t){principal->arn, principal->account_id, request->action, request->resource, ctx,
                                   n_ctx, principal->role_arn};
}

int floe_authz_evaluate(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                        floe_authz_decision_t *out)
{
    floe_policy_request_t req = policy_request(call, principal, request);
    side_t identity = {FLOE_POLICY_NO_MATCH, NULL, FLOE_AUTHZ_SOURCE_NONE, 0};
    side_t resource = {FLOE_POLICY_NO_MATCH, NULL, FLOE_AUTHZ_SOURCE_NONE, 0};

    for (size_t i = 0; i < principal->n_policies; i++)
        fold(call, &identity, principal->policies[i], FLOE_AUTHZ_SOURCE_IDENTITY, i, &req);
    fold(call, &resource, request->bucket_policy, FLOE_AUTHZ_SOURCE_BUCKET, 0, &req);
    fold(call, &resource, request->table_policy, FLOE_AUTHZ_SOURCE_TABLE, 0, &req);
    if (resource.effect == FLOE_POLICY_ALLOW && principal->kind != FLOE_PRINCIPAL_ROOT &&
        strcmp(principal->account_id, request->owner) == 0)
        drop_account_only_allow(call, &resource, request, &req);
    out->principal = principal->arn;
    out->action = request->action;
    out->resource = request->resource;
    decide(principal, request, &identity, &resource, out);
    return FLOE_OK;
}

int floe_authz_decide(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                      floe_authz_decision_t *out)
{
    floe_authz_evaluate(call, principal, request, out);
    if (!out->is_allowed)
        floe_log("access denied: %s may not %s on %s (%s)", out->principal, out->action, out->resource,
                 out->statement ? out->statement : "no statement allowed");
    return FLOE_OK;
}

/* The keys `text` tests and `req` lacks added to keys, copied to the call (an uncached policy's die with it). */
static void missing_in(floe_call_t *call, const char *text, floe_policy_kind_t kind, const floe_policy_request_t *req,
                       const char **keys, size_t *n)
{
    floe_policy_t *uncached;
    const floe_policy_t *policy;
    size_t had = *n;

    if (text == NULL)
        return;
    policy = floe_policy_cache_get(text, kind, &uncached);
    floe_policy_missing_keys(policy, req, keys, n, MISSING_MAX);
    for (size_t i = had; i < *n; i++)
        keys[i] = floe_call_strdup(call, keys[i]);
    floe_policy_free(uncached);
}

int floe_authz_missing_keys(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                            const char ***keys, size_t *n)
{
    floe_policy_request_t req = policy_request(call, principal, request);

    *keys = floe_call_alloc(call, sizeof(**keys) * MISSING_MAX);
    *n = 0;
    for (size_t i = 0; i < principal->n_policies; i++)
        missing_in(call, principal->policies[i], FLOE_POLICY_IDENTITY, &req, *keys, n);
    missing_in(call, request->bucket_policy, FLOE_POLICY_RESOURCE, &req, *keys, n);
    missing_in(call, request->table_policy, FLOE_POLICY_RESOURCE, &req, *keys, n);
    return FLOE_OK;
}

const char *floe_authz_message(floe_call_t *call, const floe_authz_decision_t *d)
{
    const char *head = floe_call_printf(call, "User: %s is not authorized to perform: %s on resource: %s", d->principal,
                                        d->action, d->resource);

    switch (d->reason) {
    case FLOE_AUTHZ_IDENTITY_DENY:
        return floe_call_printf(call, "%s with an explicit deny in an identity-based policy", head);
    case FLOE_AUTHZ_RESOURCE_DENY:
        return floe_call_printf(call, "%s with an explicit deny in a resource-based policy", head);
    case FLOE_AUTHZ_NO_RESOURCE_ALLOW:
        return floe_call_printf(call, "%s because no resource-based policy allows the %s action", head, d->action);
    case FLOE_AUTHZ_NO_IDENTITY_ALLOW:
    case FLOE_AUTHZ_ALLOWED:
    default:
        return floe_call_printf(call, "%s because no identity-based policy allows the %s action", head, d->action);
    }
}
