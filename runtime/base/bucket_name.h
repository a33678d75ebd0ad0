/*
 * The naming rules of S3 bucket names, for the two kinds Floe serves: general purpose buckets
 * (CreateBucket over S3, runtime/s3/bucket.c) and table buckets (CreateTableBucket,
 * handlers/s3tables/table_bucket.c). Both kinds share most of the rules; each caller picks its kind and
 * answers with its own protocol's error. A pure function: no state, no I/O.
 */
#ifndef FLOE_BASE_BUCKET_NAME_H
#define FLOE_BASE_BUCKET_NAME_H

#include <stdbool.h>

typedef enum floe_bucket_name_kind {
    FLOE_BUCKET_NAME_GENERAL_PURPOSE = 1, /* an S3 bucket: dots allowed, but not as an IP address */
    FLOE_BUCKET_NAME_TABLE,               /* a table bucket: no dots, and the aws prefix is reserved too */
} floe_bucket_name_kind_t;

/**
 * True when `name` (NUL-terminated) is a valid bucket name of `kind`:
 *   general purpose  https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
 *   table bucket     https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html
 * Both: 3-63 characters, lowercase letters, digits and hyphens, beginning and ending with a letter
 * or digit; none of the reserved prefixes xn--, sthree-, amzn-s3-demo- or suffixes -s3alias,
 * --ol-s3, --x-s3, --table-s3. A general purpose name may also hold single dots and must not look
 * like an IPv4 address; a table bucket name must not start with aws either.
 */
bool floe_bucket_name_is_valid(const char *name, floe_bucket_name_kind_t kind);

#endif
