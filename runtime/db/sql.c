/*
 * Checked statements (sql.h): every bind and step result is looked at; every failure other than
 * "no row" or a constraint kind the caller expects is logged and returned as FLOE_EFAIL, never as
 * a miss.
 */
#include <assert.h>
#include <stdarg.h>
#include <string.h>

#include <sqlite3.h>

#include "base/log.h"
#include "db/sql.h"

_Static_assert(FLOE_DB_ROW == SQLITE_ROW && FLOE_DB_DONE == SQLITE_DONE, "floe_db_step answers SQLite's codes");

static void log_failure(floe_state_t *st, sqlite3_stmt *stmt, const char *what)
{
    floe_log("sql: %s: %s: %s", what, sqlite3_sql(stmt), floe_state_errmsg(st));
}

int floe_db_constraint_kind(int xrc)
{
    switch (xrc) {
    case SQLITE_CONSTRAINT_UNIQUE:
    case SQLITE_CONSTRAINT_PRIMARYKEY: return FLOE_EUNIQUE;
    case SQLITE_CONSTRAINT_NOTNULL: return FLOE_ENOTNULL;
    case SQLITE_CONSTRAINT_FOREIGNKEY: return FLOE_EFOREIGNKEY;
    case SQLITE_CONSTRAINT_CHECK: return FLOE_ECHECK;
    default: return FLOE_EFAIL;
    }
}

/* The bit of floe_db_step's `expect` that admits constraint code `kind`. */
static unsigned expect_bit(int kind)
{
    switch (kind) {
    case FLOE_EUNIQUE: return FLOE_DB_UNIQUE;
    case FLOE_ENOTNULL: return FLOE_DB_NOTNULL;
    case FLOE_EFOREIGNKEY: return FLOE_DB_FOREIGNKEY;
    case FLOE_ECHECK: return FLOE_DB_CHECK;
    default: return FLOE_DB_NONE;
    }
}

sqlite3_stmt *floe_db_bind_va(floe_state_t *st, const char *sql, const char *types, va_list *ap)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);

    if (stmt == NULL)
        return NULL; /* floe_state_stmt logged why */
    if (floe_state_bind_va(stmt, types, ap) != SQLITE_OK) {
        log_failure(st, stmt, "cannot bind");
        return NULL;
    }
    return stmt;
}

sqlite3_stmt *floe_db_bind(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *stmt = floe_db_bind_va(st, sql, types, &ap);
    va_end(ap);
    return stmt;
}

int floe_db_step(floe_state_t *st, sqlite3_stmt *stmt, unsigned expect)
{
    int rc = sqlite3_step(stmt);
    int kind;

    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    /* sqlite3_step answers the primary code; the connection keeps the extended one. */
    kind = floe_db_constraint_kind(sqlite3_extended_errcode(sqlite3_db_handle(stmt)));
    if (kind != FLOE_EFAIL && (expect & expect_bit(kind)) != 0)
        return kind;
    log_failure(st, stmt, kind != FLOE_EFAIL ? "unexpected constraint" : "step failed");
    return FLOE_EFAIL;
}

int floe_db_exec(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    sqlite3_stmt *stmt;
    int rc;

    va_start(ap, types);
    stmt = floe_db_bind_va(st, sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_NONE);
    if (rc == SQLITE_ROW)
        log_failure(st, stmt, "returned a row");
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_db_probe(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    sqlite3_stmt *stmt;
    int rc;

    va_start(ap, types);
    stmt = floe_db_bind_va(st, sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_NONE);
    sqlite3_reset(stmt);
    return rc == SQLITE_ROW ? FLOE_OK : rc == SQLITE_DONE ? FLOE_ENOTFOUND : FLOE_EFAIL;
}

void floe_db_reset(sqlite3_stmt *stmt)
{
    sqlite3_reset(stmt);
}

int64_t floe_db_column_int64(sqlite3_stmt *stmt, int col)
{
    return sqlite3_column_int64(stmt, col);
}

int floe_db_column_int(sqlite3_stmt *stmt, int col)
{
    return sqlite3_column_int(stmt, col);
}

const char *floe_db_column_text(sqlite3_stmt *stmt, int col)
{
    return (const char *)sqlite3_column_text(stmt, col);
}

size_t floe_db_column_bytes(sqlite3_stmt *stmt, int col)
{
    return (size_t)sqlite3_column_bytes(stmt, col);
}

int floe_db_column_is_null(sqlite3_stmt *stmt, int col)
{
    return sqlite3_column_type(stmt, col) == SQLITE_NULL;
}

char *floe_db_text(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, int col)
{
    const char *text = floe_db_column_text(stmt, col);
    size_t n;
    char *copy;

    if (text == NULL)
        return NULL;
    n = floe_db_column_bytes(stmt, col);
    copy = h2o_mem_alloc_pool(pool, n + 1);
    memcpy(copy, text, n);
    copy[n] = '\0';
    return copy;
}

int floe_db_changes(floe_state_t *st)
{
    return sqlite3_changes(floe_state_db(st));
}

int64_t floe_db_last_insert_id(floe_state_t *st)
{
    return sqlite3_last_insert_rowid(floe_state_db(st));
}

int floe_db_in_transaction(floe_state_t *st)
{
    return !sqlite3_get_autocommit(floe_state_db(st));
}

int floe_db_begin_own(floe_state_t *st)
{
    assert(!floe_db_in_transaction(st)); /* no caller's transaction to join */
    return floe_state_begin(st);
}

int floe_db_begin(floe_state_t *st, int *is_own)
{
    *is_own = !floe_db_in_transaction(st);
    return *is_own ? floe_state_begin(st) : FLOE_OK;
}

int floe_db_commit(floe_state_t *st, int is_own)
{
    return is_own ? floe_state_commit(st) : FLOE_OK;
}

void floe_db_rollback(floe_state_t *st, int is_own)
{
    if (is_own)
        floe_state_rollback(st);
}
