/*
 * Checked statements for the catalog (sql.h): every bind and step result is looked at, and every
 * failure other than "no row" or a constraint the caller asked about becomes a 500.
 */
#include <assert.h>
#include <stdarg.h>
#include <string.h>

#include "catalog/sql.h"

static sqlite3_stmt *bind_va(floe_call_t *call, const char *sql, const char *types, va_list *ap)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);
    int rc;

    if (stmt == NULL) {
        floe_fail_internal(call, floe_state_errmsg(st));
        return NULL;
    }
    rc = floe_state_bind_va(stmt, types, ap);
    if (rc != SQLITE_OK) {
        floe_fail_internal(call, floe_state_errmsg(st));
        return NULL;
    }
    return stmt;
}

sqlite3_stmt *floe_sql_bind(floe_call_t *call, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *stmt = bind_va(call, sql, types, &ap);
    va_end(ap);
    return stmt;
}

int floe_sql_step(floe_call_t *call, sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return SQLITE_CONSTRAINT;
    floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    return FLOE_EFAIL;
}

int floe_sql_exec(floe_call_t *call, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *stmt = bind_va(call, sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return FLOE_EFAIL;
    int rc = floe_sql_step(call, stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return FLOE_OK;
    if (rc == SQLITE_ROW || rc == SQLITE_CONSTRAINT)
        floe_fail_internal(call, rc == SQLITE_ROW ? "statement returned a row" : "constraint failed");
    return FLOE_EFAIL;
}

char *floe_sql_text(floe_call_t *call, sqlite3_stmt *stmt, int col)
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    return text == NULL ? NULL : floe_call_strndup(call, (const char *)text, (size_t)sqlite3_column_bytes(stmt, col));
}
