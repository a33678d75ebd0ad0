/*
 * Phase 1 of the compaction job, the plan (compaction_plan.h): footers, the deletes that apply
 * to each candidate, and the bins.
 *
 * Design notes cited are compaction.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/position_deletes.h"
#include "maintenance/compaction_plan.h"
#include "maintenance/job.h"

#define MIB ((uint64_t)1024 * 1024)
#define AVRO_ERR_MAX 256
/** The largest position delete file read (whole, in memory: design note 9). */
#define POSDEL_BYTES_MAX (128 * MIB)

void *floe_compaction_arena_alloc(floe_parquet_arena_t *arena, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(arena, n == 0 ? 1 : n, size);

    if (p == NULL)
        abort(); /* the arena has no limit: only an overflow fails, as with floe_xmalloc */
    return p;
}

/* Reads `len` bytes at `offset` of fd. */
int floe_compaction_read_at(int fd, uint8_t *buf, size_t len, uint64_t offset)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = pread(fd, buf + done, len - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FLOE_EFAIL;
        done += (size_t)n;
    }
    return FLOE_OK;
}

/* Iceberg types by field id of the current schema, for ordering bounds. */
static int index_schema(floe_compaction_t *c)
{
    cJSON *schema = floe_iceberg_metadata_schema(&c->first.md, c->first.md.current_schema_id);
    floe_iceberg_error_t err;

    if (schema == NULL || floe_iceberg_schema_index(schema, &c->schema, &err) != 0)
        return floe_job_fail(c->job, "the table's current schema cannot be read");
    c->types = floe_xcalloc(c->schema.n_fields + 1, sizeof(*c->types));
    c->type_text = floe_xcalloc(c->schema.n_fields + 1, sizeof(*c->type_text));
    for (size_t i = 0; i < c->schema.n_fields; i++) {
        const floe_iceberg_field_t *f = &c->schema.fields[i];
        if (!f->is_primitive)
            continue;
        floe_iceberg_primitive_format(&f->primitive, c->type_text[c->n_types], sizeof(c->type_text[0]));
        c->types[c->n_types] = (floe_compact_field_type_t){f->id, c->type_text[c->n_types]};
        c->n_types++;
    }
    return FLOE_OK;
}

const char *floe_compaction_type_of(const floe_compaction_t *c, int32_t field_id)
{
    for (size_t i = 0; i < c->n_types; i++) {
        if (c->types[i].field_id == field_id)
            return c->types[i].type;
    }
    return NULL;
}

/* The key prefix of the table's location inside the warehouse ("" for its root). */
static int find_table_dir(floe_compaction_t *c)
{
    const char *location = c->first.md.location;
    const char *key = floe_job_key_of(c->job, location);
    char *root = floe_job_location_of(c->job, "");
    bool is_root = strncmp(location, root, strlen(root) - 1) == 0 && strlen(location) <= strlen(root);

    free(root);
    if (key == NULL && !is_root)
        return floe_job_fail(c->job, "the table location %s is outside its warehouse", location);
    c->table_dir = floe_xmalloc((key != NULL ? strlen(key) : 0) + 2);
    sprintf(c->table_dir, "%s%s", key != NULL ? key : "", key != NULL && key[strlen(key) - 1] != '/' ? "/" : "");
    return FLOE_OK;
}

