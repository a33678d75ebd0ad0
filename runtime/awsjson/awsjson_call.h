/*
 * The runtime's side of an awsJson call (awsjson_api.h has the handlers' side): setting one up
 * for a request, and the failure recording the generated floe_<prefix>_fail functions are built on.
 */
#ifndef FLOE_AWSJSON_CALL_H
#define FLOE_AWSJSON_CALL_H

#include <stdarg.h>

#include "awsjson/awsjson_api.h"

struct floe_state;

/** Prepares a call over the request pool (as floe_call_init), with no error recorded. */
void floe_awsjson_call_init(floe_awsjson_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                            const floe_config_t *config);

/** Records that the call fails with the service's `error` and a message (printf into the
 * pool); returns FLOE_EFAIL. */
int floe_awsjson_call_vfail(floe_awsjson_call_t *call, int error, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/** Logs what went wrong inside a handler before it answers the service's internal error. */
void floe_awsjson_log_internal(const char *context);

#endif
