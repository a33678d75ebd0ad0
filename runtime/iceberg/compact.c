/*
 * Compaction's plan, stitched layouts and merged statistics (compact.h). Builds on
 * parquet_stitch.h for everything that touches offsets in a footer; this file decides which
 * bytes go where.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_encode.h"
#include "iceberg/parquet_stitch.h"

/* ---- plan -------------------------------------------------------------------------------- */

static int compare_partitions(const floe_compact_file_t *a, const floe_compact_file_t *b)
{
    if (a->spec_id != b->spec_id)
        return a->spec_id < b->spec_id ? -1 : 1;
    if (a->file->n_partition != b->file->n_partition)
        return a->file->n_partition < b->file->n_partition ? -1 : 1;
    for (size_t i = 0; i < a->file->n_partition; i++) {
        const floe_iceberg_partition_value_t *x = &a->file->partition[i], *y = &b->file->partition[i];
        int c;
        if (x->is_null != y->is_null)
            return x->is_null ? -1 : 1;
        if (x->is_null)
            continue;
        if (x->value.len != y->value.len)
            return x->value.len < y->value.len ? -1 : 1;
        c = x->value.len == 0 ? 0 : memcmp(x->value.data, y->value.data, x->value.len);
        if (c != 0)
            return c;
    }
    return 0;
}

bool floe_compact_is_deletion_vector(const floe_iceberg_data_file_t *f)
{
    return f->content == FLOE_ICEBERG_CONTENT_POSITION_DELETES && f->referenced_data_file != NULL &&
           f->file_format != NULL && strcasecmp(f->file_format, "PUFFIN") == 0;
}

bool floe_compact_same_partition(const floe_compact_file_t *a, const floe_compact_file_t *b)
{
    return compare_partitions(a, b) == 0;
}

bool floe_compact_position_deletes_apply(const floe_compact_file_t *del, int64_t del_seq,
                                         const floe_compact_file_t *data, int64_t data_seq)
{
    const floe_iceberg_data_file_t *d = del->file;

    if (d->content != FLOE_ICEBERG_CONTENT_POSITION_DELETES || floe_compact_is_deletion_vector(d) ||
        data_seq > del_seq)
        return false;
    if (d->referenced_data_file != NULL && strcmp(d->referenced_data_file, data->file->file_path) != 0)
        return false;
    return d->n_partition == 0 || floe_compact_same_partition(del, data);
}

/* Files by partition, then by their place in the manifests (qsort_r). */
static int compare_order(const void *a, const void *b, void *arg)
{
    const floe_compact_file_t *files = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = compare_partitions(&files[i], &files[j]);

    if (c != 0)
        return c;
    return i < j ? -1 : i > j;
}

static bool is_small_parquet(const floe_iceberg_data_file_t *f, uint64_t target_bytes)
{
    uint64_t small = target_bytes / 100 * FLOE_COMPACT_SMALL_PERCENT;

    return f->content == FLOE_ICEBERG_CONTENT_DATA && f->file_format != NULL &&
           strcasecmp(f->file_format, "PARQUET") == 0 && !f->has_key_metadata && f->file_size_in_bytes > 0 &&
           (uint64_t)f->file_size_in_bytes < small;
}

/* A partition value for a status message: printable bytes as text, a 4- or 8-byte value as an
 * integer, anything else in hex. Iceberg's binary form does not say its type, so this guesses. */
static void describe_value(const floe_iceberg_partition_value_t *v, char *buf, size_t size)
{
    const uint8_t *d = v->value.data;
    size_t len = v->value.len, used = 0;
    bool is_text = len > 0;
    uint64_t x = 0;

    if (v->is_null) {
        snprintf(buf, size, "null");
        return;
    }
    for (size_t i = 0; i < len; i++)
        is_text = is_text && isprint(d[i]);
    if (is_text) {
        snprintf(buf, size, "'%.*s'", (int)len, (const char *)d);
    } else if (len == 4 || len == 8) {
        for (size_t i = len; i-- > 0;)
            x = x << 8 | d[i];
        snprintf(buf, size, "%lld", len == 4 ? (long long)(int32_t)(uint32_t)x : (long long)(int64_t)x);
    } else {
        for (size_t i = 0; i < len && used + 3 < size; i++)
            used += (size_t)snprintf(buf + used, size - used, "%02x", d[i]);
        if (len == 0)
            snprintf(buf, size, "''");
    }
}

static void describe_partition(const floe_compact_file_t *f, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "spec %d partition (", f->spec_id);

    for (size_t i = 0; i < f->file->n_partition && used < size; i++) {
        char value[64];
        describe_value(&f->file->partition[i], value, sizeof(value));
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? ", " : "", value);
    }
    if (used < size)
        snprintf(buf + used, size - used, ")");
}

static void add_skip(floe_compact_plan_t *plan, const floe_compact_file_t *f, const char *why)
{
    char where[FLOE_COMPACT_REASON_MAX / 2];

    plan->skipped = floe_xrealloc(plan->skipped, (plan->n_skipped + 1) * sizeof(*plan->skipped));
    describe_partition(f, where, sizeof(where));
    /* each half bounded, so the reason always fits (where is at most half the reason) */
    snprintf(plan->skipped[plan->n_skipped++].reason, FLOE_COMPACT_REASON_MAX, "%s: %.*s", where,
             (int)(FLOE_COMPACT_REASON_MAX / 2 - 2), why);
}

