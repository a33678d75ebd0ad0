/*
 * The new snapshot a maintenance job commits (compaction's `replace`, record expiration's
 * `delete`): its id and sequence number, its manifests (new ones, and old ones rewritten with some
 * files removed), its manifest list, and the add-snapshot and set-snapshot-ref updates that commit
 * it through floe_job_commit. Which files go in and the summary are the job's; how the snapshot is
 * written is here, once, so both jobs write manifests and manifest lists alike.
 *
 * Not for reading a snapshot, nor for the commit's compare-and-swap (job.h).
 *
 * Design notes:
 *  1. Snapshot ids are random, below 2^53 and unused by the table: JavaScript readers (icebird,
 *     iceberg-js) that parse metadata.json with JSON.parse keep them exact.
 *  2. Files go where Iceberg's writers put them, under the key prefix the job gives:
 *     "<dir>metadata/<uuid>-m0.avro" for a manifest, "<dir>metadata/snap-<id>-1-<uuid>.avro" for
 *     the manifest list.
 *  3. A rewritten manifest is what Iceberg's ManifestWriter writes: entries already DELETED are
 *     dropped, removed entries become DELETED in the new snapshot (keeping their sequence numbers),
 *     the others EXISTING, each with the snapshot id and sequence numbers it inherited written out,
 *     DELETED entries last. A list entry's min sequence number is its live entries' least.
 *  4. Format version 3 (row lineage): manifests are written as v3, so entries keep the first row id
 *     the job wrote out for them (row_lineage.h); a rewritten manifest has no first row id of its
 *     own, and the list gives its manifests without one ids from next-row-id (first-row-id,
 *     added-rows of the snapshot).
 */
#ifndef FLOE_MAINTENANCE_SNAPSHOT_WRITER_H
#define FLOE_MAINTENANCE_SNAPSHOT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_metadata.h"
#include "iceberg/manifest.h"
#include "maintenance/job.h"

/** The snapshot being written. Set up by floe_snapshot_writer_init; nothing to release. */
typedef struct floe_snapshot_writer {
    floe_job_t *job;
    const char *dir;              /* key prefix of its metadata/ files: "" or "<path>/" (borrowed) */
    int64_t id, parent_id, sequence_number;
    int32_t schema_id;
    bool is_v3;
    int64_t next_row_id;              /* v3: the table's next-row-id */
    int64_t first_row_id, added_rows; /* v3: set by floe_snapshot_write_list (design note 4) */
} floe_snapshot_writer_t;

/** A snapshot that follows `parent_id` in table `md` (the metadata the attempt read): a fresh id
 * (design note 1), the next sequence number, md's current schema and format version. */
void floe_snapshot_writer_init(floe_snapshot_writer_t *w, floe_job_t *job, const floe_iceberg_metadata_t *md,
                               int64_t parent_id, const char *dir);

/** Writes m as a manifest of the snapshot (design notes 2 and 4): *location (malloc'ed, the caller
 * frees) and *len its size. FLOE_EFAIL with the job's message set. */
int floe_snapshot_write_manifest(const floe_snapshot_writer_t *w, floe_iceberg_manifest_t *m,
                                 char **location /* OUT */, int64_t *len /* OUT */);

/** Counts m's entries (written in this snapshot) into its list entry mf: spec, content, file and row
 * counts by status, sequence numbers, the snapshot that added it. */
void floe_snapshot_count_entries(const floe_snapshot_writer_t *w, const floe_iceberg_manifest_t *m,
                                 floe_iceberg_manifest_file_t *mf);

/**
 * Rewrites manifest m (listed as mf; its entries in place) without the entries `removed[k]` says
 * go (design note 3), writes it, and fills *out: mf's list entry with the new manifest's path
 * (malloc'ed, the caller frees), length and counts, no first row id and no key metadata.
 */
int floe_snapshot_rewrite_manifest(const floe_snapshot_writer_t *w, floe_iceberg_manifest_t *m,
                                   const floe_iceberg_manifest_file_t *mf, const bool *removed,
                                   floe_iceberg_manifest_file_t *out /* OUT */);

/** Gives files[0..n) their first row ids on a v3 table (design note 4), then writes them as the
 * snapshot's manifest list: *location malloc'ed, the caller frees. */
int floe_snapshot_write_list(floe_snapshot_writer_t *w, floe_iceberg_manifest_file_t *files, size_t n,
                             char **location /* OUT */);

/** The updates that commit the snapshot whose list is at `list_location`: add-snapshot, with
 * `summary` (taken), and set-snapshot-ref of main. */
cJSON *floe_snapshot_updates(const floe_snapshot_writer_t *w, const char *list_location, cJSON *summary);

#endif
