/*
 * The REST side of --enforce-iam (iceberg_rest_authorize.h). The actions of an operation come from
 * the generated route table's FLOE_ICEBERG_ACTIONS rows, matched by operationId, so no operation is
 * named here. Each action is decided in turn on the table the path names (when it exists), else on
 * the warehouse's bucket; the first refusal answers.
 */
#include <string.h>

#include "authz/table_access.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "iceberg_rest/iceberg_rest_authorize.h"

#define ACTION_MAX 64

typedef struct op_actions {
    const char *operation;
    const char *actions; /* comma-separated */
} op_actions_t;

static const op_actions_t table[] = {
#define FLOE_ICEBERG_ACTIONS(op, actions) {#op, actions},
#include "iceberg_routes.def"
};

static const char *actions_of(const char *operation)
{
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (strcmp(table[i].operation, operation) == 0)
            return table[i].actions;
    }
    return ""; /* an unserved operation is answered 501 before this */
}

/* The access key that signed `req`, in its pool; NULL for an unsigned request (the default account). */
static const char *access_key_of(h2o_req_t *req)
{
    floe_sigv4_scope_t scope;

    if (floe_sigv4_request_scope(req, &scope) != 0)
        return NULL;
    return h2o_strdup(&req->pool, scope.access_key.base, scope.access_key.len).base;
}

int floe_iceberg_rest_authorize(floe_iceberg_call_t *call, h2o_req_t *req, const floe_iceberg_route_match_t *match,
                                const char *warehouse)
{
    floe_authz_target_t target = {warehouse, match->namespace, match->table};
    const char *key = access_key_of(req), *ip = floe_http_peer_address(req);
    const char *next = actions_of(match->route->operation);
    floe_authz_decision_t decision;
    char action[ACTION_MAX];

    while (*next != '\0') {
        size_t len = strcspn(next, ",");
        if (len >= sizeof(action))
            len = sizeof(action) - 1;
        memcpy(action, next, len);
        action[len] = '\0';
        next += strcspn(next, ",");
        next += *next == ',';
        if (floe_authz_table_access(&call->super, key, ip, action, &target, &decision))
            return floe_iceberg_call_fail_internal(call, "authorizing the call");
        if (!decision.is_allowed)
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_ForbiddenException, "%s",
                                          floe_authz_message(&call->super, &decision));
    }
    return FLOE_OK;
}
