/*
 * The compaction job (icebergCompaction): rewrites the small data files of a table's
 * current snapshot into files near targetFileSizeMB and commits the result as a `replace`
 * snapshot. The pure half (which files go together, how a new file is laid out, its merged
 * statistics) is iceberg/compact.h; the job does its I/O through maintenance/job.h, in steps:
 * compaction_view.c reads the manifest list and the manifests, compaction_plan.c the
 * candidates' Parquet footers and deletes and packs the bins, compaction_files.c writes each new
 * file with kernel copies of the inputs' column chunks, and compaction_commit.c writes the new
 * manifests and manifest list (snapshot_writer.h) and commits through floe_job_commit's
 * compare-and-swap. This file runs the steps and reports.
 *
 * Not for scheduling, status or HTTP (the runner and route), nor for deleting the replaced files:
 * they stay until snapshot expiration finds them unreachable.
 *
 * Design notes
 * ------------
 * 1. Two phases, as Iceberg's RewriteFiles: first the new data files are planned and written
 *    from the snapshot current when the job starts (the slow part, done once); then
 *    floe_job_commit runs the commit plan, which only writes manifests, once per attempt. Each
 *    attempt re-reads the snapshot the attempt sees (job.h design note 2) and keeps a new file
 *    only when every file it replaces is still live there, its partition still has no equality
 *    delete file and the same deletes apply to its inputs (design notes 8 and 9); so clients
 *    that append while the job runs cost it a manifest rewrite, not a rewrite of the data, and a
 *    client that deleted or rewrote those files meanwhile wins.
 * 2. New files that end up in no commit (their inputs changed, or the job failed) are deleted
 *    after the commit: nothing ever referenced them. A kill -9 leaves them behind as
 *    unreferenced files, which unreferenced-file removal collects.
 * 3. The new snapshot, with sequence number last-sequence-number + 1:
 *      - one new manifest per partition spec holds the new files as ADDED;
 *      - each manifest that held a replaced file is rewritten: replaced files DELETED (keeping
 *        their sequence numbers), the other live files EXISTING, earlier DELETED entries gone;
 *      - every other manifest (delete manifests included) is carried over unchanged.
 *    The new files' sequence numbers are inherited from the new manifest (Iceberg's rule for
 *    ADDED entries). Replacing data files by a newer sequence number takes them out of every
 *    existing delete file's reach, which is why the deletes that apply to them are applied
 *    first (design notes 8 and 9) and partitions with equality delete files are skipped
 *    (compact.h design note 1) and checked again at commit.
 * 4. Summary counts are computed from the manifests, not carried from the previous summary:
 *    added/deleted files, records and sizes from the kept files, total-* from the live entries
 *    after the replace.
 * 5. The new snapshot's id, manifests and manifest list are written by the snapshot writer
 *    (snapshot_writer.h), which record expiration shares: a random id below 2^53, manifests
 *    rewritten as Iceberg's ManifestWriter does.
 * 6. sort, z-order and auto run as binpack; the job's message says so when AWS would have done
 *    otherwise (sort and z-order always; auto when the table has a sort order, which AWS's auto
 *    then sorts by).
 * 7. Format version 3 (row lineage): the view writes out the first row id each file inherits
 *    (row_lineage.h), so rewritten manifests keep every file's row ids; new files carry their
 *    rows' _row_id and _last_updated_sequence_number as columns (compact.h design note 4), so
 *    they need no first row id of their own. A file whose rows have no row id (written before
 *    the upgrade to v3) or whose lineage columns hold nulls stays as it is, and the message says
 *    so. The new manifest list gives its new manifests first row ids from next-row-id and the
 *    snapshot says so (first-row-id, added-rows).
 * 8. Deletion vectors (compact.h design note 5): a candidate named by exactly one live vector
 *    has it read and decoded in phase 1; the row groups it deletes whole are left out of the new
 *    file (a bin whose every row goes writes no file, and only removes), those it deletes part of
 *    are written again without its rows (compact.h design note 5), and a vector that deletes
 *    part of a row group the filter cannot decode (or a file named by several) keeps its file
 *    out of the plan, which the message counts. The commit removes each applied vector
 *    (DELETED in its rewritten delete manifest) with its data file, and keeps a new file only
 *    while each of its inputs is still named by exactly the vector phase 1 applied (same Puffin
 *    file and offset) or, if none was applied, by none: a client that deleted more rows
 *    meanwhile wins. The new file's entry has no counts for inputs that lost rows (bounds stay:
 *    they still hold). The Puffin files go once no live entry points into them (snapshot
 *    expiration, unreferenced-file removal).
 * 9. Position delete files (compact.h design note 6): phase 1 reads and decodes (whole, up to
 *    POSDEL_BYTES_MAX each and FLOE_COMPACT_LINEAGE_ROWS_MAX rows in all) every one that applies
 *    to a candidate, and a candidate's positions from all of them (and its vector) go through
 *    design note 8's machinery. A candidate one of whose position delete files cannot be read
 *    (not Parquet, a codec or encoding the filter cannot decode, over the limits) is left alone,
 *    and the message counts it with the first reason. The commit keeps a new file only while the
 *    position delete files that apply to each input are exactly those phase 1 applied, and
 *    removes a position delete file (DELETED in its rewritten delete manifest) only when every
 *    data file it names is replaced by this commit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/position_deletes.h"
#include "maintenance/compaction_commit.h"
#include "maintenance/compaction_files.h"
#include "maintenance/compaction_plan.h"
#include "maintenance/job.h"

#define MIB ((uint64_t)1024 * 1024)
/** AWS's default targetFileSizeMB, for a configuration that has none. */
#define DEFAULT_TARGET_MB 512

