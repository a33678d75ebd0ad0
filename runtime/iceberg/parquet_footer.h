/*
 * Parquet file footers in memory: find the footer in a file's last bytes, and decode its
 * FileMetaData (Thrift compact protocol, parquet-format's parquet.thrift) into C structs that
 * compaction and manifest statistics read. parquet_encode.h writes the structs back,
 * parquet_stitch.h moves row groups into a new file, parquet_stats.h reads column statistics.
 *
 * Pure: buffers in, structs out. The caller reads the file's tail (and, when the footer is longer
 * than the tail, the footer) and passes the bytes; nothing here does I/O. Not a Parquet reader:
 * pages, encodings and compression are never looked at.
 *
 * Design notes
 * ------------
 * 1. Everything a decoded footer holds lives in one arena owned by the floe_parquet_file_metadata_t
 *    (floe_parquet_file_metadata_dispose frees it); the input buffer may be freed as soon as
 *    floe_parquet_decode returns. Binary and string values are copied, and each is followed by a
 *    NUL byte that is not counted in its length, so a name without NUL bytes reads as a C string.
 * 2. Absent is not zero: every optional field has a has_ flag, optional lists included (an empty
 *    list and no list encode differently).
 * 3. Fields Floe does not model are kept, not dropped: each struct's `extra` holds them as read
 *    (field id, compact type, encoded value), sorted by field id, and floe_parquet_encode writes
 *    them back in field-id order among the modelled ones. Known-but-unmodelled fields live there
 *    too: ColumnMetaData's size_statistics (16) and geospatial_statistics (17), SchemaElement's
 *    vector_length (11). LogicalType and ColumnOrder are unions kept as their encoded bytes,
 *    beside a decoded view of what Floe needs from them. So decode -> encode -> decode gives
 *    equal structs and, for a writer that emits fields in id order with minimal varints, the
 *    very bytes it wrote. Integer fields take any Thrift integer type whose value fits (some
 *    writers send an i8 as an i32); such a field is written back with its declared type.
 * 4. A hostile footer fails with a message, never a crash or a huge allocation: every read is
 *    bounds-checked; a list may not claim more elements than bytes remain; Thrift nesting is at
 *    most FLOE_PARQUET_DEPTH_MAX deep (parquet_thrift.h, the reader's limits) and the schema tree
 *    FLOE_PARQUET_SCHEMA_DEPTH_MAX; the arena refuses to grow past FLOE_PARQUET_ALLOC_MAX.
 * 5. floe_parquet_decode also checks what the format promises and compaction relies on: required
 *    fields are present, the schema is one tree whose leaves match every row group's column
 *    chunks (count, physical type, path_in_schema), every column chunk has its ColumnMetaData,
 *    sizes and offsets are not negative (FileMetaData.num_rows is not compared with the row
 *    groups' sum). Encrypted files (FileMetaData's encryption_algorithm, ColumnChunk's
 *    crypto_metadata or encrypted_column_metadata) are refused: their column metadata cannot be
 *    read without keys.
 * 6. At most FLOE_PARQUET_EXTRA_MAX unknown fields are kept per struct; more is refused.
 */
#ifndef FLOE_ICEBERG_PARQUET_FOOTER_H
#define FLOE_ICEBERG_PARQUET_FOOTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"

/** "PAR1": the first and last four bytes of a Parquet file. */
#define FLOE_PARQUET_MAGIC "PAR1"
#define FLOE_PARQUET_MAGIC_LEN 4
/** What follows the footer: its length (4 bytes, little-endian) and the magic. */
#define FLOE_PARQUET_TRAILER_LEN 8
/** A tail this long holds the whole footer of most files: read it first. */
#define FLOE_PARQUET_TAIL_HINT (64u * 1024u)
/** The longest footer floe_parquet_footer_locate accepts. */
#define FLOE_PARQUET_FOOTER_MAX (64u * 1024u * 1024u)
/** The most memory one decoded footer may use. */
#define FLOE_PARQUET_ALLOC_MAX ((size_t)256 * 1024 * 1024)
/** The deepest schema tree accepted (groups inside groups). */
#define FLOE_PARQUET_SCHEMA_DEPTH_MAX 64
/** The most unknown fields kept in one struct. */
#define FLOE_PARQUET_EXTRA_MAX 256

