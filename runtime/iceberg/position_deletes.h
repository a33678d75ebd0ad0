/*
 * Position delete files (Iceberg table spec v2, "Position Delete Files"): Parquet files whose
 * rows (file_path, pos) name deleted rows of data files, as merge-on-read writers (Spark, DuckDB)
 * leave them. Compaction applies them as it applies deletion vectors (compact.h design note 6).
 *
 * Pure: the file's bytes in, per data file path its ascending unique positions out. Not for Avro
 * or ORC delete files, nor for the optional `row` column (never read), nor for deletion vectors
 * (deletion_vector.h).
 *
 * Design notes
 * ------------
 * 1. The columns are found by their reserved field ids (file_path 2147483546, a BYTE_ARRAY;
 *    pos 2147483545, an INT64), wherever they are in the schema, and decoded by
 *    floe_parquet_filter_values: the codecs and encodings it reads are the ones read here.
 * 2. Rows need not be sorted (the spec asks writers to sort them by file_path then pos; the
 *    result is sorted here anyway) and a repeated row counts once.
 * 3. Refused with a reason: not Parquet, a missing or mistyped column, a null, a negative
 *    position, more rows than the caller's limit (which bounds the memory), a column chunk the
 *    filter cannot decode, a row group whose columns disagree on their values.
 */
#ifndef FLOE_ICEBERG_POSITION_DELETES_H
#define FLOE_ICEBERG_POSITION_DELETES_H

#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"

/** Reserved field ids of a position delete file's columns (spec, "Reserved Field IDs"). */
#define FLOE_ICEBERG_DELETE_FILE_PATH_ID 2147483546
#define FLOE_ICEBERG_DELETE_POS_ID 2147483545

/** The deleted rows of one data file. */
typedef struct floe_iceberg_pos_target {
    char *path;          /* the data file's file_path; owned */
    uint64_t *positions; /* ascending, unique; owned */
    size_t n;
} floe_iceberg_pos_target_t;

typedef struct floe_iceberg_pos_deletes {
    floe_iceberg_pos_target_t *targets; /* by path, ascending (strcmp) */
    size_t n_targets;
    int64_t n_rows; /* the file's rows */
} floe_iceberg_pos_deletes_t;

/**
 * Decodes the position delete file file[0..len) (the whole file) into *out, refusing more than
 * max_rows rows (design note 3). Returns FLOE_ICEBERG_OK with *out filled (release with
 * floe_iceberg_pos_deletes_dispose), or FLOE_ICEBERG_EINVALID with the reason in err and *out
 * zeroed.
 */
int floe_iceberg_pos_deletes_decode(const uint8_t *file, size_t len, int64_t max_rows,
                                    floe_iceberg_pos_deletes_t *out /* OUT */, floe_iceberg_error_t *err);

/** The deleted rows of the data file at `path`, or NULL when the file names none (binary search). */
const floe_iceberg_pos_target_t *floe_iceberg_pos_deletes_find(const floe_iceberg_pos_deletes_t *d,
                                                               const char *path);

/** Frees what d owns and zeroes it. Safe on a zeroed struct. */
void floe_iceberg_pos_deletes_dispose(floe_iceberg_pos_deletes_t *d);

#endif
