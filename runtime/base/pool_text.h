/*
 * A growable string in an h2o memory pool: the text a signature check builds (canonical requests,
 * strings to sign) lives as long as the request. Not for text that outlives its pool.
 */
#ifndef FLOE_BASE_POOL_TEXT_H
#define FLOE_BASE_POOL_TEXT_H

#include <stddef.h>

#include <h2o.h>

/** Text in `pool`, always NUL-terminated once anything is added; start as {pool, NULL, 0, 0}. */
typedef struct floe_pool_text {
    h2o_mem_pool_t *pool;
    char *p;
    size_t len, cap;
} floe_pool_text_t;

/** Appends n bytes of s, growing (doubling) inside the pool. */
void floe_pool_text_add(floe_pool_text_t *t, const char *s, size_t n);

/** Appends the NUL-terminated string s. */
void floe_pool_text_str(floe_pool_text_t *t, const char *s);

/** Appends one character. */
void floe_pool_text_char(floe_pool_text_t *t, char c);

#endif
