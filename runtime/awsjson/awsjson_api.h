/*
 * What the handlers of the awsJson1_1 services (Glue) are written against besides their
 * generated API (generated/glue_api.h): the call. The awsJson services' counterpart of call.h,
 * as query_api.h is the awsQuery services'.
 *
 * A handler receives a floe_awsjson_call_t. Its `super` is the ordinary call context, so the
 * shared helpers (floe_call_alloc, floe_call_account, the catalog) work unchanged on
 * &call->super; the service's own errors are recorded with the generated floe_<prefix>_fail
 * (floe_glue_fail), which the runtime answers in awsJson's error shape.
 *
 * Ownership: as in call.h, everything a handler allocates comes from the request pool.
 */
#ifndef FLOE_AWSJSON_API_H
#define FLOE_AWSJSON_API_H

#include "call/call.h"

/** One call of an awsJson operation. */
typedef struct floe_awsjson_call {
    floe_call_t super;
    int error;                 /* the service's error enum (floe_glue_error_t), 0 for none */
    const char *error_message; /* in the pool */
    const char *error_detail;  /* the error's other member (floe_<prefix>_fail_detail), or NULL */
} floe_awsjson_call_t;

#endif
