/*
 * The REST catalog call context of iceberg_rest_api.h: failing a call with one of the spec's error
 * types, and buffers a call keeps until it ends (freed by floe_iceberg_rest_call_dispose in
 * iceberg_rest.c, after the response is written).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "iceberg_rest/iceberg_rest_api.h"
#include "iceberg_rest/iceberg_rest_call.h"

void floe_iceberg_rest_call_init(floe_iceberg_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                                 const floe_config_t *config, const char *s3_endpoint)
{
    floe_call_init(&call->super, pool, state, config);
    call->error = FLOE_ICEBERG_ERR_NONE;
    call->error_message = NULL;
    call->s3_endpoint = s3_endpoint;
    call->etag = NULL;
    call->is_glue = false;
    call->names_table = false;
    call->glue_prefix = NULL;
}

int floe_iceberg_call_fail(floe_iceberg_call_t *call, floe_iceberg_err_t error, const char *fmt, ...)
{
    va_list ap, copy;
    int n;
    char *message;

    va_start(ap, fmt);
    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    message = floe_call_alloc(&call->super, (size_t)n + 1);
    vsnprintf(message, (size_t)n + 1, fmt, ap);
    va_end(ap);
    call->error = error;
    call->error_message = message;
    return FLOE_EFAIL;
}

int floe_iceberg_call_fail_internal(floe_iceberg_call_t *call, const char *context)
{
    fprintf(stderr, "floe: internal error: %s\n", context);
    return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_InternalServerError, "The server encountered an internal error.");
}

void *floe_iceberg_call_keep(floe_iceberg_call_t *call, void *malloced)
{
    return floe_call_keep(&call->super, malloced);
}
