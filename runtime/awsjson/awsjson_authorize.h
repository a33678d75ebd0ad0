/*
 * --enforce-iam on an awsJson1_1 service: an operation needs "<signing name>:<Operation>"
 * (glue:GetTable, athena:StartQueryExecution), from the generated operation table's name, on the
 * resource its row's `authorize` names (the overlay's, as AWS's service authorization reference
 * names it): Glue's catalog of the account the request names (its CatalogId member, else the
 * caller's), or Athena's workgroup or data catalog the request names, or holding the query or
 * named query it names by id. Floe stores no Glue or Athena resource policies, so another account's
 * catalog is refused, and a root is allowed its own.
 */
#ifndef FLOE_AWSJSON_AUTHORIZE_H
#define FLOE_AWSJSON_AUTHORIZE_H

#include <h2o.h>

#include "authz/authz.h"
#include "awsjson/awsjson_service.h"

/**
 * Decides `op` of `svc` for the caller of `req` (a call in the caller's scope): FLOE_OK with *needed
 * false when the operation is not decided (one Floe does not serve), else with `out` filled
 * (allowed or not); FLOE_EFAIL when the caller's key is no one's or a look-up fails.
 */
int floe_awsjson_authorize(floe_awsjson_call_t *call, h2o_req_t *req, const floe_awsjson_service_t *svc,
                           const floe_awsjson_operation_t *op, const void *in, bool *needed /* OUT */,
                           floe_authz_decision_t *out /* OUT */);

#endif