/* Decides one partition, files order[from..to): its candidates, or why it is skipped. */
static void select_partition(floe_compact_plan_t *plan, const floe_compact_file_t *files, size_t from, size_t to,
                             bool has_global_deletes)
{
    size_t n_small = 0;
    bool has_deletes = false;

    for (size_t k = from; k < to; k++) {
        const floe_iceberg_data_file_t *f = files[plan->order[k]].file;
        /* position deletes and deletion vectors are applied (design notes 5 and 6) */
        has_deletes = has_deletes || f->content == FLOE_ICEBERG_CONTENT_EQUALITY_DELETES;
        n_small += is_small_parquet(f, plan->target_bytes);
    }
    if (n_small < 2)
        return;
    if (has_deletes || has_global_deletes) {
        add_skip(plan, &files[plan->order[from]],
                 has_deletes ? "skipped, it has equality delete files, which compaction does not apply"
                             : "skipped, the table has equality delete files of an unpartitioned spec, which may apply "
                               "to it and which compaction does not apply");
        return;
    }
    for (size_t k = from; k < to; k++)
        plan->is_candidate[plan->order[k]] = is_small_parquet(files[plan->order[k]].file, plan->target_bytes);
}

void floe_compact_select(const floe_compact_file_t *files, size_t n_files, uint64_t target_bytes,
                         floe_compact_plan_t *plan)
{
    bool has_global_deletes = false;
    size_t from = 0;

    assert(target_bytes > 0);
    memset(plan, 0, sizeof(*plan));
    plan->target_bytes = target_bytes;
    plan->n_files = n_files;
    plan->is_candidate = floe_xcalloc(n_files + 1, sizeof(*plan->is_candidate));
    plan->order = floe_xcalloc(n_files + 1, sizeof(*plan->order));
    for (size_t i = 0; i < n_files; i++) {
        plan->order[i] = i;
        has_global_deletes = has_global_deletes ||
                             (files[i].file->content == FLOE_ICEBERG_CONTENT_EQUALITY_DELETES &&
                              files[i].file->n_partition == 0);
    }
    qsort_r(plan->order, n_files, sizeof(*plan->order), compare_order, (void *)files);
    for (size_t k = 1; k <= n_files; k++) {
        if (k == n_files || compare_partitions(&files[plan->order[from]], &files[plan->order[k]]) != 0) {
            select_partition(plan, files, from, k, has_global_deletes);
            from = k;
        }
    }
}

/* The rows a footer's row groups hold, INT64_MAX when they do not add up to a long. */
static int64_t footer_rows(const floe_parquet_file_metadata_t *footer)
{
    int64_t n = 0;

    for (uint32_t g = 0; g < footer->n_row_groups; g++) {
        if (footer->row_groups[g].num_rows < 0 || __builtin_add_overflow(n, footer->row_groups[g].num_rows, &n))
            return INT64_MAX;
    }
    return n;
}

static void bin_add(floe_compact_bin_t *bin, size_t file, uint64_t size, int64_t rows)
{
    bin->files = floe_xrealloc(bin->files, (bin->n_files + 1) * sizeof(*bin->files));
    bin->files[bin->n_files++] = file;
    bin->n_bytes += size;
    bin->n_rows = rows > INT64_MAX - bin->n_rows ? INT64_MAX : bin->n_rows + rows;
}

/* The first bin of [first, n_bins) with room for `size` bytes (and the file's rows, under
 * plan->max_rows) whose first file is compatible. */
static floe_compact_bin_t *fitting_bin(floe_compact_plan_t *plan, size_t first, const floe_compact_file_t *files,
                                       const floe_parquet_file_metadata_t *const *footers, size_t i)
{
    uint64_t size = (uint64_t)files[i].file->file_size_in_bytes;
    int64_t rows = footer_rows(footers[i]);
    floe_iceberg_error_t err;

    for (size_t b = first; b < plan->n_bins; b++) {
        floe_compact_bin_t *bin = &plan->bins[b];
        if (bin->n_bytes + size <= plan->target_bytes &&
            (plan->max_rows == 0 || (rows <= plan->max_rows && bin->n_rows <= plan->max_rows - rows)) &&
            floe_parquet_compatible(footers[bin->files[0]], footers[i], &err) == 0)
            return bin;
    }
    plan->bins = floe_xrealloc(plan->bins, (plan->n_bins + 1) * sizeof(*plan->bins));
    memset(&plan->bins[plan->n_bins], 0, sizeof(*plan->bins));
    return &plan->bins[plan->n_bins++];
}

/* Drops the bins of [first, n_bins) that hold one file. */
static void drop_single_bins(floe_compact_plan_t *plan, size_t first)
{
    size_t kept = first;

    for (size_t b = first; b < plan->n_bins; b++) {
        if (plan->bins[b].n_files < 2) {
            free(plan->bins[b].files);
            continue;
        }
        plan->bins[kept++] = plan->bins[b];
    }
    plan->n_bins = kept;
}

void floe_compact_pack(floe_compact_plan_t *plan, const floe_compact_file_t *files,
                       const floe_parquet_file_metadata_t *const *footers)
{
    size_t from = 0, first_bin = 0;

    for (size_t k = 0; k <= plan->n_files; k++) {
        if (k == plan->n_files || compare_partitions(&files[plan->order[from]], &files[plan->order[k]]) != 0) {
            drop_single_bins(plan, first_bin);
            first_bin = plan->n_bins;
            from = k;
        }
        if (k < plan->n_files && plan->is_candidate[plan->order[k]]) {
            size_t i = plan->order[k];
            assert(footers[i] != NULL);
            bin_add(fitting_bin(plan, first_bin, files, footers, i), i, (uint64_t)files[i].file->file_size_in_bytes,
                    footer_rows(footers[i]));
        }
    }
}