/* Decodes the footer of candidate i, counting only the bytes read. */
static int read_footer(floe_compaction_t *c, size_t i)
{
    const char *path = c->first.files[i].file->file_path;
    floe_job_stats_t saved = c->job->stats;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err = {0};
    uint64_t size = 0;
    uint8_t *tail = NULL, *footer = NULL;
    size_t tail_len;
    int fd = -1, rc = FLOE_EFAIL;

    if (floe_job_open_object(c->job, path, &fd, &size))
        return FLOE_EFAIL;
    c->job->stats = saved;
    tail_len = size < FLOE_PARQUET_TAIL_HINT ? (size_t)size : FLOE_PARQUET_TAIL_HINT;
    tail = floe_xmalloc(tail_len + 1);
    if (floe_compaction_read_at(fd, tail, tail_len, size - tail_len)) {
        floe_job_fail(c->job, "cannot read the data file %s: %s", path, strerror(errno));
        goto Exit;
    }
    c->job->stats.bytes_read += (int64_t)tail_len;
    if (floe_parquet_footer_locate(tail, tail_len, size, &ft, &err) != 0)
        goto Corrupt;
    if (ft.in_tail == NULL) {
        footer = floe_xmalloc(ft.length + 1);
        if (floe_compaction_read_at(fd, footer, ft.length, ft.offset)) {
            floe_job_fail(c->job, "cannot read the footer of %s", path);
            goto Exit;
        }
        c->job->stats.bytes_read += ft.length;
    }
    if (floe_parquet_decode(ft.in_tail != NULL ? ft.in_tail : footer, ft.length, &c->footers[i], &err) != 0)
        goto Corrupt;
    c->footer_offsets[i] = ft.offset;
    rc = FLOE_OK;
    goto Exit;
Corrupt:
    floe_job_fail(c->job, "the data file %s has a bad Parquet footer: %s", path, err.message);
Exit:
    close(fd);
    free(tail);
    free(footer);
    return rc;
}

/* Whether file i of a v3 table can move with its rows' lineage (design note 7): it inherits row
 * ids (then the stitch writes them out) or carries both columns without nulls. */
static bool keeps_lineage(const floe_compaction_t *c, size_t i)
{
    bool has_both = false, is_complete = false;

    floe_compact_lineage_inspect(&c->footers[i], &has_both, &is_complete);
    if (has_both)
        return is_complete;
    return !floe_compact_lineage_has_any(&c->footers[i]) && c->first.files[i].file->has_first_row_id;
}

/* Reads and decodes the deletion vector `dv` (its blob in its Puffin file), counting the bytes. */
static int read_vector(floe_compaction_t *c, const floe_iceberg_data_file_t *dv, int64_t max_rows,
                       floe_iceberg_dv_t *out)
{
    floe_job_stats_t saved = c->job->stats;
    uint64_t size = 0;
    uint8_t *blob = NULL;
    char err[AVRO_ERR_MAX] = "";
    int fd = -1, rc = FLOE_EFAIL;

    if (!dv->has_content_offset || !dv->has_content_size_in_bytes || dv->content_offset < 0 ||
        dv->content_size_in_bytes <= 0 || dv->content_size_in_bytes > (int64_t)FLOE_COMPACT_INDEX_MAX)
        return floe_job_fail(c->job, "the deletion vector in %s has no valid content_offset and "
                                     "content_size_in_bytes", dv->file_path);
    if (floe_job_open_object(c->job, dv->file_path, &fd, &size))
        return FLOE_EFAIL;
    c->job->stats = saved;
    if ((uint64_t)dv->content_offset > size ||
        (uint64_t)dv->content_size_in_bytes > size - (uint64_t)dv->content_offset) {
        floe_job_fail(c->job, "the deletion vector at offset %" PRId64 " lies outside %s", dv->content_offset,
                      dv->file_path);
        goto Exit;
    }
    blob = floe_xmalloc((size_t)dv->content_size_in_bytes);
    if (floe_compaction_read_at(fd, blob, (size_t)dv->content_size_in_bytes, (uint64_t)dv->content_offset)) {
        floe_job_fail(c->job, "cannot read %s: %s", dv->file_path, strerror(errno));
        goto Exit;
    }
    c->job->stats.bytes_read += dv->content_size_in_bytes;
    if (floe_iceberg_dv_decode(blob, (size_t)dv->content_size_in_bytes, (size_t)(max_rows > 0 ? max_rows : 1), out,
                               err, sizeof(err)) != 0) {
        floe_job_fail(c->job, "the deletion vector at offset %" PRId64 " of %s is bad: %s", dv->content_offset,
                      dv->file_path, err);
        goto Exit;
    }
    rc = FLOE_OK;
Exit:
    close(fd);
    free(blob);
    return rc;
}

