/*
 * libFuzzer harness for Parquet footers (runtime/iceberg/parquet_footer.h, parquet_encode.h,
 * parquet_stitch.h, parquet_stats.h). The input is a FileMetaData. Besides the sanitizers it
 * checks the modules' promises: a refusal carries a reason and leaves nothing allocated; what
 * decodes encodes to bytes that decode again, and that encoding is a fixed point; every chunk
 * range, statistic and comparison of a decoded footer can be asked for; each row group stitched
 * into a new footer gives a footer that decodes. The same bytes also go, as they are, to the
 * footer locator, the OffsetIndex rewriter (which must be reversible) and the bloom filter
 * header reader, which must refuse or succeed, never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/parquet_encode.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stats.h"
#include "iceberg/parquet_stitch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A data end no file reaches, so ranges are checked only against themselves. */
#define ANY_DATA_END ((uint64_t)INT64_MAX)

static void expect(int cond)
{
    if (!cond)
        abort();
}

static void free_all(uint8_t *a, uint8_t *b, uint8_t *c)
{
    free(a);
    free(b);
    free(c);
}

/* Rewriting there and back and there again gives the first rewrite. */
static void exercise_offset_index(const uint8_t *data, size_t size)
{
    floe_parquet_range_t here = {4, UINT64_C(1) << 40}, there = {1000, UINT64_C(1) << 40};
    floe_iceberg_error_t err;
    uint8_t *first, *back = NULL, *again = NULL;
    size_t first_len, back_len, again_len;

    if (floe_parquet_offset_index_rewrite(data, size, here, there.offset, &first, &first_len, &err) != 0) {
        expect(err.message[0] != '\0');
        return;
    }
    expect(floe_parquet_offset_index_rewrite(first, first_len, there, here.offset, &back, &back_len, &err) == 0);
    expect(floe_parquet_offset_index_rewrite(back, back_len, here, there.offset, &again, &again_len, &err) == 0);
    expect(first_len == again_len && memcmp(first, again, first_len) == 0);
    free_all(first, back, again);
}

static void exercise_side_parsers(const uint8_t *data, size_t size)
{
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    uint64_t bloom_size;

    if (floe_parquet_footer_locate(data, size, size, &ft, &err) == 0)
        expect(ft.in_tail != NULL && ft.offset + ft.length + 8 == size);
    if (floe_parquet_bloom_filter_size(data, size, &bloom_size, &err) == 0)
        expect(bloom_size >= 1);
    exercise_offset_index(data, size);
}

static void exercise_ranges_and_stats(const floe_parquet_file_metadata_t *md)
{
    floe_iceberg_error_t err;

    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        floe_parquet_range_t range;
        bool is_contiguous;
        floe_parquet_row_group_range(md, r, ANY_DATA_END, &range, &is_contiguous, &err);
        for (uint32_t c = 0; c < md->row_groups[r].n_columns; c++)
            floe_parquet_chunk_range(md, r, c, ANY_DATA_END, &range, &err);
    }
    for (uint32_t leaf = 0; leaf < md->n_leaves; leaf++) {
        floe_parquet_column_stats_t st;
        int cmp;
        floe_parquet_column_stats(md, leaf, &st);
        expect(st.num_values >= 0 && (!st.has_null_count || st.null_count >= 0));
        if (st.has_min && st.has_max)
            expect(floe_parquet_value_compare(md, leaf, st.min, st.max, &cmp) == 0 && cmp <= 0);
    }
}

/* Every row group, moved to follow the previous one, makes a footer that decodes. */
static void exercise_stitch(const floe_parquet_file_metadata_t *md)
{
    floe_parquet_file_metadata_t out, again;
    floe_parquet_chunk_move_t *moves = calloc(md->n_leaves + 1, sizeof(*moves));
    floe_iceberg_error_t err;
    uint64_t offset = 4;
    uint8_t *bytes;
    size_t len;

    floe_parquet_stitch_begin(md, &out);
    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        floe_parquet_range_t span;
        bool is_contiguous;
        if (floe_parquet_row_group_range(md, r, ANY_DATA_END, &span, &is_contiguous, &err) != 0 ||
            floe_parquet_row_group_moves(md, r, ANY_DATA_END, offset, moves, &err) != 0)
            continue;
        if (floe_parquet_stitch_append(&out, md, r, moves, &err) == 0)
            offset += span.length;
    }
    bytes = floe_parquet_encode(&out, &len);
    if (floe_parquet_decode(bytes, len, &again, &err) != 0)
        abort(); /* a stitched footer Floe cannot read back */
    expect(again.n_row_groups == out.n_row_groups && again.num_rows == out.num_rows);
    floe_parquet_file_metadata_dispose(&again);
    floe_parquet_file_metadata_dispose(&out);
    free(bytes);
    free(moves);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_parquet_file_metadata_t md, again;
    floe_iceberg_error_t err;
    uint8_t *first, *second;
    size_t first_len, second_len;

    exercise_side_parsers(data, size);
    if (floe_parquet_decode(data, size, &md, &err) != 0) {
        expect(err.code == FLOE_ICEBERG_EINVALID && err.message[0] != '\0' && md.arena == NULL);
        return 0;
    }
    first = floe_parquet_encode(&md, &first_len);
    if (floe_parquet_decode(first, first_len, &again, &err) != 0)
        abort(); /* Floe wrote a footer it cannot read back */
    second = floe_parquet_encode(&again, &second_len);
    expect(first_len == second_len && memcmp(first, second, first_len) == 0);
    exercise_ranges_and_stats(&md);
    exercise_stitch(&md);
    free_all(first, second, NULL);
    floe_parquet_file_metadata_dispose(&again);
    floe_parquet_file_metadata_dispose(&md);
    return 0;
}