void floe_compact_plan_dispose(floe_compact_plan_t *plan)
{
    for (size_t b = 0; b < plan->n_bins; b++)
        free(plan->bins[b].files);
    free(plan->bins);
    free(plan->skipped);
    free(plan->is_candidate);
    free(plan->order);
    memset(plan, 0, sizeof(*plan));
}

/* ---- stitch ------------------------------------------------------------------------------ */

static const uint8_t magic[FLOE_PARQUET_MAGIC_LEN] = {'P', 'A', 'R', '1'};

/* The index of the first position >= v. */
static size_t lower_bound(const uint64_t *positions, size_t n, uint64_t v)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (positions[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void floe_compact_dv_split(const floe_parquet_file_metadata_t *footer, const uint64_t *positions, size_t n,
                           bool *is_dropped, bool *is_partial, int64_t *n_deleted_rows)
{
    uint64_t start = 0;

    *n_deleted_rows = 0;
    for (uint32_t g = 0; g < footer->n_row_groups; g++) {
        uint64_t rows = footer->row_groups[g].num_rows > 0 ? (uint64_t)footer->row_groups[g].num_rows : 0;
        size_t deleted = lower_bound(positions, n, start + rows) - lower_bound(positions, n, start);
        is_dropped[g] = rows > 0 && deleted == rows;
        is_partial[g] = deleted != 0 && deleted != rows;
        *n_deleted_rows += (int64_t)deleted;
        start += rows;
    }
}

floe_parquet_range_t floe_compact_index_range(const floe_parquet_file_metadata_t *footer, uint64_t footer_offset)
{
    uint64_t end = FLOE_PARQUET_MAGIC_LEN;
    floe_parquet_range_t r;
    floe_iceberg_error_t err;

    for (uint32_t g = 0; g < footer->n_row_groups; g++) {
        for (uint32_t c = 0; c < footer->row_groups[g].n_columns; c++) {
            if (floe_parquet_chunk_range(footer, g, c, footer_offset, &r, &err) == 0 && r.offset + r.length > end)
                end = r.offset + r.length;
        }
    }
    if (end >= footer_offset || footer_offset - end > FLOE_COMPACT_INDEX_MAX)
        return (floe_parquet_range_t){0, 0};
    return (floe_parquet_range_t){end, footer_offset - end};
}

/* The layout being built, and where each row group's chunks went. */
typedef struct stitch {
    const floe_compact_source_t *sources;
    size_t n_sources;
    floe_compact_layout_t *out;
    floe_parquet_chunk_move_t **moves; /* per row group, in output order */
    size_t n_groups;
    floe_compact_lineage_chunk_t *lineage; /* two per row group when the sources have lineage */
    size_t n_lineage;
    int64_t lineage_rows;
    uint64_t pos;
    floe_iceberg_error_t *err;
} stitch_t;

static void add_piece(stitch_t *st, int32_t source, uint64_t offset, uint64_t length, const uint8_t *data)
{
    floe_compact_layout_t *out = st->out;
    floe_compact_piece_t *last = out->n_pieces > 0 ? &out->pieces[out->n_pieces - 1] : NULL;

    st->pos += length;
    if (length == 0)
        return;
    if (last != NULL && source != FLOE_COMPACT_LITERAL && last->source == source &&
        last->offset + last->length == offset) {
        last->length += length;
        return;
    }
    out->pieces = floe_xrealloc(out->pieces, (out->n_pieces + 1) * sizeof(*out->pieces));
    out->pieces[out->n_pieces++] = (floe_compact_piece_t){source, offset, length, data};
}

/* A literal whose buffer (malloc'ed) the layout now owns. */
static void add_owned(stitch_t *st, uint8_t *data, size_t len)
{
    st->out->owned = floe_xrealloc(st->out->owned, (st->out->n_owned + 1) * sizeof(*st->out->owned));
    st->out->owned[st->out->n_owned++] = data;
    add_piece(st, FLOE_COMPACT_LITERAL, 0, len, data);
}

static int copy_row_group(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves);

/* Row group g of source s's rewrite (design note 5), or NULL when it is copied as it is. */
static const floe_compact_rewrite_t *rewrite_of(const stitch_t *st, int32_t s, uint32_t g)
{
    return st->sources[s].rewrites != NULL ? st->sources[s].rewrites[g] : NULL;
}

/* Appends row group g's two lineage chunks (design note 4) after its copied chunks. */
static int place_lineage(stitch_t *st, int32_t s, uint32_t g)
{
    const floe_compact_source_t *src = &st->sources[s];
    const floe_compact_rewrite_t *rw = rewrite_of(st, s, g);
    const uint64_t *kept = rw != NULL ? rw->kept : NULL;
    int64_t before = 0, n = rw != NULL ? rw->num_rows : src->footer->row_groups[g].num_rows;
    const int64_t first[FLOE_COMPACT_LINEAGE_COLUMNS] = {0, src->sequence_number}, step[] = {1, 0};

    if (n < 0 || n > FLOE_COMPACT_LINEAGE_ROWS_MAX - st->lineage_rows)
        return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID,
                                 "Row lineage columns are written for at most %lld rows a file; input %d has more.",
                                 (long long)FLOE_COMPACT_LINEAGE_ROWS_MAX, (int)s);
    st->lineage_rows += n;
    for (uint32_t k = 0; k < g; k++) {
        if (__builtin_add_overflow(before, src->footer->row_groups[k].num_rows, &before))
            return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID, "Input %d counts more rows than a long holds.", (int)s);
    }
    if (__builtin_add_overflow(src->first_row_id, before, &before) || src->footer->row_groups[g].num_rows < 0 ||
        before > INT64_MAX - src->footer->row_groups[g].num_rows)
        return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID, "Input %d's row ids run past a long.", (int)s);
    for (int c = 0; c < FLOE_COMPACT_LINEAGE_COLUMNS; c++) {
        floe_compact_lineage_chunk_t *lc = &st->lineage[st->n_lineage++];
        int64_t v0 = c == 0 ? before : first[c];
        const uint64_t *offsets = c == 0 ? kept : NULL;
        size_t len = 0;
        uint8_t *bytes = n > 0 ? floe_compact_lineage_chunk(v0, step[c], offsets, n, &len) : NULL;
        int64_t lo = offsets != NULL && n > 0 ? v0 + (int64_t)offsets[0] : v0;
        int64_t hi = offsets != NULL && n > 0 ? v0 + (int64_t)offsets[n - 1] : v0 + step[c] * (n > 0 ? n - 1 : 0);
        *lc = (floe_compact_lineage_chunk_t){st->pos, len, n, lo, hi};
        if (bytes != NULL)
            add_owned(st, bytes, len);
    }
    return FLOE_ICEBERG_OK;
}

