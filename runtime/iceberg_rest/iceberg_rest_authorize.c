/*
 * The REST side of --enforce-iam (iceberg_rest_authorize.h). The actions of an operation come from
 * the generated route table's FLOE_ICEBERG_ACTIONS rows (FLOE_ICEBERG_GLUE_ACTIONS on Glue's
 * endpoint), matched by operationId, so no operation is named here. On the S3 Tables endpoint each
 * action is decided in turn on the table the path names (when it exists), else on the warehouse's
 * bucket; on Glue's, on each Glue resource the request names. The first refusal answers.
 */
#include <stdio.h>
#include <string.h>

#include "authz/glue_access.h"
#include "authz/table_access.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "iceberg_rest/iceberg_rest_authorize.h"

#define ACTION_MAX 64
#define BUCKET_PART ":bucket/"

typedef struct op_actions {
    const char *operation;
    const char *actions; /* comma-separated */
} op_actions_t;

static const op_actions_t table[] = {
#define FLOE_ICEBERG_ACTIONS(op, actions) {#op, actions},
#include "iceberg_routes.def"
};

static const op_actions_t glue_table[] = {
#define FLOE_ICEBERG_GLUE_ACTIONS(op, actions) {#op, actions},
#include "iceberg_routes.def"
};

static const char *actions_in(const op_actions_t *rows, size_t n, const char *operation)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].operation, operation) == 0)
            return rows[i].actions;
    }
    return ""; /* an unserved operation is answered 501 before this */
}

static const char *actions_of(const char *operation)
{
    return actions_in(table, sizeof(table) / sizeof(table[0]), operation);
}

/* The next action of the comma-separated list at *next into `action`; false at its end. */
static bool next_action(const char **next, char action[ACTION_MAX])
{
    size_t len = strcspn(*next, ",");

    if (**next == '\0')
        return false;
    snprintf(action, ACTION_MAX, "%.*s", (int)len, *next);
    *next += len + ((*next)[len] == ',');
    return true;
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

    while (next_action(&next, action)) {
        if (floe_authz_table_access(&call->super, key, ip, action, &target, &decision))
            return floe_iceberg_call_fail_internal(call, "authorizing the call");
        if (!decision.is_allowed)
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_ForbiddenException, "%s",
                                          floe_authz_message(&call->super, &decision));
    }
    return FLOE_OK;
}

int floe_iceberg_rest_authorize_glue(floe_iceberg_call_t *call, h2o_req_t *req, const floe_iceberg_route_match_t *match,
                                     const char *warehouse)
{
    const char *next = actions_in(glue_table, sizeof(glue_table) / sizeof(glue_table[0]), match->route->operation);
    const char *bucket = warehouse != NULL ? strstr(warehouse, BUCKET_PART) : NULL;
    /* Glue's endpoint serves only the caller's own catalogs */
    floe_authz_glue_target_t target = {call->super.scope.account_id, NULL, match->namespace, match->table};
    floe_authz_decision_t decision;
    char action[ACTION_MAX];

    if (bucket != NULL)
        target.bucket = bucket + strlen(BUCKET_PART);
    while (next_action(&next, action)) {
        if (floe_authz_glue_access(&call->super, access_key_of(req), floe_http_peer_address(req), action, &target,
                                   &decision))
            return floe_iceberg_call_fail_internal(call, "authorizing the call");
        if (!decision.is_allowed)
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_ForbiddenException, "%s",
                                          floe_authz_message(&call->super, &decision));
    }
    return FLOE_OK;
}
