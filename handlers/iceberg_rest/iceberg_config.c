/*
 * The Iceberg REST catalog's configuration: GET /v1/config?warehouse=<table bucket ARN>.
 *
 * AWS's endpoint takes the table bucket ARN as the warehouse and answers the URL-encoded ARN as the
 * `prefix` override, which clients put in every later path (/v1/{prefix}/namespaces, ...). On the
 * Glue endpoint the warehouse is `<account>:s3tablescatalog/<bucket>`, which the runtime has turned
 * into the ARN (iceberg_rest_glue.h), and the prefix is Glue's `catalogs/<account>:s3tablescatalog:<bucket>`. Floe adds
 * the S3 settings that make a client's FileIO read and write the warehouses through Floe (defaults,
 * so a client's own settings win), and the `endpoints` it serves, from the generated route table.
 */
#include "iceberg_glue.h"
#include "iceberg_lookup.h"
#include "iceberg_rest/iceberg_rest_api.h"
#include "iceberg_table_config.h"

int floe_iceberg_handle_getConfig(floe_iceberg_call_t *call, const floe_iceberg_getConfig_in *in,
                                  floe_iceberg_CatalogConfig *out)
{
    floe_bucket_row_t bucket;

    if (in->warehouse == NULL && call->is_glue)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "A warehouse is required: the S3 table bucket's Glue catalog, as in "
                                      "GET /v1/config?warehouse=<account>:s3tablescatalog/<bucket>.");
    if (in->warehouse == NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "A warehouse is required: the table bucket ARN, as in "
                                      "GET /v1/config?warehouse=arn:aws:s3tables:<region>:<account>:bucket/<name>.");
    if (floe_iceberg_lookup_warehouse(call, in->warehouse, &bucket))
        return FLOE_EFAIL;
    floe_iceberg_s3_config(call, &out->defaults);
    out->overrides.n = 1;
    out->overrides.keys = floe_call_alloc(&call->super, sizeof(char *));
    out->overrides.values = floe_call_alloc(&call->super, sizeof(char *));
    out->overrides.keys[0] = "prefix";
    out->overrides.values[0] =
        call->is_glue ? call->glue_prefix : floe_iceberg_rest_encode_segment(&call->super, bucket.arn);
    out->endpoints = call->is_glue ? floe_iceberg_glue_endpoints(call, &out->n_endpoints)
                                   : floe_iceberg_rest_endpoints(&out->n_endpoints);
    return FLOE_OK;
}