/* Copies row group g of source s to the current position: one piece when its chunks are contiguous. */
static bool is_dropped(const stitch_t *st, int32_t s, uint32_t g)
{
    return st->sources[s].is_dropped != NULL && st->sources[s].is_dropped[g];
}

/* Places a rewritten row group's chunks (design note 5), copies of the caller's bytes. */
static void place_rewritten(stitch_t *st, const floe_compact_rewrite_t *rw, uint32_t n_columns,
                            floe_parquet_chunk_move_t *moves)
{
    for (uint32_t c = 0; c < n_columns; c++) {
        uint8_t *copy = floe_xmalloc(rw->columns[c].len + 1);
        memcpy(copy, rw->columns[c].bytes, rw->columns[c].len);
        memset(&moves[c], 0, sizeof(moves[c]));
        moves[c].offset = st->pos;
        add_owned(st, copy, rw->columns[c].len);
    }
}

static int place_row_group(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves)
{
    const floe_compact_rewrite_t *rw = rewrite_of(st, s, g);
    int rc = FLOE_ICEBERG_OK;

    if (is_dropped(st, s, g))
        return FLOE_ICEBERG_OK; /* design note 5 */
    for (uint32_t c = 0; rw != NULL && c < st->sources[s].footer->row_groups[g].n_columns; c++) {
        if (rw->num_rows < 0 || rw->columns[c].num_rows != rw->num_rows)
            return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID,
                                     "Row group %u of input %d was rewritten with %lld rows for %lld.", g, (int)s,
                                     (long long)rw->columns[c].num_rows, (long long)rw->num_rows);
    }
    if (rw != NULL)
        place_rewritten(st, rw, st->sources[s].footer->row_groups[g].n_columns, moves);
    else
        rc = copy_row_group(st, s, g, moves);

    if (rc == FLOE_ICEBERG_OK && st->sources[0].has_lineage)
        rc = place_lineage(st, s, g);
    return rc;
}

