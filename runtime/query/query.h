/*
 * The awsQuery front: the path every request to CloudFormation or STS takes. A request signed
 * (SigV4) for a service's signing name is that service's; its form names the operation in
 * `Action`, which is looked up in the service's generated table (generated/query_services.def,
 * query_service.h), never by name in the runtime.
 */
#ifndef FLOE_QUERY_H
#define FLOE_QUERY_H

#include "call/worker.h"
#include "http/sigv4.h"
#include "query/query_service.h"

/** Compiles every awsQuery service's patterns now rather than on first use (the server does not:
 * start-up stays free of pattern compilation); for checking them all up front. FLOE_OK or FLOE_EFAIL. */
int floe_query_init(void);

/** Every awsQuery service Floe serves (*n of them), in query_services.def's order; static. */
const floe_query_service_t *const *floe_query_services(size_t *n /* OUT */);

/** The awsQuery service a request with this credential scope is signed for, or NULL. */
const floe_query_service_t *floe_query_service_of(const floe_sigv4_scope_t *scope);

/** The awsQuery service an unsigned request is for, by its form's `Version` (the API version
 * each service's clients send beside `Action`), or NULL when it is no such form: so that strict
 * mode refuses an unsigned CloudFormation or STS call in that service's shape. */
const floe_query_service_t *floe_query_service_of_form(h2o_req_t *req);

/** Answers one request signed for `svc`; `scope` is its credential scope, as the front door read
 * it (it decides the call's account and region). */
void floe_query_handle(floe_worker_t *w, h2o_req_t *req, const floe_query_service_t *svc,
                       const floe_sigv4_scope_t *scope);

/** Refuses a request before it is dispatched (a signature that does not verify, an oversized
 * header section) in the service's XML error shape: `status`, Sender, `code`, `message`. The
 * caller logs it. */
void floe_query_refuse(h2o_req_t *req, const floe_query_service_t *svc, int status, const char *code,
                       const char *message);

#endif
