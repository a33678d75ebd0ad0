/*
 * libFuzzer harness for the column chunk filter (runtime/iceberg/parquet_filter.h), which decodes
 * pages of data files a client wrote when compaction applies a deletion vector. Two ways in: the
 * input as a Parquet file (every column chunk of every row group filtered without every third row),
 * and the input as one raw column chunk whose column (type, codec, levels, rows) comes from its
 * first bytes. Besides the sanitizers it checks the filter's promises: a refusal has a reason and
 * leaves nothing behind; a result holds the rows kept (as many level entries unless the column
 * repeats, at least as many if it does), and reads back, as the uncompressed PLAIN chunk it is, to
 * the same bytes, with bounds that order. The input as a file is also decoded as a position delete
 * file (position_deletes.h, on the same page decoder): a refusal has a reason and leaves nothing;
 * a result's paths ascend and each one's positions ascend without repeats. A file's string columns
 * with a field id are also written again with every value replaced (parquet_map.h): a refusal has
 * a reason and leaves nothing behind, a result is a Parquet file of the same rows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_map.h"
#include "iceberg/parquet_stats.h"
#include "iceberg/parquet_stitch.h"
#include "iceberg/position_deletes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ROWS 4096

static void expect(int cond)
{
    if (!cond)
        abort();
}

static void filter(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *col, int64_t rows)
{
    uint64_t deleted[MAX_ROWS / 3 + 1];
    size_t n = 0;
    floe_parquet_filtered_t out, again;
    floe_parquet_filter_column_t plain = *col;
    floe_iceberg_error_t err;

    for (int64_t r = 0; r < rows && n < sizeof(deleted) / sizeof(deleted[0]); r += 3)
        deleted[n++] = (uint64_t)r;
    if (floe_parquet_filter_chunk(chunk, len, col, rows, deleted, n, &out, &err) != 0) {
        expect(err.message[0] != '\0' && out.bytes == NULL && out.len == 0);
        return;
    }
    /* a repeated column has at least one level entry a row; one that does not repeat, exactly one */
    expect(out.num_rows == rows - (int64_t)n && out.num_values >= out.num_rows && out.null_count >= 0 &&
           out.null_count <= out.num_values && (col->max_repetition_level > 0 || out.num_values == out.num_rows));
    plain.codec = out.codec; /* what the filter wrote: ZSTD again, or uncompressed */
    expect(floe_parquet_filter_chunk(out.bytes, out.len, &plain, out.num_rows, NULL, 0, &again, &err) == 0);
    expect(again.len == out.len && memcmp(again.bytes, out.bytes, out.len) == 0 && again.null_count == out.null_count &&
           again.num_values == out.num_values);
    /* bounds: past the chunk's bytes, the least not above the greatest, the same from the filtered chunk */
    expect(col->footer != NULL || (!out.has_min && !out.has_max));
    expect(!out.has_min || (out.min.data >= out.bytes + out.len && out.min.len <= FLOE_PARQUET_FILTER_BOUND_MAX));
    expect(!out.has_max || (out.max.data >= out.bytes + out.len && out.max.len <= FLOE_PARQUET_FILTER_BOUND_MAX));
    if (out.has_min && out.has_max) {
        int cmp = 1;
        expect(floe_parquet_value_compare(col->footer, col->leaf, out.min, out.max, &cmp) == 0 && cmp <= 0);
    }
    expect(again.has_min == out.has_min && again.has_max == out.has_max);
    expect(!out.has_min || (again.min.len == out.min.len && memcmp(again.min.data, out.min.data, out.min.len) == 0));
    expect(!out.has_max || (again.max.len == out.max.len && memcmp(again.max.data, out.max.data, out.max.len) == 0));
    free(again.bytes);
    free(out.bytes);
}

/* A value with "/x" appended (parquet_map.h's map). */
static uint8_t *append(const uint8_t *value, size_t len, size_t *out_len, void *arg)
{
    uint8_t *out = malloc(len + 2);

    (void)arg;
    memcpy(out, value, len);
    memcpy(out + len, "/x", 2);
    *out_len = len + 2;
    return out;
}