static int copy_row_group(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves)
{
    const floe_compact_source_t *src = &st->sources[s];
    const floe_parquet_file_metadata_t *md = src->footer;
    floe_parquet_range_t span, r;
    bool is_contiguous;

    if (floe_parquet_row_group_range(md, g, src->footer_offset, &span, &is_contiguous, st->err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (is_contiguous) {
        if (floe_parquet_row_group_moves(md, g, src->footer_offset, st->pos, moves, st->err) != 0)
            return FLOE_ICEBERG_EINVALID;
        add_piece(st, s, span.offset, span.length, NULL);
        return FLOE_ICEBERG_OK;
    }
    for (uint32_t c = 0; c < md->row_groups[g].n_columns; c++) {
        if (floe_parquet_chunk_range(md, g, c, src->footer_offset, &r, st->err) != 0)
            return FLOE_ICEBERG_EINVALID;
        memset(&moves[c], 0, sizeof(moves[c]));
        moves[c].offset = st->pos;
        add_piece(st, s, r.offset, r.length, NULL);
    }
    return FLOE_ICEBERG_OK;
}

/* Whether [offset, offset + len) lies in the source's index bytes. */
static bool in_index(const floe_compact_source_t *src, int64_t offset, int64_t len)
{
    return src->index_bytes != NULL && offset >= 0 && len >= 0 && (uint64_t)offset >= src->index_offset &&
           (uint64_t)offset - src->index_offset <= src->index_len &&
           (uint64_t)len <= src->index_len - ((uint64_t)offset - src->index_offset);
}

/* Keeps a chunk's ColumnIndex (copied) and OffsetIndex (rewritten) when both can be (design note 2). */
static void place_page_indexes(stitch_t *st, int32_t s, uint32_t g, uint32_t c, floe_parquet_chunk_move_t *mv)
{
    const floe_compact_source_t *src = &st->sources[s];
    const floe_parquet_column_chunk_t *ch = &src->footer->row_groups[g].columns[c];
    floe_parquet_range_t old;
    floe_iceberg_error_t ignored;
    uint8_t *oi = NULL;
    size_t oi_len = 0;

    if (!ch->has_column_index_offset && !ch->has_offset_index_offset)
        return;
    if (!ch->has_column_index_offset || !ch->has_column_index_length || !ch->has_offset_index_offset ||
        !ch->has_offset_index_length || !in_index(src, ch->column_index_offset, ch->column_index_length) ||
        !in_index(src, ch->offset_index_offset, ch->offset_index_length) ||
        floe_parquet_chunk_range(src->footer, g, c, src->footer_offset, &old, &ignored) != 0 ||
        floe_parquet_offset_index_rewrite(src->index_bytes + (ch->offset_index_offset - (int64_t)src->index_offset),
                                          (size_t)ch->offset_index_length, old, mv->offset, &oi, &oi_len,
                                          &ignored) != 0) {
        st->out->n_dropped_indexes++;
        return;
    }
    mv->has_column_index = true;
    mv->column_index_offset = st->pos;
    add_piece(st, s, (uint64_t)ch->column_index_offset, (uint64_t)ch->column_index_length, NULL);
    mv->has_offset_index = true;
    mv->offset_index_offset = st->pos;
    mv->offset_index_length = (uint32_t)oi_len;
    add_owned(st, oi, oi_len);
    st->out->n_kept_indexes++;
}

/* Copies a chunk's bloom filter when it lies in the index bytes and its size is known. */
static void place_bloom_filter(stitch_t *st, int32_t s, uint32_t g, uint32_t c, floe_parquet_chunk_move_t *mv)
{
    const floe_compact_source_t *src = &st->sources[s];
    const floe_parquet_column_meta_data_t *m = &src->footer->row_groups[g].columns[c].meta_data;
    floe_iceberg_error_t ignored;
    uint64_t size = 0, at;

    if (!m->has_bloom_filter_offset || !in_index(src, m->bloom_filter_offset, 0))
        return;
    at = (uint64_t)m->bloom_filter_offset - src->index_offset;
    if (m->has_bloom_filter_length && m->bloom_filter_length >= 0) {
        size = (uint64_t)m->bloom_filter_length;
    } else {
        size_t head = src->index_len - at < FLOE_PARQUET_BLOOM_HEAD_LEN ? src->index_len - at
                                                                         : FLOE_PARQUET_BLOOM_HEAD_LEN;
        if (floe_parquet_bloom_filter_size(src->index_bytes + at, head, &size, &ignored) != 0)
            return;
    }
    if (size > INT64_MAX || !in_index(src, m->bloom_filter_offset, (int64_t)size))
        return;
    mv->has_bloom_filter = true;
    mv->bloom_filter_offset = st->pos;
    add_piece(st, s, (uint64_t)m->bloom_filter_offset, size, NULL);
}

/* Calls fn on every row group of every source in output order, with that group's moves. */
typedef int (*group_fn)(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves);

static int each_group(stitch_t *st, group_fn fn)
{
    size_t k = 0;

    for (size_t s = 0; s < st->n_sources; s++) {
        for (uint32_t g = 0; g < st->sources[s].footer->n_row_groups; g++) {
            if (fn(st, (int32_t)s, g, st->moves[k++]) != 0)
                return FLOE_ICEBERG_EINVALID;
        }
    }
    return FLOE_ICEBERG_OK;
}

static int place_indexes(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves)
{
    if (is_dropped(st, s, g) || rewrite_of(st, s, g) != NULL)
        return FLOE_ICEBERG_OK;
    for (uint32_t c = 0; c < st->sources[s].footer->row_groups[g].n_columns; c++)
        place_page_indexes(st, s, g, c, &moves[c]);
    return FLOE_ICEBERG_OK;
}

/* A rewritten row group keeps its bloom filters too: a filter of more values than the chunk now
 * holds has no false negatives (design note 5). */
static int place_blooms(stitch_t *st, int32_t s, uint32_t g, floe_parquet_chunk_move_t *moves)
{
    if (is_dropped(st, s, g))
        return FLOE_ICEBERG_OK;
    for (uint32_t c = 0; c < st->sources[s].footer->row_groups[g].n_columns; c++)
        place_bloom_filter(st, s, g, c, &moves[c]);
    return FLOE_ICEBERG_OK;
}

static void alloc_moves(stitch_t *st)
{
    size_t k = 0;

    for (size_t s = 0; s < st->n_sources; s++)
        st->n_groups += st->sources[s].footer->n_row_groups;
    if (st->sources[0].has_lineage)
        st->lineage = floe_xcalloc(st->n_groups * FLOE_COMPACT_LINEAGE_COLUMNS + 1, sizeof(*st->lineage));
    st->moves = floe_xcalloc(st->n_groups + 1, sizeof(*st->moves));
    for (size_t s = 0; s < st->n_sources; s++) {
        const floe_parquet_file_metadata_t *md = st->sources[s].footer;
        for (uint32_t g = 0; g < md->n_row_groups; g++)
            st->moves[k++] = floe_xcalloc(md->row_groups[g].n_columns + 1, sizeof(floe_parquet_chunk_move_t));
    }
}

/* A row group's first byte in the new file: its lowest chunk (`fallback` when it has none). */
static int64_t first_byte(const floe_parquet_chunk_move_t *moves, uint32_t n_columns, uint64_t fallback)
{
    uint64_t first = fallback;

    for (uint32_t c = 0; c < n_columns; c++)
        first = moves[c].offset < first ? moves[c].offset : first;
    return (int64_t)first;
}

/* The statistics of a rewritten chunk (design note 5): its null count; each bound the filter's
 * exact one, else the old chunk's marked inexact (a bound of more rows still holds), none when
 * only nulls are left. The deprecated min and max are the old chunk's, which still hold too. The
 * distinct and NaN counts are not: they may have dropped. Borrows from the filter and the old
 * footer, which outlive the stitched footer's encoding. */
static void rewritten_statistics(floe_parquet_statistics_t *st, const floe_parquet_filtered_t *fc)
{
    floe_parquet_statistics_t old = *st;
    bool has_values = fc->num_values > fc->null_count;

    memset(st, 0, sizeof(*st));
    if (fc->is_mapped) /* new values: the old bounds say nothing of them */
        memset(&old, 0, sizeof(old));
    st->has_null_count = true;
    st->null_count = fc->null_count;
    if (!has_values)
        return;
    st->has_min_value = fc->has_min || old.has_min_value;
    st->min_value = fc->has_min ? fc->min : old.min_value;
    st->has_is_min_value_exact = st->has_min_value;
    st->is_min_value_exact = fc->has_min;
    st->has_max_value = fc->has_max || old.has_max_value;
    st->max_value = fc->has_max ? fc->max : old.max_value;
    st->has_is_max_value_exact = st->has_max_value;
    st->is_max_value_exact = fc->has_max;
    st->has_min = old.has_min, st->min = old.min;
    st->has_max = old.has_max, st->max = old.max;
}

/* ColumnMetaData's unmodelled fields of a rewritten chunk: its size statistics (16) counted the
 * old rows and go; its geospatial statistics (17), a bounding box, still hold. */
static void drop_size_statistics(floe_parquet_file_metadata_t *md, floe_parquet_extra_t *extra)
{
    floe_parquet_field_t *kept = extra->n_fields > 0 ? floe_parquet_arena_alloc(md->arena, extra->n_fields,
                                                                                 sizeof(*kept))
                                                     : NULL;
    uint32_t n = 0;

    if (extra->n_fields > 0 && kept == NULL)
        abort(); /* the stitched footer's arena has no limit: only an overflow fails */
    for (uint32_t i = 0; i < extra->n_fields; i++) {
        if (extra->fields[i].id != 16)
            kept[n++] = extra->fields[i];
    }
    extra->fields = kept;
    extra->n_fields = n;
}

/* The metadata of rewritten row group r of md (design note 5): one PLAIN page a chunk (ZSTD when
 * the filter compressed it, else uncompressed), statistics that still hold, the kept rows.
 * Patched once every row group is appended, since appending checks each input's codecs against
 * the new file's first row group. */
static void patch_rewritten(floe_parquet_file_metadata_t *md, uint32_t r, const floe_compact_rewrite_t *rw,
                            const floe_parquet_chunk_move_t *moves)
{
    floe_parquet_row_group_t *rg = &md->row_groups[r];
    int64_t size = 0;

    md->num_rows += rw->num_rows - rg->num_rows;
    rg->num_rows = rw->num_rows;
    for (uint32_t c = 0; c < rg->n_columns; c++) {
        floe_parquet_column_chunk_t *cc = &rg->columns[c];
        floe_parquet_column_meta_data_t *m = &cc->meta_data;
        int32_t *encodings = floe_parquet_arena_alloc(md->arena, 2, sizeof(*encodings));
        if (encodings == NULL)
            abort(); /* the stitched footer's arena has no limit: only an overflow fails */
        encodings[0] = 0, encodings[1] = 3; /* PLAIN, RLE */
        m->encodings = encodings;
        m->n_encodings = 2;
        m->codec = rw->columns[c].codec;
        m->num_values = rw->columns[c].num_values;
        m->total_compressed_size = m->total_uncompressed_size = (int64_t)rw->columns[c].len;
        if (m->codec != FLOE_PARQUET_UNCOMPRESSED)
            m->total_uncompressed_size = (int64_t)rw->columns[c].uncompressed_len;
        m->data_page_offset = (int64_t)moves[c].offset;
        cc->file_offset = (int64_t)moves[c].offset;
        m->has_dictionary_page_offset = m->has_index_page_offset = false;
        m->has_encoding_stats = false;
        m->n_encoding_stats = 0;
        if (!m->has_statistics)
            memset(&m->statistics, 0, sizeof(m->statistics));
        m->has_statistics = true;
        rewritten_statistics(&m->statistics, &rw->columns[c]);
        drop_size_statistics(md, &m->extra);
        size += (int64_t)rw->columns[c].len;
    }
    rg->total_byte_size = size;
    if (rg->has_total_compressed_size)
        rg->total_compressed_size = size;
}

/* Appends every row group to the new footer, then its bytes; records the split offsets. */
static int write_footer(stitch_t *st)
{
    floe_parquet_file_metadata_t md;
    uint8_t *footer = NULL;
    size_t len = 0, k = 0, n_patches = 0;
    size_t *patches = floe_xcalloc(st->n_groups + 1, sizeof(*patches)); /* k of each rewritten group */
    uint32_t *patched_at = floe_xcalloc(st->n_groups + 1, sizeof(*patched_at));
    const floe_compact_rewrite_t **patched = floe_xcalloc(st->n_groups + 1, sizeof(*patched));
    int rc = FLOE_ICEBERG_OK;

    floe_parquet_stitch_begin(st->sources[0].footer, &md);
    st->out->split_offsets = floe_xcalloc(st->n_groups + 1, sizeof(*st->out->split_offsets));
    for (size_t s = 0; s < st->n_sources && rc == 0; s++) {
        for (uint32_t g = 0; g < st->sources[s].footer->n_row_groups && rc == 0; g++, k++) {
            if (is_dropped(st, (int32_t)s, g))
                continue;
            rc = floe_parquet_stitch_append(&md, st->sources[s].footer, g, st->moves[k], st->err);
            if (rc == 0 && rewrite_of(st, (int32_t)s, g) != NULL) {
                patches[n_patches] = k;
                patched_at[n_patches] = md.n_row_groups - 1;
                patched[n_patches++] = rewrite_of(st, (int32_t)s, g);
            }
            if (rc == 0)
                st->out->split_offsets[st->out->n_split_offsets++] =
                    first_byte(st->moves[k], st->sources[s].footer->row_groups[g].n_columns, st->pos);
        }
    }
    for (size_t p = 0; rc == 0 && p < n_patches; p++)
        patch_rewritten(&md, patched_at[p], patched[p], st->moves[patches[p]]);
    free(patches);
    free(patched_at);
    free(patched);
    if (rc == 0 && st->sources[0].has_lineage)
        rc = floe_compact_lineage_add(&md, st->lineage, st->err);
    if (rc == 0)
        rc = floe_parquet_encode_footer(&md, &footer, &len, st->err);
    st->out->num_rows = md.num_rows;
    floe_parquet_file_metadata_dispose(&md);
    if (rc != 0)
        return FLOE_ICEBERG_EINVALID;
    add_owned(st, footer, len);
    return FLOE_ICEBERG_OK;
}

static int stitch(stitch_t *st)
{
    if (st->n_sources == 0)
        return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID, "A compacted file needs at least one input.");
    for (size_t s = 1; s < st->n_sources; s++) {
        if (floe_parquet_compatible(st->sources[0].footer, st->sources[s].footer, st->err) != 0)
            return FLOE_ICEBERG_EINVALID;
        if (st->sources[s].has_lineage != st->sources[0].has_lineage)
            return floe_iceberg_fail(st->err, FLOE_ICEBERG_EINVALID, "Inputs %zu and 0 differ in row lineage.", s);
    }
    alloc_moves(st);
    add_piece(st, FLOE_COMPACT_LITERAL, 0, sizeof(magic), magic);
    if (each_group(st, place_row_group) != 0 || each_group(st, place_indexes) != 0 ||
        each_group(st, place_blooms) != 0)
        return FLOE_ICEBERG_EINVALID;
    return write_footer(st);
}

int floe_compact_stitch(const floe_compact_source_t *sources, size_t n_sources, floe_compact_layout_t *out,
                        floe_iceberg_error_t *err)
{
    stitch_t st = {.sources = sources, .n_sources = n_sources, .out = out, .err = err};
    int rc;

    memset(out, 0, sizeof(*out));
    rc = stitch(&st);
    for (size_t k = 0; st.moves != NULL && k < st.n_groups; k++)
        free(st.moves[k]);
    free(st.moves);
    free(st.lineage);
    if (rc != 0) {
        floe_compact_layout_dispose(out);
        return FLOE_ICEBERG_EINVALID;
    }
    out->size = st.pos;
    return FLOE_ICEBERG_OK;
}

void floe_compact_layout_dispose(floe_compact_layout_t *layout)
{
    for (size_t i = 0; i < layout->n_owned; i++)
        free(layout->owned[i]);
    free(layout->owned);
    free(layout->pieces);
    free(layout->split_offsets);
    memset(layout, 0, sizeof(*layout));
}

uint8_t *floe_compact_layout_bytes(const floe_compact_layout_t *layout, const uint8_t *const *inputs)
{
    uint8_t *out = floe_xmalloc(layout->size + 1);
    uint64_t at = 0;

    for (size_t i = 0; i < layout->n_pieces; i++) {
        const floe_compact_piece_t *p = &layout->pieces[i];
        assert(at + p->length <= layout->size);
        memcpy(out + at, p->source == FLOE_COMPACT_LITERAL ? p->data : inputs[p->source] + p->offset, p->length);
        at += p->length;
    }
    assert(at == layout->size); /* the stitch's pieces add up to its size */
    return out;
}

/* ---- merged statistics ------------------------------------------------------------------- */

enum { COLUMN_SIZES, VALUE_COUNTS, NULL_VALUE_COUNTS, NAN_VALUE_COUNTS };
enum { LOWER_BOUNDS, UPPER_BOUNDS };

static const floe_iceberg_count_t *counts_of(const floe_iceberg_data_file_t *f, int which, size_t *n)
{
    switch (which) {
    case COLUMN_SIZES:
        *n = f->n_column_sizes;
        return f->column_sizes;
    case VALUE_COUNTS:
        *n = f->n_value_counts;
        return f->value_counts;
    case NULL_VALUE_COUNTS:
        *n = f->n_null_value_counts;
        return f->null_value_counts;
    default:
        *n = f->n_nan_value_counts;
        return f->nan_value_counts;
    }
}

static const floe_iceberg_bound_t *bounds_of(const floe_iceberg_data_file_t *f, int which, size_t *n)
{
    *n = which == LOWER_BOUNDS ? f->n_lower_bounds : f->n_upper_bounds;
    return which == LOWER_BOUNDS ? f->lower_bounds : f->upper_bounds;
}

static const floe_iceberg_count_t *find_count(const floe_iceberg_count_t *list, size_t n, int32_t id)
{
    for (size_t i = 0; i < n; i++) {
        if (list[i].field_id == id)
            return &list[i];
    }
    return NULL;
}

static const floe_iceberg_bound_t *find_bound(const floe_iceberg_bound_t *list, size_t n, int32_t id)
{
    for (size_t i = 0; i < n; i++) {
        if (list[i].field_id == id)
            return &list[i];
    }
    return NULL;
}

static const char *type_of(const floe_compact_field_type_t *types, size_t n_types, int32_t id)
{
    for (size_t i = 0; i < n_types; i++) {
        if (types[i].field_id == id)
            return types[i].type;
    }
    return NULL;
}

/* Sums one count map across the inputs, keeping a field only when every input counts it. */
static int merge_counts(const floe_iceberg_data_file_t *const *in, size_t n_in, int which, floe_parquet_arena_t *arena,
                        floe_iceberg_count_t **out, size_t *n_out)
{
    size_t n0;
    const floe_iceberg_count_t *first = counts_of(in[0], which, &n0);

    *out = NULL;
    *n_out = 0;
    if (n0 == 0)
        return FLOE_ICEBERG_OK;
    if ((*out = floe_parquet_arena_alloc(arena, n0, sizeof(**out))) == NULL)
        return FLOE_ICEBERG_EINVALID;
    for (size_t i = 0; i < n0; i++) {
        int64_t sum = 0;
        bool is_everywhere = true;
        for (size_t k = 0; k < n_in && is_everywhere; k++) {
            size_t n;
            const floe_iceberg_count_t *list = counts_of(in[k], which, &n);
            const floe_iceberg_count_t *c = find_count(list, n, first[i].field_id);
            is_everywhere = c != NULL && c->value >= 0;
            sum = is_everywhere && c->value > INT64_MAX - sum ? INT64_MAX : sum + (is_everywhere ? c->value : 0);
        }
        if (is_everywhere)
            (*out)[(*n_out)++] = (floe_iceberg_count_t){first[i].field_id, sum};
    }
    return FLOE_ICEBERG_OK;
}

/* The least (or greatest) bound across the inputs by the field's type; none when one lacks it. */
static int merge_bounds(const floe_iceberg_data_file_t *const *in, size_t n_in, int which,
                        const floe_compact_field_type_t *types, size_t n_types, floe_parquet_arena_t *arena,
                        floe_iceberg_bound_t **out, size_t *n_out)
{
    size_t n0;
    const floe_iceberg_bound_t *first = bounds_of(in[0], which, &n0);

    *out = NULL;
    *n_out = 0;
    if (n0 == 0)
        return FLOE_ICEBERG_OK;
    if ((*out = floe_parquet_arena_alloc(arena, n0, sizeof(**out))) == NULL)
        return FLOE_ICEBERG_EINVALID;
    for (size_t i = 0; i < n0; i++) {
        const char *type = type_of(types, n_types, first[i].field_id);
        const floe_iceberg_bound_t *best = &first[i];
        for (size_t k = 1; k < n_in && best != NULL && type != NULL; k++) {
            size_t n;
            const floe_iceberg_bound_t *list = bounds_of(in[k], which, &n);
            const floe_iceberg_bound_t *b = find_bound(list, n, first[i].field_id);
            int cmp = b == NULL ? 0 : floe_iceberg_value_compare(type, b->value, best->value);
            if (b == NULL)
                best = NULL;
            else if ((which == LOWER_BOUNDS && cmp < 0) || (which == UPPER_BOUNDS && cmp > 0))
                best = b;
        }
        if (best != NULL && type != NULL)
            (*out)[(*n_out)++] = *best;
    }
    return FLOE_ICEBERG_OK;
}

static bool all_unsorted(const floe_iceberg_data_file_t *const *in, size_t n_in)
{
    for (size_t k = 0; k < n_in; k++) {
        if (!in[k]->has_sort_order_id || in[k]->sort_order_id != 0)
            return false;
    }
    return true;
}

static int merge_statistics(const floe_iceberg_data_file_t *const *in, size_t n_in,
                            const floe_compact_field_type_t *types, size_t n_types, floe_parquet_arena_t *arena,
                            floe_iceberg_data_file_t *out)
{
    if (merge_counts(in, n_in, COLUMN_SIZES, arena, &out->column_sizes, &out->n_column_sizes) != 0 ||
        merge_counts(in, n_in, VALUE_COUNTS, arena, &out->value_counts, &out->n_value_counts) != 0 ||
        merge_counts(in, n_in, NULL_VALUE_COUNTS, arena, &out->null_value_counts, &out->n_null_value_counts) != 0 ||
        merge_counts(in, n_in, NAN_VALUE_COUNTS, arena, &out->nan_value_counts, &out->n_nan_value_counts) != 0 ||
        merge_bounds(in, n_in, LOWER_BOUNDS, types, n_types, arena, &out->lower_bounds, &out->n_lower_bounds) != 0 ||
        merge_bounds(in, n_in, UPPER_BOUNDS, types, n_types, arena, &out->upper_bounds, &out->n_upper_bounds) != 0)
        return FLOE_ICEBERG_EINVALID;
    return FLOE_ICEBERG_OK;
}

int floe_compact_merge(const floe_iceberg_data_file_t *const *inputs, size_t n_inputs,
                       const floe_compact_field_type_t *types, size_t n_types, const floe_compact_layout_t *layout,
                       char *path, floe_parquet_arena_t *arena, floe_iceberg_data_file_t *out,
                       floe_iceberg_error_t *err)
{
    int64_t records = 0;
    static char parquet[] = "PARQUET";

    memset(out, 0, sizeof(*out));
    if (n_inputs == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A compacted file needs at least one input.");
    for (size_t k = 0; k < n_inputs; k++)
        records = inputs[k]->record_count > INT64_MAX - records ? INT64_MAX : records + inputs[k]->record_count;
    if (records != layout->num_rows)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "The manifests count %lld rows in %s and the files it joins, but their Parquet "
                                 "footers hold %lld.",
                                 (long long)records, inputs[0]->file_path, (long long)layout->num_rows);
    out->content = FLOE_ICEBERG_CONTENT_DATA;
    out->file_path = path;
    out->file_format = parquet;
    out->partition = inputs[0]->partition;
    out->n_partition = inputs[0]->n_partition;
    out->record_count = layout->num_rows;
    out->file_size_in_bytes = (int64_t)layout->size;
    out->split_offsets = layout->split_offsets;
    out->n_split_offsets = layout->n_split_offsets;
    out->has_sort_order_id = all_unsorted(inputs, n_inputs);
    if (merge_statistics(inputs, n_inputs, types, n_types, arena, out) != 0) {
        memset(out, 0, sizeof(*out));
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The merged statistics do not fit in memory.");
    }
    return FLOE_ICEBERG_OK;
}
