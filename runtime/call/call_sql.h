/*
 * The checked-statement layer (db/sql.h) for code that serves a call (catalog/, the stack store):
 * the same binds and steps, with a failure inside recorded on the call as its
 * failure inside (FLOE_EFAIL: a 500 in the protocol's own shape) besides being logged. "No row" is
 * never an error here: the caller decides what a miss means. Not a second layer: every function
 * is db/sql.h's plus the record on the call.
 *
 *   floe_db_stmt_t *s = floe_sql_bind(call, sql_bucket_by_name, "t", name);
 *   if (s == NULL) return FLOE_EFAIL;                 // the call already failed: 500
 *   switch (floe_sql_step(call, s, FLOE_DB_NONE)) {
 *   case FLOE_DB_ROW: ...; break;
 *   case FLOE_DB_DONE: return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_TABLE, ...);
 *   default: return FLOE_EFAIL;                        // 500, already recorded
 *   }
 */
#ifndef FLOE_CALL_SQL_H
#define FLOE_CALL_SQL_H

#include <stdint.h>

#include "call/call.h"
#include "db/sql.h"

/** floe_db_bind on the call's connection; NULL after failing the call with
 * a failure inside (FLOE_EFAIL). */
floe_db_stmt_t *floe_sql_bind(floe_call_t *call, const char *sql, const char *types, ...);

/**
 * floe_db_step on the call's connection: FLOE_DB_ROW, FLOE_DB_DONE, the code of a constraint kind in
 * `expect` (FLOE_EUNIQUE, ...; the call is not failed: the caller answers with the modeled error it
 * means), or FLOE_EFAIL with a failure inside recorded on the call (any other kind).
 */
int floe_sql_step(floe_call_t *call, floe_db_stmt_t *stmt, unsigned expect);

/** floe_db_exec on the call's connection: FLOE_OK, or FLOE_EFAIL with the call failed. */
int floe_sql_exec(floe_call_t *call, const char *sql, const char *types, ...);

/**
 * Steps a bound write (`stmt` from floe_sql_bind; NULL when binding failed the call): FLOE_OK when
 * it changed a row, FLOE_ENOTFOUND when it changed none (an insert that found its row taken, a
 * delete or update that found nothing), or FLOE_EFAIL with the call failed.
 */
int floe_sql_write(floe_call_t *call, floe_db_stmt_t *stmt);

/**
 * Steps a bound read of at most one row (`stmt` from floe_sql_bind; NULL when binding failed the
 * call): FLOE_OK after `read(call, stmt, out)` read the row (`read` NULL: whether there is one),
 * FLOE_ENOTFOUND when there is none, or
 * FLOE_EFAIL with the call failed. The statement is reset either way.
 */
int floe_sql_read_one(floe_call_t *call, floe_db_stmt_t *stmt,
                      void (*read)(floe_call_t *call, floe_db_stmt_t *stmt, void *out), void *out);

/** A copy of a text column in the call's pool (SQLite's copy dies with the next step); NULL for
 * SQL NULL. */
char *floe_sql_text(floe_call_t *call, floe_db_stmt_t *stmt, int col);

#endif
