/*
 * The awsJson side of --enforce-iam (awsjson_authorize.h). What an operation is decided on comes
 * from its generated `authorize` row (the overlay's "authorize"), read through the input's shape
 * descriptor, so no operation is named here: the account's catalog (Glue, whose account is the
 * input's top-level CatalogId when it names one), "*", a resource the request names
 * (arn:aws:<signing name>:<region>:<account>:<type>/<name>), or the resource holding each stored
 * object the request names by id, which the service's own function finds.
 */
#include <ctype.h>
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

/* The string member at `path` ("TableInput.Name": members by JSON name, nested with dots) of the
 * typed input `in` of `shape`, or NULL when it or a structure on the way is absent. */
static const char *string_at(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape, const void *in,
                             const char *path, size_t n)
{
    while (in != NULL) {
        const char *dot = memchr(path, '.', n);
        size_t len = dot != NULL ? (size_t)(dot - path) : n;
        const floe_awsjson_member_t *m = NULL;
        const void *field;

        for (uint32_t i = 0; i < shape->n_members && m == NULL; i++) {
            const floe_awsjson_member_t *c = floe_awsjson_member(svc, shape, i);
            const char *name = svc->names + c->name;

            if (c->name != FLOE_AWSJSON_NO_NAME && strlen(name) == len && memcmp(name, path, len) == 0)
                m = c;
        }
        if (m == NULL)
            return NULL;
        field = (const char *)in + m->offset;
        shape = &svc->shapes[m->target];
        if (dot == NULL)
            return shape->kind == FLOE_AWSJSON_STRING ? *(char *const *)field : NULL;
        if (shape->kind != FLOE_AWSJSON_STRUCTURE)
            return NULL;
        in = *(const void *const *)field;
        path = dot + 1;
        n -= len + 1;
    }
    return NULL;
}

/* A level's template with the input's values in lower case, in the call's pool; NULL when one is
 * absent or empty. */
static const char *expand_level(floe_call_t *call, const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *input,
                                const void *in, const char *template)
{
    const char *out = "", *p = template;

    while (*p != '\0') {
        const char *open = strchr(p, '{'), *close, *value;
        char *lower;

        if (open == NULL)
            return floe_call_printf(call, "%s%s", out, p);
        close = strchr(open, '}');
        value = close != NULL ? string_at(svc, input, in, open + 1, (size_t)(close - open - 1)) : NULL;
        if (value == NULL || *value == '\0')
            return NULL;
        lower = floe_call_strdup(call, value);
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        out = floe_call_printf(call, "%s%.*s%s", out, (int)(open - p), p, lower);
        p = close + 1;
    }
    return out;
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

/* CATALOG's levels under the account's catalog (a database, a table), decided after it while it is
 * allowed, when the request names that catalog: no CatalogId, or an account's id (a child
 * catalog's CatalogId names other resources). */
static void decide_levels(floe_call_t *call, const floe_awsjson_service_t *svc, const floe_awsjson_authorize_t *rule,
                          const floe_awsjson_shape_t *input, const void *in, floe_principal_t *principal,
                          floe_authz_request_t *r, floe_authz_decision_t *out)
{
    const char *id = string_named(svc, input, in, "CatalogId");

    if (id != NULL && !floe_scope_is_account_id(id, strlen(id)))
        return;
    for (int i = 0; i < FLOE_AWSJSON_MAX_LEVELS && rule->levels[i] != FLOE_AWSJSON_NO_NAME && out->is_allowed; i++) {
        const char *level = expand_level(call, svc, input, in, floe_awsjson_name(svc, rule->levels[i]));

        if (level != NULL)
            decide_on(call, principal, r,
                      floe_call_printf(call, "arn:aws:%s:%s:%s:%s", svc->signing_name, call->scope.region, r->owner,
                                       level),
                      out);
    }
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
        decide_levels(c, svc, rule, input, in, principal, &r, out);
        return FLOE_OK;
    }
}
