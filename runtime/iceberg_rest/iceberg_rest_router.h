/*
 * The Iceberg REST catalog's router: built once at start-up from generated/iceberg_routes.def, it
 * matches a request's method and raw path (below /iceberg or /_floe/iceberg) segment by segment and
 * percent-decodes each parameter segment on its own, so an encoded table bucket ARN ({prefix}) and
 * an encoded namespace stay one segment each. It knows operations only as table rows.
 */
#ifndef FLOE_ICEBERG_REST_ROUTER_H
#define FLOE_ICEBERG_REST_ROUTER_H

#include <stdbool.h>
#include <stddef.h>

#include <h2o/memory.h>

#include "http/route_template.h"
#include "iceberg_rest/iceberg_rest_api.h"

typedef int (*floe_iceberg_parse_fn)(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, void *in);
typedef int (*floe_iceberg_handle_fn)(floe_iceberg_call_t *call, const void *in, void *out);
typedef void (*floe_iceberg_serialize_fn)(const void *out, floe_json_t *w);

/** Which path parameter a template segment is. */
typedef enum floe_iceberg_param {
    FLOE_ICEBERG_PARAM_NONE = 0, /* a literal segment */
    FLOE_ICEBERG_PARAM_PREFIX,
    FLOE_ICEBERG_PARAM_NAMESPACE,
    FLOE_ICEBERG_PARAM_TABLE,
    FLOE_ICEBERG_PARAM_OTHER, /* {view}, {plan-id}: only on routes Floe does not serve */
} floe_iceberg_param_t;

typedef struct floe_iceberg_route {
    const char *operation; /* the spec's operationId, for the log */
    const char *method;
    const char *path; /* the spec's template */
    bool is_served;   /* false: answered 501 */
    int success_code;
    const char *statuses; /* the error statuses the spec documents, "400,404,...,5XX" */
    size_t in_size, out_size;
    floe_iceberg_parse_fn parse;
    floe_iceberg_handle_fn handle;
    floe_iceberg_serialize_fn serialize;
    floe_route_template_t template; /* path, compiled by floe_iceberg_rest_router_init */
    floe_iceberg_param_t params[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS]; /* what each label segment names */
} floe_iceberg_route_t;

typedef enum floe_iceberg_route_result {
    FLOE_ICEBERG_ROUTE_FOUND = 0,
    FLOE_ICEBERG_ROUTE_NO_PATH,      /* 404 */
    FLOE_ICEBERG_ROUTE_NO_METHOD,    /* 405 */
    FLOE_ICEBERG_ROUTE_BAD_ENCODING, /* a parameter is not valid percent-encoding: 400 */
} floe_iceberg_route_result_t;

typedef struct floe_iceberg_route_match {
    const floe_iceberg_route_t *route;
    const char *prefix, *namespace, *table; /* decoded, in the pool; NULL when the route has none */
} floe_iceberg_route_match_t;

/** Compiles the table; call once before serving. 0, or -1 when a template is beyond the limits. */
int floe_iceberg_rest_router_init(void);

/** The route table, for tests. */
const floe_iceberg_route_t *floe_iceberg_rest_routes(size_t *n /* OUT */);

/**
 * Matches `method` and the raw `path` (no query, still percent-encoded, starting with "/v1/") against
 * the table. Among routes matching the path, the one with the most literal segments wins.
 */
floe_iceberg_route_result_t floe_iceberg_rest_route(h2o_mem_pool_t *pool, const char *method, size_t method_len,
                                                    const char *path, size_t path_len,
                                                    floe_iceberg_route_match_t *out /* OUT */);

/** True when the spec documents `status` for the route (a "5XX" entry covers every 5xx). */
bool floe_iceberg_route_documents(const floe_iceberg_route_t *route, int status);

#endif
