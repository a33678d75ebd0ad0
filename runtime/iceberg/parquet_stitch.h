/*
 * What compaction needs to stitch Parquet files together without decoding a page: the byte
 * ranges of column chunks (to copy them byte for byte into a new file), whether two files may be
 * stitched (same schema, same codecs), and the new file's footer, with every offset moved to
 * where the bytes went. Also the two page-level structures that hold offsets or lengths of their
 * own: the OffsetIndex, rewritten with moved page offsets, and the bloom filter header, whose
 * size tells how many bytes to copy.
 *
 * Pure, like parquet_footer.h: the caller reads and writes the files.
 *
 * Design notes
 * ------------
 * A stitched file is built as follows (the caller does each copy):
 *   1. Decode the footers of the sources; floe_parquet_compatible says which may go together.
 *   2. Write "PAR1"; floe_parquet_stitch_begin makes an empty footer with the first source's
 *      schema.
 *   3. For each row group to keep: copy its chunks' bytes (floe_parquet_chunk_range, or the whole
 *      span of floe_parquet_row_group_range when contiguous) to the new file, and call
 *      floe_parquet_stitch_append with where each chunk went (floe_parquet_row_group_moves fills
 *      that in for a span copied whole).
 *   4. Optionally copy page indexes and bloom filters after the row groups, and say where in the
 *      moves of step 3 (they may be filled in before the append, as their offsets are the
 *      caller's choice): a ColumnIndex and a bloom filter are copied unchanged (they hold no
 *      offsets), an OffsetIndex is rewritten by floe_parquet_offset_index_rewrite (its page
 *      offsets move with the chunk). What is not copied is dropped from the footer.
 *   5. Write floe_parquet_encode_footer of the stitched footer.
 *
 * Invariants of a stitched footer:
 *   1. Every offset in a ColumnChunk, its ColumnMetaData and its RowGroup points into the new
 *      file: data and dictionary page offsets move by the chunk's shift; an index page offset
 *      or a deprecated ColumnChunk.file_offset outside the chunk is dropped (set to 0 for
 *      file_offset, as parquet.thrift asks of writers); page index and bloom filter offsets are
 *      the moves' or dropped; RowGroup.file_offset is its first chunk's new start; ordinal is the
 *      row group's new position.
 *   2. Unknown fields of FileMetaData, RowGroup, ColumnChunk and ColumnMetaData are dropped (they
 *      might hold offsets into the old file), except ColumnMetaData's size and geospatial
 *      statistics, which describe the chunk's values. Schema, statistics and key-value metadata
 *      are kept whole, and so is created_by: readers use it to work around writer bugs in the
 *      pages, which are the old writer's.
 *   3. num_rows is the sum of the row groups'.
 *   4. The stitched footer borrows from the sources (schema, statistics, names): dispose it
 *      before them.
 */
#ifndef FLOE_ICEBERG_PARQUET_STITCH_H
#define FLOE_ICEBERG_PARQUET_STITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/parquet_footer.h"

/** A run of bytes in a file. */
typedef struct floe_parquet_range {
    uint64_t offset;
    uint64_t length;
} floe_parquet_range_t;

/** Where the bytes of one column chunk went in the stitched file. */
typedef struct floe_parquet_chunk_move {
    uint64_t offset;              /* new offset of the chunk's first byte (its range's start) */
    bool has_column_index;        /* its ColumnIndex was copied unchanged to column_index_offset */
    uint64_t column_index_offset;
    bool has_offset_index;        /* its OffsetIndex, rewritten, was written at offset_index_offset */
    uint64_t offset_index_offset;
    uint32_t offset_index_length; /* the rewritten length (floe_parquet_offset_index_rewrite) */
    bool has_bloom_filter;        /* its bloom filter was copied unchanged to bloom_filter_offset */
    uint64_t bloom_filter_offset;
} floe_parquet_chunk_move_t;

/**
 * The bytes of column chunk `column` of row group `row_group`: from its dictionary page when it
 * has one (at a positive offset), else its first data page, total_compressed_size bytes long.
 * Fails (FLOE_ICEBERG_EINVALID) when the chunk lies in another file (file_path) or outside
 * [4, data_end): pass the footer's offset as data_end, so a range never covers the footer.
 */
