/*
 * Which snapshots snapshot management expires (icebergSnapshotManagement): a pure
 * function of a table's metadata, the job's settings and its clock, with Iceberg's ExpireSnapshots
 * rules (org.apache.iceberg.RemoveSnapshots in Iceberg Java 1.x), which AWS's user guide defers to:
 *
 *  1. Each branch keeps its head and its ancestors while fewer than min-snapshots-to-keep are kept
 *     or the ancestor is younger than max-snapshot-age (now - age); the branch's own
 *     "min-snapshots-to-keep" / "max-snapshot-age-ms" win over the job's settings.
 *  2. Each tag keeps the snapshot it names.
 *  3. A ref other than main whose snapshot is older than its "max-ref-age-ms" (or the table
 *     property history.expire.max-ref-age-ms) is removed, and keeps nothing.
 *  4. A snapshot no remaining ref reaches through its ancestry is kept while it is younger than
 *     max-snapshot-age.
 *  5. Everything else expires. The current snapshot never does.
 *
 * Not for files (reach.h) or commits (job.h).
 */
#ifndef FLOE_MAINTENANCE_SNAPSHOT_SELECT_H
#define FLOE_MAINTENANCE_SNAPSHOT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_metadata.h"

typedef struct floe_expire_plan {
    int64_t *expired;      /* snapshot ids, in the metadata's order; malloc'ed */
    size_t n_expired;
    char **refs_removed;   /* malloc'ed names */
    size_t n_refs_removed;
} floe_expire_plan_t;

/** Fills *out by rules 1-5 for `md` at `now_ms`. Release with floe_expire_plan_dispose. */
void floe_expire_select(const floe_iceberg_metadata_t *md, int32_t min_snapshots_to_keep, int64_t max_snapshot_age_ms,
                        int64_t now_ms, floe_expire_plan_t *out /* OUT */);

/** The REST updates that carry the plan out (remove-snapshot-ref..., remove-snapshots), or NULL
 * when it changes nothing. The caller owns the array. */
cJSON *floe_expire_updates(const floe_expire_plan_t *plan);

void floe_expire_plan_dispose(floe_expire_plan_t *plan);

#endif
