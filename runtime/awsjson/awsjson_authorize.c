/*
 * The awsJson side of --enforce-iam (awsjson_authorize.h). The account a request acts on is its
 * body's top-level CatalogId (Glue's name for the owning account), read without the typed input so
 * no operation is named here; the resource is that account's catalog,
 * arn:aws:<signing name>:<region>:<account>:catalog.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "awsjson/awsjson_authorize.h"
#include "base/scope.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "iam/principal.h"

/* The 12-digit CatalogId the body names, in the call's pool; NULL when it names none. */
static const char *catalog_id(floe_call_t *call, h2o_req_t *req)
{
    cJSON *body = cJSON_ParseWithLength(req->entity.base, req->entity.len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(body, "CatalogId");
    const char *out = NULL;

    if (cJSON_IsString(id) && floe_scope_is_account_id(id->valuestring, strlen(id->valuestring)))
        out = floe_call_strdup(call, id->valuestring);
    cJSON_Delete(body);
    return out;
}

int floe_awsjson_authorize(floe_call_t *call, h2o_req_t *req, const floe_awsjson_service_t *svc, const char *operation,
                           floe_authz_decision_t *out)
{
    floe_sigv4_scope_t scope;
    floe_principal_t *principal;
    floe_authz_request_t r = {0};
    const char *key = NULL, *owner = catalog_id(call, req);

    if (floe_sigv4_request_scope(req, &scope) == 0)
        key = h2o_strdup(&req->pool, scope.access_key.base, scope.access_key.len).base;
    if (floe_principal_of_key(call, key, &principal))
        return FLOE_EFAIL;
    r.owner = owner != NULL ? owner : call->scope.account_id;
    r.action = floe_call_printf(call, "%s:%s", svc->signing_name, operation);
    r.resource = floe_call_printf(call, "arn:aws:%s:%s:%s:catalog", svc->signing_name, call->scope.region, r.owner);
    r.source_ip = floe_http_peer_address(req);
    return floe_authz_decide(call, principal, &r, out);
}
