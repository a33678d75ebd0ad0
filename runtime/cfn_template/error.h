/*
 * How the CloudFormation template library reports failure: FLOE_EFAIL and one message, worded as
 * AWS words its ValidationError, which the stack engine answers as
 * <Code>ValidationError</Code><Message>...</Message> (or puts in a stack event's reason).
 *
 * Not an HTTP error and not tied to a call: the library runs on the stack worker as well as on
 * the event loop, and allocates nothing for its errors.
 */
#ifndef FLOE_CFN_TEMPLATE_ERROR_H
#define FLOE_CFN_TEMPLATE_ERROR_H

#include <stddef.h>

#include "base/failure.h"

/** Longest message kept, with its NUL; longer ones (a list of many names) are cut. */
#define FLOE_CFN_MESSAGE_MAX 2048

typedef struct floe_cfn_template_error {
    char message[FLOE_CFN_MESSAGE_MAX]; /* one sentence for the client; "" when nothing failed */
} floe_cfn_template_error_t;

/** Sets err's message from a printf format (cut to fit); returns FLOE_EFAIL, so a caller writes
 * `return floe_cfn_template_fail(err, "...", ...)`. err may be NULL (the message is dropped). */
int floe_cfn_template_fail(floe_cfn_template_error_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Clears err to the empty message. */
void floe_cfn_template_error_clear(floe_cfn_template_error_t *err);

/**
 * A list of names as AWS prints them inside brackets: "A, B, C" (without the brackets), written
 * into buf (cut to fit, always NUL-terminated). Duplicates are written once, in first-seen order.
 */
void floe_cfn_format_names(char *buf, size_t size, const char *const *names, size_t n_names);

/** The 1-based line and column of byte `offset` in text (columns count bytes), for the
 * "(line L, column C)" AWS appends to a not-well-formed template. */
void floe_cfn_text_position(const char *text, size_t len, size_t offset, int *line /* OUT */, int *column /* OUT */);

#endif
