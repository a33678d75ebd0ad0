/*
 * Row lineage columns for compacted files of format version 3 tables (Iceberg spec v3, "Row
 * Lineage"): a row that moves to a new data file keeps its row id and, when not modified, its
 * last-updated sequence number, so the new file must hold them as the _row_id and
 * _last_updated_sequence_number columns. Compaction's inputs usually leave both null (their rows
 * inherit first_row_id + position and the file's data sequence number); the stitcher then appends
 * the two columns, with the inherited values written out, to every row group it copies.
 *
 * Pure: values in, bytes out. Not for reading those columns out of pages (Floe never decodes one).
 *
 * Design notes
 * ------------
 * 1. Each column chunk is one uncompressed PLAIN data page (v1) of a REQUIRED INT64 column: a
 *    page header, then the values; no levels. A file gets them for at most
 *    FLOE_COMPACT_LINEAGE_ROWS_MAX rows; beyond that the stitch fails with the reason. Its statistics carry min, max and a null count of
 *    0, so a later compaction knows the file's lineage is complete without reading a page.
 * 2. The schema gains two REQUIRED INT64 leaves at the end of the root with Iceberg's reserved
 *    field ids; an engine reading by field id finds them, one reading by name sees two more
 *    columns. Column orders, when the file has them, get TYPE_ORDER for both.
 */
#ifndef FLOE_ICEBERG_COMPACT_LINEAGE_H
#define FLOE_ICEBERG_COMPACT_LINEAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/parquet_footer.h"

/** Iceberg's reserved field ids (spec "Reserved Field IDs"). */
#define FLOE_ICEBERG_ROW_ID_FIELD_ID 2147483540
#define FLOE_ICEBERG_LAST_UPDATED_FIELD_ID 2147483539
#define FLOE_COMPACT_LINEAGE_COLUMNS 2
/** The most rows one stitched file may hold when it gets lineage columns: their bytes are built in
 * memory (16 bytes a row), and a footer's row counts are not trusted further (a hostile one could
 * claim billions of rows in a few bytes). */
#define FLOE_COMPACT_LINEAGE_ROWS_MAX ((int64_t)1 << 24)

/** One appended column chunk: where it went in the new file and what it holds. */
typedef struct floe_compact_lineage_chunk {
    uint64_t offset, length;
    int64_t n_values, min, max;
} floe_compact_lineage_chunk_t;

/**
 * The bytes of one column chunk of n values (design note 1): first, first + step, ... or, when
 * offsets is not NULL, first + offsets[0], first + offsets[1], ... Returns a malloc'ed buffer (the
 * caller frees it) and its length in *len. n must be positive.
 */
uint8_t *floe_compact_lineage_chunk(int64_t first, int64_t step, const uint64_t *offsets, int64_t n,
                                    size_t *len /* OUT */);

/**
 * Adds the two lineage leaves to md's schema and, to each row group r, the column chunks
 * chunks[2r] (_row_id) and chunks[2r + 1] (_last_updated_sequence_number) (design note 2). Everything
 * added lives in md->arena. Fails (FLOE_ICEBERG_EINVALID) when md already has either field id.
 */
int floe_compact_lineage_add(floe_parquet_file_metadata_t *md, const floe_compact_lineage_chunk_t *chunks,
                             floe_iceberg_error_t *err);

/**
 * Whether md has both lineage columns (*has_both) and whether every row group's statistics say
 * neither holds a null (*is_complete; false when a count is missing). A file with only one of
 * them has *has_both false and *is_complete false.
 */
void floe_compact_lineage_inspect(const floe_parquet_file_metadata_t *md, bool *has_both /* OUT */,
                                  bool *is_complete /* OUT */);

/** Whether md has either lineage column (a file with only one cannot get the other appended). */
bool floe_compact_lineage_has_any(const floe_parquet_file_metadata_t *md);

#endif