void floe_compaction_group_rewrite_dispose(floe_compaction_group_rewrite_t *g)
{
    for (uint32_t c = 0; g->columns != NULL && c < g->n_columns; c++)
        free(g->columns[c].bytes);
    free(g->columns);
    free(g->kept);
    memset(g, 0, sizeof(*g));
}

/* Writes row group `g` of file i again without the rows its vector deletes (compact.h design note
 * 5), reading its chunks from fd. FLOE_OK; FLOE_EFAIL with the reason in `why` when a chunk
 * cannot be read or decoded (the file is then left alone). */
int floe_compaction_rewrite_group(const floe_compaction_t *c, size_t i, int fd, uint32_t g,
                                  floe_compaction_group_rewrite_t *out, char *why, size_t why_len)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    const floe_compaction_applied_t *ap = &c->applied[i];
    const floe_parquet_row_group_t *rg = &footer->row_groups[g];
    uint64_t start = 0, *deleted = floe_xcalloc(ap->n_positions + 1, sizeof(*deleted));
    size_t n_deleted = 0;
    floe_iceberg_error_t err = {0};
    int rc = FLOE_OK;

    memset(out, 0, sizeof(*out));
    if (rg->num_rows < 0 || rg->num_rows > FLOE_COMPACT_LINEAGE_ROWS_MAX) {
        snprintf(why, why_len, "row group %u has %" PRId64 " rows", g, rg->num_rows);
        free(deleted);
        return FLOE_EFAIL;
    }
    for (uint32_t k = 0; k < g; k++)
        start += (uint64_t)footer->row_groups[k].num_rows;
    for (size_t k = 0; k < ap->n_positions; k++) {
        if (ap->positions[k] >= start && ap->positions[k] - start < (uint64_t)rg->num_rows)
            deleted[n_deleted++] = ap->positions[k] - start;
    }
    out->n_columns = rg->n_columns;
    out->columns = floe_xcalloc(rg->n_columns + 1, sizeof(*out->columns));
    out->kept = floe_xcalloc((size_t)rg->num_rows - n_deleted + 1, sizeof(*out->kept));
    for (uint64_t row = 0, k = 0, n = 0; row < (uint64_t)rg->num_rows; row++) {
        if (k < n_deleted && deleted[k] == row)
            k++;
        else
            out->kept[n++] = row;
    }
    for (uint32_t col = 0; col < rg->n_columns && rc == FLOE_OK; col++) {
        const floe_parquet_column_meta_data_t *m = &rg->columns[col].meta_data;
        floe_parquet_filter_column_t fc = {m->type, floe_parquet_leaf_element(footer, col)->type_length, m->codec,
                                           footer->leaves[col].max_definition_level,
                                           footer->leaves[col].max_repetition_level, footer, col};
        floe_parquet_range_t r;
        uint8_t *bytes = NULL;
        if (floe_parquet_chunk_range(footer, g, col, c->footer_offsets[i], &r, &err) != 0 ||
            r.length > FLOE_PARQUET_FILTER_PAGE_MAX) {
            snprintf(why, why_len, "column %u: %.200s", col,
                     err.message[0] ? err.message : "its chunk is too large");
            rc = FLOE_EFAIL;
            break;
        }
        bytes = floe_xmalloc((size_t)r.length + 1);
        if (floe_compaction_read_at(fd, bytes, (size_t)r.length, r.offset)) {
            snprintf(why, why_len, "column %u cannot be read: %s", col, strerror(errno));
            rc = FLOE_EFAIL;
        } else if (floe_parquet_filter_chunk(bytes, (size_t)r.length, &fc, rg->num_rows, deleted, n_deleted,
                                             &out->columns[col], &err) != 0) {
            snprintf(why, why_len, "column %u: %.200s", col, err.message); /* the reason fits the job note */
            rc = FLOE_EFAIL;
        }
        free(bytes);
    }
    out->rw = (floe_compact_rewrite_t){out->columns, rg->num_rows - (int64_t)n_deleted, out->kept};
    free(deleted);
    return rc;
}

