/*
 * libFuzzer harness for the column chunk filter (runtime/iceberg/parquet_filter.h), which decodes
 * pages of data files a client wrote when compaction applies a deletion vector. Two ways in: the
 * input as a Parquet file (every column chunk of every row group filtered without every third row),
 * and the input as one raw column chunk whose column (type, codec, levels, rows) comes from its
 * first bytes. Besides the sanitizers it checks the filter's promises: a refusal has a reason and
 * leaves nothing behind; a result holds the rows kept (as many level entries unless the column
 * repeats, at least as many if it does), and reads back, as the
 * uncompressed PLAIN chunk it is, to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stitch.h"

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
    free(again.bytes);
    free(out.bytes);
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
                                                md.leaves[c].max_repetition_level};
            floe_parquet_range_t r;
            if (rg->num_rows < 0 || rg->num_rows > MAX_ROWS ||
                floe_parquet_chunk_range(&md, g, c, ft.offset, &r, &err) != 0)
                continue;
            filter(data + r.offset, (size_t)r.length, &col, rg->num_rows);
        }
    }
    floe_parquet_file_metadata_dispose(&md);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_file(data, size);
    if (size >= 4) {
        static const int32_t codecs[] = {FLOE_PARQUET_UNCOMPRESSED, FLOE_PARQUET_SNAPPY, FLOE_PARQUET_GZIP,
                                         FLOE_PARQUET_BROTLI, FLOE_PARQUET_ZSTD, FLOE_PARQUET_LZ4_RAW};
        floe_parquet_filter_column_t col = {data[0] % 8, data[0] / 8 % 16, codecs[data[1] % 6], data[2] % 4,
                                            data[2] / 4 % 3};
        filter(data + 4, size - 4, &col, data[3]);
    }
    return 0;
}
