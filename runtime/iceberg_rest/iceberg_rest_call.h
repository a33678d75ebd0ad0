/*
 * The runtime's side of the REST catalog call (iceberg_rest_api.h has the handlers' side): set a
 * call up for one request.
 */
#ifndef FLOE_ICEBERG_REST_CALL_H
#define FLOE_ICEBERG_REST_CALL_H

#include "iceberg_rest/iceberg_rest_api.h"

struct floe_state;

/** Prepares a call over the request pool; `s3_endpoint` lives as long as the pool. */
void floe_iceberg_rest_call_init(floe_iceberg_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state,
                                 const floe_config_t *config, const char *s3_endpoint);

#endif
