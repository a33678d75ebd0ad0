/*
 * Rows left out of one Parquet column chunk: compaction applies a deletion vector that deletes
 * only some rows of a row group by writing each of its column chunks again without those rows
 * (compact.h design note 5). The chunk's pages are decompressed and decoded, the kept rows'
 * repetition and definition levels and values written again as one data page (v1) with PLAIN
 * values, compressed with ZSTD when the chunk was, else uncompressed.
 *
 * Also the same chunk written again with a BYTE_ARRAY column's values replaced (floe_parquet_map_chunk).
 *
 * Pure: bytes in, bytes out. Not for reading rows for any other purpose (the console's preview
 * reads Parquet in the browser), nor for columns it cannot decode: those fail with the reason, and
 * compaction then leaves the file alone.
 *
 * Design notes
 * ------------
 * 1. What is decoded: every column, repeated or not (top-level columns, fields of structs, the
 *    elements of lists and the keys and values of maps, at any depth), in data pages v1 and v2 and
 *    a dictionary page, with values PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE (booleans),
 *    DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY (BYTE_ARRAY,
 *    FIXED_LEN_BYTE_ARRAY) or BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64,
 *    FIXED_LEN_BYTE_ARRAY), compressed with nothing, Snappy, gzip, ZSTD, LZ4_RAW or Brotli (liblz4
 *    and libbrotlidec opened on first use, as libzstd is). A DELTA or BYTE_STREAM_SPLIT page's
 *    values are decoded to PLAIN whole, up front (at most the page's level entries of them, and
 *    FLOE_PARQUET_FILTER_PAGE_MAX bytes). Anything else (Hadoop-framed LZ4 (codec LZ4,
 *    deprecated), LZO, INT96 or booleans in those encodings) fails with a reason naming it.
 * 2. What is written: one data page v1 holding every kept row: the repetition levels (when the
 *    column repeats), then the definition levels (when the column has any), each as RLE runs
 *    after their 4-byte length, then the present values PLAIN
 *    (booleans bit-packed), compressed with ZSTD (libzstd's default level) when the chunk was ZSTD
 *    (Spark's, PyIceberg's and Floe's default: it stays small), else uncompressed (Floe has no
 *    Snappy encoder, and one codec keeps the code small). No dictionary and no page index: the
 *    chunk is one page.
 * 4. Bounds: given the file's footer, the filter also gives the exact least and greatest kept
 *    value in the column's order as parquet_stats.h knows it (floe_parquet_value_compare: signed
 *    or unsigned integers, floats without NaN, booleans, unsigned bytes, two's complement
 *    decimals), for the chunk's Statistics.min_value and max_value; a float zero is written -0.0
 *    as a least value and +0.0 as a greatest, as parquet.thrift asks. A column whose order Floe
 *    does not know (INT96, FLOAT16, INTERVAL, an unknown ColumnOrder), one with only nulls (or
 *    NaNs), one under IEEE_754_TOTAL_ORDER with a NaN (which that order places), and a bound
 *    longer than FLOE_PARQUET_FILTER_BOUND_MAX get none: the caller then keeps
 *    the old chunk's bounds, marked inexact (compact.h design note 5). A missing bound costs a
 *    reader a skip; a wrong one loses rows.
 * 3. Hostile input fails with a reason, never an over-read: every length is checked against the
 *    bytes left, page sizes and value counts against FLOE_PARQUET_FILTER_PAGE_MAX and the row
 *    group's rows, and every decompression against the size the page header gave (a ZSTD frame
 *    that states a larger content size is refused before it is decoded; so are an LZ4 block or a
 *    Brotli stream that does not fill it exactly). A chunk's level entries are at most
 *    FLOE_PARQUET_FILTER_ENTRIES_MAX.
 * 4. Rows of a repeated column: a column chunk is a run of level entries (one per value, null or
 *    empty list); an entry whose repetition level is 0 starts a row, the entries after it up to
 *    the next such entry belong to it (a row may go on into the next page). The entries of a
 *    deleted row go with their present values (those whose definition level is the maximum). So
 *    num_values (the page's and the footer's) counts entries, and differs from the rows kept; the
 *    first entry must start a row, and entries past the row group's last row are refused.
 */
#ifndef FLOE_ICEBERG_PARQUET_FILTER_H
#define FLOE_ICEBERG_PARQUET_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/parquet_footer.h"

