/*
 * TableBucketPolicyResource: the resource policy attached to a table bucket.
 *
 * The document is stored as the client sent it and given back byte for byte. runtime/policy.c
 * checks that it is shaped like an AWS policy; nothing evaluates it, so in Floe a policy grants
 * and denies nothing. The model limits it to 20480 characters (ResourcePolicy).
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/policy.h"
#include "catalog/state.h"

/* The three bucket policy operations came with the same model version; each handler also names its own. */
#ifdef FLOE_HAS_OP_PutTableBucketPolicy

#define POLICY_REASON_MAX 160

FLOE_SQL(sql_get_policy, "SELECT document FROM table_bucket_policy WHERE table_bucket_id = ?1");

FLOE_SQL(sql_put_policy,
    "INSERT INTO table_bucket_policy (table_bucket_id, document) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET document = excluded.document");

FLOE_SQL(sql_delete_policy, "DELETE FROM table_bucket_policy WHERE table_bucket_id = ?1");

#ifdef FLOE_HAS_OP_PutTableBucketPolicy
int floe_handle_PutTableBucketPolicy(floe_call_t *call, const floe_PutTableBucketPolicyRequest *in, floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    char why[POLICY_REASON_MAX];
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    if (floe_policy_check(in->resourcePolicy, why, sizeof(why)))
        return floe_fail(call, FLOE_ERR_BadRequestException, "%s", why);
    if ((stmt = floe_state_stmt(st, sql_put_policy)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket.id);
    sqlite3_bind_text(stmt, 2, in->resourcePolicy, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#ifdef FLOE_HAS_OP_GetTableBucketPolicy
int floe_handle_GetTableBucketPolicy(floe_call_t *call, const floe_GetTableBucketPolicyRequest *in,
                                     floe_GetTableBucketPolicyResponse *out)
{
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    switch (floe_owned_row(call, sql_get_policy, bucket.id, &stmt)) {
    case 1:
        out->resourcePolicy = floe_column_text(call, stmt, 0);
        return FLOE_OK;
    case 0:
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified bucket policy does not exist.");
    default:
        return FLOE_EFAIL;
    }
}
#endif

#ifdef FLOE_HAS_OP_DeleteTableBucketPolicy
/* Deleting a policy that is not there succeeds: the bucket ends up without one either way. */
int floe_handle_DeleteTableBucketPolicy(floe_call_t *call, const floe_DeleteTableBucketPolicyRequest *in,
                                        floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_owned_exec(call, sql_delete_policy, bucket.id);
}
#endif

#endif /* FLOE_HAS_OP_PutTableBucketPolicy */
