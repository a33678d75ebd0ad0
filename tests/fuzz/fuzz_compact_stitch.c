/*
 * libFuzzer harness for compaction's stitched layouts (runtime/iceberg/compact.h). The input is a
 * whole Parquet file; it is stitched with itself, the first copy with its page indexes and bloom
 * filters, the second without. Besides the sanitizers it checks what compaction promises: the
 * layout's pieces copy only bytes that exist in the input and add up to the layout's size; the
 * new file ends with a footer that decodes; every column chunk of the new file holds the very
 * bytes of the chunk it came from; every page index and bloom filter the new footer keeps lies
 * in the new file before the footer and holds the bytes it held before (a column index, a bloom
 * filter) or its page locations moved with the chunk (an offset index, which may be written anew
 * in the shortest encoding); split offsets grow.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stitch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define COPIES 2

static void expect(int cond)
{
    if (!cond)
        abort();
}

/* The new file's bytes from the layout, or NULL (a piece outside the input aborts). */
static uint8_t *materialize(const floe_compact_layout_t *l, const uint8_t *data, size_t size)
{
    uint8_t *out = malloc(l->size + 1);
    uint64_t at = 0;

    for (size_t i = 0; i < l->n_pieces; i++) {
        const floe_compact_piece_t *p = &l->pieces[i];
        if (p->source != FLOE_COMPACT_LITERAL) {
            expect(p->source >= 0 && p->source < COPIES);
            expect(p->offset <= size && p->length <= size - p->offset);
        }
        expect(at + p->length <= l->size);
        memcpy(out + at, p->source == FLOE_COMPACT_LITERAL ? p->data : data + p->offset, p->length);
        at += p->length;
    }
    expect(at == l->size);
    return out;
}

/* A kept index or bloom filter lies before the footer. */
static void expect_inside(bool has, int64_t offset, int64_t len, uint64_t footer)
{
    if (has)
        expect(offset >= 4 && len >= 0 && (uint64_t)offset + (uint64_t)len <= footer);
}

/* The kept offset index `now` of a chunk now at `a`, moved back to the chunk's old place `b`, holds
 * what the input's `old` holds. Compared with `old` rewritten in place rather than with its bytes:
 * the rewrite writes each field header and varint in its shortest form, which a writer need not
 * use (an overlong varint is valid Thrift); the values are what a reader sees. */
static void expect_offset_index_moved(const uint8_t *now, size_t now_len, floe_parquet_range_t a, const uint8_t *old,
                                      size_t old_len, floe_parquet_range_t b)
{
    uint8_t *back = NULL, *same = NULL;
    size_t back_len = 0, same_len = 0;
    floe_iceberg_error_t err;

    expect(floe_parquet_offset_index_rewrite(now, now_len, a, b.offset, &back, &back_len, &err) == 0);
    expect(floe_parquet_offset_index_rewrite(old, old_len, b, b.offset, &same, &same_len, &err) == 0);
    expect(back_len == same_len && memcmp(back, same, back_len) == 0);
    free(back);
    free(same);
}

/* Chunk c of row group r of the new file against chunk c of row group `from` of the input. */
static void check_chunk(const uint8_t *file, const floe_parquet_file_metadata_t *md, uint64_t footer, uint32_t r,
                        const uint8_t *data, const floe_parquet_file_metadata_t *src, uint32_t from, uint32_t c)
{
    const floe_parquet_column_chunk_t *now = &md->row_groups[r].columns[c], *old = &src->row_groups[from].columns[c];
    floe_parquet_range_t a, b;
    floe_iceberg_error_t err;

    expect(floe_parquet_chunk_range(md, r, c, footer, &a, &err) == 0);
    expect(floe_parquet_chunk_range(src, from, c, UINT64_MAX, &b, &err) == 0);
    expect(a.length == b.length && memcmp(file + a.offset, data + b.offset, a.length) == 0);
    expect_inside(now->has_column_index_offset, now->column_index_offset, now->column_index_length, footer);
    expect_inside(now->has_offset_index_offset, now->offset_index_offset, now->offset_index_length, footer);
    if (now->has_column_index_offset)
        expect(now->column_index_length == old->column_index_length &&
               memcmp(file + now->column_index_offset, data + old->column_index_offset,
                      (size_t)old->column_index_length) == 0);
    if (now->has_offset_index_offset)
        expect_offset_index_moved(file + now->offset_index_offset, (size_t)now->offset_index_length, a,
                                  data + old->offset_index_offset, (size_t)old->offset_index_length, b);
    if (now->meta_data.has_bloom_filter_offset && now->meta_data.has_bloom_filter_length) {
        expect_inside(true, now->meta_data.bloom_filter_offset, now->meta_data.bloom_filter_length, footer);
        expect(memcmp(file + now->meta_data.bloom_filter_offset, data + old->meta_data.bloom_filter_offset,
                      (size_t)now->meta_data.bloom_filter_length) == 0);
    }
}

