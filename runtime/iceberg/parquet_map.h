/*
 * A whole Parquet file written again with the string values of one column replaced: replication
 * gives a replica its own copy of a position delete file whose file_path column names the
 * replica's data files (docs/replication.md). Built from the pieces compaction uses: each column
 * chunk decoded and written again as one PLAIN page (parquet_filter.h, the chosen column through
 * floe_parquet_map_chunk, the others unchanged in value), the file laid out by compaction's
 * stitch (compact.h) with every row group rewritten, and its footer encoded (parquet_encode.h).
 *
 * Pure: bytes in, bytes out. The new file has the old one's schema, key-value metadata, row
 * groups and rows in order; its chunks have no dictionary, page index or bloom filter, and their
 * statistics are null counts only (parquet_filter.h design note 2): a value's bounds may have
 * changed. A column the filter cannot decode fails the whole file, with the reason.
 */
#ifndef FLOE_ICEBERG_PARQUET_MAP_H
#define FLOE_ICEBERG_PARQUET_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/parquet_filter.h"

/** The largest file rewritten (it is held in memory, whole, with its copy). */
#define FLOE_PARQUET_MAP_FILE_MAX ((size_t)256 * 1024 * 1024)

/** The rewritten file, and the bytes each column takes in it (an Iceberg manifest's column_sizes). */
typedef struct floe_parquet_mapped {
    uint8_t *bytes; /* malloc'ed */
    size_t len;
    int32_t *field_ids; /* per leaf that has a field id: its id and its chunks' bytes, all row groups */
    int64_t *sizes;
    size_t n_sizes;
} floe_parquet_mapped_t;

/**
 * Writes the Parquet file file[0..len) again with every value of the BYTE_ARRAY column whose
 * field id is `field_id` (a top-level or struct field, not in a list or map) as `map` gives it.
 * Returns FLOE_ICEBERG_OK with *out filled (release with floe_parquet_mapped_dispose), or
 * FLOE_ICEBERG_EINVALID with the reason in err and *out zeroed: not Parquet, no such column, a
 * codec or encoding the filter does not decode, a file larger than FLOE_PARQUET_MAP_FILE_MAX.
 */
int floe_parquet_map_column(const uint8_t *file, size_t len, int32_t field_id, floe_parquet_map_fn map, void *arg,
                            floe_parquet_mapped_t *out /* OUT */, floe_iceberg_error_t *err);

/** Frees what m owns and zeroes it; safe on a zeroed m. */
void floe_parquet_mapped_dispose(floe_parquet_mapped_t *m);

#endif
