/*
 * The awsJson1_1 front: the path every request to Glue and Athena takes. A request signed (SigV4) for a
 * service's signing name is that service's (the front door sends Glue's /iceberg elsewhere);
 * its X-Amz-Target (or, for a service with a REST-JSON binding, its method and path: awsjson_rest.h)
 * names the operation, which is looked up in the service's generated table
 * (generated/awsjson_services.def, awsjson_service.h), never by name in the runtime.
 */
#ifndef FLOE_AWSJSON_H
#define FLOE_AWSJSON_H

#include "awsjson/awsjson_service.h"
#include "call/worker.h"
#include "http/sigv4.h"

/** Prepares the awsJson services before serving (their patterns compile on first use). FLOE_OK or FLOE_EFAIL. */
int floe_awsjson_init(void);

/** Every awsJson service Floe serves (*n of them), in awsjson_services.def's order; static. */
const floe_awsjson_service_t *const *floe_awsjson_services(size_t *n /* OUT */);

/** The awsJson service a request with this credential scope is signed for, or NULL. */
const floe_awsjson_service_t *floe_awsjson_service_of(const floe_sigv4_scope_t *scope);

/** The awsJson service whose X-Amz-Target ("AWSGlue.GetTable") an unsigned request carries, or
 * NULL: so that strict mode refuses an unsigned Glue call in Glue's shape. */
const floe_awsjson_service_t *floe_awsjson_service_of_target(h2o_req_t *req);

/** Answers one request signed for `svc`: with --strict-signatures its signature is verified
 * first (a refusal in the service's JSON error shape); `scope` is its credential scope, as the
 * front door read it (it decides the call's account and region). */
void floe_awsjson_handle(floe_worker_t *w, h2o_req_t *req, const floe_awsjson_service_t *svc,
                         const floe_sigv4_scope_t *scope);

#endif
