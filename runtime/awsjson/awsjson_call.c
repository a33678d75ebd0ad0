/*
 * The awsJson call of awsjson/awsjson_call.h: an ordinary call (call.h) plus the service error a
 * handler records. It owns nothing that outlives the request.
 */
#include <stdio.h>

#include "awsjson/awsjson_call.h"
#include "http/log.h"

void floe_awsjson_call_init(floe_awsjson_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                            const floe_config_t *config)
{
    floe_call_init(&call->super, pool, state, config);
    call->error = 0;
    call->error_message = NULL;
}

int floe_awsjson_call_vfail(floe_awsjson_call_t *call, int error, const char *fmt, va_list ap)
{
    va_list copy;
    char *message;
    int n;

    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    message = floe_call_alloc(&call->super, (size_t)n + 1);
    vsnprintf(message, (size_t)n + 1, fmt, ap);
    call->error = error;
    call->error_message = message;
    return FLOE_EFAIL;
}

void floe_awsjson_log_internal(const char *context)
{
    floe_log("internal error: %s", context);
}