/* parquet.thrift enum Type */
#define FLOE_PARQUET_BOOLEAN 0
#define FLOE_PARQUET_INT32 1
#define FLOE_PARQUET_INT64 2
#define FLOE_PARQUET_INT96 3
#define FLOE_PARQUET_FLOAT 4
#define FLOE_PARQUET_DOUBLE 5
#define FLOE_PARQUET_BYTE_ARRAY 6
#define FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY 7

/* enum FieldRepetitionType */
#define FLOE_PARQUET_REQUIRED 0
#define FLOE_PARQUET_OPTIONAL 1
#define FLOE_PARQUET_REPEATED 2

/* enum ConvertedType (the ones Floe looks at) */
#define FLOE_PARQUET_CONVERTED_UTF8 0
#define FLOE_PARQUET_CONVERTED_DECIMAL 5
#define FLOE_PARQUET_CONVERTED_UINT_8 11
#define FLOE_PARQUET_CONVERTED_UINT_16 12
#define FLOE_PARQUET_CONVERTED_UINT_32 13
#define FLOE_PARQUET_CONVERTED_UINT_64 14
#define FLOE_PARQUET_CONVERTED_INTERVAL 21

/* enum CompressionCodec */
#define FLOE_PARQUET_UNCOMPRESSED 0
#define FLOE_PARQUET_SNAPPY 1
#define FLOE_PARQUET_GZIP 2
#define FLOE_PARQUET_LZO 3
#define FLOE_PARQUET_BROTLI 4
#define FLOE_PARQUET_LZ4 5
#define FLOE_PARQUET_ZSTD 6
#define FLOE_PARQUET_LZ4_RAW 7

/* union LogicalType: the member's field id */
#define FLOE_PARQUET_LOGICAL_STRING 1
#define FLOE_PARQUET_LOGICAL_MAP 2
#define FLOE_PARQUET_LOGICAL_LIST 3
#define FLOE_PARQUET_LOGICAL_ENUM 4
#define FLOE_PARQUET_LOGICAL_DECIMAL 5
#define FLOE_PARQUET_LOGICAL_DATE 6
#define FLOE_PARQUET_LOGICAL_TIME 7
#define FLOE_PARQUET_LOGICAL_TIMESTAMP 8
#define FLOE_PARQUET_LOGICAL_INTEGER 10
#define FLOE_PARQUET_LOGICAL_UNKNOWN 11
#define FLOE_PARQUET_LOGICAL_JSON 12
#define FLOE_PARQUET_LOGICAL_BSON 13
#define FLOE_PARQUET_LOGICAL_UUID 14
#define FLOE_PARQUET_LOGICAL_FLOAT16 15
#define FLOE_PARQUET_LOGICAL_VARIANT 16
#define FLOE_PARQUET_LOGICAL_GEOMETRY 17
#define FLOE_PARQUET_LOGICAL_GEOGRAPHY 18

/* union TimeUnit: the member's field id */
#define FLOE_PARQUET_MILLIS 1
#define FLOE_PARQUET_MICROS 2
#define FLOE_PARQUET_NANOS 3

/* union ColumnOrder: the member's field id */
#define FLOE_PARQUET_TYPE_ORDER 1
#define FLOE_PARQUET_IEEE_754_TOTAL_ORDER 2

/** Bytes owned by a decoded footer's arena, followed by a NUL byte not counted in len. */
typedef struct floe_parquet_bytes {
    const uint8_t *data;
    uint32_t len;
} floe_parquet_bytes_t;

/** A field Floe does not model, kept as read: written back unchanged. */
typedef struct floe_parquet_field {
    int16_t id;
    uint8_t type;              /* Thrift compact type (1 and 2 are a bool field's value) */
    floe_parquet_bytes_t value; /* the encoded value; empty for a bool */
} floe_parquet_field_t;

/** The unmodelled fields of one struct, sorted by field id. */
typedef struct floe_parquet_extra {
    floe_parquet_field_t *fields;
    uint32_t n_fields;
} floe_parquet_extra_t;

typedef struct floe_parquet_key_value {
    floe_parquet_bytes_t key;
    bool has_value;
    floe_parquet_bytes_t value;
    floe_parquet_extra_t extra;
} floe_parquet_key_value_t;

