/*
 * The CloudFormation library's error message (error.h): printf into a fixed buffer, and the
 * bracketed name lists AWS puts in its messages.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cfn_template/error.h"

int floe_cfn_template_fail(floe_cfn_template_error_t *err, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL)
        return FLOE_EFAIL;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return FLOE_EFAIL;
}

void floe_cfn_template_error_clear(floe_cfn_template_error_t *err)
{
    if (err != NULL)
        err->message[0] = '\0';
}

static int seen_before(const char *const *names, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(names[j], names[i]) == 0)
            return 1;
    return 0;
}

void floe_cfn_format_names(char *buf, size_t size, const char *const *names, size_t n_names)
{
    size_t len = 0;

    if (size == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < n_names && len + 1 < size; i++) {
        if (seen_before(names, i))
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len > 0 ? ", " : "", names[i]);
        if (n < 0)
            break;
        len += (size_t)n < size - len ? (size_t)n : size - len - 1;
    }
}

void floe_cfn_text_position(const char *text, size_t len, size_t offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}
