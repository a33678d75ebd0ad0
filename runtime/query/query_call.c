/*
 * The awsQuery call of query/query_call.h: an ordinary call (call.h) plus the service error a
 * handler records. It owns nothing that outlives the request.
 */
#include <stdio.h>

#include "base/log.h"
#include "query/query_call.h"

void floe_query_call_init(floe_query_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                          const floe_config_t *config)
{
    floe_call_init(&call->super, pool, state, config);
    call->access_key = NULL;
    call->action = NULL;
    call->error = 0;
    call->error_message = NULL;
    call->hold_until = NULL;
    call->hold_arg = NULL;
}

void floe_query_call_hold(floe_query_call_t *call, floe_query_settled_fn hold_until, void *arg)
{
    call->hold_until = hold_until;
    call->hold_arg = arg;
}

int floe_query_call_vfail(floe_query_call_t *call, int error, const char *fmt, va_list ap)
{
    call->error = error;
    call->error_message = floe_call_vprintf(&call->super, fmt, ap);
    return FLOE_EFAIL;
}

void floe_query_log_internal(const char *context)
{
    floe_log("internal error: %s", context);
}
