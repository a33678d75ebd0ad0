/*
 * The awsQuery request form: the `key=value` pairs of a POST body (application/x-www-form-urlencoded)
 * and of the URL's query string, decoded into one sorted table, and the lookups the generated
 * parsers make in it: a member's value (`StackName`), whether anything lies at or below a key
 * (`RollbackConfiguration` or `RollbackConfiguration.…`), and how many items a list or map has
 * (`Parameters.member.1`, `.2`, … without a gap). Keys are built in the call's pool.
 *
 * Not for types, constraints or operations: the generated parsers read the values with codec.h's
 * text readers, and nothing here knows which keys a model has. A key no parser asks for is
 * simply never looked at (unknown members are ignored).
 */
#ifndef FLOE_QUERY_FORM_H
#define FLOE_QUERY_FORM_H

#include <stdbool.h>
#include <stddef.h>

#include "call/call.h"
#include "http/codec.h"

typedef struct floe_query_form {
    const floe_query_param_t *pairs; /* sorted by key, bytewise; of a repeated key the first stays */
    size_t n;
} floe_query_form_t;

/**
 * Decodes `a=1&b=%20+x` text (percent-encoding, '+' for space) from the URL query and from the
 * body into one form in the pool; either may be NULL. Returns 0, or -1 when the text is not valid
 * percent-encoding, or holds a NUL byte, encoded or not (a key or value would end early).
 */
int floe_query_form_decode(h2o_mem_pool_t *pool, const char *query, size_t query_len, const char *body,
                           size_t body_len, floe_query_form_t *out /* OUT */);

/** The value of `key`, or NULL. */
const char *floe_query_form_get(const floe_query_form_t *form, const char *key);

/** True when `key` itself or any key below it (`key.…`) is in the form. */
bool floe_query_form_has(const floe_query_form_t *form, const char *key);

/** The number of items at `key`.1, `key`.2, … up to the first one absent (floe_query_form_has). */
size_t floe_query_form_count(const floe_query_form_t *form, const char *key);

/** "prefix.name", or `name` itself when prefix is NULL; in the call's pool. */
const char *floe_query_form_key(floe_call_t *call, const char *prefix, const char *name);

/** "prefix.i", in the call's pool. */
const char *floe_query_form_index_key(floe_call_t *call, const char *prefix, size_t i);

#endif
