/*
 * Checked statements for the store (sql.h): every bind and step result is looked at, and every
 * failure other than "no row" or a constraint the caller asked about is logged and reported as an
 * error, never as a miss.
 */
#include <assert.h>
#include <stdarg.h>
#include <string.h>

#include "http/log.h"
#include "store/sql.h"

static void log_failure(floe_state_t *st, sqlite3_stmt *stmt, const char *what)
{
    floe_log("store: %s: %s: %s", what, sqlite3_sql(stmt), floe_state_errmsg(st));
}

static sqlite3_stmt *bind_va(floe_state_t *st, const char *sql, const char *types, va_list *ap)
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

sqlite3_stmt *floe_store_bind(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *stmt = bind_va(st, sql, types, &ap);
    va_end(ap);
    return stmt;
}

int floe_store_step(floe_state_t *st, sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);

    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return SQLITE_CONSTRAINT;
    log_failure(st, stmt, "step failed");
    return -1;
}

int floe_store_exec(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    sqlite3_stmt *stmt;
    int rc;

    va_start(ap, types);
    stmt = bind_va(st, sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return -1;
    rc = floe_store_step(st, stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return 0;
    if (rc == SQLITE_ROW || rc == SQLITE_CONSTRAINT)
        log_failure(st, stmt, rc == SQLITE_ROW ? "returned a row" : "constraint failed");
    return -1;
}

floe_store_rc_t floe_store_probe(floe_state_t *st, const char *sql, const char *types, ...)
{
    va_list ap;
    sqlite3_stmt *stmt;
    int rc;

    va_start(ap, types);
    stmt = bind_va(st, sql, types, &ap);
    va_end(ap);
    if (stmt == NULL)
        return FLOE_STORE_ERROR;
    rc = floe_store_step(st, stmt);
    sqlite3_reset(stmt);
    assert(rc != SQLITE_CONSTRAINT); /* a probe reads, it never writes */
    return rc == SQLITE_ROW ? FLOE_STORE_OK : rc == SQLITE_DONE ? FLOE_STORE_NOT_FOUND : FLOE_STORE_ERROR;
}

int floe_store_collect_ids(floe_state_t *st, sqlite3_stmt *stmt, floe_store_ids_t *files)
{
    char id[FLOE_STORE_ID_LEN + 1];
    int rc;

    while ((rc = floe_store_step(st, stmt)) == SQLITE_ROW) {
        floe_store_column_id(stmt, 0, id);
        floe_store_ids_add(files, id);
    }
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

char *floe_store_column_dup(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, int col)
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    size_t n;
    char *copy;

    if (text == NULL)
        return NULL;
    n = (size_t)sqlite3_column_bytes(stmt, col);
    copy = h2o_mem_alloc_pool(pool, n + 1);
    memcpy(copy, text, n);
    copy[n] = '\0';
    return copy;
}

void floe_store_column_id(sqlite3_stmt *stmt, int col, char out[FLOE_STORE_ID_LEN + 1])
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    size_t n = text != NULL ? (size_t)sqlite3_column_bytes(stmt, col) : 0;

    assert(text == NULL || n == FLOE_STORE_ID_LEN); /* a row names only ids blob.c made */
    if (n > FLOE_STORE_ID_LEN)
        n = FLOE_STORE_ID_LEN;
    memcpy(out, text != NULL ? (const char *)text : "", n);
    out[n] = '\0';
}

int floe_store_begin_own(floe_state_t *st)
{
    assert(sqlite3_get_autocommit(floe_state_db(st))); /* no caller's transaction to join */
    return floe_state_begin(st);
}

int floe_store_begin(floe_state_t *st, int *is_own)
{
    *is_own = sqlite3_get_autocommit(floe_state_db(st));
    return *is_own ? floe_state_begin(st) : 0;
}

int floe_store_commit(floe_state_t *st, int is_own)
{
    return is_own ? floe_state_commit(st) : 0;
}

void floe_store_rollback(floe_state_t *st, int is_own)
{
    if (is_own)
        floe_state_rollback(st);
}
