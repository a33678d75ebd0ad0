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

#include "call.h"

/** One call of an awsQuery operation. */
typedef struct floe_query_call {
    floe_call_t super;
    int error;                 /* the service's error enum (floe_cfn_error_t, ...), 0 for none */
    const char *error_message; /* in the pool */
} floe_query_call_t;

#endif
