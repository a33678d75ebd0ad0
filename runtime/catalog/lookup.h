/*
 * Resolving what a request names (a table bucket ARN, a namespace name, a table) to its row,
 * shared by every handler family. A miss fails the call with FLOE_ENOTFOUND about what is missing
 * and AWS's message (an S3 Tables call naming an ARN of another account: FLOE_EDENIED, as AWS
 * answers when no policy grants access), and SQLite failing for any other reason fails it inside
 * (FLOE_EFAIL, a 500), so a handler can simply `if (floe_lookup_...) return FLOE_EFAIL;`. Changing a
 * table is catalog/table.h's.
 */
#ifndef FLOE_CATALOG_LOOKUP_H
#define FLOE_CATALOG_LOOKUP_H

#include <stdint.h>

#include "call/call.h"
#include "catalog/rows.h"

/** The kinds of resource a ResourceArn (TagResource and friends) can name. */
typedef enum floe_resource_kind {
    FLOE_RESOURCE_TABLE_BUCKET = 1, /* arn:...:bucket/{name}; id is table_bucket.id */
    FLOE_RESOURCE_TABLE,            /* arn:...:bucket/{name}/table/{table id}; id is the table's row id */
} floe_resource_kind_t;

typedef struct floe_resource {
    floe_resource_kind_t kind;
    int64_t id;
} floe_resource_t;

/** The table bucket an ARN names (strings in the call's pool); fails FLOE_ENOTFOUND (the bucket) if
 * none, FLOE_EDENIED if it is another account's on the S3 Tables API. */
int floe_lookup_bucket(floe_call_t *call, const char *arn, floe_bucket_row_t *out /* OUT */);

/** The namespace `name` in `bucket`; fails FLOE_ENOTFOUND about the namespace `name` if none. */
int floe_lookup_namespace(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out /* OUT */);

/** The table `name` in namespace `ns` of the bucket `bucket_arn`; fails FLOE_ENOTFOUND about the
 * bucket, the namespace or the table, whichever does not exist. */
int floe_lookup_table(floe_call_t *call, const char *bucket_arn, const char *ns, const char *name,
                      floe_table_row_t *out /* OUT */);

/** The table `name` in namespace `ns` of `bucket`, both already looked up; fails FLOE_ENOTFOUND
 * about the table `name` if there is none. */
int floe_lookup_table_in(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                         const char *name, floe_table_row_t *out /* OUT */);

/** The table a table ARN names; fails FLOE_ENOTFOUND (or FLOE_EDENIED) if it names nothing here. */
int floe_lookup_table_by_arn(floe_call_t *call, const char *table_arn, floe_table_row_t *out /* OUT */);

/**
 * The table bucket or table a ResourceArn names; FLOE_ENOTFOUND if it names nothing here (an
 * ARN of another account, region or resource type, or a resource that does not exist).
 */
int floe_lookup_resource(floe_call_t *call, const char *arn, floe_resource_t *out /* OUT */);

#endif
