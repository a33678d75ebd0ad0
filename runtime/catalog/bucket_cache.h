/*
 * Table bucket rows as floe_lookup_bucket reads them (lookup.h), kept in memory by the ARN that
 * names them, so a call that names a bucket (GetTableBucket, and every bucket operation before
 * it acts) does not start a SQLite read for a row no commit has changed. Each row is kept with
 * the policy generation (db/state.h) it was read at and used only while that is still the
 * generation: creating, deleting or updating a table bucket, on any connection, moves it once the
 * commit is in the WAL and before the writer answers, so the next lookup reads the row again.
 */
#ifndef FLOE_CATALOG_BUCKET_CACHE_H
#define FLOE_CATALOG_BUCKET_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"
#include "catalog/rows.h"

/** The generation a read made now is current at (the one to keep its row with); false when the
 * call holds a snapshot already, which may be older than that or hold its own uncommitted
 * changes: then the cache is neither read nor filled. */
bool floe_bucket_cache_generation(floe_call_t *call, uint64_t *generation /* OUT */);

/** Fills `out` (strings in the call's pool) with the row of the bucket `arn` names, `name` in the
 * call's scope, if one read at `generation` is kept: true; false on a miss. */
bool floe_bucket_cache_find(floe_call_t *call, const char *arn, char *name, uint64_t generation,
                            floe_bucket_row_t *out /* OUT */);

/** Keeps `row` (its arn the key), read at `generation`, replacing what its slot held. */
void floe_bucket_cache_keep(const floe_bucket_row_t *row, uint64_t generation);

#endif
