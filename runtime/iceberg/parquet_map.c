/*
 * A Parquet file with one column's string values replaced (parquet_map.h): every row group is
 * handed to compaction's stitch as rewritten, each chunk through parquet_filter.h.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/parquet_map.h"

/* The rewritten chunks of every row group, as the stitch takes them. */
typedef struct groups {
    floe_parquet_filtered_t **columns; /* per row group, per column */
    floe_compact_rewrite_t *rewrites;
    const floe_compact_rewrite_t **pointers;
    uint32_t n;
} groups_t;

static void groups_dispose(groups_t *g, const floe_parquet_file_metadata_t *md)
{
    for (uint32_t r = 0; g->columns != NULL && r < g->n; r++) {
        for (uint32_t c = 0; g->columns[r] != NULL && c < md->row_groups[r].n_columns; c++)
            free(g->columns[r][c].bytes);
        free(g->columns[r]);
    }
    free(g->columns);
    free(g->rewrites);
    free(g->pointers);
}

/* The leaf whose element has field id `field_id`, or -1. */
static long find_leaf(const floe_parquet_file_metadata_t *md, int32_t field_id)
{
    for (uint32_t c = 0; c < md->n_leaves; c++) {
        const floe_parquet_schema_element_t *e = floe_parquet_leaf_element(md, c);
        if (e->has_field_id && e->field_id == field_id)
            return (long)c;
    }
    return -1;
}

/* Writes every chunk of every row group again, leaf `target`'s values through map. */
static int rewrite_groups(const uint8_t *file, const floe_parquet_file_metadata_t *md, uint64_t data_end,
                          uint32_t target, floe_parquet_map_fn map, void *arg, groups_t *g, floe_iceberg_error_t *err)
{
    g->n = md->n_row_groups;
    g->columns = floe_xcalloc(g->n + 1, sizeof(*g->columns));
    g->rewrites = floe_xcalloc(g->n + 1, sizeof(*g->rewrites));
    g->pointers = floe_xcalloc(g->n + 1, sizeof(*g->pointers));
    for (uint32_t r = 0; r < g->n; r++) {
        const floe_parquet_row_group_t *rg = &md->row_groups[r];
        g->columns[r] = floe_xcalloc(rg->n_columns + 1, sizeof(**g->columns));
        for (uint32_t c = 0; c < rg->n_columns; c++) {
            const floe_parquet_column_meta_data_t *m = &rg->columns[c].meta_data;
            floe_parquet_filter_column_t col = {m->type, floe_parquet_leaf_element(md, c)->type_length, m->codec,
                                                md->leaves[c].max_definition_level,
                                                md->leaves[c].max_repetition_level, md, c};
            floe_parquet_range_t range;
            int rc;
            if (floe_parquet_chunk_range(md, r, c, data_end, &range, err) != 0)
                return FLOE_ICEBERG_EINVALID;
            if (c == target)
                rc = floe_parquet_map_chunk(file + range.offset, (size_t)range.length, &col, rg->num_rows, map, arg,
                                            &g->columns[r][c], err);
            else
                rc = floe_parquet_filter_chunk(file + range.offset, (size_t)range.length, &col, rg->num_rows, NULL, 0,
                                               &g->columns[r][c], err);
            if (rc != 0)
                return FLOE_ICEBERG_EINVALID;
        }
        g->rewrites[r] = (floe_compact_rewrite_t){g->columns[r], rg->num_rows, NULL};
        g->pointers[r] = &g->rewrites[r];
    }
    return FLOE_ICEBERG_OK;
}

/* Column sizes: each leaf with a field id, its chunks' bytes over every row group. */
static void column_sizes(const floe_parquet_file_metadata_t *md, const groups_t *g, floe_parquet_mapped_t *out)
{
    out->field_ids = floe_xcalloc(md->n_leaves + 1, sizeof(*out->field_ids));
    out->sizes = floe_xcalloc(md->n_leaves + 1, sizeof(*out->sizes));
    for (uint32_t c = 0; c < md->n_leaves; c++) {
        const floe_parquet_schema_element_t *e = floe_parquet_leaf_element(md, c);
        int64_t size = 0;
        if (!e->has_field_id)
            continue;
        for (uint32_t r = 0; r < g->n; r++)
            size += (int64_t)g->columns[r][c].len;
        out->field_ids[out->n_sizes] = e->field_id;
        out->sizes[out->n_sizes++] = size;
    }
}

int floe_parquet_map_column(const uint8_t *file, size_t len, int32_t field_id, floe_parquet_map_fn map, void *arg,
                            floe_parquet_mapped_t *out, floe_iceberg_error_t *err)
{
    floe_parquet_footer_t footer;
    floe_parquet_file_metadata_t md = {0};
    floe_compact_source_t source = {0};
    floe_compact_layout_t layout = {0};
    groups_t g = {0};
    long target;
    int rc = FLOE_ICEBERG_EINVALID;

    memset(out, 0, sizeof(*out));
    if (len > FLOE_PARQUET_MAP_FILE_MAX)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet file is larger than %zu bytes.",
                                 FLOE_PARQUET_MAP_FILE_MAX);
    if (floe_parquet_footer_locate(file, len, len, &footer, err) != 0 ||
        floe_parquet_decode(footer.in_tail, footer.length, &md, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if ((target = find_leaf(&md, field_id)) < 0) {
        floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet file has no column with field id %d.", (int)field_id);
        goto Exit;
    }
    if (rewrite_groups(file, &md, footer.offset, (uint32_t)target, map, arg, &g, err) != 0)
        goto Exit;
    source = (floe_compact_source_t){.footer = &md, .footer_offset = footer.offset, .rewrites = g.pointers};
    if (floe_compact_stitch(&source, 1, &layout, err) != 0)
        goto Exit;
    out->bytes = floe_compact_layout_bytes(&layout, &file);
    out->len = (size_t)layout.size;
    column_sizes(&md, &g, out);
    rc = FLOE_ICEBERG_OK;
Exit:
    floe_compact_layout_dispose(&layout);
    groups_dispose(&g, &md);
    floe_parquet_file_metadata_dispose(&md);
    return rc;
}

void floe_parquet_mapped_dispose(floe_parquet_mapped_t *m)
{
    free(m->bytes);
    free(m->field_ids);
    free(m->sizes);
    memset(m, 0, sizeof(*m));
}
