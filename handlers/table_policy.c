/*
 * TablePolicyResource: the resource policy attached to a table.
 *
 * The same rules as a table bucket's policy (table_bucket_policy.c): the document is stored as the
 * client sent it and given back byte for byte; runtime/policy.c checks that it is shaped like an
 * AWS policy; nothing evaluates it, so in Floe a policy grants and denies nothing. The model
 * limits it to 20480 characters (ResourcePolicy). The row lives in table_policy and goes with the
 * table (ON DELETE CASCADE).
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/policy.h"
#include "catalog/state.h"

/* The three table policy operations came with the same model version; each handler also names its own. */
#ifdef FLOE_HAS_OP_PutTablePolicy

#define POLICY_REASON_MAX 160

FLOE_SQL(sql_get_policy, "SELECT document FROM table_policy WHERE table_id = ?1");

FLOE_SQL(sql_put_policy,
    "INSERT INTO table_policy (table_id, document) VALUES (?1, ?2)"
    " ON CONFLICT (table_id) DO UPDATE SET document = excluded.document");

FLOE_SQL(sql_delete_policy, "DELETE FROM table_policy WHERE table_id = ?1");

#ifdef FLOE_HAS_OP_PutTablePolicy
int floe_handle_PutTablePolicy(floe_call_t *call, const floe_PutTablePolicyRequest *in, floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    char why[POLICY_REASON_MAX];
    floe_table_row_t table;
    sqlite3_stmt *stmt;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    if (floe_policy_check(in->resourcePolicy, why, sizeof(why)))
        return floe_fail(call, FLOE_ERR_BadRequestException, "%s", why);
    if ((stmt = floe_state_stmt(st, sql_put_policy)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table.id);
    sqlite3_bind_text(stmt, 2, in->resourcePolicy, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#ifdef FLOE_HAS_OP_GetTablePolicy
int floe_handle_GetTablePolicy(floe_call_t *call, const floe_GetTablePolicyRequest *in,
                               floe_GetTablePolicyResponse *out)
{
    floe_table_row_t table;
    sqlite3_stmt *stmt;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    switch (floe_owned_row(call, sql_get_policy, table.id, &stmt)) {
    case 1:
        out->resourcePolicy = floe_column_text(call, stmt, 0);
        return FLOE_OK;
    case 0:
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table policy does not exist.");
    default:
        return FLOE_EFAIL;
    }
}
#endif

#ifdef FLOE_HAS_OP_DeleteTablePolicy
/* Deleting a policy that is not there succeeds, as for a bucket: the table ends up without one
 * either way. */
int floe_handle_DeleteTablePolicy(floe_call_t *call, const floe_DeleteTablePolicyRequest *in, floe_Unit *out)
{
    floe_table_row_t table;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    return floe_owned_exec(call, sql_delete_policy, table.id);
}
#endif

#endif /* FLOE_HAS_OP_PutTablePolicy */
