/*
 * Iceberg manifests and manifest lists (https://iceberg.apache.org/spec/#manifests) in memory:
 * read the Avro object container files that Iceberg writers produce into C structs, and write
 * the structs back as Iceberg v2 Avro files. Maintenance, compaction and replication jobs use it
 * to list a snapshot's data files and to write new snapshots.
 *
 * Pure: buffers in, buffers out. No I/O, no SQLite, no h2o. The Avro datums are encoded and
 * decoded with Apache Avro C (libavro); only the object-container framing (header metadata map,
 * blocks, sync marker, null and deflate codecs, zstandard read) is hand-written, because Avro C's
 * file reader and writer cannot read or write the header metadata Iceberg needs (schema,
 * partition-spec, ...).
 *
 * Design notes
 * ------------
 * 1. A struct that was read owns everything it points at through its arena
 *    (floe_parquet_arena_t, parquet_arena.h); dispose frees the arena and zeroes the struct. The
 *    input buffer may be freed as soon as a read function returns. Strings and byte values are
 *    copied and NUL-terminated (the NUL is not counted in a floe_iceberg_bytes_t's len).
 * 2. Absent is not zero: an optional field has a has_ flag (or is NULL for a string).
 * 3. Reading accepts v1, v2 and v3 manifests as Iceberg Java, PyIceberg and the npm `avsc` package
 *    write them: fields are found by name in the writer's schema (field ids are not required),
 *    nullable unions may put null first or second, codecs are null, deflate or zstandard (Iceberg
 *    Java's write.avro.compression-codec=zstd). v1 entries have no sequence numbers; v1
 *    manifest-list entries have no content or sequence numbers (read as data and 0).
 * 4. Writing is v2, or v3 when the struct's format_version is 3 (the v3 fields first_row_id,
 *    referenced_data_file, content_offset, content_size_in_bytes and the manifest list's
 *    first_row_id are then in the schema), always with the deflate codec, with the header keys and field ids
 *    (field-id on every field, the key and value ids as the field-ids of a map's key/value
 *    record, element-id on lists) that Iceberg readers need.
 * 5. Hostile input fails with a one-line reason, never a crash or an over-read: the writer's
 *    schema is checked before Avro C parses it (avro_schema.h) and every datum before Avro C
 *    decodes it (avro_datum.h); lengths and counts are checked against the bytes that remain,
 *    a block's uncompressed size is bounded and the arena refuses to grow past
 *    FLOE_ICEBERG_MANIFEST_ALLOC_MAX.
 *
 * Every function that returns int returns 0 (FLOE_OK) on success or -1 (FLOE_EFAIL) on failure,
 * with a one-line reason in err (at most err_size bytes, NUL-terminated; err may be NULL).
 */
#ifndef FLOE_ICEBERG_MANIFEST_H
#define FLOE_ICEBERG_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/parquet_arena.h"

/** The most memory one decoded manifest or manifest list may use. */
#define FLOE_ICEBERG_MANIFEST_ALLOC_MAX ((size_t)256 * 1024 * 1024)

/* A value in Iceberg's single-value binary serialisation (spec Appendix D), e.g. a bound. */
typedef struct floe_iceberg_bytes { uint8_t *data; size_t len; } floe_iceberg_bytes_t;

/* One entry of a column-statistics map keyed by field id. */
typedef struct floe_iceberg_count { int32_t field_id; int64_t value; } floe_iceberg_count_t;
typedef struct floe_iceberg_bound { int32_t field_id; floe_iceberg_bytes_t value; } floe_iceberg_bound_t;

/* One partition field's value in a data file's partition tuple, in single-value binary form. */
typedef struct floe_iceberg_partition_value {
    bool is_null;
    floe_iceberg_bytes_t value;     /* when !is_null */
} floe_iceberg_partition_value_t;

typedef enum { FLOE_ICEBERG_CONTENT_DATA = 0, FLOE_ICEBERG_CONTENT_POSITION_DELETES = 1,
               FLOE_ICEBERG_CONTENT_EQUALITY_DELETES = 2 } floe_iceberg_file_content_t;
