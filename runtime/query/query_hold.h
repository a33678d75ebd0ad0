/*
 * Held answers (floe_query_call_hold in query_api.h): a successful answer that waits, off the
 * serving thread's critical path, until what its operation started in the background has
 * finished, or a short bound has passed. Not for deciding what to wait for (the handler's
 * callback) nor for writing the answer (query_answer.c).
 */
#ifndef FLOE_QUERY_HOLD_H
#define FLOE_QUERY_HOLD_H

#include <stdint.h>

#include "call/worker.h"
#include "query/query_api.h"
#include "query/query_service.h"

/** The longest an answer is held: past it, the client is answered and polls as on AWS. */
#define FLOE_QUERY_HOLD_MAX_MS 2000

/** A successful answer and what it waits for; everything lives in the request's pool or is static. */
typedef struct floe_query_held {
    floe_worker_t *w;
    h2o_req_t *req;
    const floe_query_service_t *svc;
    const floe_query_operation_t *op;
    const void *out;       /* the operation's output, serialized when the answer goes */
    const char *operation; /* the request log's name */
    uint64_t started_us;
    floe_scope_t scope; /* the call's account and region, for the checks */
    floe_query_settled_fn until;
    void *arg;
} floe_query_held_t;

/**
 * Answers `held` (copied) with 200 and its output once held->until answers true, checked now and
 * then at every tick of the worker's 100 ms timeout, or once FLOE_QUERY_HOLD_MAX_MS have passed.
 * The request log line is written when the answer goes. A client that goes away meanwhile only
 * stops the checks.
 */
void floe_query_hold(const floe_query_held_t *held);

#endif