/** The largest decompressed page read (a page is usually about 1 MB). */
#define FLOE_PARQUET_FILTER_PAGE_MAX ((size_t)256 * 1024 * 1024)
/** The most level entries (values, nulls and empty lists) read from one chunk (design note 3). */
#define FLOE_PARQUET_FILTER_ENTRIES_MAX ((int64_t)64 * 1024 * 1024)

/** The longest exact bound kept (as Arrow's writer, whose default drops longer statistics). */
#define FLOE_PARQUET_FILTER_BOUND_MAX ((size_t)4096)

/** One column chunk, written again without some rows (design note 2). */
typedef struct floe_parquet_filtered {
    uint8_t *bytes; /* malloc'ed; the caller frees. The chunk is its first len bytes */
    size_t len;
    int32_t codec;           /* FLOE_PARQUET_UNCOMPRESSED or FLOE_PARQUET_ZSTD: the chunk's codec now */
    size_t uncompressed_len; /* len with the page uncompressed (the footer's total_uncompressed_size) */
    int64_t num_values;      /* the kept level entries: the kept rows, unless the column repeats (note 4) */
    int64_t num_rows;        /* the kept rows */
    int64_t null_count;
    /* Design note 4: the least and greatest kept value (Parquet's binary form, a byte array's
     * length left out), exact; they point into bytes, past the chunk's len bytes. */
    bool has_min, has_max;
    floe_parquet_bytes_t min, max;
    bool is_mapped; /* floe_parquet_map_chunk's: the values changed, so the old chunk's bounds do not hold */
} floe_parquet_filtered_t;

/** What the filter needs to know about the column. */
typedef struct floe_parquet_filter_column {
    int32_t type;        /* FLOE_PARQUET_BOOLEAN..FIXED_LEN_BYTE_ARRAY */
    int32_t type_length; /* FIXED_LEN_BYTE_ARRAY */
    int32_t codec;
    int32_t max_definition_level;
    int32_t max_repetition_level;
    const floe_parquet_file_metadata_t *footer; /* optional: the chunk's file, for its bounds (design note 4) */
    uint32_t leaf;                              /*   and the column's leaf in it */
} floe_parquet_filter_column_t;

/**
 * Decodes the column chunk at chunk[0..len) (from its first page to its end, as
 * floe_parquet_chunk_range gives it), which must hold num_rows rows, and writes it again without
 * the rows at the ascending positions deleted[0..n_deleted) (positions in the row group; those at
 * or past num_rows are ignored). Returns FLOE_ICEBERG_OK with *out filled, or
 * FLOE_ICEBERG_EINVALID with the reason in err (design notes 1 and 3) and *out zeroed.
 */
int floe_parquet_filter_chunk(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                              int64_t num_rows, const uint64_t *deleted, size_t n_deleted,
                              floe_parquet_filtered_t *out /* OUT */, floe_iceberg_error_t *err);

/** A column chunk's present values, decoded (floe_parquet_filter_values). */
typedef struct floe_parquet_values {
    uint8_t *plain; /* the present values PLAIN, one after another (a BYTE_ARRAY's 4-byte length included);
                       malloc'ed, the caller frees */
    size_t len;
    int64_t n_values; /* present values */
    int64_t null_count;
} floe_parquet_values_t;

/**
 * Decodes the column chunk at chunk[0..len), which must hold num_rows rows, for a reader (position
 * delete files, compact.h design note 6): the same pages, codecs and encodings as
 * floe_parquet_filter_chunk (design note 1), not booleans. Returns FLOE_ICEBERG_OK with *out
 * filled, or FLOE_ICEBERG_EINVALID with the reason in err and *out zeroed.
 */
int floe_parquet_filter_values(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                               int64_t num_rows, floe_parquet_values_t *out /* OUT */, floe_iceberg_error_t *err);
/**
 * Gives a BYTE_ARRAY value's replacement: the value's `len` bytes (not NUL-terminated) in; a
 * malloc'ed replacement of *out_len bytes out (the filter frees it), or NULL to keep the value.
 */
typedef uint8_t *(*floe_parquet_map_fn)(const uint8_t *value, size_t len, size_t *out_len /* OUT */, void *arg);

/**
 * Decodes a BYTE_ARRAY column chunk as floe_parquet_filter_chunk does and writes it again with
 * every row kept and every present value as `map` gives it (replication moves the data file paths
 * of a position delete file this way). Same returns; a column of another type is refused.
 */
int floe_parquet_map_chunk(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                           int64_t num_rows, floe_parquet_map_fn map, void *arg,
                           floe_parquet_filtered_t *out /* OUT */, floe_iceberg_error_t *err);

#endif
