/*
 * The URI text every protocol reads: percent-decoding, query strings as decoded pairs, and raw
 * paths split on '/'. Pure functions over an h2o memory pool; no routes, no operations.
 */
#ifndef FLOE_HTTP_URI_H
#define FLOE_HTTP_URI_H

#include <stddef.h>

#include <h2o/memory.h>

#include "http/codec.h"

/**
 * Splits a raw path ("/a/b%2Fc") on '/' into at most max + 1 segments, still encoded, as slices
 * of `path` (arrays of max + 1 entries). Returns the count; more than max means "too deep". Both
 * routers split with it, then test each route_template.h template against the segments.
 */
size_t floe_path_split(const char *path, size_t len, size_t max, const char **seg, size_t *seg_len);

/**
 * Percent-decodes n bytes of `src` into the pool. With `plus_is_space` a '+' becomes ' ' (query
 * strings). Returns NULL on a malformed escape or an encoded NUL.
 */
char *floe_percent_decode(h2o_mem_pool_t *pool, const char *src, size_t n, int plus_is_space);

/**
 * Splits a raw query string ("a=1&b=%20") into decoded pairs in the pool. Returns the number of
 * pairs, or -1 on malformed percent-encoding.
 */
long floe_query_parse(h2o_mem_pool_t *pool, const char *query, size_t n, floe_query_param_t **out /* OUT */);

#endif
