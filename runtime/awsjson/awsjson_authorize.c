/*
 * The awsJson side of --enforce-iam (awsjson_authorize.h). What an operation is decided on comes
 * from its generated `authorize` row (the overlay's "authorize"), read through the input's shape
 * descriptor, so no operation is named here: the account's catalog (Glue, whose account is the
 * input's top-level CatalogId when it names one), "*", a resource the request names
 * (arn:aws:<signing name>:<region>:<account>:<type>/<name>), or the resource holding each stored
 * object the request names by id, which the service's own function finds.
 */
#include <string.h>

#include "authz/input_cache.h"
#include "awsjson/awsjson_authorize.h"
#include "base/scope.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "iam/principal.h"

/* The top-level string member of JSON name `name` of the typed input, or NULL. */
static const char *string_named(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *input, const void *in,
                                const char *name)
{
    for (uint32_t i = 0; i < input->n_members; i++) {
        const floe_awsjson_member_t *m = &svc->members[input->members + i];

        if (m->name == FLOE_AWSJSON_NO_NAME || strcmp(svc->names + m->name, name) != 0 ||
            svc->shapes[m->target].kind != FLOE_AWSJSON_STRING)
            continue;
        return *(char *const *)((const char *)in + m->offset);
    }
    return NULL;
}

/* The 12-digit CatalogId the typed input names (Glue's name for the owning account), or NULL. */
static const char *catalog_id(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *input, const void *in)
{
    const char *id = string_named(svc, input, in, "CatalogId");

    return id != NULL && floe_scope_is_account_id(id, strlen(id)) ? id : NULL;
}

/* arn:aws:<signing name>:<region>:<account>:<type>/<name>, in the call's pool. */
static const char *resource_arn(floe_call_t *call, const floe_awsjson_service_t *svc, const floe_awsjson_authorize_t *rule,
                                const char *name)
{
    return floe_call_printf(call, "arn:aws:%s:%s:%s:%s/%s", svc->signing_name, call->scope.region,
                            call->scope.account_id, floe_awsjson_name(svc, rule->type), name);
}

/* The decision of `r` (its action and owner set) on `resource` (FLOE_OK whatever it is). */
static void decide_on(floe_call_t *call, floe_principal_t *principal, floe_authz_request_t *r, const char *resource,
                      floe_authz_decision_t *out)
{
    r->resource = resource;
    floe_authz_decide(call, principal, r, out);
}

/* OWNER: each id the member names (one string, or a list of them) decided on the resource that
 * holds it, the first refusal answering; ids of nothing stored are left to the handler, which
 * answers them as unknown. Without any, the call is allowed here. */
static int decide_owners(floe_awsjson_call_t *call, const floe_awsjson_service_t *svc,
                         const floe_awsjson_authorize_t *rule, const floe_awsjson_member_t *m, const void *in,
                         floe_principal_t *principal, floe_authz_request_t *r, floe_authz_decision_t *out)
{
    const void *field = (const char *)in + m->offset;
    const struct {
        size_t n;
        char **items;
    } *list = NULL;
    char *const *ids = (char *const *)field;
    size_t n = *ids != NULL;

    if (svc->shapes[m->target].kind == FLOE_AWSJSON_LIST) {
        list = *(const void *const *)field;
        ids = list != NULL ? list->items : NULL;
        n = list != NULL ? list->n : 0;
    }
    out->is_allowed = true;
    for (size_t i = 0; i < n && out->is_allowed; i++) {
        const char *name;
        bool found;

        if (rule->owner(call, ids[i], &found, &name) != FLOE_OK)
            return FLOE_EFAIL;
        if (found)
            decide_on(&call->super, principal, r, resource_arn(&call->super, svc, rule, name), out);
    }
    return FLOE_OK;
}

int floe_awsjson_authorize(floe_awsjson_call_t *call, h2o_req_t *req, const floe_awsjson_service_t *svc,
                           const floe_awsjson_operation_t *op, const void *in, bool *needed, floe_authz_decision_t *out)
{
    const floe_awsjson_authorize_t *rule = &op->authorize;
    const floe_awsjson_shape_t *input = floe_awsjson_shape(svc, op->input);
    const floe_awsjson_member_t *m = rule->member != FLOE_AWSJSON_NO_NAME ? floe_awsjson_member(svc, input, rule->member)
                                                                           : NULL;
    floe_call_t *c = &call->super;
    floe_sigv4_scope_t scope;
    floe_principal_t *principal;
    floe_authz_request_t r = {0};
    const char *key = NULL, *owner = catalog_id(svc, input, in), *name;

    *needed = rule->kind != FLOE_AWSJSON_AUTHORIZE_NOT_EVALUATED;
    if (!*needed)
        return FLOE_OK;
    if (floe_sigv4_request_scope(req, &scope) == 0)
        key = h2o_strdup(&req->pool, scope.access_key.base, scope.access_key.len).base;
    if (floe_authz_principal_of_key(c, key, &principal)) /* kept in memory while it is unchanged */
        return FLOE_EFAIL;
    r.owner = rule->kind == FLOE_AWSJSON_AUTHORIZE_CATALOG && owner != NULL ? owner : c->scope.account_id;
    r.action = floe_call_printf(c, "%s:%s", svc->signing_name, floe_awsjson_name(svc, op->name));
    r.source_ip = floe_http_peer_address(req);
    switch (rule->kind) {
    case FLOE_AWSJSON_AUTHORIZE_OWNER:
        return decide_owners(call, svc, rule, m, in, principal, &r, out);
    case FLOE_AWSJSON_AUTHORIZE_NAMED:
        name = *(char *const *)((const char *)in + m->offset);
        if (name == NULL || *name == '\0')
            name = rule->fallback != FLOE_AWSJSON_NO_NAME ? floe_awsjson_name(svc, rule->fallback) : "*";
        decide_on(c, principal, &r, resource_arn(c, svc, rule, name), out);
        return FLOE_OK;
    case FLOE_AWSJSON_AUTHORIZE_ANY:
        decide_on(c, principal, &r, "*", out);
        return FLOE_OK;
    default:
        decide_on(c, principal, &r, floe_call_printf(c, "arn:aws:%s:%s:%s:catalog", svc->signing_name, c->scope.region,
                                                      r.owner), out);
        return FLOE_OK;
    }
}
