/*
 * The owned-row steps of owned_row.h, on the checked statements of sql.h: a SQLite failure is a
 * 500, never "no row".
 */
#include "call/call_sql.h"
#include "catalog/owned_row.h"

int floe_owned_exec(floe_call_t *call, const char *sql, int64_t owner_id)
{
    return floe_sql_exec(call, sql, "i", owner_id);
}

int floe_owned_row(floe_call_t *call, const char *sql, int64_t owner_id, floe_db_stmt_t **out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql, "i", owner_id);

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_sql_step(call, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW:
        *out = stmt;
        return FLOE_OK;
    case FLOE_DB_DONE:
        return FLOE_ENOTFOUND;
    default:
        return FLOE_EFAIL;
    }
}
