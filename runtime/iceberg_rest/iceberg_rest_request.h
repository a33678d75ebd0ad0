/*
 * The Iceberg REST catalog's request parsers (iceberg_rest_request.c): one per served operation,
 * named by the route table, from the decoded path, query and parsed body to the operation's typed
 * input. Called only by the router's table (iceberg_rest_router.c) and the tests.
 */
#ifndef FLOE_ICEBERG_REST_REQUEST_H
#define FLOE_ICEBERG_REST_REQUEST_H

#include "iceberg_rest/iceberg_rest_api.h"

/**
 * Each parser fills *in (strings borrowed from `http` or in the call's pool) and returns FLOE_OK, or
 * fails the call with BadRequestException naming the first problem.
 */
#define FLOE_ICEBERG_ROUTE(op, method, path, code, response, statuses, parse, handle)                          \
    int parse(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, floe_iceberg_##op##_in *in /* OUT */);
#include "iceberg_routes.def"

#endif
