/* Glue's actions on the Data Catalog's levels, each decided on every level (glue_access.h). */
#include "authz/glue_access.h"
#include "authz/input_cache.h"
#include "catalog/glue_integration.h"

size_t floe_authz_glue_resources(floe_call_t *call, const floe_authz_glue_target_t *target,
                                 const char *out[FLOE_AUTHZ_GLUE_LEVELS])
{
    const char *head = floe_call_printf(call, "arn:aws:glue:%s:%s:", call->scope.region, target->account);
    const char *catalog = FLOE_GLUE_S3TABLES_CATALOG;
    size_t n = 0;

    out[n++] = floe_call_printf(call, "%scatalog", head);
    if (target->bucket == NULL && target->namespace_ != NULL) { /* the default catalog's database */
        out[n++] = floe_call_printf(call, "%sdatabase/%s", head, target->namespace_);
        if (target->table != NULL)
            out[n++] = floe_call_printf(call, "%stable/%s/%s", head, target->namespace_, target->table);
        return n;
    }
    if (target->bucket == NULL)
        return n; /* the account's catalog only (Glue's GET /v1/config without a warehouse) */
    out[n++] = floe_call_printf(call, "%scatalog/%s", head, catalog);
    out[n++] = floe_call_printf(call, "%scatalog/%s/%s", head, catalog, target->bucket);
    if (target->namespace_ == NULL)
        return n;
    out[n++] = floe_call_printf(call, "%sdatabase/%s/%s/%s", head, catalog, target->bucket, target->namespace_);
    if (target->table != NULL)
        out[n++] = floe_call_printf(call, "%stable/%s/%s/%s/%s", head, catalog, target->bucket, target->namespace_,
                                    target->table);
    return n;
}

int floe_authz_glue_access(floe_call_t *call, const char *access_key, const char *source_ip, const char *action,
                           const floe_authz_glue_target_t *target, floe_authz_decision_t *out)
{
    const char *resources[FLOE_AUTHZ_GLUE_LEVELS];
    floe_authz_request_t r = {0};
    floe_principal_t *principal;
    size_t n = floe_authz_glue_resources(call, target, resources);

    if (floe_authz_principal_of_key(call, access_key, &principal)) /* kept in memory while it is unchanged */
        return FLOE_EFAIL;
    r.action = action;
    r.owner = target->account;
    r.source_ip = source_ip; /* a Glue call carries no s3tables: condition keys */
    for (size_t i = 0; i < n; i++) {
        r.resource = resources[i];
        floe_authz_decide(call, principal, &r, out);
        if (!out->is_allowed)
            break;
    }
    return FLOE_OK;
}
