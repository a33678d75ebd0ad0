/*
 * What every row file of the store (bucket.c, object.c, upload.c, recover.c) runs its SQL
 * through: the result codes store functions return, checked statements, column copies and the
 * transaction helpers that let a store function join a transaction its caller opened.
 *
 * The rule, as in catalog/sql.h: every bind and every step result is looked at, and a SQLite
 * failure other than "no row" (or a constraint the caller asked about) is FLOE_STORE_ERROR,
 * logged here with the statement, never FLOE_STORE_NOT_FOUND. runtime/s3/ answers
 * FLOE_STORE_ERROR with 500 InternalError, so a broken database never reads as NoSuchKey or
 * NoSuchBucket. Store functions take the thread's floe_state_t, not a floe_call_t (an S3 request
 * has none), so these helpers log a failure instead of recording it in a call.
 *
 *   sqlite3_stmt *s = floe_store_bind(st, sql_bucket_get, "t", name);
 *   if (s == NULL) return FLOE_STORE_ERROR;          // logged
 *   switch (floe_store_step(st, s)) {
 *   case SQLITE_ROW: ...; break;
 *   case SQLITE_DONE: return FLOE_STORE_NOT_FOUND;
 *   default: return FLOE_STORE_ERROR;                // logged
 *   }
 */
#ifndef FLOE_STORE_SQL_H
#define FLOE_STORE_SQL_H

#include <h2o/memory.h>
#include <sqlite3.h>

#include "catalog/state.h"
#include "store/blob.h"

typedef enum floe_store_rc {
    FLOE_STORE_OK = 0,
    FLOE_STORE_NOT_FOUND = 1,
    FLOE_STORE_EXISTS = 2,
    FLOE_STORE_CHANGED = 3, /* a row the caller read before the call was replaced meanwhile */
    FLOE_STORE_ERROR = -1
} floe_store_rc_t;

/**
 * The cached statement for `sql` (declared with FLOE_SQL) with parameters 1..n bound from the
 * variadic arguments, one letter of `types` each: 't' text (const char *; NULL binds SQL NULL;
 * SQLITE_STATIC, so it must outlive the statement's use), 'T' text SQLite copies, 'i' int64_t,
 * 'n' int. Returns NULL (logged) when the statement cannot be had or a bind fails.
 */
sqlite3_stmt *floe_store_bind(floe_state_t *st, const char *sql, const char *types, ...);

/**
 * Steps `stmt`: SQLITE_ROW, SQLITE_DONE, or SQLITE_CONSTRAINT (a UNIQUE, NOT NULL or foreign key
 * check refused the write; the caller decides what that means). Anything else is logged and -1
 * returned. The caller resets the statement either way.
 */
int floe_store_step(floe_state_t *st, sqlite3_stmt *stmt);

/** floe_store_bind, then one step that must end the statement (SQLITE_DONE), then a reset. 0, or
 * -1 (logged; a constraint failure counts as an error here). */
int floe_store_exec(floe_state_t *st, const char *sql, const char *types, ...);

/** Runs a statement that answers with a row or none ("SELECT 1 ... LIMIT 1"): FLOE_STORE_OK for a
 * row, FLOE_STORE_NOT_FOUND for none, FLOE_STORE_ERROR (logged) when SQLite fails. */
floe_store_rc_t floe_store_probe(floe_state_t *st, const char *sql, const char *types, ...);

/** Steps a bound statement whose column 0 is a file id to its end, adding every id to `files`,
 * then resets it. 0 or -1 (logged). */
int floe_store_collect_ids(floe_state_t *st, sqlite3_stmt *stmt, floe_store_ids_t *files);

/** A copy of text column `col` in `pool`, or NULL for SQL NULL. */
char *floe_store_column_dup(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, int col);
/** Copies a file-id column into a fixed buffer ("" for SQL NULL: a LEFT JOIN that found nothing). */
void floe_store_column_id(sqlite3_stmt *stmt, int col, char out[FLOE_STORE_ID_LEN + 1] /* OUT */);

/**
 * Begins the transaction of a store mutation that removes files after its COMMIT (design note 3
 * in store.c), so it must be its own: the caller holds no transaction. 0 or -1 (logged).
 */
int floe_store_begin_own(floe_state_t *st);
/** Begins a write transaction, or joins the caller's: *is_own tells whether one was begun (1) or
 * the caller's joined (0). 0 or -1. */
int floe_store_begin(floe_state_t *st, int *is_own /* OUT */);
/** Commits a transaction begun by floe_store_begin, when it is ours. 0 or -1. */
int floe_store_commit(floe_state_t *st, int is_own);
/** Rolls back a transaction begun by floe_store_begin, when it is ours. */
void floe_store_rollback(floe_state_t *st, int is_own);

#endif
