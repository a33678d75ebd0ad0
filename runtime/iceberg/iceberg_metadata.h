/*
 * Apache Iceberg table metadata (metadata.json) in memory: read from text, written back as
 * canonical text, and the small accessors the catalog needs. This is the one place that knows the
 * file's layout; S3 Tables CreateTable (iceberg_create.h) and REST catalog commits
 * (iceberg_commit.h) both build on it. Reference: Iceberg table spec, "Table Metadata" and
 * "Table Metadata Fields"; REST spec schema TableMetadata.
 *
 * Format versions 1, 2 and 3 are read; 4 and later are refused. New tables are written as v2
 * unless their creator asks for another version; a v1 table stays v1 (with the v1 "schema" and
 * "partition-spec" members written too) until an upgrade-format-version update. A v3 table also
 * carries next-row-id (row lineage: the first row id the next snapshot's new rows take).
 *
 * Not for storage (the caller reads and writes the file) nor for choosing file locations beyond
 * floe_iceberg_metadata_next_file_name.
 *
 * Design notes
 * ------------
 * Scalars that commits reason about are C members; everything with open-ended content (schemas,
 * specs, sort orders, snapshots, refs, logs, statistics) is a cJSON subtree kept as read, so
 * members Floe does not know (a snapshot's summary, first-row-id, a schema's doc strings) survive
 * a read-modify-write unchanged. Unknown top-level members are kept in `extra` and written after
 * the known ones, in the order they were read. Integers are exact (iceberg_json.h).
 *
 * Invariants of a floe_iceberg_metadata_t that floe_iceberg_metadata_parse returned (and that
 * floe_iceberg_commit keeps):
 *   1. Every cJSON member is non-NULL and of its container type (arrays and objects as below).
 *   2. schemas holds one entry per schema-id and one of them is current_schema_id; likewise
 *      partition_specs/default_spec_id (each spec's fields carry field-ids) and
 *      sort_orders/default_sort_order_id.
 *   3. Snapshot ids are unique; every ref names an existing snapshot; current_snapshot_id is
 *      FLOE_ICEBERG_NO_SNAPSHOT or the snapshot refs["main"] names.
 *   4. table_uuid is non-NULL when format_version is 2 or more; last_sequence_number is 0 in v1;
 *      next_row_id is 0 before v3 and never negative.
 *
 * Serialization order is Java's TableMetadataParser order: format-version, table-uuid, location,
 * last-sequence-number (v2+), next-row-id (v3), last-updated-ms, last-column-id, [schema (v1)], current-schema-id,
 * schemas, [partition-spec (v1)], default-spec-id, partition-specs, last-partition-id,
 * default-sort-order-id, sort-orders, properties, current-snapshot-id (-1 when none, which every
 * reader accepts), refs, snapshots, statistics, partition-statistics, snapshot-log, metadata-log,
 * then the unknown members. Parse then serialize is a fixed point after the first round.
 */
#ifndef FLOE_ICEBERG_METADATA_H
#define FLOE_ICEBERG_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"

/** current_snapshot_id of a table without a current snapshot (the file says -1 or null). */
#define FLOE_ICEBERG_NO_SNAPSHOT (-1)
/** The format version Floe writes for new tables unless asked for another. */
#define FLOE_ICEBERG_FORMAT_VERSION 2
/** The highest format version Floe reads, creates and upgrades to. */
#define FLOE_ICEBERG_FORMAT_VERSION_MAX 3
/** The first format version with row lineage (next-row-id, first-row-id, added-rows). */
#define FLOE_ICEBERG_ROW_LINEAGE_VERSION 3
/** The branch whose head is the table's current snapshot. */
#define FLOE_ICEBERG_MAIN_BRANCH "main"

typedef struct floe_iceberg_metadata {
    int format_version; /* 1, 2 or 3 */
    char *table_uuid;   /* malloc'ed; NULL only in a v1 file without one */
    char *location;     /* malloc'ed */
    int64_t last_sequence_number;
    int64_t next_row_id; /* v3: the first row id of the next snapshot's added rows; 0 before */
    int64_t last_updated_ms;
    int32_t last_column_id;
    int32_t current_schema_id;
    int32_t default_spec_id;
    int32_t last_partition_id;
    int32_t default_sort_order_id;
    int64_t current_snapshot_id; /* FLOE_ICEBERG_NO_SNAPSHOT when none */
    cJSON *schemas;              /* array of Schema objects with "schema-id" */
    cJSON *partition_specs;      /* array of {spec-id, fields} */
    cJSON *sort_orders;          /* array of {order-id, fields} */
    cJSON *properties;           /* object of string values */
    cJSON *snapshots;            /* array of Snapshot objects, kept verbatim */
    cJSON *refs;                 /* object: ref name -> {snapshot-id, type, ...} */
    cJSON *snapshot_log;         /* array of {timestamp-ms, snapshot-id} */
    cJSON *metadata_log;         /* array of {timestamp-ms, metadata-file} */
    cJSON *statistics;           /* array of StatisticsFile */
    cJSON *partition_statistics; /* array of PartitionStatisticsFile */
    cJSON *extra;                /* object: top-level members Floe does not know */
} floe_iceberg_metadata_t;