int floe_parquet_chunk_range(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint32_t column,
                             uint64_t data_end, floe_parquet_range_t *out /* OUT */, floe_iceberg_error_t *err);

/**
 * The span from a row group's first chunk byte to its last, checked as floe_parquet_chunk_range
 * checks each chunk. *is_contiguous is true when the chunks tile the span with no gap, so the span
 * can be copied in one piece. Fails when two chunks overlap.
 */
int floe_parquet_row_group_range(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint64_t data_end,
                                 floe_parquet_range_t *out /* OUT */, bool *is_contiguous /* OUT */,
                                 floe_iceberg_error_t *err);

/**
 * Fills moves[0..n_columns) for a row group whose span (floe_parquet_row_group_range) was copied
 * whole to new_offset: each chunk keeps its place within the span. Page indexes and bloom
 * filters are marked dropped; set them afterwards for those copied.
 */
int floe_parquet_row_group_moves(const floe_parquet_file_metadata_t *md, uint32_t row_group, uint64_t data_end,
                                 uint64_t new_offset, floe_parquet_chunk_move_t *moves /* OUT */,
                                 floe_iceberg_error_t *err);

/**
 * Whether row groups of `a` and `b` may go into one file: the same schema (every element: name,
 * types, repetition, children, field id, logical type), the same column orders, and for each
 * column one codec across both files. Returns FLOE_ICEBERG_OK, or FLOE_ICEBERG_EINVALID with the
 * first difference in err.
 */
int floe_parquet_compatible(const floe_parquet_file_metadata_t *a, const floe_parquet_file_metadata_t *b,
                            floe_iceberg_error_t *err);

/**
 * Makes *out an empty footer (no row groups, no rows) with first's schema, key-value metadata,
 * created_by and column orders, borrowed from first (design note: invariant 4). Release with
 * floe_parquet_file_metadata_dispose.
 */
void floe_parquet_stitch_begin(const floe_parquet_file_metadata_t *first, floe_parquet_file_metadata_t *out /* OUT */);

/**
 * Appends row group `row_group` of `src` to the stitched footer `out`, its column chunks moved
 * as moves[0..n_columns) say (invariants 1 to 3). Fails (FLOE_ICEBERG_EINVALID, out unchanged)
 * when src is not compatible with out, a move asks to keep an index or bloom filter the chunk
 * does not have, or an offset would pass 2^63.
 */
int floe_parquet_stitch_append(floe_parquet_file_metadata_t *out, const floe_parquet_file_metadata_t *src,
                               uint32_t row_group, const floe_parquet_chunk_move_t *moves,
                               floe_iceberg_error_t *err);

/**
 * Rewrites an OffsetIndex (the `len` bytes at ColumnChunk.offset_index_offset) for a chunk that
 * moved from old_chunk to new_offset: every page location moves with it; every other value is kept
 * as read. Field headers and page locations are written in their shortest form, so the result may
 * differ in bytes from an input that used a longer one, even with new_offset == old_chunk.offset.
 * Fails when a page lies outside old_chunk, which would leave it pointing at other bytes.
 * On success *out is malloc'ed (the caller frees), *out_len bytes.
 */
int floe_parquet_offset_index_rewrite(const uint8_t *data, size_t len, floe_parquet_range_t old_chunk,
                                      uint64_t new_offset, uint8_t **out /* OUT */, size_t *out_len /* OUT */,
                                      floe_iceberg_error_t *err);

/**
 * The whole size of a bloom filter (its BloomFilterHeader and bitset) from its first bytes, for
 * chunks whose ColumnMetaData lacks bloom_filter_length. FLOE_PARQUET_BLOOM_HEAD_LEN bytes hold
 * any header Floe knows of.
 */
int floe_parquet_bloom_filter_size(const uint8_t *head, size_t head_len, uint64_t *size /* OUT */,
                                   floe_iceberg_error_t *err);
#define FLOE_PARQUET_BLOOM_HEAD_LEN 64

#endif
