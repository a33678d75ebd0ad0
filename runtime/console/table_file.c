/* The table files of table_file.h. */
#include <string.h>

#include "base/failure.h"
#include "console/table_file.h"
#include "store/store.h"

#define S3_SCHEME "s3://"

int floe_console_read_table_file(floe_console_req_t *r, const floe_table_row_t *table, const char *location,
                                 size_t max, char **data, size_t *len)
{
    floe_call_t *call = &r->call;
    const char *bucket = table->warehouse_bucket, *key;
    size_t size;
    int rc;

    if (!floe_table_location_is_inside(table, location))
        return FLOE_EINVAL;
    key = location + strlen(S3_SCHEME) + strlen(bucket) + 1; /* inside: "s3://<warehouse>/<key>" */
    if ((rc = floe_store_head_object(floe_call_state(call), bucket, key, &size)) != FLOE_OK)
        return rc == FLOE_ENOTFOUND ? FLOE_ENOTFOUND : FLOE_EFAIL;
    if (size > max) {
        *len = size;
        return FLOE_ESTATE;
    }
    rc = floe_store_read_object(floe_call_state(call), r->w->config->data_dir, bucket, key, data, len);
    if (rc != FLOE_OK)
        return rc == FLOE_ENOTFOUND ? FLOE_ENOTFOUND : FLOE_EFAIL;
    floe_call_keep(call, *data);
    return FLOE_OK;
}
