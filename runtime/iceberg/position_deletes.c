/*
 * Position delete files decoded (position_deletes.h): the footer read, the two columns found by
 * field id and decoded row group by row group, the rows sorted by (path, position) and grouped.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stitch.h"
#include "iceberg/position_deletes.h"

/* One row: its path's bytes (in a decoded column's buffer) and its position. */
typedef struct row {
    const uint8_t *path;
    uint32_t path_len;
    uint64_t pos;
} row_t;

typedef struct decoder {
    const uint8_t *file;
    const floe_parquet_file_metadata_t *md;
    uint64_t data_end; /* where the footer starts */
    uint32_t path_col, pos_col;
    row_t *rows;
    size_t n_rows;
    uint8_t **buffers; /* the path columns' decoded values, one per row group */
    size_t n_buffers;
    floe_iceberg_error_t *err;
} decoder_t;

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* The leaf with field id `id`: its index in *col, or a failure naming the column. */
static int find_column(const floe_parquet_file_metadata_t *md, int32_t id, int32_t type, const char *name,
                       uint32_t *col, floe_iceberg_error_t *err)
{
    for (uint32_t c = 0; c < md->n_leaves; c++) {
        const floe_parquet_schema_element_t *e = floe_parquet_leaf_element(md, c);
        if (!e->has_field_id || e->field_id != id)
            continue;
        if (!e->has_type || e->type != type || md->leaves[c].max_repetition_level != 0)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The position delete file's %s column (field id "
                                     "%d) is not a %s.", name, (int)id, floe_parquet_type_name(type));
        *col = c;
        return FLOE_ICEBERG_OK;
    }
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The file has no %s column (field id %d): it is not a "
                             "position delete file.", name, (int)id);
}