/** Makes md an empty table description: no uuid or location, no schemas/specs/orders, empty
 * collections, format version 2. Not valid metadata until a schema, spec and sort order exist;
 * release with floe_iceberg_metadata_dispose. */
void floe_iceberg_metadata_init(floe_iceberg_metadata_t *md /* OUT */);

/** Frees everything md owns and leaves it zeroed; safe on a zeroed or disposed md. */
void floe_iceberg_metadata_dispose(floe_iceberg_metadata_t *md);

/**
 * Reads metadata.json text (`len` bytes) into *md, checking the fields the table spec requires
 * for its format version and invariants 1-4 above. A v1 file's single "schema", "partition-spec"
 * and absent sort orders become one-entry lists. Returns 0 with *md filled (release with
 * floe_iceberg_metadata_dispose), or FLOE_ICEBERG_EINVALID with a one-sentence reason in err
 * and *md zeroed.
 */
int floe_iceberg_metadata_parse(const char *json, size_t len, floe_iceberg_metadata_t *md /* OUT */,
                                floe_iceberg_error_t *err /* OUT */);

/** The canonical metadata.json text of md (compact, key order in the design notes). malloc'ed,
 * NUL-terminated; the caller frees. */
char *floe_iceberg_metadata_serialize(const floe_iceberg_metadata_t *md);

/** The table's UUID, or NULL for a v1 table without one. Points into md. */
const char *floe_iceberg_metadata_table_uuid(const floe_iceberg_metadata_t *md);

/** True, with *id set, when the table has a current snapshot. */
bool floe_iceberg_metadata_current_snapshot_id(const floe_iceberg_metadata_t *md, int64_t *id /* OUT */);

/** The table's format version (1, 2 or 3). */
int floe_iceberg_metadata_format_version(const floe_iceberg_metadata_t *md);

/**
 * The file name of the next metadata version: "NNNNN-<uuid>.metadata.json", where NNNNN is the
 * version number at the start of prev_location's file name plus one, zero-padded to 5 digits
 * (more digits past 99999), as Java's BaseMetastoreTableOperations names them. prev_location may
 * be a full path or URL, or NULL for a new table (version 00000); a previous name without a
 * version number also gives 00000. `uuid` is the new file's random id, not the table's.
 * Returns a malloc'ed string; the caller frees.
 */
char *floe_iceberg_metadata_next_file_name(const char *prev_location, const char *uuid);

/** `location` without trailing slashes (but keeping a bare "scheme://"), as Java's
 * LocationUtil.stripTrailingSlash does for a table location; malloc'ed, the caller frees. */
char *floe_iceberg_location_normalize(const char *location);

/* ---- lookups inside md, for the commit engine; each returns a node of md or NULL ---- */

/** The schema object with this schema-id. */
cJSON *floe_iceberg_metadata_schema(const floe_iceberg_metadata_t *md, int32_t schema_id);
/** The partition spec object with this spec-id. */
cJSON *floe_iceberg_metadata_spec(const floe_iceberg_metadata_t *md, int32_t spec_id);
/** The sort order object with this order-id. */
cJSON *floe_iceberg_metadata_sort_order(const floe_iceberg_metadata_t *md, int32_t order_id);
/** The snapshot object with this snapshot-id. */
cJSON *floe_iceberg_metadata_snapshot(const floe_iceberg_metadata_t *md, int64_t snapshot_id);

/** A sorted set of 64-bit ids (snapshot ids, spec ids, ...) for membership tests that stay
 * O(log n) on tables with thousands of snapshots. */
typedef struct floe_iceberg_id_set {
    int64_t *ids; /* sorted ascending; owned */
    size_t n;
} floe_iceberg_id_set_t;

/** Fills *set with the integer `key` of every object in `list`, or with the integers of `list`
 * itself when key is NULL; entries without one are skipped. Release with
 * floe_iceberg_id_set_dispose. */
void floe_iceberg_id_set_build(floe_iceberg_id_set_t *set /* OUT */, const cJSON *list, const char *key);
/** True when id is in the set. */
bool floe_iceberg_id_set_has(const floe_iceberg_id_set_t *set, int64_t id);
/** True when some id occurs twice; *dup says which. */
bool floe_iceberg_id_set_duplicate(const floe_iceberg_id_set_t *set, int64_t *dup /* OUT */);
void floe_iceberg_id_set_dispose(floe_iceberg_id_set_t *set);

/** The integer member `key` of `object` (a schema-id, snapshot-id, ...), or `fallback` when it is
 * missing or not an integer. */
int64_t floe_iceberg_metadata_int(const cJSON *object, const char *key, int64_t fallback);

#endif