/* Deletes the new files no commit references (design note 2); the job's figures do not count them. */
static void drop_uncommitted(floe_compaction_t *c, bool committed)
{
    const char **drop = floe_xcalloc(c->n_outputs + 1, sizeof(*drop));
    floe_job_stats_t saved = c->job->stats;
    size_t n = 0;

    for (size_t o = 0; o < c->n_outputs; o++) {
        if (c->outputs[o].location != NULL && !(committed && c->outputs[o].is_committed))
            drop[n++] = c->outputs[o].location;
    }
    if (n > 0)
        floe_job_delete_objects(c->job, drop, n);
    c->job->stats.files_deleted = saved.files_deleted;
    c->job->stats.bytes_deleted = saved.bytes_deleted;
    free(drop);
}

/* Whether AWS would run `strategy` otherwise than binpack (design note 6): sort and z-order
 * always, auto when the table has a sort order (AWS's auto then sorts). */
static bool runs_differently(const floe_compaction_t *c, const char *strategy)
{
    const cJSON *order, *fields;

    if (strategy == NULL || strcasecmp(strategy, "binpack") == 0)
        return false;
    if (strcasecmp(strategy, "auto") != 0)
        return true;
    if (!c->first.has_snapshot)
        return false;
    order = floe_iceberg_metadata_sort_order(&c->first.md, c->first.md.default_sort_order_id);
    fields = order != NULL ? cJSON_GetObjectItemCaseSensitive(order, "fields") : NULL;
    return cJSON_GetArraySize(fields) > 0;
}

