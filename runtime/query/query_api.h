/*
 * What the handlers of the awsQuery services (CloudFormation, STS) are written against besides
 * their generated API (generated/cfn_api.h, generated/sts_api.h): the call. This is the query
 * services' counterpart of call.h, as iceberg_rest_api.h is the REST catalog's.
 *
 * A handler receives a floe_query_call_t. Its `super` is the ordinary call context, so the shared
 * helpers (floe_call_alloc, floe_call_account, the catalog) work unchanged on &call->super; the
 * service's own errors are recorded with the generated floe_<prefix>_fail (floe_cfn_fail,
 * floe_sts_fail), which the runtime answers in the protocol's XML error shape.
 *
 * Ownership: as in call.h, everything a handler allocates comes from the request pool.
 */
#ifndef FLOE_QUERY_API_H
#define FLOE_QUERY_API_H

#include "call/call.h"

typedef struct floe_query_call floe_query_call_t;

/** Whether what a held answer waits for has happened (floe_query_call_hold). Runs on the serving
 * thread with a fresh call over the request's pool, in the request's account and region. */
typedef bool (*floe_query_settled_fn)(floe_query_call_t *call, void *arg);

/** One call of an awsQuery operation. */
struct floe_query_call {
    floe_call_t super;
    const char *access_key;    /* the access key that signed the call, in the pool (STS and IAM name its owner) */
    const char *action;        /* "<signing name>:<Action>", the IAM action the call needs, from the generated
                                  table (a service that authorizes its calls under --enforce-iam reads it) */
    int error;                 /* the service's error enum (floe_cfn_error_t, ...), 0 for none */
    const char *error_message; /* in the pool */
    floe_query_settled_fn hold_until; /* set by floe_query_call_hold, else NULL */
    void *hold_arg;
};

/**
 * Asks the runtime to hold the call's successful answer until hold_until(call, arg) is true or
 * FLOE_QUERY_HOLD_MAX_MS have passed, whichever comes first, without blocking the serving thread
 * (query/query_hold.h). The answer itself does not change. For an operation whose work finishes in
 * the background, usually within moments, so a client that polls next sees it done. `arg` must
 * live in the request's pool. A failed call is answered at once.
 */
void floe_query_call_hold(floe_query_call_t *call, floe_query_settled_fn hold_until, void *arg);

#endif