static void check_file(const floe_compact_layout_t *l, const uint8_t *file, const uint8_t *data,
                       const floe_parquet_file_metadata_t *src)
{
    floe_parquet_footer_t ft;
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;

    expect(floe_parquet_footer_locate(file, l->size, l->size, &ft, &err) == 0 && ft.in_tail != NULL);
    expect(floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0);
    expect(md.n_row_groups == COPIES * src->n_row_groups && l->n_split_offsets == md.n_row_groups);
    expect(l->num_rows == md.num_rows);
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        expect(r == 0 || l->split_offsets[r] >= l->split_offsets[r - 1]);
        for (uint32_t c = 0; c < md.row_groups[r].n_columns; c++)
            check_chunk(file, &md, ft.offset, r, data, src, r % src->n_row_groups, c);
    }
    floe_parquet_file_metadata_dispose(&md);
}

/* Row group g of src without its first row, when every column filters (else NULL): the rewrite a
 * deletion vector deleting that row gives. Free with free_rewrite. */
static floe_compact_rewrite_t *rewrite_first_row(const uint8_t *data, const floe_parquet_file_metadata_t *src,
                                                 uint64_t footer, uint32_t g)
{
    static const uint64_t first[] = {0};
    const floe_parquet_row_group_t *rg = &src->row_groups[g];
    floe_compact_rewrite_t *rw;
    floe_parquet_filtered_t *cols;
    uint64_t *kept;
    floe_iceberg_error_t err;

    if (rg->num_rows < 1 || rg->num_rows > 4096 || rg->n_columns > src->n_leaves)
        return NULL;
    cols = calloc(rg->n_columns + 1, sizeof(*cols));
    for (uint32_t c = 0; c < rg->n_columns; c++) {
        const floe_parquet_column_meta_data_t *m = &rg->columns[c].meta_data;
        floe_parquet_filter_column_t col = {m->type, floe_parquet_leaf_element(src, c)->type_length, m->codec,
                                            src->leaves[c].max_definition_level, src->leaves[c].max_repetition_level,
                                            src, c};
        floe_parquet_range_t r;
        if (floe_parquet_chunk_range(src, g, c, footer, &r, &err) != 0 ||
            floe_parquet_filter_chunk(data + r.offset, (size_t)r.length, &col, rg->num_rows, first, 1, &cols[c],
                                      &err) != 0) {
            for (uint32_t k = 0; k < c; k++)
                free(cols[k].bytes);
            free(cols);
            return NULL;
        }
    }
    kept = calloc((size_t)rg->num_rows, sizeof(*kept));
    for (int64_t i = 1; i < rg->num_rows; i++)
        kept[i - 1] = (uint64_t)i;
    rw = calloc(1, sizeof(*rw));
    *rw = (floe_compact_rewrite_t){cols, rg->num_rows - 1, kept};
    return rw;
}

static void free_rewrite(floe_compact_rewrite_t *rw, uint32_t n_columns)
{
    if (rw == NULL)
        return;
    for (uint32_t c = 0; c < n_columns; c++)
        free(rw->columns[c].bytes);
    free((void *)rw->columns);
    free((void *)rw->kept);
    free(rw);
}

/* Stitches the input twice again, as a v3 table's compaction does: with row lineage columns, the
 * second copy's even row groups dropped and the first copy's row groups written again without
 * their first row where its columns can be (deletion vectors); checks the copied chunks, that
 * both lineage columns are there and complete, and the row count. */