/* What the job says on success: what it did, what it skipped, how it ran the strategy. */
static void note(floe_compaction_t *c, bool committed)
{
    floe_job_stats_t *st = &c->job->stats;
    const char *strategy = c->job->settings.strategy;
    size_t used, max = sizeof(st->message);

    if (!committed)
        used = (size_t)snprintf(st->message, max, "nothing to compact");
    else
        used = (size_t)snprintf(st->message, max, "compacted %zu data files into %zu", c->n_replaced, c->n_written);
    if (c->n_kept < c->n_outputs && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu new files dropped, their inputs changed while the job ran",
                                 c->n_outputs - c->n_kept);
    if (committed && c->n_dv_kept > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used, "; applied %zu deletion vectors", c->n_dv_kept);
    if (committed && c->n_pd_applied > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; applied the position deletes of %zu data files, %zu position delete files removed",
                                 c->n_pd_applied, c->n_pd_removed);
    if (c->n_partial_dv > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their deletion vectors cannot be applied (%s)", c->n_partial_dv,
                                 c->partial_reason);
    if (c->n_partial_pd > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their position delete files cannot be applied (%s)",
                                 c->n_partial_pd, c->pd_reason);
    if (c->n_no_lineage > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their rows' row ids cannot be kept (no first row id, or "
                                 "row lineage columns with nulls)", c->n_no_lineage);
    if (runs_differently(c, strategy) && used < max)
        used += (size_t)snprintf(st->message + used, max - used, "; strategy %s ran as binpack", strategy);
    for (size_t i = 0; i < c->plan.n_skipped && used < max; i++)
        used += (size_t)snprintf(st->message + used, max - used, "; %s", c->plan.skipped[i].reason);
}

/* Phase 1 (design note 1): reads the current snapshot and writes the new files. */
static int prepare(floe_compaction_t *c)
{
    int32_t mb = c->job->settings.target_file_size_mb > 0 ? c->job->settings.target_file_size_mb : DEFAULT_TARGET_MB;
    char *json = NULL, *location = NULL, *token = NULL;
    int rc;

    if (floe_job_read_metadata(c->job, &json, &location, &token))
        return FLOE_EFAIL;
    rc = json == NULL ? floe_job_fail(c->job, "the table has no metadata yet")
                      : floe_compaction_view_load(c->job, json, &c->first);
    free(json);
    free(location);
    free(token);
    if (rc != FLOE_OK || !c->first.has_snapshot)
        return rc;
    c->is_v3 = c->first.md.format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION; /* design note 7 */
    if (floe_compaction_plan(c, (uint64_t)mb * MIB))
        return FLOE_EFAIL;
    c->arena = floe_parquet_arena_new(SIZE_MAX);
    return floe_compaction_write_outputs(c);
}

static void compaction_dispose(floe_compaction_t *c)
{
    for (size_t o = 0; o < c->n_outputs; o++) {
        floe_compact_layout_dispose(&c->outputs[o].layout);
        free(c->outputs[o].inputs);
        free(c->outputs[o].dv_paths);
        free(c->outputs[o].dv_offsets);
        for (size_t k = 0; c->outputs[o].pd_paths != NULL && k < c->outputs[o].n_inputs; k++)
            free(c->outputs[o].pd_paths[k]);
        free(c->outputs[o].pd_paths);
        free(c->outputs[o].n_pd);
        free(c->outputs[o].location);
    }
    for (size_t i = 0; c->footers != NULL && i < c->first.n_files; i++)
        floe_parquet_file_metadata_dispose(&c->footers[i]);
    for (size_t i = 0; c->applied != NULL && i < c->first.n_files; i++) {
        free(c->applied[i].is_dropped);
        free(c->applied[i].is_partial);
        free(c->applied[i].positions);
        free(c->applied[i].pd);
    }
    free(c->applied);
    for (size_t k = 0; k < c->n_posdels; k++)
        floe_iceberg_pos_deletes_dispose(&c->posdels[k].rows);
    free(c->posdels);
    floe_compact_plan_dispose(&c->plan);
    floe_iceberg_schema_index_dispose(&c->schema);
    floe_parquet_arena_free(c->arena);
    floe_compaction_view_dispose(&c->first);
    free(c->outputs);
    free(c->footers);
    free(c->footer_offsets);
    free(c->types);
    free(c->type_text);
    free(c->table_dir);
}

int floe_maintenance_compaction_run(floe_job_t *job)
{
    floe_compaction_t c = {.job = job};
    bool committed = false;
    int rc = prepare(&c);

    if (rc == FLOE_OK && c.n_outputs > 0)
        rc = floe_job_commit(job, floe_compaction_plan_commit, &c, &committed);
    drop_uncommitted(&c, rc == FLOE_OK && committed);
    if (rc == FLOE_OK)
        note(&c, committed);
    compaction_dispose(&c);
    return rc;
}
