/*
 * The client settings Floe hands out with a catalog configuration and with every loaded table (the
 * spec's LoadTableResult.config): where Floe's S3 is and how to address it, so engines read and
 * write a table's warehouse through Floe without further setup.
 */
#ifndef FLOE_HANDLERS_ICEBERG_REST_ICEBERG_TABLE_CONFIG_H
#define FLOE_HANDLERS_ICEBERG_REST_ICEBERG_TABLE_CONFIG_H

#include "iceberg_rest/iceberg_rest_api.h"

/** Fills *out (in the call's pool) with client.region, s3.endpoint (the host the request came to)
 * and s3.path-style-access=true (warehouse bucket names are not resolvable host names here). */
void floe_iceberg_s3_config(floe_iceberg_call_t *call, floe_iceberg_properties_t *out /* OUT */);

#endif
