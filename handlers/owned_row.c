/*
 * The owned-row steps of owned_row.h.
 */
#include "owned_row.h"
#include "catalog/state.h"

int floe_owned_exec(floe_call_t *call, const char *sql, int64_t owner_id)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, owner_id);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_owned_row(floe_call_t *call, const char *sql, int64_t owner_id, sqlite3_stmt **out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);
    int rc;

    if (stmt == NULL) {
        floe_fail_internal(call, floe_state_errmsg(st));
        return -1;
    }
    sqlite3_bind_int64(stmt, 1, owner_id);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        *out = stmt;
        return 1;
    }
    if (rc == SQLITE_DONE)
        return 0;
    floe_fail_internal(call, floe_state_errmsg(st));
    return -1;
}
