/*
 * The one way catalog code runs a statement on behalf of a call: take the cached statement, bind
 * its parameters with every bind checked, step it, and turn any SQLite failure into the call's
 * InternalServerErrorException (a 500 in the service's own shape). "No row" is never an error
 * here: the caller decides what a miss means.
 *
 *   sqlite3_stmt *s = floe_sql_bind(call, sql_bucket_by_name, "t", name);
 *   if (s == NULL) return FLOE_EFAIL;                 // the call already failed: 500
 *   switch (floe_sql_step(call, s)) {
 *   case SQLITE_ROW: ...; break;
 *   case SQLITE_DONE: return floe_fail(call, FLOE_ERR_NotFoundException, ...);
 *   default: return FLOE_EFAIL;                        // 500, already recorded
 *   }
 */
#ifndef FLOE_CATALOG_SQL_H
#define FLOE_CATALOG_SQL_H

#include <stdint.h>

#include <sqlite3.h>

#include "http/call.h"
#include "catalog/state.h"

/**
 * The cached statement for `sql` (declared with FLOE_SQL) with parameters 1..n bound from the
 * variadic arguments, one letter of `types` each: 't' text (const char *, NULL binds NULL, bound
 * SQLITE_STATIC: it must outlive the statement's use), 'i' int64_t, 'n' int. Returns NULL after
 * failing the call with InternalServerErrorException if the statement cannot be had or a bind
 * fails.
 */
sqlite3_stmt *floe_sql_bind(floe_call_t *call, const char *sql, const char *types, ...);

/**
 * Steps `stmt`. Returns SQLITE_ROW, SQLITE_DONE, or SQLITE_CONSTRAINT (a UNIQUE, NOT NULL or
 * foreign key check refused the write: the caller answers with the modeled error it means, and the
 * call is not failed). Any other result fails the call with InternalServerErrorException and
 * returns FLOE_EFAIL.
 */
int floe_sql_step(floe_call_t *call, sqlite3_stmt *stmt);

/** floe_sql_bind then one floe_sql_step that must end the statement (SQLITE_DONE): FLOE_OK, or
 * FLOE_EFAIL with the call failed (a constraint failure counts as internal here). */
int floe_sql_exec(floe_call_t *call, const char *sql, const char *types, ...);

/** A copy of a text column in the call's pool (SQLite's copy dies with the next step); NULL for
 * SQL NULL. */
char *floe_sql_text(floe_call_t *call, sqlite3_stmt *stmt, int col);

#endif
