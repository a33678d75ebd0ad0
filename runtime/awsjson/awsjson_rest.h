/*
 * The REST-JSON binding of an awsJson service (Athena: botocore 1.44.18 and later send
 * `POST /query-executions`, `GET /workgroups/{WorkGroup}`, ... where older clients send
 * X-Amz-Target). A request without X-Amz-Target is matched against the generated routes
 * (floe_awsjson_rest_route_t, from botocore's binding) and its URI labels and query parameters
 * are folded into the JSON document awsJson1_1 would have carried, so the same codec, validation
 * and handler serve both bindings. Names no operation: the routes are the generated tables'.
 */
#ifndef FLOE_AWSJSON_REST_H
#define FLOE_AWSJSON_REST_H

#include <h2o.h>

#include "awsjson/awsjson_service.h"

/** True when `svc` has a REST-JSON binding. */
static inline bool floe_awsjson_has_rest(const floe_awsjson_service_t *svc)
{
    return svc->rest_params != NULL;
}

/** The operation of `svc` whose method and URI template fit the request (the one with the most
 * literal segments when several do), or NULL. */
const floe_awsjson_operation_t *floe_awsjson_rest_find(const floe_awsjson_service_t *svc, h2o_req_t *req);

/**
 * The JSON document of `op`'s input the request carries: its URI labels (percent-decoded) and
 * query parameters as members of their model types (a list from a repeated parameter), then the
 * members of its JSON body. In the pool: *text (n bytes). FLOE_OK, or FLOE_EINVAL when the path
 * or query is not well percent-encoded (the body is left to the codec to judge).
 */
int floe_awsjson_rest_input(h2o_mem_pool_t *pool, const floe_awsjson_service_t *svc, const floe_awsjson_operation_t *op,
                            h2o_req_t *req, const char **text /* OUT */, size_t *n /* OUT */);

#endif