/* Decodes column `col` of row group g: num_rows present values, no nulls. */
static int decode_column(decoder_t *d, uint32_t g, uint32_t col, floe_parquet_values_t *out)
{
    const floe_parquet_row_group_t *rg = &d->md->row_groups[g];
    const floe_parquet_column_meta_data_t *m = &rg->columns[col].meta_data;
    floe_parquet_filter_column_t fc = {m->type, floe_parquet_leaf_element(d->md, col)->type_length, m->codec,
                                       d->md->leaves[col].max_definition_level,
                                       d->md->leaves[col].max_repetition_level, d->md, col};
    floe_parquet_range_t r;

    if (floe_parquet_chunk_range(d->md, g, col, d->data_end, &r, d->err) != 0 ||
        floe_parquet_filter_values(d->file + r.offset, (size_t)r.length, &fc, rg->num_rows, out, d->err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (out->null_count != 0 || out->n_values != rg->num_rows) {
        free(out->plain);
        memset(out, 0, sizeof(*out));
        return floe_iceberg_fail(d->err, FLOE_ICEBERG_EINVALID, "The position delete file has nulls in row group "
                                 "%u.", g);
    }
    return FLOE_ICEBERG_OK;
}

/* Adds row group g's rows. */
static int read_group(decoder_t *d, uint32_t g)
{
    int64_t n = d->md->row_groups[g].num_rows;
    floe_parquet_values_t paths = {0}, positions = {0};
    const uint8_t *p, *end;

    if (decode_column(d, g, d->path_col, &paths) != 0)
        return FLOE_ICEBERG_EINVALID;
    d->buffers[d->n_buffers++] = paths.plain; /* the rows point into it */
    if (decode_column(d, g, d->pos_col, &positions) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (positions.len != (size_t)n * 8) {
        free(positions.plain);
        return floe_iceberg_fail(d->err, FLOE_ICEBERG_EINVALID, "The position delete file's pos column holds %zu "
                                 "bytes in row group %u, not %lld longs.", positions.len, g, (long long)n);
    }
    if (n == 0) { /* nothing to add, and a column of no values may have no buffer to point into */
        free(positions.plain);
        return FLOE_ICEBERG_OK;
    }
    p = paths.plain;
    end = p == NULL ? p : p + paths.len; /* no arithmetic on NULL (UBSan), even for a malformed column */
    for (int64_t i = 0; i < n; i++) {
        row_t *row = &d->rows[d->n_rows++];
        uint64_t pos = get_u64(positions.plain + 8 * i);
        if (end - p < 4 || get_u32(p) > (size_t)(end - p) - 4 || memchr(p + 4, '\0', get_u32(p)) != NULL ||
            pos > INT64_MAX) {
            free(positions.plain);
            return floe_iceberg_fail(d->err, FLOE_ICEBERG_EINVALID, "The position delete file's row %lld of row "
                                     "group %u has %s.", (long long)i, g,
                                     pos > INT64_MAX ? "a negative position" : "a file_path that is not text");
        }
        *row = (row_t){p + 4, get_u32(p), pos};
        p += 4 + (size_t)get_u32(p);
    }
    free(positions.plain);
    return FLOE_ICEBERG_OK;
}

static int compare_rows(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    int c = memcmp(x->path, y->path, x->path_len < y->path_len ? x->path_len : y->path_len);

    if (c != 0)
        return c;
    if (x->path_len != y->path_len)
        return x->path_len < y->path_len ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static bool same_path(const row_t *x, const row_t *y)
{
    return x->path_len == y->path_len && memcmp(x->path, y->path, x->path_len) == 0;
}

/* Groups the sorted rows by path (design note 2). */
static void group_rows(decoder_t *d, floe_iceberg_pos_deletes_t *out)
{
    out->targets = floe_xcalloc(d->n_rows + 1, sizeof(*out->targets));
    for (size_t i = 0; i < d->n_rows;) {
        floe_iceberg_pos_target_t *t = &out->targets[out->n_targets++];
        size_t j = i;
        while (j < d->n_rows && same_path(&d->rows[i], &d->rows[j]))
            j++;
        t->path = floe_xmalloc((size_t)d->rows[i].path_len + 1);
        memcpy(t->path, d->rows[i].path, d->rows[i].path_len);
        t->path[d->rows[i].path_len] = '\0';
        t->positions = floe_xmalloc((j - i + 1) * sizeof(*t->positions));
        for (size_t k = i; k < j; k++) {
            if (t->n == 0 || t->positions[t->n - 1] != d->rows[k].pos)
                t->positions[t->n++] = d->rows[k].pos;
        }
        i = j;
    }
}

int floe_iceberg_pos_deletes_decode(const uint8_t *file, size_t len, int64_t max_rows,
                                    floe_iceberg_pos_deletes_t *out, floe_iceberg_error_t *err)
{
    floe_parquet_footer_t ft;
    floe_parquet_file_metadata_t md;
    decoder_t d = {.file = file, .md = &md, .err = err};
    int64_t n_rows = 0;
    int rc = FLOE_ICEBERG_EINVALID;

    memset(out, 0, sizeof(*out));
    if (floe_parquet_footer_locate(file, len, len, &ft, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (ft.in_tail == NULL) /* the tail is the whole file: it holds the footer */
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The position delete file's footer cannot be found.");
    if (floe_parquet_decode(ft.in_tail, ft.length, &md, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    d.data_end = ft.offset;
    if (find_column(&md, FLOE_ICEBERG_DELETE_FILE_PATH_ID, FLOE_PARQUET_BYTE_ARRAY, "file_path", &d.path_col, err) ||
        find_column(&md, FLOE_ICEBERG_DELETE_POS_ID, FLOE_PARQUET_INT64, "pos", &d.pos_col, err))
        goto Exit;
    for (uint32_t g = 0; g < md.n_row_groups; g++) {
        int64_t rows = md.row_groups[g].num_rows;
        if (rows < 0 || rows > max_rows - n_rows) {
            floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The position delete file has more than %lld rows.",
                              (long long)max_rows);
            goto Exit;
        }
        n_rows += rows;
    }
    d.rows = floe_xcalloc((size_t)n_rows + 1, sizeof(*d.rows));
    d.buffers = floe_xcalloc(md.n_row_groups + 1, sizeof(*d.buffers));
    for (uint32_t g = 0; g < md.n_row_groups; g++) {
        if (read_group(&d, g) != 0)
            goto Exit;
    }
    qsort(d.rows, d.n_rows, sizeof(*d.rows), compare_rows);
    group_rows(&d, out);
    out->n_rows = n_rows;
    rc = FLOE_ICEBERG_OK;
Exit:
    for (size_t i = 0; i < d.n_buffers; i++)
        free(d.buffers[i]);
    free(d.buffers);
    free(d.rows);
    floe_parquet_file_metadata_dispose(&md);
    return rc;
}

const floe_iceberg_pos_target_t *floe_iceberg_pos_deletes_find(const floe_iceberg_pos_deletes_t *d, const char *path)
{
    size_t lo = 0, hi = d->n_targets;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(d->targets[mid].path, path);
        if (c == 0)
            return &d->targets[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void floe_iceberg_pos_deletes_dispose(floe_iceberg_pos_deletes_t *d)
{
    for (size_t i = 0; i < d->n_targets; i++) {
        free(d->targets[i].path);
        free(d->targets[i].positions);
    }
    free(d->targets);
    memset(d, 0, sizeof(*d));
}
