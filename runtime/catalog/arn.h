/*
 * S3 Tables ARNs for this emulator's region and account:
 *   table bucket  arn:aws:s3tables:{region}:{account}:bucket/{bucket}
 *   table         arn:aws:s3tables:{region}:{account}:bucket/{bucket}/table/{table id}
 * Building them, and reading them back into names. An ARN for another region, account or
 * service names nothing here.
 */
#ifndef FLOE_CATALOG_ARN_H
#define FLOE_CATALOG_ARN_H

#include <stdbool.h>

#include "call/call.h"

/** The table bucket ARN for `bucket`, in the call's pool. */
char *floe_arn_table_bucket(floe_call_t *call, const char *bucket);
/** The table ARN for `table_id` in `bucket`, in the call's pool. */
char *floe_arn_table(floe_call_t *call, const char *bucket, const char *table_id);

/** The bucket name of a table bucket ARN of this region and account, in the pool; else NULL. */
char *floe_arn_parse_table_bucket(floe_call_t *call, const char *arn);
/**
 * The bucket name and table id of a table ARN of this region and account, in the pool.
 * Returns 0, or -1 when the ARN is not one.
 */
int floe_arn_parse_table(floe_call_t *call, const char *arn, char **bucket /* OUT */, char **table_id /* OUT */);

/** True when `arn` is an S3 Tables ARN ("arn:{partition}:s3tables:{region}:{account}:...") of an
 * account other than the call's. */
bool floe_arn_is_other_account(floe_call_t *call, const char *arn);

#endif
