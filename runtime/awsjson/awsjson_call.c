/*
 * The awsJson call of awsjson/awsjson_call.h: an ordinary call (call.h) plus the service error a
 * handler records. It owns nothing that outlives the request.
 */
#include <stdio.h>

#include "awsjson/awsjson_call.h"
#include "base/log.h"

void floe_awsjson_call_init(floe_awsjson_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                            const floe_config_t *config)
{
    floe_call_init(&call->super, pool, state, config);
    call->error = 0;
    call->error_message = NULL;
    call->error_detail = NULL;
}

int floe_awsjson_call_vfail(floe_awsjson_call_t *call, int error, const char *fmt, va_list ap)
{
    call->error = error;
    call->error_message = floe_call_vprintf(&call->super, fmt, ap);
    call->error_detail = NULL;
    return FLOE_EFAIL;
}

void floe_awsjson_log_internal(const char *context)
{
    floe_log("internal error: %s", context);
}