typedef enum { FLOE_ICEBERG_ENTRY_EXISTING = 0, FLOE_ICEBERG_ENTRY_ADDED = 1,
               FLOE_ICEBERG_ENTRY_DELETED = 2 } floe_iceberg_entry_status_t;

typedef struct floe_iceberg_data_file {
    int32_t content;                         /* floe_iceberg_file_content_t */
    char *file_path;
    char *file_format;                       /* "PARQUET", "AVRO", "ORC" */
    floe_iceberg_partition_value_t *partition; size_t n_partition;   /* in the spec's field order */
    int64_t record_count;
    int64_t file_size_in_bytes;
    floe_iceberg_count_t *column_sizes;      size_t n_column_sizes;
    floe_iceberg_count_t *value_counts;      size_t n_value_counts;
    floe_iceberg_count_t *null_value_counts; size_t n_null_value_counts;
    floe_iceberg_count_t *nan_value_counts;  size_t n_nan_value_counts;
    floe_iceberg_bound_t *lower_bounds;      size_t n_lower_bounds;
    floe_iceberg_bound_t *upper_bounds;      size_t n_upper_bounds;
    bool has_key_metadata; floe_iceberg_bytes_t key_metadata;
    int64_t *split_offsets;                  size_t n_split_offsets;
    int32_t *equality_ids;                   size_t n_equality_ids;
    bool has_sort_order_id; int32_t sort_order_id;
    /* format v3 (written only when the manifest's format_version is 3) */
    bool has_first_row_id; int64_t first_row_id;     /* row lineage: the file's first row id */
    char *referenced_data_file;              /* a deletion vector's data file; NULL otherwise */
    bool has_content_offset; int64_t content_offset; /* a deletion vector's blob in its Puffin file */
    bool has_content_size_in_bytes; int64_t content_size_in_bytes;
} floe_iceberg_data_file_t;

typedef struct floe_iceberg_manifest_entry {
    int32_t status;                          /* floe_iceberg_entry_status_t */
    bool has_snapshot_id;        int64_t snapshot_id;
    bool has_sequence_number;    int64_t sequence_number;
    bool has_file_sequence_number; int64_t file_sequence_number;
    floe_iceberg_data_file_t file;
} floe_iceberg_manifest_entry_t;

/* A manifest file: its Avro header metadata and its entries. */
typedef struct floe_iceberg_manifest {
    char *schema_json;            /* header "schema": the table schema (JSON text) */
    int32_t schema_id;            /* header "schema-id" (0 when absent) */
    char *partition_spec_json;    /* header "partition-spec": JSON array of partition fields */
    int32_t partition_spec_id;    /* header "partition-spec-id" */
    int32_t format_version;       /* header "format-version" (1 when absent) */
    int32_t content;              /* header "content": 0 data, 1 deletes */
    floe_iceberg_manifest_entry_t *entries; size_t n_entries;
    floe_parquet_arena_t *arena;   /* owns every pointer above (parquet_arena.h) */
} floe_iceberg_manifest_t;

typedef struct floe_iceberg_field_summary {
    bool contains_null;
    bool has_contains_nan; bool contains_nan;
    bool has_lower_bound; floe_iceberg_bytes_t lower_bound;
    bool has_upper_bound; floe_iceberg_bytes_t upper_bound;
} floe_iceberg_field_summary_t;

/* One entry of a manifest list (manifest_file in the spec). */
typedef struct floe_iceberg_manifest_file {
    char *manifest_path;
    int64_t manifest_length;
    int32_t partition_spec_id;
    int32_t content;              /* 0 data, 1 deletes */
    int64_t sequence_number;
    int64_t min_sequence_number;
    int64_t added_snapshot_id;
    int32_t added_files_count, existing_files_count, deleted_files_count;
    int64_t added_rows_count, existing_rows_count, deleted_rows_count;
    floe_iceberg_field_summary_t *partitions; size_t n_partitions;
    bool has_key_metadata; floe_iceberg_bytes_t key_metadata;
    bool has_first_row_id; int64_t first_row_id;   /* v3: row lineage of the manifest's data files */
} floe_iceberg_manifest_file_t;

