/*
 * The S3 Tables router: built once at start-up from the FLOE_ROUTE rows of the generated
 * operations.def, it matches a request's method and raw path segment by segment. It knows
 * operations only as table entries, never by name.
 */
#ifndef FLOE_S3TABLES_ROUTER_H
#define FLOE_S3TABLES_ROUTER_H

#include <stddef.h>

#include <h2o/memory.h>

#include "floe_codec.h"
#include "http/route_template.h"

#define FLOE_ROUTE_MAX_LABELS 6

typedef struct floe_route {
    floe_op_t op;
    const char *method;
    const char *uri;
    const char *required_query; /* comma-separated keys, "" for none */
    floe_parse_fn parse;
    floe_route_template_t template; /* uri, compiled by floe_router_init */
} floe_route_t;

typedef enum floe_route_result {
    FLOE_ROUTE_FOUND = 0,
    FLOE_ROUTE_NO_PATH,      /* no route has this path: 404 */
    FLOE_ROUTE_NO_METHOD,    /* the path exists for other methods: 405 */
    FLOE_ROUTE_BAD_ENCODING, /* a label is not valid percent-encoding: 400 */
} floe_route_result_t;

typedef struct floe_route_match {
    const floe_route_t *route;
    const char *labels[FLOE_ROUTE_MAX_LABELS]; /* percent-decoded, in the pool */
    size_t n_labels;
} floe_route_match_t;

/** Compiles the route table's templates; call once before serving. FLOE_OK or FLOE_EFAIL (a route beyond the limits). */
int floe_router_init(void);

/** The route table, for tests and docs. */
const floe_route_t *floe_router_routes(size_t *n /* OUT */);

/**
 * Matches `method` and the raw `path` (no query; still percent-encoded) against the table. The
 * path is split on '/' first and each label segment decoded after, so an encoded ARN stays one
 * label. `query` breaks ties between routes that differ only by required query keys.
 */
floe_route_result_t floe_router_match(h2o_mem_pool_t *pool, const char *method, size_t method_len, const char *path,
                                      size_t path_len, const floe_query_param_t *query, size_t n_query,
                                      floe_route_match_t *out /* OUT */);

#endif