static void map_columns(const uint8_t *data, size_t size, const floe_parquet_file_metadata_t *md)
{
    for (uint32_t c = 0; c < md->n_leaves; c++) {
        const floe_parquet_schema_element_t *e = floe_parquet_leaf_element(md, c);
        floe_parquet_mapped_t out;
        floe_parquet_footer_t ft;
        floe_parquet_file_metadata_t again;
        floe_iceberg_error_t err;
        if (!e->has_field_id || e->type != FLOE_PARQUET_BYTE_ARRAY)
            continue;
        if (floe_parquet_map_column(data, size, e->field_id, append, NULL, &out, &err) != 0) {
            expect(err.message[0] != '\0' && out.bytes == NULL && out.n_sizes == 0);
            continue;
        }
        expect(floe_parquet_footer_locate(out.bytes, out.len, out.len, &ft, &err) == 0 && ft.in_tail != NULL &&
               floe_parquet_decode(ft.in_tail, ft.length, &again, &err) == 0);
        expect(again.n_row_groups == md->n_row_groups);
        for (uint32_t g = 0; g < md->n_row_groups; g++)
            expect(again.row_groups[g].num_rows == md->row_groups[g].num_rows);
        floe_parquet_file_metadata_dispose(&again);
        floe_parquet_mapped_dispose(&out);
    }
}

static void as_file(const uint8_t *data, size_t size)
{
    floe_parquet_footer_t ft;
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;

    if (floe_parquet_footer_locate(data, size, size, &ft, &err) != 0 || ft.in_tail == NULL ||
        floe_parquet_decode(ft.in_tail, ft.length, &md, &err) != 0)
        return;
    for (uint32_t g = 0; g < md.n_row_groups; g++) {
        const floe_parquet_row_group_t *rg = &md.row_groups[g];
        for (uint32_t c = 0; c < rg->n_columns && c < md.n_leaves; c++) {
            const floe_parquet_column_meta_data_t *m = &rg->columns[c].meta_data;
            floe_parquet_filter_column_t col = {m->type, floe_parquet_leaf_element(&md, c)->type_length, m->codec,
                                                md.leaves[c].max_definition_level,
                                                md.leaves[c].max_repetition_level, &md, c};
            floe_parquet_range_t r;
            if (rg->num_rows < 0 || rg->num_rows > MAX_ROWS ||
                floe_parquet_chunk_range(&md, g, c, ft.offset, &r, &err) != 0)
                continue;
            filter(data + r.offset, (size_t)r.length, &col, rg->num_rows);
        }
    }
    if (md.num_rows <= MAX_ROWS)
        map_columns(data, size, &md);
    floe_parquet_file_metadata_dispose(&md);
}

static void as_position_deletes(const uint8_t *data, size_t size)
{
    floe_iceberg_pos_deletes_t d;
    floe_iceberg_error_t err;
    size_t n = 0;

    if (floe_iceberg_pos_deletes_decode(data, size, MAX_ROWS, &d, &err) != 0) {
        expect(err.message[0] != '\0' && d.targets == NULL && d.n_targets == 0);
        return;
    }
    for (size_t t = 0; t < d.n_targets; t++) {
        const floe_iceberg_pos_target_t *x = &d.targets[t];
        expect(x->n > 0 && (t == 0 || strcmp(d.targets[t - 1].path, x->path) < 0));
        expect(floe_iceberg_pos_deletes_find(&d, x->path) == x);
        for (size_t k = 1; k < x->n; k++)
            expect(x->positions[k - 1] < x->positions[k] && x->positions[k] <= INT64_MAX);
        n += x->n;
    }
    expect(d.n_rows >= 0 && (int64_t)n <= d.n_rows && d.n_rows <= MAX_ROWS);
    floe_iceberg_pos_deletes_dispose(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_file(data, size);
    as_position_deletes(data, size);
    if (size >= 4) {
        static const int32_t codecs[] = {FLOE_PARQUET_UNCOMPRESSED, FLOE_PARQUET_SNAPPY, FLOE_PARQUET_GZIP,
                                         FLOE_PARQUET_BROTLI, FLOE_PARQUET_ZSTD, FLOE_PARQUET_LZ4_RAW};
        floe_parquet_filter_column_t col = {data[0] % 8, data[0] / 8 % 16, codecs[data[1] % 6], data[2] % 4,
                                            data[2] / 4 % 3, NULL, 0};
        filter(data + 4, size - 4, &col, data[3]);
    }
    return 0;
}
