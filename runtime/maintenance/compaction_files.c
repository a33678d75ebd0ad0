/*
 * Phase 1 of the compaction job, the new files (compaction_files.h): each bin's inputs opened,
 * their row groups laid out and copied, the merged statistics written into the new entry.
 *
 * Design notes cited are compaction.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_footer.h"
#include "maintenance/compaction_files.h"
#include "maintenance/job.h"

/* One bin's open inputs. */
typedef struct bin_io {
    int *fds;
    uint8_t **index;
    floe_compact_source_t *sources;
    const floe_iceberg_data_file_t **inputs;
    floe_compaction_group_rewrite_t **groups;                   /* per input: its rewritten row groups, or NULL */
    const floe_compact_rewrite_t ***rewrites;   /* per input: per row group, for the stitch */
    uint32_t *n_groups;
    size_t n;
} bin_io_t;

static void bin_io_init(bin_io_t *io, size_t n)
{
    io->n = n;
    io->fds = floe_xmalloc((n + 1) * sizeof(*io->fds));
    for (size_t k = 0; k < n; k++)
        io->fds[k] = -1;
    io->index = floe_xcalloc(n + 1, sizeof(*io->index));
    io->sources = floe_xcalloc(n + 1, sizeof(*io->sources));
    io->inputs = floe_xcalloc(n + 1, sizeof(*io->inputs));
    io->groups = floe_xcalloc(n + 1, sizeof(*io->groups));
    io->rewrites = floe_xcalloc(n + 1, sizeof(*io->rewrites));
    io->n_groups = floe_xcalloc(n + 1, sizeof(*io->n_groups));
}

static void bin_io_dispose(bin_io_t *io)
{
    for (size_t k = 0; k < io->n; k++) {
        if (io->fds[k] >= 0)
            close(io->fds[k]);
        free(io->index[k]);
        for (uint32_t g = 0; io->groups[k] != NULL && g < io->n_groups[k]; g++)
            floe_compaction_group_rewrite_dispose(&io->groups[k][g]);
        free(io->groups[k]);
        free(io->rewrites[k]);
    }
    free(io->groups);
    free(io->rewrites);
    free(io->n_groups);
    free(io->fds);
    free(io->index);
    free(io->sources);
    free(io->inputs);
}

/* Writes again the row groups of input k (file i) its vector deletes part of (design note 8). */
static int rewrite_groups(floe_compaction_t *c, bin_io_t *io, size_t k, size_t i)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    char why[FLOE_COMPACT_REASON_MAX] = "";

    io->n_groups[k] = footer->n_row_groups;
    io->groups[k] = floe_xcalloc(footer->n_row_groups + 1, sizeof(*io->groups[k]));
    io->rewrites[k] = floe_xcalloc(footer->n_row_groups + 1, sizeof(*io->rewrites[k]));
    for (uint32_t g = 0; g < footer->n_row_groups; g++) {
        if (!c->applied[i].is_partial[g])
            continue;
        if (floe_compaction_rewrite_group(c, i, io->fds[k], g, &io->groups[k][g], why, sizeof(why)))
            return floe_job_fail(c->job, "cannot apply the deletes of %s: %s", io->inputs[k]->file_path, why);
        io->rewrites[k][g] = &io->groups[k][g].rw;
    }
    io->sources[k].rewrites = io->rewrites[k];
    return FLOE_OK;
}

/* Opens input k of the bin and reads its page indexes and bloom filters (compact.h note 2). */
static int open_input(floe_compaction_t *c, bin_io_t *io, size_t k, size_t i)
{
    floe_compact_source_t *src = &io->sources[k];
    floe_parquet_range_t range;
    uint64_t size = 0;

    io->inputs[k] = c->first.files[i].file;
    if (floe_job_open_object(c->job, io->inputs[k]->file_path, &io->fds[k], &size))
        return FLOE_EFAIL;
    src->footer = &c->footers[i];
    src->footer_offset = c->footer_offsets[i];
    if (c->is_v3) {
        bool has_both = false, is_complete = false;
        const floe_iceberg_manifest_entry_t *e =
            &c->first.manifests[c->first.file_manifest[i]].entries[c->first.file_entry[i]];
        floe_compact_lineage_inspect(src->footer, &has_both, &is_complete);
        src->has_lineage = !has_both; /* inherited: write it out (compact.h design note 4) */
        src->first_row_id = e->file.first_row_id;
        src->sequence_number = e->sequence_number;
    }
    src->is_dropped = c->applied[i].is_dropped; /* design note 8 */
    if (c->applied[i].is_partial != NULL && rewrite_groups(c, io, k, i))
        return FLOE_EFAIL;
    range = floe_compact_index_range(src->footer, src->footer_offset);
    if (range.length == 0)
        return FLOE_OK;
    io->index[k] = floe_xmalloc((size_t)range.length);
    if (floe_compaction_read_at(io->fds[k], io->index[k], (size_t)range.length, range.offset))
        return floe_job_fail(c->job, "cannot read %s: %s", io->inputs[k]->file_path, strerror(errno));
    src->index_bytes = io->index[k];
    src->index_offset = range.offset;
    src->index_len = (size_t)range.length;
    return FLOE_OK;
}

