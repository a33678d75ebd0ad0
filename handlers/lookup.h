/*
 * Resolving what a request names (a table bucket ARN, a namespace name) to its row, shared by
 * every handler family. A miss fails the call with NotFoundException and AWS's message, so a
 * handler can simply `if (floe_lookup_...) return FLOE_EFAIL;`.
 */
#ifndef FLOE_LOOKUP_H
#define FLOE_LOOKUP_H

#include <stdint.h>

#include <sqlite3.h>

#include "call.h"

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

/** The table bucket an ARN names (strings in the call's pool); NotFoundException if none. */
int floe_lookup_bucket(floe_call_t *call, const char *arn, floe_bucket_row_t *out /* OUT */);

/** The namespace `name` in `bucket`; NotFoundException if none. */
int floe_lookup_namespace(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out /* OUT */);

/** A copy of a text column in the call's pool (SQLite's copy dies with the next step). */
char *floe_column_text(floe_call_t *call, sqlite3_stmt *stmt, int col);

#endif
