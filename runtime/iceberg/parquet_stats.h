/*
 * A Parquet file's column statistics, file-wide, for Iceberg manifests: value, null and NaN
 * counts, bytes on disk, and lower and upper bounds, summed or ordered across row groups from
 * each column chunk's Statistics. Bounds stay in Parquet's binary form (PLAIN encoding, no length
 * prefix for byte arrays); turning them into Iceberg's single-value form (a timestamp's unit, a
 * decimal's width) is the manifest writer's job.
 *
 * Anything doubtful is left out rather than guessed, since a missing bound only costs a reader a
 * file it could have skipped, while a wrong one loses rows: a column whose order Floe does not
 * know (INT96, FLOAT16, INTERVAL, geospatial, an unknown ColumnOrder) has no bounds; a row group
 * without a bound (or with a NaN one) removes the file's; bounds that cross (min above max) are
 * both dropped; the deprecated min and max are used only for types whose order is signed (they
 * were written with signed comparison); a count some row group lacks is absent.
 */
#ifndef FLOE_ICEBERG_PARQUET_STATS_H
#define FLOE_ICEBERG_PARQUET_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "iceberg/parquet_footer.h"

typedef struct floe_parquet_column_stats {
    int64_t num_values;            /* values including nulls (Iceberg's value_counts) */
    int64_t total_compressed_size; /* bytes of the column's chunks (Iceberg's column_sizes) */
    bool has_null_count;
    int64_t null_count;
    bool has_nan_count;
    int64_t nan_count;
    bool has_min;
    floe_parquet_bytes_t min; /* borrowed from the footer */
    bool is_min_exact;        /* the writer said min is a value in the file (not truncated) */
    bool has_max;
    floe_parquet_bytes_t max;
    bool is_max_exact;
} floe_parquet_column_stats_t;

/** Fills *out with the file-wide statistics of leaf `leaf` (< md->n_leaves). Sums saturate at
 * INT64_MAX. The bytes are borrowed from md. */
void floe_parquet_column_stats(const floe_parquet_file_metadata_t *md, uint32_t leaf,
                               floe_parquet_column_stats_t *out /* OUT */);

/**
 * Compares two values of leaf `leaf` in Parquet's binary form by the column's order: signed or
 * unsigned integers, floats, booleans, unsigned bytes, or two's complement big-endian decimals.
 * Returns FLOE_ICEBERG_OK with *cmp below, at or above 0; FLOE_ICEBERG_EINVALID (no message) when
 * the column has no order Floe knows or a value is malformed (wrong width, NaN).
 */
int floe_parquet_value_compare(const floe_parquet_file_metadata_t *md, uint32_t leaf, floe_parquet_bytes_t a,
                               floe_parquet_bytes_t b, int *cmp /* OUT */);

#endif