/** union LogicalType: written back from `encoded`; the other members are a view of it. */
typedef struct floe_parquet_logical_type {
    int16_t kind;                 /* FLOE_PARQUET_LOGICAL_*, or another member's field id */
    int32_t scale, precision;     /* DECIMAL */
    bool is_adjusted_to_utc;      /* TIME, TIMESTAMP */
    int16_t unit;                 /* TIME, TIMESTAMP: FLOE_PARQUET_MILLIS/MICROS/NANOS, 0 if another */
    int8_t bit_width;             /* INTEGER */
    bool is_signed;               /* INTEGER */
    floe_parquet_bytes_t encoded; /* the union's struct as read */
} floe_parquet_logical_type_t;

typedef struct floe_parquet_schema_element {
    bool has_type;
    int32_t type; /* FLOE_PARQUET_BOOLEAN..FIXED_LEN_BYTE_ARRAY; set on leaves */
    bool has_type_length;
    int32_t type_length;
    bool has_repetition_type;
    int32_t repetition_type;
    floe_parquet_bytes_t name;
    bool has_num_children;
    int32_t num_children;
    bool has_converted_type;
    int32_t converted_type;
    bool has_scale;
    int32_t scale;
    bool has_precision;
    int32_t precision;
    bool has_field_id;
    int32_t field_id; /* Iceberg's field id, when the writer recorded it */
    bool has_logical_type;
    floe_parquet_logical_type_t logical_type;
    floe_parquet_extra_t extra;
} floe_parquet_schema_element_t;

typedef struct floe_parquet_statistics {
    bool has_max; /* max and min: deprecated, signed order */
    floe_parquet_bytes_t max;
    bool has_min;
    floe_parquet_bytes_t min;
    bool has_null_count;
    int64_t null_count;
    bool has_distinct_count;
    int64_t distinct_count;
    bool has_max_value; /* max_value and min_value: in the column's order */
    floe_parquet_bytes_t max_value;
    bool has_min_value;
    floe_parquet_bytes_t min_value;
    bool has_is_max_value_exact;
    bool is_max_value_exact;
    bool has_is_min_value_exact;
    bool is_min_value_exact;
    bool has_nan_count;
    int64_t nan_count;
    floe_parquet_extra_t extra;
} floe_parquet_statistics_t;

typedef struct floe_parquet_page_encoding_stats {
    int32_t page_type;
    int32_t encoding;
    int32_t count;
    floe_parquet_extra_t extra;
} floe_parquet_page_encoding_stats_t;

typedef struct floe_parquet_column_meta_data {
    int32_t type;
    int32_t *encodings;
    uint32_t n_encodings;
    floe_parquet_bytes_t *path_in_schema;
    uint32_t n_path_in_schema;
    int32_t codec; /* FLOE_PARQUET_UNCOMPRESSED..LZ4_RAW */
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    bool has_key_value_metadata;
    floe_parquet_key_value_t *key_value_metadata;
    uint32_t n_key_value_metadata;
    int64_t data_page_offset;
    bool has_index_page_offset;
    int64_t index_page_offset;
    bool has_dictionary_page_offset;
    int64_t dictionary_page_offset;
    bool has_statistics;
    floe_parquet_statistics_t statistics;
    bool has_encoding_stats;
    floe_parquet_page_encoding_stats_t *encoding_stats;
    uint32_t n_encoding_stats;
    bool has_bloom_filter_offset;
    int64_t bloom_filter_offset;
    bool has_bloom_filter_length;
    int32_t bloom_filter_length;
    floe_parquet_extra_t extra;
} floe_parquet_column_meta_data_t;

typedef struct floe_parquet_column_chunk {
    bool has_file_path;
    floe_parquet_bytes_t file_path;
    int64_t file_offset; /* deprecated; 0 or some offset near the chunk */
    floe_parquet_column_meta_data_t meta_data; /* always present in a decoded footer */
    bool has_offset_index_offset;
    int64_t offset_index_offset;
    bool has_offset_index_length;
    int32_t offset_index_length;
    bool has_column_index_offset;
    int64_t column_index_offset;
    bool has_column_index_length;
    int32_t column_index_length;
    floe_parquet_extra_t extra;
} floe_parquet_column_chunk_t;

typedef struct floe_parquet_sorting_column {
    int32_t column_idx;
    bool descending;
    bool nulls_first;
    floe_parquet_extra_t extra;
} floe_parquet_sorting_column_t;

