/*
 * A snapshot's counts computed from its manifests, for a snapshot whose summary lacks them: the
 * spec requires only `operation` in a summary (DuckDB 1.4 writes no more), while Iceberg Java's
 * SnapshotSummary also writes added and deleted files and records and the table's totals. The
 * console shows these in place of the summary's.
 *
 * Pure: the caller reads the snapshot's manifest list and each manifest it names (it may share a
 * manifest's totals between the snapshots that list it) and adds them up here.
 *
 * A manifest's ADDED and DELETED entries are the work of the snapshot that wrote the manifest
 * (the list entry's added_snapshot_id): later snapshots carry the manifest unchanged, so they
 * count its live entries in their totals only.
 */
#ifndef FLOE_ICEBERG_SNAPSHOT_COUNTS_H
#define FLOE_ICEBERG_SNAPSHOT_COUNTS_H

#include <stdint.h>

#include "base/json.h"
#include "iceberg/manifest.h"

/** Files and the rows they hold, by content. files_size counts data and delete files. */
typedef struct floe_iceberg_file_counts {
    int64_t data_files, delete_files, records, files_size, position_deletes, equality_deletes;
} floe_iceberg_file_counts_t;

/** One manifest's entries: live (ADDED and EXISTING), ADDED, and DELETED. */
typedef struct floe_iceberg_manifest_counts {
    floe_iceberg_file_counts_t live, added, removed;
} floe_iceberg_manifest_counts_t;

/** What a snapshot added and removed, and the live files it leaves. */
typedef struct floe_iceberg_snapshot_counts {
    floe_iceberg_file_counts_t added, removed, total;
} floe_iceberg_snapshot_counts_t;

/** Counts m's entries into *out (zeroed first). */
void floe_iceberg_manifest_counts(const floe_iceberg_manifest_t *m, floe_iceberg_manifest_counts_t *out /* OUT */);

/** Adds a manifest of snapshot `snapshot_id`'s list (`listed`, its list entry; `counts`, its
 * entries) to that snapshot's counts. */
void floe_iceberg_snapshot_counts_add(floe_iceberg_snapshot_counts_t *s, int64_t snapshot_id,
                                      const floe_iceberg_manifest_file_t *listed,
                                      const floe_iceberg_manifest_counts_t *counts);

/** Writes the counts as the members of an Iceberg summary ("added-data-files": "1", ...), with
 * Iceberg Java's keys and its text values, into the JSON object json is inside. */
void floe_iceberg_snapshot_counts_write(floe_json_t *json, const floe_iceberg_snapshot_counts_t *s);

#endif