typedef struct floe_iceberg_manifest_list {
    int64_t snapshot_id;          /* header "snapshot-id" */
    bool has_parent_snapshot_id; int64_t parent_snapshot_id;   /* header "parent-snapshot-id" */
    int64_t sequence_number;      /* header "sequence-number" */
    int32_t format_version;
    floe_iceberg_manifest_file_t *files; size_t n_files;
    floe_parquet_arena_t *arena;
} floe_iceberg_manifest_list_t;

/**
 * Parses an Avro object container file holding a manifest (v1 or v2; design note 3) into *out.
 * Returns 0, with *out owning everything through out->arena (release with
 * floe_iceberg_manifest_dispose), or -1 with *out zeroed and a one-line reason in err (e.g.
 * "manifest: block 2: truncated"). Never crashes or over-reads on hostile input; size limits
 * bound memory (design note 5). `data` is not kept.
 */
int floe_iceberg_manifest_read(const uint8_t *data, size_t len, floe_iceberg_manifest_t *out /* OUT */,
                               char *err, size_t err_size);

/**
 * Parses an Avro object container file holding a manifest list (v1 or v2) into *out. Same
 * contract as floe_iceberg_manifest_read; release with floe_iceberg_manifest_list_dispose.
 */
int floe_iceberg_manifest_list_read(const uint8_t *data, size_t len, floe_iceberg_manifest_list_t *out /* OUT */,
                                    char *err, size_t err_size);

/**
 * Serialises m as an Iceberg v2 manifest, or v3 when m->format_version is 3 (Avro object
 * container, deflate codec). The partition tuple's Avro types are derived from m->partition_spec_json and
 * m->schema_json (transform result types: identity = source type, bucket = int, truncate =
 * source, year/month/day/hour = int, void = source nullable), so both are required (take them
 * from the table metadata when a file read had no such header); every entry's partition must
 * have one value per spec field, each as long as its type's single-value form. A null count or
 * bound map, split_offsets or equality_ids is written for n_... == 0. Returns 0 with *out
 * malloc'd (the caller frees it) and its length in *out_len, or -1 with a reason in err and
 * *out untouched.
 */
int floe_iceberg_manifest_write(const floe_iceberg_manifest_t *m, uint8_t **out /* OUT */, size_t *out_len /* OUT */,
                                char *err, size_t err_size);

/**
 * Serialises l as an Iceberg v2 manifest list, or v3 when l->format_version is 3 (Avro object
 * container, deflate codec). Returns 0
 * with *out malloc'd (the caller frees it), or -1 with a reason in err.
 */
int floe_iceberg_manifest_list_write(const floe_iceberg_manifest_list_t *l, uint8_t **out /* OUT */, size_t *out_len /* OUT */,
                                     char *err, size_t err_size);

/** Frees m's arena (and so everything a read put in m) and zeroes m. Safe on a zeroed struct. */
void floe_iceberg_manifest_dispose(floe_iceberg_manifest_t *m);

/** Frees l's arena and zeroes l. Safe on a zeroed struct. */
void floe_iceberg_manifest_list_dispose(floe_iceberg_manifest_list_t *l);

/**
 * Compares two values in single-value binary form of the Iceberg primitive `type` ("int",
 * "long", "float", "double", "date", "time", "timestamp", "timestamptz", "timestamp_ns",
 * "timestamptz_ns", "string", "binary", "decimal(p,s)", "boolean", "uuid", "fixed[n]"): returns
 * <0, 0 or >0 as a orders before, equal to or after b. Floats order as Java's Float.compare
 * (Iceberg's comparator for bounds): -inf < ... < -0 < +0 < ... < +inf < NaN, every NaN equal
 * whatever its sign. Ints and longs are signed little-endian, and a 4-byte value compares with
 * an 8-byte one (a bound written before int was promoted to long; likewise float to double).
 * Strings, binary, uuid and fixed compare as unsigned bytes, a prefix first; decimals as
 * big-endian two's complement integers of any length; false before true. A value whose length
 * does not fit its type, or an unknown type, falls back to unsigned byte order.
 */
int floe_iceberg_value_compare(const char *type, floe_iceberg_bytes_t a, floe_iceberg_bytes_t b);

#endif
