/*
 * POST /_floe/maintenance/run: runs one maintenance job to the end and answers with
 * its status. Body: {"arn": "<table or table bucket ARN>", "type": "icebergCompaction" |
 * "icebergSnapshotManagement" | "icebergUnreferencedFileRemoval" | "recordExpiration", "now":
 * "<optional RFC 3339 time>"}. 200 with the job's status JSON; 400 {"message"} for a body that is
 * not that, an unknown ARN, an unknown type, a bad time or a disabled job (and nothing runs); 405
 * for another method. It acts on tables, so with --strict-signatures it takes only requests with
 * a good SigV4 signature (403 otherwise), on ARNs of the signer's own account (403 otherwise):
 * the console and `floe maintenance run` sign for FLOE_MAINTENANCE_SIGNING_NAME. Under --enforce-iam
 * the signer needs the S3 Tables action that configures the job type on that ARN instead (403 with
 * AWS's sentence otherwise; docs/authorization.md).
 */
#ifndef FLOE_MAINTENANCE_ROUTE_H
#define FLOE_MAINTENANCE_ROUTE_H

#include "call/worker.h"

#define FLOE_MAINTENANCE_RUN_PATH "/_floe/maintenance/run"
#define FLOE_MAINTENANCE_SIGNING_NAME "s3tables"

/** Handles a request for FLOE_MAINTENANCE_RUN_PATH (front.c); the answer may come later (maintenance.h). */
void floe_maintenance_route_handle(floe_worker_t *w, h2o_req_t *req);

#endif
