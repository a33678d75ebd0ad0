/*
 * The one checked-statement layer: how every file that owns a table (catalog/, store/,
 * cloudformation/stack_store.c) binds and steps its SQL. Every bind and every step result is looked
 * at; a SQLite failure other than "no row" is logged here with its statement and returned as
 * FLOE_EFAIL, never as a miss, so a broken database never reads as "not found" or "the name is free".
 *
 * Constraints keep their kind. SQLite's extended result code tells a UNIQUE (or PRIMARY KEY) from a
 * NOT NULL, a FOREIGN KEY and a CHECK refusal; a caller names the kinds it expects
 * (FLOE_DB_UNIQUE, ...) and gets that kind's code (FLOE_EUNIQUE, ...) to turn into its modeled
 * error. Any kind it did not expect is a failure inside (FLOE_EFAIL, logged): a 500.
 *
 * Functions here take the thread's connection (db/state.h), not a call: an S3 request and a
 * background job have none. call_sql.h is the same layer for code that serves a call: it records
 * the failure on the call. They are the only way to SQLite outside db/: a row's columns, the rows
 * a write changed and the id it inserted are read here too, so no other wing includes <sqlite3.h>.
 *
 *   floe_db_stmt_t *s = floe_db_bind(st, sql_bucket_get, "t", name);
 *   if (s == NULL) return FLOE_EFAIL;                      // logged
 *   switch (floe_db_step(st, s, FLOE_DB_NONE)) {
 *   case FLOE_DB_ROW: id = floe_db_column_int64(s, 0); break;
 *   case FLOE_DB_DONE: return FLOE_ENOTFOUND;
 *   default: return FLOE_EFAIL;                            // logged
 *   }
 */
#ifndef FLOE_DB_SQL_H
#define FLOE_DB_SQL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>

#include "base/failure.h"
#include "db/state.h"

/* What floe_db_step answers besides the house codes (SQLite's SQLITE_ROW and SQLITE_DONE). */
#define FLOE_DB_ROW 100  /* the statement is on a row: read its columns */
#define FLOE_DB_DONE 101 /* the statement ran to its end */

/* The constraint kinds a caller may expect from a write (a bit set). */
#define FLOE_DB_NONE 0u
#define FLOE_DB_UNIQUE (1u << 0)     /* UNIQUE or PRIMARY KEY: answered FLOE_EUNIQUE */
#define FLOE_DB_NOTNULL (1u << 1)    /* answered FLOE_ENOTNULL */
#define FLOE_DB_FOREIGNKEY (1u << 2) /* answered FLOE_EFOREIGNKEY */
#define FLOE_DB_CHECK (1u << 3)      /* answered FLOE_ECHECK */

/**
 * The kind of a failed step's extended result code `xrc`: FLOE_EUNIQUE, FLOE_ENOTNULL,
 * FLOE_EFOREIGNKEY or FLOE_ECHECK for those constraints, FLOE_EFAIL for anything else (another
 * constraint, such as a trigger's, or no constraint at all).
 */
int floe_db_constraint_kind(int xrc);

/**
 * The cached statement for `sql` (declared with FLOE_SQL) with parameters 1..n bound from the
 * variadic arguments, one letter of `types` each: 't' text (const char *; NULL binds SQL NULL;
 * SQLITE_STATIC, so it must outlive the statement's use), 'T' text SQLite copies, 'i' int64_t,
 * 'n' int. Returns NULL (logged) when the statement cannot be had or a bind fails.
 */
floe_db_stmt_t *floe_db_bind(floe_state_t *st, const char *sql, const char *types, ...);
/** floe_db_bind with the arguments in `ap`. */
floe_db_stmt_t *floe_db_bind_va(floe_state_t *st, const char *sql, const char *types, va_list *ap);

/**
 * Steps `stmt`: FLOE_DB_ROW, FLOE_DB_DONE, the code of a constraint kind in `expect` that refused
 * the write (FLOE_EUNIQUE, ...), or FLOE_EFAIL (logged) for anything else, including a constraint
 * kind the caller did not expect. The caller resets the statement either way.
 */
int floe_db_step(floe_state_t *st, floe_db_stmt_t *stmt, unsigned expect);

/** Resets `stmt` for its next use, ending its read of the database (floe_state_stmt also resets a
 * statement it hands out). */
void floe_db_reset(floe_db_stmt_t *stmt);

/** floe_db_bind, then one step that must end the statement (SQLITE_DONE), then a reset: FLOE_OK, or
 * FLOE_EFAIL (logged; a row or any constraint counts as a failure here). */
int floe_db_exec(floe_state_t *st, const char *sql, const char *types, ...);

/** Runs a statement that answers with a row or none ("SELECT 1 ... LIMIT 1"), then resets it:
 * FLOE_OK for a row, FLOE_ENOTFOUND for none, FLOE_EFAIL (logged) when SQLite fails. */
int floe_db_probe(floe_state_t *st, const char *sql, const char *types, ...);

/* The columns of the row a step answered FLOE_DB_ROW for, from 0 on, as SQLite converts them. */

/** Integer column `col` (0 for SQL NULL). */
int64_t floe_db_column_int64(floe_db_stmt_t *stmt, int col);
/** Integer column `col` as an int (0 for SQL NULL): for flags and small counts. */
int floe_db_column_int(floe_db_stmt_t *stmt, int col);
/** Text column `col`, NUL-terminated, or NULL for SQL NULL (or when SQLite runs out of memory). The
 * text is SQLite's: it dies with the next step or reset of the statement. */
const char *floe_db_column_text(floe_db_stmt_t *stmt, int col);
/** The length in bytes of text column `col`, after floe_db_column_text. */
size_t floe_db_column_bytes(floe_db_stmt_t *stmt, int col);
/** Whether column `col` is SQL NULL. */
int floe_db_column_is_null(floe_db_stmt_t *stmt, int col);
/** A copy of text column `col` in `pool` (SQLite's copy dies with the next step), or NULL for SQL
 * NULL. */
char *floe_db_text(h2o_mem_pool_t *pool, floe_db_stmt_t *stmt, int col);

/** The number of rows the connection's last finished INSERT, UPDATE or DELETE changed. */
int floe_db_changes(floe_state_t *st);
/** The row id of the connection's last successful INSERT. */
int64_t floe_db_last_insert_id(floe_state_t *st);
/** Whether a transaction is open on the connection. */
int floe_db_in_transaction(floe_state_t *st);

/**
 * Begins the transaction of a mutation that must be its own (the store's, which removes files after
 * its COMMIT: design note 3 in store/store.c): the caller holds no transaction. FLOE_OK or
 * FLOE_EFAIL (logged).
 */
int floe_db_begin_own(floe_state_t *st);
/** Begins a write transaction, or joins the caller's: *is_own tells whether one was begun (1) or
 * the caller's joined (0). FLOE_OK or FLOE_EFAIL (logged). */
int floe_db_begin(floe_state_t *st, int *is_own /* OUT */);
/** Commits a transaction begun by floe_db_begin, when it is ours. FLOE_OK or FLOE_EFAIL. */
int floe_db_commit(floe_state_t *st, int is_own);
/** Rolls back a transaction begun by floe_db_begin, when it is ours. */
void floe_db_rollback(floe_state_t *st, int is_own);

#endif
