/*
 * The lookups of iceberg_lookup.h, built on the S3 Tables lookups (lookup.h) so both APIs resolve
 * names the same way; only the error each miss becomes differs.
 */
#include <assert.h>
#include <string.h>

#include "catalog/glue_integration.h"
#include "catalog/table_rules.h"
#include "iceberg_lookup.h"
#include "store/store.h"

int floe_iceberg_fail_from_table(floe_iceberg_call_t *call, int rc, floe_iceberg_err_t taken)
{
    switch (rc) {
    case FLOE_EEXISTS: return floe_iceberg_call_fail(call, taken, "%s", FLOE_TABLE_MESSAGE_EXISTS);
    case FLOE_ENOTFOUND:
    case FLOE_ECHANGED:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NoSuchTableException, "%s", FLOE_TABLE_MESSAGE_NOT_FOUND);
    default: assert(rc == FLOE_EFAIL && call->super.failure.code != FLOE_OK); return FLOE_EFAIL;
    }
}

/* Every route of both endpoints resolves its warehouse here, so this is where the Glue endpoint
 * (call->is_glue) requires the s3tablescatalog integration of the request's account and region,
 * as AWS does: without it Glue has no catalog for any table bucket. */
int floe_iceberg_lookup_warehouse(floe_iceberg_call_t *call, const char *warehouse_arn, floe_bucket_row_t *out)
{
    bool is_integrated;

    if (call->is_glue) {
        if (floe_glue_integration_read(&call->super, &is_integrated, NULL))
            return FLOE_EFAIL;
        if (!is_integrated)
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NoSuchWarehouseException,
                                          "Account %s has no s3tablescatalog catalog in %s: integrate S3 Tables with "
                                          "AWS analytics services first (glue create-catalog --name s3tablescatalog).",
                                          floe_call_account(&call->super), floe_call_region(&call->super));
    }
    return floe_lookup_bucket(&call->super, warehouse_arn, out);
}

int floe_iceberg_lookup_namespace(floe_iceberg_call_t *call, const char *warehouse_arn, const char *name,
                                  floe_bucket_row_t *bucket, floe_namespace_row_t *ns)
{
    if (floe_iceberg_lookup_warehouse(call, warehouse_arn, bucket))
        return FLOE_EFAIL;
    return floe_lookup_namespace(&call->super, bucket, name, ns);
}

int floe_iceberg_lookup_table(floe_iceberg_call_t *call, const char *warehouse_arn, const char *ns, const char *name,
                              floe_table_row_t *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t namespace;

    if (floe_iceberg_lookup_namespace(call, warehouse_arn, ns, &bucket, &namespace))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &namespace, name, out))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_iceberg_read_metadata(floe_iceberg_call_t *call, const floe_table_row_t *t, char **json)
{
    size_t len;
    const char *key;

    *json = NULL;
    if (t->metadata_location == NULL)
        return FLOE_OK;
    /* Every pointer lies inside the warehouse (catalog/table.c, invariant 1), so the key is what
     * follows "s3://<warehouse>/". */
    if (!floe_table_location_is_inside(t, t->metadata_location))
        return floe_iceberg_call_fail_internal(call, "a table's metadata location is outside its warehouse");
    key = t->metadata_location + strlen("s3://") + strlen(t->warehouse_bucket) + 1;
    if (floe_store_read_object(floe_call_state(&call->super), floe_call_config(&call->super)->data_dir,
                               t->warehouse_bucket, key, json, &len) != FLOE_OK)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_InternalServerError,
                                      "The table's metadata file %s cannot be read.", t->metadata_location);
    floe_iceberg_call_keep(call, *json);
    return FLOE_OK;
}
