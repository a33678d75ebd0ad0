/*
 * Compaction's pure half (icebergCompaction): which data files of a snapshot go
 * together into which new files (the plan), how each new file is laid out from the bytes of its
 * inputs (the stitch), and the statistics of the new file's manifest entry (the merge). The
 * maintenance job (maintenance/compaction.c) does the I/O: it reads manifests and footers, writes
 * each new file from the layout with kernel copies, and commits the `replace` snapshot.
 *
 * Pure, like the parquet_* files it builds on: structs in, structs out, no I/O.
 *
 * Design notes
 * ------------
 * 1. Plan (binpack, as Iceberg's RewriteDataFiles binpack): files are grouped by partition (spec
 *    id and partition tuple). Only Parquet data files well under the target
 *    (FLOE_COMPACT_SMALL_PERCENT of it) are candidates; a file near or over the target is left
 *    alone, since stitching cannot split it. A partition with an equality delete file is skipped
 *    (and the plan says why): applying one would need every row's values compared, and a new
 *    file's higher sequence number would take it out of the delete's reach. An equality delete
 *    file of an unpartitioned spec may apply anywhere, so it skips every partition. Position
 *    delete files and deletion vectors do not skip anything (design notes 5 and 6). Candidates
 *    fill bins first-fit in manifest order, up to the target in input bytes; a bin only takes
 *    files whose footers floe_parquet_compatible accepts against its first file (same schema,
 *    same codecs). A bin of one file is dropped: rewriting it gains nothing.
 * 2. Stitch: the new file is "PAR1", every row group of every input in order (column chunks
 *    copied byte for byte; a row group whose chunks are contiguous is one copy, and runs that
 *    follow each other in the same input merge into one), then the page indexes and bloom
 *    filters that can be kept, then the new footer (parquet_stitch.h). A chunk's ColumnIndex is
 *    copied unchanged and its OffsetIndex rewritten with the moved page offsets, but only when
 *    both lie in the index bytes the caller passed; otherwise both are dropped. A bloom filter is
 *    copied when it lies in those bytes, else dropped. Nothing in the new footer points at bytes
 *    that are not what it says.
 * 3. Merge: counts (column sizes, value, null and NaN counts) are summed when every input has
 *    them, else left out; a lower bound is the least of the inputs' lower bounds and an upper
 *    bound the greatest, ordered by the column's Iceberg type (floe_iceberg_value_compare), and
 *    left out when some input lacks one or the type is unknown. A missing statistic only costs a
 *    reader a file it could have skipped; a wrong one loses rows.
 * 4. Row lineage (format version 3): a moved row keeps its row id and last-updated sequence
 *    number (spec "Row Lineage"). Inputs that inherit both (no such columns) get them written
 *    out: every copied row group is followed by two new column chunks (compact_lineage.h), and
 *    the footer lists them. Inputs that carry both columns, with no nulls, are copied as they are.
 * 5. Deletion vectors (v3): a row group whose every row the vector deletes is left out of the new
 *    file; one whose rows it deletes only some of is written again without them (parquet_filter.h:
 *    each column chunk one PLAIN page, no page index), and its lineage columns hold the kept rows'
 *    original positions. Its chunks keep statistics that still hold, so engines can still skip
 *    it: the null count; as min_value and max_value the filter's exact bounds of the kept values
 *    (parquet_filter.h design note 4), or where it has none the old chunk's, marked inexact (a
 *    bound of more rows holds for fewer); the old deprecated min and max, which hold too; no
 *    bounds when only nulls are left. The distinct and NaN counts and the size statistics, which
 *    counted deleted rows, go. Its bloom filters are copied as for any row group (design note 2):
 *    a filter of more values has no false negatives. The new file's manifest entry keeps the
 *    inputs' merged bounds (design note 3), which hold for the rows kept too. Where the filter
 *    cannot decode a column, the file is not rewritten (it keeps its vector). A deletion vector
 *    names its data file, so it never applies to another file.
 * 6. Position delete files (v2, and v3 tables upgraded from v2): a Parquet file of (file_path,
 *    pos) rows (position_deletes.h). One applies to a data file under the spec's rule ("Scan
 *    Planning", floe_compact_position_deletes_apply): same spec and partition, or an
 *    unpartitioned delete file; the data file's sequence number at most the delete file's; its
 *    referenced_data_file, when set, naming the data file. The positions it holds for a file are
 *    applied exactly as a deletion vector's (design note 5), together with the file's vector if
 *    it has one. The new file's sequence number is above every delete file's, so none applies to
 *    it, and its path is new, so none names it.
 */
