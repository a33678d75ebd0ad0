/*
 * The failure reports of iceberg_error.h. Messages are formatted once, where the failure is found,
 * so each names the member and value at fault.
 */
#include <stdarg.h>
#include <stdio.h>

#include "iceberg/iceberg_error.h"

int floe_iceberg_fail(floe_iceberg_error_t *err, int code, const char *fmt, ...)
{
    va_list ap;

    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return code;
}

void floe_iceberg_error_clear(floe_iceberg_error_t *err)
{
    err->code = FLOE_ICEBERG_OK;
    err->message[0] = '\0';
}
