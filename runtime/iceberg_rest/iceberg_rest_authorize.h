/*
 * --enforce-iam on the Iceberg REST endpoint signed for s3tables: each operation needs the IAM
 * actions AWS's S3 Tables guide lists for it (generated/iceberg_routes.def's FLOE_ICEBERG_ACTIONS,
 * from models/iceberg-overlay.json), each on the warehouse's table bucket or the named table. On
 * AWS Glue's endpoint (signed for glue), the Glue actions Glue lists (FLOE_ICEBERG_GLUE_ACTIONS).
 */
#ifndef FLOE_ICEBERG_REST_AUTHORIZE_H
#define FLOE_ICEBERG_REST_AUTHORIZE_H

#include <h2o.h>

#include "iceberg_rest/iceberg_rest_api.h"
#include "iceberg_rest/iceberg_rest_response.h" /* the router's header needs its types */
#include "iceberg_rest/iceberg_rest_router.h"

/**
 * Authorizes `req`'s call of `match`'s operation on `warehouse` (a table bucket ARN, or NULL).
 * FLOE_OK when every action is allowed, with the call moved into the warehouse owner's account;
 * FLOE_EFAIL with the first denial recorded on `call` (ForbiddenException, AWS's message).
 */
int floe_iceberg_rest_authorize(floe_iceberg_call_t *call, h2o_req_t *req, const floe_iceberg_route_match_t *match,
                                const char *warehouse);

/**
 * The same on AWS Glue's endpoint (signed for glue): each of the operation's Glue actions
 * (FLOE_ICEBERG_GLUE_ACTIONS) on every Glue resource the request names, from the account's catalog
 * down to the table, `warehouse` being the table bucket ARN its catalog id names (or NULL). Floe
 * stores no Glue resource policy: the caller's identity-based policies decide (a root's own
 * account allows everything). FLOE_OK, or FLOE_EFAIL with the first denial recorded on `call`.
 */
int floe_iceberg_rest_authorize_glue(floe_iceberg_call_t *call, h2o_req_t *req, const floe_iceberg_route_match_t *match,
                                     const char *warehouse);

#endif
