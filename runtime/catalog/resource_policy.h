/*
 * What authorization reads of a table bucket or table (runtime/authz/): whether it exists in the
 * call's scope, its table id, and the resource policies that apply to it (the bucket's, and the
 * table's when a table is named), in one statement. Not the policy API (settings.h): it neither
 * checks nor writes a document. And the table a warehouse bucket stores, for S3 calls on it.
 */
#ifndef FLOE_CATALOG_RESOURCE_POLICY_H
#define FLOE_CATALOG_RESOURCE_POLICY_H

#include <stdbool.h>

#include "call/call.h"

typedef struct floe_resource_policies {
    bool has_bucket;
    bool has_table;
    char *table_id;      /* the UUID in the table's ARN, when has_table */
    char *bucket_policy; /* the documents as stored, or NULL */
    char *table_policy;
} floe_resource_policies_t;

/**
 * The bucket `bucket` of the call's scope and, when `table_id` or both `namespace_` and `name` are
 * given, its table, with their policies, in the call's pool. FLOE_OK with has_bucket false when the
 * bucket is not there; FLOE_EFAIL (recorded) when SQLite fails.
 */
int floe_resource_policies_get(floe_call_t *call, const char *bucket, const char *namespace_, const char *name,
                               const char *table_id, floe_resource_policies_t *out /* OUT */);

/** The table whose warehouse bucket (its S3 storage) is `warehouse`, in any account. */
typedef struct floe_warehouse_table {
    char *arn; /* arn:aws:s3tables:<region>:<account>:bucket/<bucket>/table/<table id> */
    char *namespace_;
    char *name;
} floe_warehouse_table_t;

/**
 * The table behind the warehouse bucket `warehouse`, in the call's pool. FLOE_OK; FLOE_ENOTFOUND
 * when no table has it (an ordinary bucket, or a deleted table's); FLOE_EFAIL (recorded) when
 * SQLite fails.
 */
int floe_resource_table_of_warehouse(floe_call_t *call, const char *warehouse, floe_warehouse_table_t *out /* OUT */);

#endif
