/*
 * The S3 client settings of iceberg_table_config.h. Key names are Iceberg's S3FileIO properties
 * (https://iceberg.apache.org/docs/latest/aws/#s3-fileio), which PyIceberg and iceberg-rust read too.
 */
#include "iceberg_table_config.h"

#define N_S3_SETTINGS 3

void floe_iceberg_s3_config(floe_iceberg_call_t *call, floe_iceberg_properties_t *out)
{
    out->n = N_S3_SETTINGS;
    out->keys = floe_call_alloc(&call->super, N_S3_SETTINGS * sizeof(char *));
    out->values = floe_call_alloc(&call->super, N_S3_SETTINGS * sizeof(char *));
    out->keys[0] = "client.region";
    out->values[0] = floe_call_region(&call->super);
    out->keys[1] = "s3.endpoint";
    out->values[1] = call->s3_endpoint;
    out->keys[2] = "s3.path-style-access";
    out->values[2] = "true";
}
