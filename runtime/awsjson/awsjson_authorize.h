/*
 * --enforce-iam on an awsJson1_1 service (Glue): an operation needs "<signing name>:<Operation>"
 * (glue:GetTable), from the generated operation table's name, on the service's catalog of the
 * account the request names (its CatalogId member, else the caller's). Floe stores no Glue
 * resource policies, so another account's catalog is refused, and a root is allowed its own.
 */
#ifndef FLOE_AWSJSON_AUTHORIZE_H
#define FLOE_AWSJSON_AUTHORIZE_H

#include <h2o.h>

#include "authz/authz.h"
#include "awsjson/awsjson_service.h"
#include "call/call.h"

/**
 * Decides `operation` of `svc` for the caller of `req` (a call in the caller's scope): FLOE_OK with
 * `out` filled (allowed or not), FLOE_EFAIL when the caller's key is no one's.
 */
int floe_awsjson_authorize(floe_call_t *call, h2o_req_t *req, const floe_awsjson_service_t *svc, const char *operation,
                           const floe_awsjson_shape_t *input, const void *in, floe_authz_decision_t *out /* OUT */);

#endif
