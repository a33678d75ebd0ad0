/*
 * Phase 1 of the compaction job (compaction.c design note 1), its plan: the job's state, the
 * candidates' footers, the deletion vectors and position delete files that apply to them (read
 * and decoded), and the bins of files that become one new file each (iceberg/compact.h). Also the
 * helpers the later steps share: the job's arena, positioned reads, a row group written again
 * without its deleted rows.
 *
 * Design notes cited are compaction.c's.
 */
#ifndef FLOE_MAINTENANCE_COMPACTION_PLAN_H
#define FLOE_MAINTENANCE_COMPACTION_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/compact.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/position_deletes.h"
#include "maintenance/compaction_view.h"
#include "maintenance/job.h"

/** One new data file, written in phase 1 (design note 1). */
typedef struct floe_compaction_output {
    const floe_compact_file_t *first; /* its first input, in the job's first view (its partition) */
    const char **inputs;              /* the paths of the files it replaces */
    const char **dv_paths;            /* per input: the Puffin file of the vector applied, or NULL */
    int64_t *dv_offsets;              /*   and its blob's offset (design note 8) */
    const char ***pd_paths;           /* per input: the position delete files that apply to it */
    size_t *n_pd;                     /*   (design note 9) */
    size_t n_inputs;
    floe_compact_layout_t layout;     /* the new file's split offsets live here */
    floe_iceberg_data_file_t file;    /* its manifest entry's data */
    char *location;
    bool is_committed;
    bool is_empty; /* its inputs' vectors deleted every row: no file, only removals (design note 8) */
} floe_compaction_output_t;

/** The deletion vector phase 1 applied to one file (design note 8). */
typedef struct floe_compaction_applied {
    long dv;          /* its index in `first`'s files, or -1 */
    bool *is_dropped; /* per row group of the file */
    bool *is_partial; /* per row group: written again without some rows */
    uint64_t *positions; /* the vector's and the position delete files', ascending, unique */
    size_t n_positions;
    int64_t dropped_rows; /* every row they delete */
    size_t *pd;           /* the position delete files that apply to it: indexes in posdels (design note 9) */
    size_t n_pd;
} floe_compaction_applied_t;

/** A position delete file that applies to some candidate, read in phase 1 (design note 9). */
typedef struct floe_compaction_posdel {
    size_t file;                    /* its index in `first`'s files */
    const char *path;               /* its file_path there */
    bool is_read;                   /* decoded; else `why` says why not */
    floe_iceberg_pos_deletes_t rows;
    char why[FLOE_COMPACT_REASON_MAX];
} floe_compaction_posdel_t;

/** A row group written again without the rows its vector deletes (compact.h design note 5). */
typedef struct floe_compaction_group_rewrite {
    floe_compact_rewrite_t rw;
    floe_parquet_filtered_t *columns;
    uint64_t *kept;
    uint32_t n_columns;
} floe_compaction_group_rewrite_t;

/** The job's state across attempts. */
typedef struct floe_compaction {
    floe_job_t *job;
    floe_compaction_view_t first; /* the snapshot phase 1 planned from; the outputs borrow from it */
    floe_iceberg_schema_index_t schema;
    floe_compact_field_type_t *types;
    char (*type_text)[FLOE_ICEBERG_TYPE_TEXT_MAX];
    size_t n_types;
    char *table_dir; /* the table location's key prefix: "" or "<path>/" */
    floe_compact_plan_t plan;
    floe_parquet_file_metadata_t *footers; /* per file of `first` */
    uint64_t *footer_offsets;
    floe_compaction_output_t *outputs; /* one per bin */
    size_t n_outputs;
    floe_parquet_arena_t *arena; /* merged statistics */
    size_t n_kept, n_replaced;   /* of the attempt that committed */
    size_t n_written;            /* its kept outputs that are files (not empty) */
    bool is_v3;                  /* format version 3: row lineage (design note 7) */
    size_t n_no_lineage;         /* v3 files left alone: their lineage cannot be kept */
    floe_compaction_applied_t *applied; /* per file of `first`: the deletion vector applied (design note 8) */
    size_t n_partial_dv;         /* files left alone: their vector cannot be applied */
    char partial_reason[FLOE_COMPACT_REASON_MAX]; /* why, for the first of them */
    size_t n_dv_kept;            /* vectors the attempt that committed removed */
    floe_compaction_posdel_t *posdels; /* by path (design note 9) */
    size_t n_posdels;
    int64_t posdel_rows;         /* their rows decoded, under FLOE_COMPACT_LINEAGE_ROWS_MAX */
    size_t n_partial_pd;         /* files left alone: their position deletes cannot be applied */
    char pd_reason[FLOE_COMPACT_REASON_MAX]; /* why, for the first of them */
    size_t n_pd_removed;         /* position delete files the attempt that committed removed */
    size_t n_pd_applied;         /* its replaced files that position delete files applied to */
} floe_compaction_t;

/** Plans c->first (read, with a current snapshot): the table's directory, its schema's types, the
 * candidates' footers and deletes, and c->plan's bins of files near `target` bytes. FLOE_EFAIL
 * with the job's message set. */
int floe_compaction_plan(floe_compaction_t *c, uint64_t target);

/** `n * size` zeroed bytes from `arena`, which has no limit (abort on overflow, as floe_xmalloc). */
void *floe_compaction_arena_alloc(floe_parquet_arena_t *arena, size_t n, size_t size);

/** Reads `len` bytes at `offset` of fd. */
int floe_compaction_read_at(int fd, uint8_t *buf, size_t len, uint64_t offset);

/** The Iceberg type of field `field_id` of the current schema, or NULL. */
const char *floe_compaction_type_of(const floe_compaction_t *c, int32_t field_id);

/** Writes row group `g` of file i again without the rows its deletes remove (compact.h design note
 * 5), reading its chunks from fd. FLOE_EFAIL with the reason in `why` when a chunk cannot be read
 * or decoded. Release *out with floe_compaction_group_rewrite_dispose either way. */
int floe_compaction_rewrite_group(const floe_compaction_t *c, size_t i, int fd, uint32_t g,
                                  floe_compaction_group_rewrite_t *out /* OUT */, char *why, size_t why_len);

void floe_compaction_group_rewrite_dispose(floe_compaction_group_rewrite_t *g);

/** The position delete file at `path` that phase 1 read, or NULL. */
const floe_compaction_posdel_t *floe_compaction_find_posdel(const floe_compaction_t *c, const char *path);

#endif
