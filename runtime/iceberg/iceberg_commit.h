/*
 * The Iceberg REST catalog's commit: check a CommitTableRequest's requirements against the
 * table's current metadata, apply its updates in order, and produce the next metadata.json
 * (the REST catalog spec's "Commits"). The REST layer then stores the text under the name
 * floe_iceberg_metadata_next_file_name gives and swaps the table's pointer with the same
 * compare-and-swap as UpdateTableMetadataLocation.
 *
 * Not for HTTP or storage: this is pure computation over text and cJSON.
 *
 * Design notes
 * ------------
 * A commit is one transaction over a private copy of the metadata:
 *
 *     current_json --parse--> base --requirements--> base --updates 1..n--> result --finish--> text
 *       (ECORRUPT)        (EINVALID if malformed,     (EINVALID)          (metadata-log,
 *                           ECONFLICT if failed)                            snapshot-log,
 *                                                                            last-updated-ms)
 *
 * Invariants:
 *   1. All requirements are checked against the metadata as it was before any update, as the
 *      REST spec requires; the first failing one is reported. A malformed requirement is
 *      EINVALID even if an earlier one would fail.
 *   2. Nothing is returned unless every update applied: *json_out is set only on success.
 *   3. On success last-updated-ms = max(now_ms, the base's last-updated-ms), so the logs stay
 *      ordered even if the clock steps back; the base's location is appended to metadata-log
 *      with the base's last-updated-ms (Java's addPreviousFile), and the log is trimmed to
 *      the table property write.metadata.previous-versions-max (default 100).
 *   4. Snapshot-log: each move of main appends {now, snapshot}; at the end, entries for
 *      snapshots this commit added but did not leave current are dropped, and if snapshots were
 *      removed, history before the last entry whose snapshot is gone is dropped (Java's
 *      updateSnapshotLog).
 *   5. A create (current_json == NULL) starts from an empty table whose format version is that of
 *      the first upgrade-format-version update, else 2 (Java's CatalogHandlers.create), and whose
 *      current schema, default spec and default sort order ids are 0 (Java's Builder defaults);
 *      at the end it must have a schema, gets an unpartitioned spec and unsorted order if none
 *      was added, a random UUID if none was assigned, and create_location if no set-location
 *      was sent.
 */
#ifndef FLOE_ICEBERG_COMMIT_H
#define FLOE_ICEBERG_COMMIT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"

/** Default of write.metadata.previous-versions-max (Java's TableProperties). */
#define FLOE_ICEBERG_PREVIOUS_VERSIONS_MAX_DEFAULT 100

/** What one table commit needs. Strings and trees are borrowed for the call. */
typedef struct floe_iceberg_commit_input {
    const char *current_json;     /* the table's current metadata.json text, or NULL to create it */
    const char *current_location; /* where current_json is stored; appended to metadata-log (NULL: not logged) */
    const cJSON *requirements;    /* array of TableRequirement, or NULL for none */
    const cJSON *updates;         /* array of TableUpdate (NULL is treated as empty) */
    const char *create_location;  /* a create's location when no set-location update gives one; may be NULL */
    int64_t now_ms;               /* the commit's wall-clock time */
} floe_iceberg_commit_input_t;

/**
 * Runs one commit as described in the design notes. Requirements and updates are the arrays of
 * the REST spec's CommitTableRequest; parse the request body with floe_iceberg_json_parse so
 * 64-bit snapshot ids arrive exact (a number that lost precision is refused as EINVALID).
 *
 * Returns FLOE_ICEBERG_OK with *json_out set to the new metadata.json (malloc'ed, the caller
 * frees), or, with err set and *json_out untouched:
 *   FLOE_ICEBERG_ECONFLICT  a requirement failed (REST: 409 CommitFailedException);
 *   FLOE_ICEBERG_EINVALID   a malformed requirement, an unknown or invalid update (400);
 *   FLOE_ICEBERG_ECORRUPT   current_json cannot be read (500).
 */
int floe_iceberg_commit(const floe_iceberg_commit_input_t *in, char **json_out /* OUT */,
                        floe_iceberg_error_t *err /* OUT */);

#endif