static void check_lineage(const uint8_t *data, size_t size, const floe_parquet_file_metadata_t *src, uint64_t footer)
{
    floe_compact_source_t sources[COPIES];
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;
    bool *dropped = calloc(src->n_row_groups + 1, sizeof(bool)), has_both = false, is_complete = false;
    int64_t rows = 0;
    uint32_t n_groups = COPIES * src->n_row_groups, r = 0;
    uint8_t *file;

    for (uint32_t g = 0; g < src->n_row_groups; g += 2) {
        dropped[g] = true;
        n_groups--;
    }
    floe_compact_rewrite_t **rewrites = calloc(src->n_row_groups + 1, sizeof(*rewrites));

    for (int i = 0; i < COPIES; i++)
        sources[i] = (floe_compact_source_t){.footer = src, .footer_offset = footer, .has_lineage = true,
                                             .first_row_id = 1000 * i, .sequence_number = i + 1};
    sources[1].is_dropped = dropped;
    for (uint32_t g = 0; g < src->n_row_groups; g++)
        rewrites[g] = rewrite_first_row(data, src, footer, g);
    sources[0].rewrites = (const floe_compact_rewrite_t *const *)rewrites;
    if (floe_compact_stitch(sources, COPIES, &l, &err) != 0) {
        expect(err.message[0] != '\0' && l.pieces == NULL);
        goto Exit;
    }
    /* the stitch succeeded, so the kept rows are within FLOE_COMPACT_LINEAGE_ROWS_MAX: no overflow */
    for (int i = 0; i < COPIES; i++) {
        for (uint32_t g = 0; g < src->n_row_groups; g++)
            rows += i == 1 && dropped[g] ? 0 : i == 0 && rewrites[g] != NULL ? rewrites[g]->num_rows
                                                                                : src->row_groups[g].num_rows;
    }
    file = materialize(&l, data, size);
    expect(floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 && ft.in_tail != NULL);
    expect(floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0);
    expect(md.n_row_groups == n_groups && l.num_rows == md.num_rows && md.num_rows == rows);
    floe_compact_lineage_inspect(&md, &has_both, &is_complete);
    expect(has_both && is_complete);
    for (int i = 0; i < COPIES; i++) {
        for (uint32_t g = 0; g < src->n_row_groups; g++) {
            if (i == 1 && dropped[g])
                continue;
            for (uint32_t c = 0; c < src->row_groups[g].n_columns && !(i == 0 && rewrites[g] != NULL); c++)
                check_chunk(file, &md, ft.offset, r, data, src, g, c);
            if (i == 0 && rewrites[g] != NULL) /* a rewritten chunk is its filtered bytes, where the footer says */
                for (uint32_t c = 0; c < src->row_groups[g].n_columns; c++)
                    expect(md.row_groups[r].columns[c].meta_data.total_compressed_size ==
                               (int64_t)rewrites[g]->columns[c].len &&
                           memcmp(file + md.row_groups[r].columns[c].meta_data.data_page_offset,
                                  rewrites[g]->columns[c].bytes, rewrites[g]->columns[c].len) == 0);
            expect(md.row_groups[r].n_columns == src->row_groups[g].n_columns + FLOE_COMPACT_LINEAGE_COLUMNS);
            r++;
        }
    }
    floe_parquet_file_metadata_dispose(&md);
    free(file);
    floe_compact_layout_dispose(&l);
Exit:
    for (uint32_t g = 0; g < src->n_row_groups; g++)
        free_rewrite(rewrites[g], src->row_groups[g].n_columns);
    free(rewrites);
    free(dropped);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_parquet_footer_t ft;
    floe_parquet_file_metadata_t src;
    floe_compact_source_t sources[COPIES];
    floe_compact_layout_t layout;
    floe_parquet_range_t index;
    floe_iceberg_error_t err;
    uint8_t *file;

    if (floe_parquet_footer_locate(data, size, size, &ft, &err) != 0 || ft.in_tail == NULL ||
        floe_parquet_decode(ft.in_tail, ft.length, &src, &err) != 0)
        return 0;
    memset(sources, 0, sizeof(sources));
    for (int i = 0; i < COPIES; i++)
        sources[i] = (floe_compact_source_t){.footer = &src, .footer_offset = ft.offset};
    index = floe_compact_index_range(&src, ft.offset);
    expect(index.length == 0 || index.offset + index.length == ft.offset);
    sources[0].index_bytes = index.length > 0 ? data + index.offset : NULL;
    sources[0].index_offset = index.offset;
    sources[0].index_len = (size_t)index.length;
    if (floe_compact_stitch(sources, COPIES, &layout, &err) != 0) {
        expect(err.message[0] != '\0' && layout.pieces == NULL);
        floe_parquet_file_metadata_dispose(&src);
        return 0;
    }
    file = materialize(&layout, data, size);
    check_file(&layout, file, data, &src);
    free(file);
    floe_compact_layout_dispose(&layout);
    check_lineage(data, size, &src, ft.offset);
    floe_parquet_file_metadata_dispose(&src);
    return 0;
}