typedef struct floe_parquet_row_group {
    floe_parquet_column_chunk_t *columns; /* one per schema leaf, in leaf order */
    uint32_t n_columns;
    int64_t total_byte_size;
    int64_t num_rows;
    bool has_sorting_columns;
    floe_parquet_sorting_column_t *sorting_columns;
    uint32_t n_sorting_columns;
    bool has_file_offset;
    int64_t file_offset;
    bool has_total_compressed_size;
    int64_t total_compressed_size;
    bool has_ordinal;
    int16_t ordinal;
    floe_parquet_extra_t extra;
} floe_parquet_row_group_t;

/** union ColumnOrder: written back from `encoded`. */
typedef struct floe_parquet_column_order {
    int16_t kind; /* FLOE_PARQUET_TYPE_ORDER, FLOE_PARQUET_IEEE_754_TOTAL_ORDER or another member's id */
    floe_parquet_bytes_t encoded;
} floe_parquet_column_order_t;

/** A leaf of the schema tree: one column chunk per row group. Derived by decode, never encoded. */
typedef struct floe_parquet_leaf {
    uint32_t schema_index; /* its element in schema[] */
    uint32_t depth;        /* elements on its path below the root (path_in_schema's length) */
    int32_t max_definition_level;
    int32_t max_repetition_level;
} floe_parquet_leaf_t;

typedef struct floe_parquet_arena floe_parquet_arena_t;

typedef struct floe_parquet_file_metadata {
    int32_t version;
    floe_parquet_schema_element_t *schema; /* depth-first; schema[0] is the root */
    uint32_t n_schema;
    int64_t num_rows;
    floe_parquet_row_group_t *row_groups;
    uint32_t n_row_groups;
    bool has_key_value_metadata;
    floe_parquet_key_value_t *key_value_metadata;
    uint32_t n_key_value_metadata;
    bool has_created_by;
    floe_parquet_bytes_t created_by;
    bool has_column_orders;
    floe_parquet_column_order_t *column_orders; /* one per leaf */
    uint32_t n_column_orders;
    floe_parquet_extra_t extra;
    /* Derived by decode, never encoded: */
    floe_parquet_leaf_t *leaves; /* the schema's leaves in order */
    uint32_t n_leaves;
    uint32_t *parents;           /* parents[i]: schema index of element i's group; parents[0] is 0 */
    floe_parquet_arena_t *arena; /* owns everything above */
} floe_parquet_file_metadata_t;

/** Where a file's footer is. */
typedef struct floe_parquet_footer {
    uint64_t offset;       /* file offset of the FileMetaData's first byte */
    uint32_t length;       /* its length */
    const uint8_t *in_tail; /* the FileMetaData inside the tail passed in, or NULL when the tail is too short */
} floe_parquet_footer_t;

/**
 * Finds the footer from the last `tail_len` bytes of a file of `file_size` bytes: checks the
 * trailing magic and the footer length against the file. When the tail holds the whole footer,
 * out->in_tail points at it; otherwise the caller reads out->length bytes at out->offset. A tail
 * that is the whole file has its leading magic checked too. Returns FLOE_ICEBERG_OK, or
 * FLOE_ICEBERG_EINVALID with a message (not Parquet, encrypted footer, impossible length).
 */
int floe_parquet_footer_locate(const uint8_t *tail, size_t tail_len, uint64_t file_size,
                               floe_parquet_footer_t *out /* OUT */, floe_iceberg_error_t *err);

/**
 * Decodes a FileMetaData of `len` bytes (the whole footer: trailing bytes are refused) and checks
 * it (design note 5). On success *md holds the footer and must be released with
 * floe_parquet_file_metadata_dispose; on failure *md is zeroed and err says why
 * (FLOE_ICEBERG_EINVALID). `data` is not kept.
 */
int floe_parquet_decode(const uint8_t *data, size_t len, floe_parquet_file_metadata_t *md /* OUT */,
                        floe_iceberg_error_t *err);

/** Frees everything md owns and zeroes it. Safe on a zeroed struct. */
void floe_parquet_file_metadata_dispose(floe_parquet_file_metadata_t *md);

/** The leaf's element in the schema. */
const floe_parquet_schema_element_t *floe_parquet_leaf_element(const floe_parquet_file_metadata_t *md,
                                                               uint32_t leaf);

/** The name of a physical type ("INT32"), or "unknown". Static string. */
const char *floe_parquet_type_name(int32_t type);
/** The name of a compression codec ("SNAPPY"), or "unknown". Static string. */
const char *floe_parquet_codec_name(int32_t codec);

#endif
