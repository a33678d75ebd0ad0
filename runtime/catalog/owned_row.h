/*
 * The one-row configurations a table bucket or a table owns (its policy, metrics, encryption,
 * ...): running a statement keyed by the owner's row id, and reading that owner's one row. The
 * two steps every Get, Put and Delete of such a configuration repeats, for the catalog files that
 * hold their SQL (settings.c and its siblings). Not for handlers: they call named functions.
 */
#ifndef FLOE_CATALOG_OWNED_ROW_H
#define FLOE_CATALOG_OWNED_ROW_H

#include <stdint.h>

#include "call/call.h"

/** Runs `sql` (declared with FLOE_SQL), whose only parameter ?1 is the owner's row id and which
 * returns no rows (an upsert or a delete). FLOE_OK, or FLOE_EFAIL with the call failed with
 * InternalServerErrorException. */
int floe_owned_exec(floe_call_t *call, const char *sql, int64_t owner_id);

/**
 * Steps `sql` (declared with FLOE_SQL; its only parameter ?1 is the owner's row id) to its first
 * row. Returns FLOE_OK with *stmt on the row (read its columns before the next statement; the
 * cache still owns it), FLOE_ENOTFOUND when there is none, or FLOE_EFAIL when the call failed
 * (InternalServerErrorException).
 */
int floe_owned_row(floe_call_t *call, const char *sql, int64_t owner_id, floe_db_stmt_t **stmt /* OUT */);

#endif