/* Whether every row group of file i its vector deletes part of can be written again (tried, then
 * dropped: open_input writes them again for the stitch). */
static bool can_rewrite(floe_compaction_t *c, size_t i, char *why, size_t why_len)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    uint64_t size = 0;
    bool ok = true;
    int fd = -1;
    floe_job_stats_t saved = c->job->stats;

    for (uint32_t g = 0; g < footer->n_row_groups && ok; g++) {
        floe_compaction_group_rewrite_t rw;
        if (!c->applied[i].is_partial[g])
            continue;
        if (fd < 0 && floe_job_open_object(c->job, c->first.files[i].file->file_path, &fd, &size)) {
            c->job->stats = saved;
            snprintf(why, why_len, "it cannot be opened");
            return false;
        }
        ok = floe_compaction_rewrite_group(c, i, fd, g, &rw, why, why_len) == FLOE_OK;
        floe_compaction_group_rewrite_dispose(&rw);
    }
    if (fd >= 0)
        close(fd);
    c->job->stats = saved;
    return ok;
}

static int compare_posdels(const void *a, const void *b)
{
    return strcmp(((const floe_compaction_posdel_t *)a)->path, ((const floe_compaction_posdel_t *)b)->path);
}

const floe_compaction_posdel_t *floe_compaction_find_posdel(const floe_compaction_t *c, const char *path)
{
    floe_compaction_posdel_t key = {.path = path};

    return c->n_posdels == 0 ? NULL : bsearch(&key, c->posdels, c->n_posdels, sizeof(key), compare_posdels);
}

/* Reads and decodes position delete file p, or says in p->why why it cannot (design note 9). */
static int read_posdel(floe_compaction_t *c, floe_compaction_posdel_t *p)
{
    const floe_iceberg_data_file_t *f = c->first.files[p->file].file;
    int64_t budget = FLOE_COMPACT_LINEAGE_ROWS_MAX - c->posdel_rows;
    floe_iceberg_error_t err = {0};
    uint8_t *data = NULL;
    size_t len = 0;

    if (f->file_format == NULL || strcasecmp(f->file_format, "PARQUET") != 0)
        snprintf(p->why, sizeof(p->why), "%.150s is a %.16s file: Floe reads Parquet position delete files",
                 f->file_path, f->file_format != NULL ? f->file_format : "?");
    else if (f->has_key_metadata)
        snprintf(p->why, sizeof(p->why), "%.150s is encrypted", f->file_path);
    else if (f->file_size_in_bytes < 0 || (uint64_t)f->file_size_in_bytes > POSDEL_BYTES_MAX)
        snprintf(p->why, sizeof(p->why), "%.150s is larger than %" PRIu64 " MiB", f->file_path, POSDEL_BYTES_MAX / MIB);
    else if (f->record_count > budget)
        snprintf(p->why, sizeof(p->why), "the position delete files hold more than %" PRId64 " rows",
                 (int64_t)FLOE_COMPACT_LINEAGE_ROWS_MAX);
    if (p->why[0] != '\0')
        return FLOE_OK;
    if (floe_job_read_object(c->job, f->file_path, &data, &len))
        return FLOE_EFAIL;
    if (floe_iceberg_pos_deletes_decode(data, len, budget, &p->rows, &err) != 0) {
        snprintf(p->why, sizeof(p->why), "%.120s: %.120s", f->file_path, err.message);
    } else {
        p->is_read = true;
        c->posdel_rows += p->rows.n_rows;
    }
    free(data);
    return FLOE_OK;
}

