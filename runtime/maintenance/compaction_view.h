/*
 * A table's current snapshot as the compaction job reads it (compaction.c): the metadata, the
 * manifest list, every manifest, and each live entry with where it is. Phase 1 plans from one
 * view; each commit attempt reads its own (compaction.c design note 1). Also the questions both
 * phases ask of a view: which deletion vector names a data file, which position delete files
 * apply to it.
 */
#ifndef FLOE_MAINTENANCE_COMPACTION_VIEW_H
#define FLOE_MAINTENANCE_COMPACTION_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/compact.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/manifest.h"
#include "maintenance/job.h"

/** A table's current snapshot as some metadata shows it: its live files and where they are. */
typedef struct floe_compaction_view {
    floe_iceberg_metadata_t md;
    bool has_snapshot;
    int64_t snapshot_id;
    floe_iceberg_manifest_list_t list;
    floe_iceberg_manifest_t *manifests; /* one per list.files */
    floe_compact_file_t *files;         /* every live entry */
    size_t *file_manifest, *file_entry; /* where each one is */
    size_t n_files;
} floe_compaction_view_t;

/** Reads metadata.json and, when it has a current snapshot, that snapshot's manifests (the
 * entries with what they inherit written out, v3 first row ids included). FLOE_EFAIL with the
 * job's message set; release *v with floe_compaction_view_dispose either way. */
int floe_compaction_view_load(floe_job_t *job, const char *json, floe_compaction_view_t *v /* OUT */);

void floe_compaction_view_dispose(floe_compaction_view_t *v);

/** The one live deletion vector of the data file at `path`: its index in v->files, -1 for none,
 * -2 for several. */
long floe_compaction_vector_of(const floe_compaction_view_t *v, const char *path);

/** Whether view file d is a position delete file (not a vector) that applies to view file i. */
bool floe_compaction_pos_applies(const floe_compaction_view_t *v, size_t d, size_t i);

#endif