#ifndef FLOE_ICEBERG_COMPACT_H
#define FLOE_ICEBERG_COMPACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stitch.h"

/** A data file is a candidate when it is smaller than this share of the target (Iceberg's
 * min-file-size-bytes default is 75 % of the target). */
#define FLOE_COMPACT_SMALL_PERCENT 75
/** The most bytes of page indexes and bloom filters read from one input (design note 2). */
#define FLOE_COMPACT_INDEX_MAX ((uint64_t)16 * 1024 * 1024)
#define FLOE_COMPACT_REASON_MAX 256

/** One file of the snapshot, as its manifest entry says. Borrowed by the plan. */
typedef struct floe_compact_file {
    const floe_iceberg_data_file_t *file;
    int32_t spec_id;
} floe_compact_file_t;

/** A group of files to rewrite as one new file: indexes into the plan's files, in manifest order. */
typedef struct floe_compact_bin {
    size_t *files;
    size_t n_files;
    uint64_t n_bytes; /* the inputs' sizes added up */
    int64_t n_rows;   /* their footers' rows added up */
} floe_compact_bin_t;

/** A partition left alone, and why ("spec 0 partition (3): skipped, it has equality delete files, ..."). */
typedef struct floe_compact_skip {
    char reason[FLOE_COMPACT_REASON_MAX];
} floe_compact_skip_t;

typedef struct floe_compact_plan {
    uint64_t target_bytes;
    int64_t max_rows; /* set before floe_compact_pack: the most rows a bin may hold (0: no limit) */
    size_t n_files;
    bool *is_candidate;          /* per file: floe_compact_select's verdict */
    size_t *order;               /* the files by partition, then manifest order */
    floe_compact_bin_t *bins;    /* floe_compact_pack's */
    size_t n_bins;
    floe_compact_skip_t *skipped;
    size_t n_skipped;
} floe_compact_plan_t;

/**
 * First half of planning (design note 1): marks plan->is_candidate[i] for the files worth
 * reading the footer of, and lists the partitions skipped. The job then decodes the candidates'
 * footers and calls floe_compact_pack. target_bytes must be positive. Release *plan with
 * floe_compact_plan_dispose.
 */
void floe_compact_select(const floe_compact_file_t *files, size_t n_files, uint64_t target_bytes,
                         floe_compact_plan_t *plan /* OUT */);

/**
 * Second half: fills plan->bins from the candidates, footers[i] being the decoded footer of file
 * i (read for every candidate; others may be NULL). Files whose footers are not compatible go in
 * different bins.
 */
void floe_compact_pack(floe_compact_plan_t *plan, const floe_compact_file_t *files,
                       const floe_parquet_file_metadata_t *const *footers);

/**
 * How a deletion vector's ascending positions[0..n) fall on footer's row groups (design note 5):
 * is_dropped[g] for a row group it deletes whole, is_partial[g] for one it deletes only some rows
 * of (both arrays have footer->n_row_groups entries); *n_deleted_rows counts the rows deleted
 * (positions past the file's rows are not).
 */
void floe_compact_dv_split(const floe_parquet_file_metadata_t *footer, const uint64_t *positions, size_t n,
                           bool *is_dropped /* OUT */, bool *is_partial /* OUT */, int64_t *n_deleted_rows /* OUT */);

/** True when f is a deletion vector (v3): position deletes of one data file (referenced_data_file)
 * as a blob of a Puffin file. A Parquet or Avro position delete file that names one data file is not. */
bool floe_compact_is_deletion_vector(const floe_iceberg_data_file_t *f);

/** Whether the position delete file `del` (a Parquet or Avro one, not a deletion vector) applies
 * to the data file `data` (design note 6); the sequence numbers are their data sequence numbers. */
bool floe_compact_position_deletes_apply(const floe_compact_file_t *del, int64_t del_seq,
                                         const floe_compact_file_t *data, int64_t data_seq);

/** True when two files have the same spec id and partition tuple. */
bool floe_compact_same_partition(const floe_compact_file_t *a, const floe_compact_file_t *b);

/** Frees what the plan owns and zeroes it. Safe on a zeroed plan. */
void floe_compact_plan_dispose(floe_compact_plan_t *plan);

/** A row group written again without the rows a deletion vector deletes (design note 5). */
typedef struct floe_compact_rewrite {
    const floe_parquet_filtered_t *columns; /* one per column chunk, in order */
    int64_t num_rows;                       /* the rows kept */
    const uint64_t *kept;                   /* their positions in the row group (ascending), for lineage */
} floe_compact_rewrite_t;

