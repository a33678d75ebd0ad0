/*
 * The one-row configurations a table bucket or a table owns (its policy, metrics, encryption,
 * ...): running a statement keyed by the owner's row id, and reading that owner's one row. These
 * are the steps every Get/Put/Delete of such a configuration repeats; handlers keep their SQL.
 */
#ifndef FLOE_OWNED_ROW_H
#define FLOE_OWNED_ROW_H

#include <stdint.h>

#include <sqlite3.h>

#include "call.h"

/** Runs `sql`, whose ?1 is the owner's row id and which returns no rows (an upsert or a delete).
 * FLOE_OK, or the call fails with InternalServerErrorException. */
int floe_owned_exec(floe_call_t *call, const char *sql, int64_t owner_id);

/**
 * Steps `sql` (?1 is the owner's row id) to its first row. Returns 1 with *stmt on the row (read its
 * columns before the next statement), 0 when there is none, or -1 when the call failed
 * (InternalServerErrorException).
 */
int floe_owned_row(floe_call_t *call, const char *sql, int64_t owner_id, sqlite3_stmt **stmt /* OUT */);

#endif
