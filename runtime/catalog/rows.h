/*
 * The rows the catalog reads for a call: a table bucket, a namespace, and a table with what a
 * handler needs of its bucket and namespace, strings in the call's pool. Filled by the lookups
 * (lookup.h) and by the catalog's own readers of a table row (table_columns.h), which both need
 * them, so they live below both.
 */
#ifndef FLOE_CATALOG_ROWS_H
#define FLOE_CATALOG_ROWS_H

#include <stdint.h>

#include "call/call.h"

typedef struct floe_bucket_row {
    int64_t id;
    char *name;
    char *arn;
    char *bucket_id; /* tableBucketId */
    char *type;      /* "customer" or "aws" */
    floe_timestamp_t created_at;
} floe_bucket_row_t;

typedef struct floe_namespace_row {
    int64_t id;
    char *name;
    char *namespace_id;
    char *created_by;
    floe_timestamp_t created_at;
} floe_namespace_row_t;

/** A table with what a handler needs of its bucket and namespace. */
typedef struct floe_table_row {
    int64_t id;
    char *table_id; /* the UUID in its ARN */
    char *name;
    char *arn;
    char *type;   /* TableType wire value */
    char *format; /* OpenTableFormat wire value */
    char *version_token;
    char *metadata_location; /* NULL until metadata is written */
    char *warehouse_bucket;
    floe_timestamp_t created_at, modified_at;
    char *created_by, *modified_by;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
} floe_table_row_t;

#endif