/* Writes the layout's pieces as a new data file; *location is its s3:// location. */
static int write_layout(floe_compaction_t *c, const bin_io_t *io, const floe_compact_layout_t *l, char **location)
{
    floe_job_writer_t w;
    char *dir = floe_xmalloc(strlen(c->table_dir) + sizeof("data/"));
    char *key;
    int rc = FLOE_OK;

    sprintf(dir, "%sdata/", c->table_dir);
    key = floe_job_fresh_key(dir, ".parquet");
    free(dir);
    if (floe_job_writer_open(c->job, &w)) {
        free(key);
        return FLOE_EFAIL;
    }
    for (size_t p = 0; p < l->n_pieces && rc == FLOE_OK; p++) {
        const floe_compact_piece_t *piece = &l->pieces[p];
        uint64_t off = piece->offset;
        rc = piece->source == FLOE_COMPACT_LITERAL
                 ? floe_job_writer_append(&w, piece->data, (size_t)piece->length)
                 : floe_job_writer_copy_fd(&w, io->fds[piece->source], &off, piece->length);
    }
    if (rc != FLOE_OK)
        floe_job_writer_discard(&w);
    else
        rc = floe_job_writer_finish(&w, key, location);
    free(key);
    return rc;
}

/* Records the vector and position delete files applied to input k (file i) and, when they dropped
 * rows, gives the merge a copy of the input's entry with the rows it keeps and no counts (design
 * notes 8 and 9). */
static void note_vector(floe_compaction_t *c, floe_compaction_output_t *out, size_t k, size_t i,
                        const floe_iceberg_data_file_t **input)
{
    const floe_compaction_applied_t *ap = &c->applied[i];
    floe_iceberg_data_file_t *kept;

    out->n_pd[k] = ap->n_pd;
    out->pd_paths[k] = floe_xcalloc(ap->n_pd + 1, sizeof(*out->pd_paths[k]));
    for (size_t j = 0; j < ap->n_pd; j++)
        out->pd_paths[k][j] = c->posdels[ap->pd[j]].path;
    if (ap->dv >= 0) {
        out->dv_paths[k] = c->first.files[ap->dv].file->file_path;
        out->dv_offsets[k] = c->first.files[ap->dv].file->content_offset;
    }
    if (ap->dropped_rows == 0)
        return;
    kept = floe_compaction_arena_alloc(c->arena, 1, sizeof(*kept));
    *kept = **input;
    kept->record_count -= ap->dropped_rows;
    kept->n_column_sizes = kept->n_value_counts = kept->n_null_value_counts = kept->n_nan_value_counts = 0;
    *input = kept;
}

static int write_output(floe_compaction_t *c, const floe_compact_bin_t *bin, floe_compaction_output_t *out)
{
    bin_io_t io;
    floe_iceberg_error_t err = {0};
    int rc = FLOE_EFAIL;

    bin_io_init(&io, bin->n_files);
    out->first = &c->first.files[bin->files[0]];
    out->inputs = floe_xcalloc(bin->n_files + 1, sizeof(*out->inputs));
    out->dv_paths = floe_xcalloc(bin->n_files + 1, sizeof(*out->dv_paths));
    out->dv_offsets = floe_xcalloc(bin->n_files + 1, sizeof(*out->dv_offsets));
    out->pd_paths = floe_xcalloc(bin->n_files + 1, sizeof(*out->pd_paths));
    out->n_pd = floe_xcalloc(bin->n_files + 1, sizeof(*out->n_pd));
    out->n_inputs = bin->n_files;
    for (size_t k = 0; k < io.n; k++) {
        out->inputs[k] = c->first.files[bin->files[k]].file->file_path;
        if (open_input(c, &io, k, bin->files[k]))
            goto Exit;
        note_vector(c, out, k, bin->files[k], &io.inputs[k]);
    }
    if (floe_compact_stitch(io.sources, io.n, &out->layout, &err) != 0) {
        floe_job_fail(c->job, "cannot stitch %s and %zu other files: %s", out->inputs[0], io.n - 1, err.message);
        goto Exit;
    }
    if (out->layout.num_rows == 0) { /* design note 8: nothing left to write */
        out->is_empty = true;
        rc = FLOE_OK;
        goto Exit;
    }
    if (write_layout(c, &io, &out->layout, &out->location))
        goto Exit;
    if (floe_compact_merge(io.inputs, io.n, c->types, c->n_types, &out->layout, out->location, c->arena, &out->file,
                           &err) != 0) {
        floe_job_fail(c->job, "%s", err.message);
        goto Exit;
    }
    rc = FLOE_OK;
Exit:
    bin_io_dispose(&io);
    return rc;
}

int floe_compaction_write_outputs(floe_compaction_t *c)
{
    c->outputs = floe_xcalloc(c->plan.n_bins + 1, sizeof(*c->outputs));
    for (size_t b = 0; b < c->plan.n_bins; b++) {
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
        c->n_outputs++;
        if (write_output(c, &c->plan.bins[b], &c->outputs[b]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}