/* Reads the position delete files that apply to some candidate (design note 9). */
static int read_position_deletes(floe_compaction_t *c)
{
    const floe_compaction_view_t *v = &c->first;

    for (size_t d = 0; d < v->n_files; d++) {
        bool applies = false;
        floe_compaction_posdel_t *p;
        if (v->files[d].file->content != FLOE_ICEBERG_CONTENT_POSITION_DELETES)
            continue;
        for (size_t i = 0; i < v->n_files && !applies; i++)
            applies = c->plan.is_candidate[i] && floe_compaction_pos_applies(v, d, i);
        if (!applies)
            continue;
        c->posdels = floe_xrealloc(c->posdels, (c->n_posdels + 1) * sizeof(*c->posdels));
        p = &c->posdels[c->n_posdels++];
        memset(p, 0, sizeof(*p));
        p->file = d;
        p->path = v->files[d].file->file_path;
        if (read_posdel(c, p))
            return FLOE_EFAIL;
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
    }
    if (c->n_posdels > 0)
        qsort(c->posdels, c->n_posdels, sizeof(*c->posdels), compare_posdels);
    return FLOE_OK;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* The deleted positions of file i: its vector's and those its position delete files name, ascending
 * and unique; takes dv's. */
static void merge_positions(floe_compaction_t *c, size_t i, floe_iceberg_dv_t *dv, floe_compaction_applied_t *ap)
{
    const char *path = c->first.files[i].file->file_path;
    size_t n = dv->n;

    for (size_t k = 0; k < ap->n_pd; k++) {
        const floe_iceberg_pos_target_t *t = floe_iceberg_pos_deletes_find(&c->posdels[ap->pd[k]].rows, path);
        n += t != NULL ? t->n : 0;
    }
    ap->positions = floe_xrealloc(dv->positions, (n + 1) * sizeof(*ap->positions));
    ap->n_positions = dv->n;
    dv->positions = NULL;
    for (size_t k = 0; k < ap->n_pd; k++) {
        const floe_iceberg_pos_target_t *t = floe_iceberg_pos_deletes_find(&c->posdels[ap->pd[k]].rows, path);
        if (t != NULL && t->n > 0) {
            memcpy(ap->positions + ap->n_positions, t->positions, t->n * sizeof(*t->positions));
            ap->n_positions += t->n;
        }
    }
    if (ap->n_pd == 0)
        return; /* a vector's positions already ascend */
    qsort(ap->positions, ap->n_positions, sizeof(*ap->positions), compare_u64);
    n = 0;
    for (size_t k = 0; k < ap->n_positions; k++) {
        if (n == 0 || ap->positions[n - 1] != ap->positions[k])
            ap->positions[n++] = ap->positions[k];
    }
    ap->n_positions = n;
}

/* Design notes 8 and 9: applies the deletion vector and position delete files of candidate i (whole
 * row groups left out, the others they touch written again), or takes i out of the plan with the
 * reason. */
static int apply_deletes(floe_compaction_t *c, size_t i)
{
    const floe_iceberg_data_file_t *f = c->first.files[i].file;
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    long d = floe_compaction_vector_of(&c->first, f->file_path);
    floe_iceberg_dv_t dv = {0};
    floe_compaction_applied_t *ap = &c->applied[i];
    char why[FLOE_COMPACT_REASON_MAX] = "it is named by several deletion vectors";
    bool ok = d != -2, by_pd = false;

    ap->pd = floe_xcalloc(c->n_posdels + 1, sizeof(*ap->pd));
    for (size_t k = 0; k < c->n_posdels; k++) {
        if (!floe_compaction_pos_applies(&c->first, c->posdels[k].file, i))
            continue;
        ap->pd[ap->n_pd++] = k;
        if (ok && !c->posdels[k].is_read) {
            snprintf(why, sizeof(why), "%s", c->posdels[k].why);
            ok = false;
            by_pd = true;
        }
    }
    if (d == -1 && ap->n_pd == 0) {
        free(ap->pd);
        ap->pd = NULL;
        return FLOE_OK;
    }
    if (ok && f->record_count > FLOE_COMPACT_LINEAGE_ROWS_MAX) { /* bounds the positions decoded */
        snprintf(why, sizeof(why), "it has more than %" PRId64 " rows", (int64_t)FLOE_COMPACT_LINEAGE_ROWS_MAX);
        ok = false;
        by_pd = d < 0;
    }
    if (ok && d >= 0 && read_vector(c, c->first.files[d].file, f->record_count, &dv))
        return FLOE_EFAIL;
    if (ok) {
        merge_positions(c, i, &dv, ap);
        ap->is_dropped = floe_xcalloc(footer->n_row_groups + 1, sizeof(bool));
        ap->is_partial = floe_xcalloc(footer->n_row_groups + 1, sizeof(bool));
        floe_compact_dv_split(footer, ap->positions, ap->n_positions, ap->is_dropped, ap->is_partial,
                              &ap->dropped_rows);
        by_pd = d < 0;
    }
    if (!ok || !can_rewrite(c, i, why, sizeof(why))) {
        size_t *n_skipped = by_pd ? &c->n_partial_pd : &c->n_partial_dv;
        char *reason = by_pd ? c->pd_reason : c->partial_reason;
        c->plan.is_candidate[i] = false;
        if ((*n_skipped)++ == 0)
            snprintf(reason, FLOE_COMPACT_REASON_MAX, "%s", why);
        free(ap->is_dropped);
        free(ap->is_partial);
        free(ap->positions);
        free(ap->pd);
        memset(ap, 0, sizeof(*ap));
        ap->dv = -1;
    } else {
        ap->dv = d;
    }
    return FLOE_OK;
}

/* Reads the candidates' footers and packs them into bins. */
static int plan_bins(floe_compaction_t *c, uint64_t target)
{
    const floe_parquet_file_metadata_t **ptrs;
    size_t n = c->first.n_files;

    floe_compact_select(c->first.files, n, target, &c->plan);
    c->footers = floe_xcalloc(n + 1, sizeof(*c->footers));
    c->footer_offsets = floe_xcalloc(n + 1, sizeof(*c->footer_offsets));
    for (size_t i = 0; i < n; i++) {
        if (c->plan.is_candidate[i] && read_footer(c, i))
            return FLOE_EFAIL;
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
    }
    for (size_t i = 0; i < n && c->is_v3; i++) {
        if (c->plan.is_candidate[i] && !keeps_lineage(c, i)) {
            c->plan.is_candidate[i] = false;
            c->n_no_lineage++;
        }
    }
    if (read_position_deletes(c))
        return FLOE_EFAIL;
    c->applied = floe_xcalloc(n + 1, sizeof(*c->applied));
    for (size_t i = 0; i < n; i++) {
        c->applied[i].dv = -1;
        if (c->plan.is_candidate[i] && apply_deletes(c, i))
            return FLOE_EFAIL;
    }
    ptrs = floe_xcalloc(n + 1, sizeof(*ptrs));
    for (size_t i = 0; i < n; i++)
        ptrs[i] = c->plan.is_candidate[i] ? &c->footers[i] : NULL;
    if (c->is_v3)
        c->plan.max_rows = FLOE_COMPACT_LINEAGE_ROWS_MAX; /* lineage columns are built in memory */
    floe_compact_pack(&c->plan, c->first.files, ptrs);
    free(ptrs);
    return FLOE_OK;
}

int floe_compaction_plan(floe_compaction_t *c, uint64_t target)
{
    if (find_table_dir(c) || index_schema(c) || plan_bins(c, target))
        return FLOE_EFAIL;
    return FLOE_OK;
}
