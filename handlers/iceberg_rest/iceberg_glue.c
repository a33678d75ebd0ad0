/*
 * The Glue endpoint's share of the Iceberg REST catalog (iceberg_glue.h).
 */
#include <string.h>

#include "iceberg_glue.h"

/* The served routes Glue's guide does not list, as /v1/config writes them. */
static const char *const glue_unserved[] = {
    "POST /v1/{prefix}/tables/rename",
    "POST /v1/{prefix}/transactions/commit",
    "HEAD /v1/{prefix}/namespaces/{namespace}",
    "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
};

int floe_iceberg_glue_unsupported(floe_iceberg_call_t *call, const char *operation)
{
    return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_UnsupportedOperationException,
                                  "The AWS Glue Iceberg REST endpoint does not support %s; the S3 Tables Iceberg REST "
                                  "endpoint (signed for s3tables) and the S3 Tables API do.",
                                  operation);
}

static bool is_glue_unserved(const char *endpoint)
{
    for (size_t i = 0; i < sizeof(glue_unserved) / sizeof(glue_unserved[0]); i++) {
        if (strcmp(endpoint, glue_unserved[i]) == 0)
            return true;
    }
    return false;
}

const char *const *floe_iceberg_glue_endpoints(floe_iceberg_call_t *call, size_t *n)
{
    size_t all;
    const char *const *endpoints = floe_iceberg_rest_endpoints(&all);
    const char **kept = floe_call_alloc(&call->super, all * sizeof(*kept));

    *n = 0;
    for (size_t i = 0; i < all; i++) {
        if (!is_glue_unserved(endpoints[i]))
            kept[(*n)++] = endpoints[i];
    }
    return kept;
}
