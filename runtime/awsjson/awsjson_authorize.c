/*
 * The awsJson side of --enforce-iam (awsjson_authorize.h). The account a request acts on is its
 * input's top-level CatalogId (Glue's name for the owning account), found through the input's shape
 * descriptor so no operation is named here; the resource is that account's catalog,
 * arn:aws:<signing name>:<region>:<account>:catalog.
 */
#include <string.h>

#include "authz/input_cache.h"
#include "awsjson/awsjson_authorize.h"
#include "base/scope.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "iam/principal.h"

/* The 12-digit CatalogId the typed input names (a top-level string member of that JSON name, found
 * through the input's shape descriptor, so no operation is named), in the call's pool; NULL when it
 * names none. */
static const char *catalog_id(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *input, const void *in)
{
    for (uint32_t i = 0; i < input->n_members; i++) {
        const floe_awsjson_member_t *m = &svc->members[input->members + i];
        const char *id;

        if (m->name == FLOE_AWSJSON_NO_NAME || strcmp(svc->names + m->name, "CatalogId") != 0 ||
            svc->shapes[m->target].kind != FLOE_AWSJSON_STRING)
            continue;
        id = *(char *const *)((const char *)in + m->offset);
        return id != NULL && floe_scope_is_account_id(id, strlen(id)) ? id : NULL;
    }
    return NULL;
}

int floe_awsjson_authorize(floe_call_t *call, h2o_req_t *req, const floe_awsjson_service_t *svc, const char *operation,
                           const floe_awsjson_shape_t *input, const void *in, floe_authz_decision_t *out)
{
    floe_sigv4_scope_t scope;
    floe_principal_t *principal;
    floe_authz_request_t r = {0};
    const char *key = NULL, *owner = catalog_id(svc, input, in);

    if (floe_sigv4_request_scope(req, &scope) == 0)
        key = h2o_strdup(&req->pool, scope.access_key.base, scope.access_key.len).base;
    if (floe_authz_principal_of_key(call, key, &principal)) /* kept in memory while it is unchanged */
        return FLOE_EFAIL;
    r.owner = owner != NULL ? owner : call->scope.account_id;
    r.action = floe_call_printf(call, "%s:%s", svc->signing_name, operation);
    r.resource = floe_call_printf(call, "arn:aws:%s:%s:%s:catalog", svc->signing_name, call->scope.region, r.owner);
    r.source_ip = floe_http_peer_address(req);
    return floe_authz_decide(call, principal, &r, out);
}