/** One input of a stitched file. */
typedef struct floe_compact_source {
    const floe_parquet_file_metadata_t *footer;
    uint64_t footer_offset;     /* where its FileMetaData starts (floe_parquet_footer_t.offset) */
    const uint8_t *index_bytes; /* optional: the file's bytes [index_offset, index_offset + index_len) */
    uint64_t index_offset;      /*   (floe_compact_index_range), for page indexes and bloom filters */
    size_t index_len;
    /* Row lineage (design note 4): when set (on every source or none), the new file gets the
     * _row_id and _last_updated_sequence_number columns; this input's row r has row id
     * first_row_id + r and sequence number sequence_number. */
    bool has_lineage;
    int64_t first_row_id;
    int64_t sequence_number;
    /* Deletion vector (design note 5): optional, one flag per row group; a dropped row group is
     * not copied (its rows' positions still count for the row ids of the rows after it). */
    const bool *is_dropped;
    const floe_compact_rewrite_t *const *rewrites; /* optional, per row group: NULL copies it as it is */
} floe_compact_source_t;

/**
 * Where an input's page indexes and bloom filters usually are: from the end of its last column
 * chunk to its footer. Empty when there is nothing there or it is longer than
 * FLOE_COMPACT_INDEX_MAX (they are then dropped).
 */
floe_parquet_range_t floe_compact_index_range(const floe_parquet_file_metadata_t *footer, uint64_t footer_offset);

#define FLOE_COMPACT_LITERAL (-1)

/** One run of the new file's bytes: a copy from an input, or bytes the layout holds. */
typedef struct floe_compact_piece {
    int32_t source;      /* the input's index, or FLOE_COMPACT_LITERAL */
    uint64_t offset;     /* in the input (a copy) */
    uint64_t length;
    const uint8_t *data; /* a literal's bytes, owned by the layout */
} floe_compact_piece_t;

typedef struct floe_compact_layout {
    floe_compact_piece_t *pieces;
    size_t n_pieces;
    uint64_t size;             /* the new file's length */
    int64_t num_rows;
    int64_t *split_offsets;    /* each row group's first byte, for the manifest entry */
    size_t n_split_offsets;
    size_t n_kept_indexes;     /* chunks whose page indexes were kept */
    size_t n_dropped_indexes;  /* chunks that had page indexes and lost them */
    uint8_t **owned;           /* literal buffers */
    size_t n_owned;
} floe_compact_layout_t;

/**
 * Lays out one new file from sources[0..n_sources) (design note 2): out->pieces, written in
 * order, make the file. Returns FLOE_ICEBERG_OK, or FLOE_ICEBERG_EINVALID with the reason in err
 * (an input whose chunks lie outside its data, inputs that are not compatible) and *out zeroed.
 * Release with floe_compact_layout_dispose. The sources may be freed afterwards.
 */
int floe_compact_stitch(const floe_compact_source_t *sources, size_t n_sources, floe_compact_layout_t *out /* OUT */,
                        floe_iceberg_error_t *err);

void floe_compact_layout_dispose(floe_compact_layout_t *layout);

/**
 * The laid-out file in memory: each piece in order, a literal's bytes or source k's from
 * inputs[k] (that input's whole file). Malloc'ed, layout->size bytes; the caller frees. For files
 * small enough to hold (replication's position delete files, tests); compaction streams pieces.
 */
uint8_t *floe_compact_layout_bytes(const floe_compact_layout_t *layout, const uint8_t *const *inputs);

/** An Iceberg primitive type by field id ("long", "decimal(9,2)"), for ordering bounds. */
typedef struct floe_compact_field_type {
    int32_t field_id;
    const char *type;
} floe_compact_field_type_t;

/**
 * The new file's manifest entry data (design note 3): content data, format PARQUET, the given
 * path, the first input's partition, summed record count (the layout's rows), the layout's size
 * and split offsets, merged column statistics, and sort order 0 (unsorted) when every input says
 * so (row groups laid end to end are not sorted as a whole, so no other order is claimed). Everything *out points at is allocated in `arena` or borrowed from the inputs and path.
 * Fails (FLOE_ICEBERG_EINVALID) when the inputs' record counts do not add up to the layout's rows,
 * which means a manifest and its files disagree.
 */
int floe_compact_merge(const floe_iceberg_data_file_t *const *inputs, size_t n_inputs,
                       const floe_compact_field_type_t *types, size_t n_types, const floe_compact_layout_t *layout,
                       char *path, floe_parquet_arena_t *arena, floe_iceberg_data_file_t *out /* OUT */,
                       floe_iceberg_error_t *err);

#endif
