/*
 * db/sql.h's checked statements for code that serves a call (call_sql.h): db/sql.c does the
 * checking and logging, this records a failure inside on the call.
 */
#include <stdarg.h>

#include "call/call_sql.h"

floe_db_stmt_t *floe_sql_bind(floe_call_t *call, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    floe_db_stmt_t *stmt = floe_db_bind_va(floe_call_state(call), sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    return stmt;
}

int floe_sql_step(floe_call_t *call, floe_db_stmt_t *stmt, unsigned expect)
{
    int rc = floe_db_step(floe_call_state(call), stmt, expect);
    if (rc == FLOE_EFAIL)
        floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    return rc;
}

int floe_sql_exec(floe_call_t *call, const char *sql, const char *types, ...)
{
    va_list ap;
    floe_db_stmt_t *stmt;
    int rc;

    va_start(ap, types);
    stmt = floe_db_bind_va(floe_call_state(call), sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    floe_db_reset(stmt);
    if (rc == FLOE_DB_ROW)
        return floe_fail_internal(call, "statement returned a row");
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_sql_write(floe_call_t *call, floe_db_stmt_t *stmt)
{
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    floe_db_reset(stmt);
    if (rc == FLOE_DB_ROW)
        return floe_fail_internal(call, "a write statement returned a row");
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    return floe_db_changes(floe_call_state(call)) > 0 ? FLOE_OK : FLOE_ENOTFOUND;
}

int floe_sql_read_one(floe_call_t *call, floe_db_stmt_t *stmt,
                      void (*read)(floe_call_t *call, floe_db_stmt_t *stmt, void *out), void *out)
{
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW && read != NULL)
        read(call, stmt, out);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL; /* the call already holds its 500 */
    return rc == FLOE_DB_ROW ? FLOE_OK : FLOE_ENOTFOUND;
}

char *floe_sql_text(floe_call_t *call, floe_db_stmt_t *stmt, int col)
{
    const char *text = floe_db_column_text(stmt, col);
    return text == NULL ? NULL : floe_call_strndup(call, text, floe_db_column_bytes(stmt, col));
}
