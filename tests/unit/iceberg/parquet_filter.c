/*
 * Tests of runtime/iceberg/parquet_filter.c against the fixtures hyparquet-writer wrote
 * (tests/fixtures/parquet/write-fixtures.mjs): row groups of known rows, written again without
 * some of them. The expected page bodies are built here from the rows the fixture script wrote:
 * definition levels as RLE runs after their length, then the kept values PLAIN.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "harness.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_stitch.h"
#include "iceberg/parquet_thrift.h"
#include "iceberg/position_deletes.h"
#include "parquet_filter_fixtures.h"
#include "parquet_support.h"

typedef struct pf_body {
    uint8_t b[8192];
    size_t n;
} pf_body_t;

static void pf_put(pf_body_t *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void pf_u32(pf_body_t *o, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    pf_put(o, le, 4);
}

/* Levels 0/1 as the filter writes them: a 4-byte length, then RLE runs (count << 1, the level). */
static void pf_levels(pf_body_t *o, const uint8_t *levels, size_t n)
{
    pf_body_t runs = {.n = 0};

    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && levels[j] == levels[i])
            j++;
        for (uint64_t v = (uint64_t)(j - i) << 1;; v >>= 7) { /* varint */
            uint8_t x = (uint8_t)(v & 0x7F) | (v >= 0x80 ? 0x80 : 0);
            pf_put(&runs, &x, 1);
            if (v < 0x80)
                break;
        }
        pf_put(&runs, &levels[i], 1);
        i = j;
    }
    pf_u32(o, (uint32_t)runs.n);
    pf_put(o, runs.b, runs.n);
}

/* Filters column c of row group g of the Parquet file f (its footer decoded as md) without `deleted`. */
static int pf_filter_file(pq_file_t f, const floe_parquet_file_metadata_t *md, uint32_t g, uint32_t c,
                          const uint64_t *deleted, size_t n_deleted, floe_parquet_filtered_t *out,
                          floe_iceberg_error_t *err)
{
    const floe_parquet_column_meta_data_t *m = &md->row_groups[g].columns[c].meta_data;
    floe_parquet_filter_column_t col = {m->type, floe_parquet_leaf_element(md, c)->type_length, m->codec,
                                        md->leaves[c].max_definition_level, md->leaves[c].max_repetition_level, md, c};
    floe_parquet_range_t r;
    int rc = floe_parquet_chunk_range(md, g, c, pq_footer(f).offset, &r, err);

    if (rc == 0)
        rc = floe_parquet_filter_chunk(f.data + r.offset, (size_t)r.length, &col, md->row_groups[g].num_rows, deleted,
                                       n_deleted, out, err);
    return rc;
}

/* Filters column c of row group g of fixture `name` without `deleted`. */
static int pf_filter(const char *name, uint32_t g, uint32_t c, const uint64_t *deleted, size_t n_deleted,
                     floe_parquet_filtered_t *out, floe_iceberg_error_t *err)
{
    floe_parquet_file_metadata_t md;
    pq_file_t f = pq_file(name);
    floe_parquet_range_t r;
    const floe_parquet_column_meta_data_t *m;
    floe_parquet_filter_column_t col;
    int rc;

    pq_open(name, &md);
    m = &md.row_groups[g].columns[c].meta_data;
    col = (floe_parquet_filter_column_t){m->type, floe_parquet_leaf_element(&md, c)->type_length, m->codec,
                                         md.leaves[c].max_definition_level, md.leaves[c].max_repetition_level, &md,
                                         c};
    rc = floe_parquet_chunk_range(&md, g, c, pq_footer(f).offset, &r, err);
    if (rc == 0)
        rc = floe_parquet_filter_chunk(f.data + r.offset, (size_t)r.length, &col, md.row_groups[g].num_rows, deleted,
                                       n_deleted, out, err);
    floe_parquet_file_metadata_dispose(&md);
    return rc;
}

static int pf_ends_with(const floe_parquet_filtered_t *out, const pf_body_t *body)
{
    return out->len >= body->n && memcmp(out->bytes + out->len - body->n, body->b, body->n) == 0;
}

/* The filter's exact bounds are these bytes (design note 4). */
static int pf_bounds(const floe_parquet_filtered_t *out, const void *min, const void *max, size_t n)
{
    return out->has_min && out->has_max && out->min.len == n && out->max.len == n &&
           memcmp(out->min.data, min, n) == 0 && memcmp(out->max.data, max, n) == 0;
}

TEST(parquet_filter_gives_the_kept_values_bounds_in_the_column_order)
{
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    static const uint64_t first[] = {0}, strings_deleted[] = {0, 3, 10, 39, 400};
    uint32_t u7 = 7, u4e9 = 4000000000u;
    static const uint8_t minus_325[] = {0xff, 0xff, 0xfe, 0xbb}, zero[] = {0, 0, 0, 0}, f = 0, t = 1;
    float lo = -2.5f, hi = 3.25f;
    double neg_zero = -0.0, top = 2.25;
    int64_t minus5 = -5;
    uint64_t low30[30];

    /* types row group 0: u32 1, 4000000000, 7 (UINT_32); price 12.50, -3.25, 0.00 (DECIMAL(9,2) in
     * 4 bytes, big-endian); ratio 0.5, -2.5, 3.25; ts 1700000000000000, null, -5 */
    CHECK(pf_filter("types", 0, 0, first, 1, &out, &err) == 0 && pf_bounds(&out, &u7, &u4e9, 4),
          "an unsigned int column's bounds are ordered unsigned (4000000000 above 7)");
    free(out.bytes);
    CHECK(pf_filter("types", 0, 3, first, 1, &out, &err) == 0 && pf_bounds(&out, minus_325, zero, 4),
          "a decimal's bounds are ordered as two's complement numbers (-3.25 below 0)");
    free(out.bytes);
    CHECK(pf_filter("types", 0, 4, first, 1, &out, &err) == 0 && pf_bounds(&out, &lo, &hi, 4),
          "a float column's bounds are its least and greatest kept values");
    free(out.bytes);
    CHECK(pf_filter("types", 0, 2, first, 1, &out, &err) == 0 && pf_bounds(&out, &minus5, &minus5, 8),
          "a null is no bound: the one kept value is both");
    free(out.bytes);
    CHECK(pf_filter("types", 0, 2, (const uint64_t[]){0, 2}, 2, &out, &err) == 0 && out.null_count == 1 &&
              !out.has_min && !out.has_max,
          "a chunk left with only nulls has no bounds");
    free(out.bytes);
    CHECK(pf_filter("strings", 0, 0, strings_deleted, 5, &out, &err) == 0 && out.has_min && out.has_max &&
              out.min.len == 5 && memcmp(out.min.data, "alpha", 5) == 0 && out.max.len == 5 &&
              memcmp(out.max.data, "\xc3\xa9" "cho", 5) == 0,
          "a string column's bounds are ordered as unsigned bytes, without a length prefix");
    free(out.bytes);
    CHECK(pf_filter("strings", 0, 1, strings_deleted, 5, &out, &err) == 0 && pf_bounds(&out, &f, &t, 1),
          "a boolean column's bounds are false and true");
    free(out.bytes);
    for (uint64_t i = 0; i < 30; i++)
        low30[i] = i;
    /* score is (i - 30) / 4: rows 30..39 keep 0.0 as their least value */
    CHECK(pf_filter("strings", 0, 2, low30, 30, &out, &err) == 0 && pf_bounds(&out, &neg_zero, &top, 8),
          "a double zero is written -0.0 as a least value");
    free(out.bytes);
    CHECK(pf_filter("ints", 0, 0, (const uint64_t[]){1, 2}, 2, &out, &err) == 0 &&
              pf_bounds(&out, (const int32_t[]){-7}, (const int32_t[]){2}, 4) &&
              out.min.data >= out.bytes + out.len,
          "the bounds lie past the chunk's bytes, which stay the chunk");
    free(out.bytes);
}

TEST(parquet_filter_drops_rows_of_plain_columns_with_and_without_nulls)
{
    static const uint64_t deleted[] = {1, 2};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t ids = {.n = 0}, bigs = {.n = 0};
    const uint8_t levels[] = {1, 0, 1};
    int32_t id0 = -7, id3 = 2;
    int64_t big0 = -5, big3 = 3000000000000 - 5;

    /* ints row group 0: id = 3i - 7 (required), big = i * 10^12 - 5, null when i % 3 == 1 */
    pf_put(&ids, &id0, 4), pf_put(&ids, &id3, 4);
    CHECK(pf_filter("ints", 0, 0, deleted, 2, &out, &err) == 0 && out.num_values == 2 && out.null_count == 0 &&
              pf_ends_with(&out, &ids),
          "a required int column keeps rows 0 and 3, PLAIN");
    free(out.bytes);
    pf_levels(&bigs, levels, 3);
    pf_put(&bigs, &big0, 8), pf_put(&bigs, &big3, 8);
    CHECK(pf_filter("ints", 0, 1, (const uint64_t[]){2}, 1, &out, &err) == 0 && out.num_values == 3 &&
              out.null_count == 1 && pf_ends_with(&out, &bigs),
          "an optional long column keeps its null's level and its values");
    free(out.bytes);
}

TEST(parquet_filter_decodes_snappy_dictionaries_booleans_and_many_pages)
{
    static const char *const names[] = {"alpha", "bravo", "charlie", "delta", "\xc3\xa9" "cho"};
    static const uint64_t deleted[] = {0, 3, 10, 39, 400};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t strings = {.n = 0}, flags = {.n = 0}, scores = {.n = 0};
    uint8_t levels[40], ones[40], bits[5] = {0};
    size_t n = 0, nulls = 0, k = 0;

    /* strings row group 0 (rows 0..39, snappy, small pages): name is a dictionary string, null
     * when i % 7 == 3; flag is i % 4 == 0; score is (i - 30) / 4 */
    for (size_t i = 0; i < 40; i++) {
        if (i == 0 || i == 3 || i == 10 || i == 39)
            continue;
        levels[n] = i % 7 == 3 ? 0 : 1;
        ones[n] = 1;
        nulls += levels[n] == 0;
        if (i % 4 == 0)
            bits[k / 8] |= (uint8_t)(1u << (k % 8));
        k++;
        n++;
    }
    pf_levels(&strings, levels, n);
    pf_levels(&scores, ones, n);
    for (size_t i = 0; i < 40; i++) {
        double score = ((double)i - 30) / 4;
        if (i == 0 || i == 3 || i == 10 || i == 39)
            continue;
        if (i % 7 != 3) {
            pf_u32(&strings, (uint32_t)strlen(names[i % 5]));
            pf_put(&strings, names[i % 5], strlen(names[i % 5]));
        }
        pf_put(&scores, &score, 8);
    }
    pf_put(&flags, bits, (k + 7) / 8);
    CHECK(pf_filter("strings", 0, 0, deleted, 5, &out, &err) == 0 && out.num_values == 36 &&
              out.null_count == (int64_t)nulls && pf_ends_with(&out, &strings),
          "a snappy, dictionary-encoded string column over several pages keeps the other 36 rows");
    free(out.bytes);
    CHECK(pf_filter("strings", 0, 1, deleted, 5, &out, &err) == 0 && out.num_values == 36 && pf_ends_with(&out, &flags),
          "a boolean column keeps its bits");
    free(out.bytes);
    CHECK(pf_filter("strings", 0, 2, deleted, 5, &out, &err) == 0 && out.num_values == 36 && pf_ends_with(&out, &scores),
          "a double column keeps its values");
    free(out.bytes);
}

/* A data page v1 (PLAIN values, RLE levels) of n values whose body is `body` as given: compressed
 * (the header says `uncompressed` bytes) or not; appended to chunk. */
static void pf_page_in(pf_body_t *chunk, int32_t n, int32_t uncompressed, const void *body, size_t len,
                       int32_t encoding);

static void pf_page(pf_body_t *chunk, int32_t n, int32_t uncompressed, const void *body, size_t len)
{
    pf_page_in(chunk, n, uncompressed, body, len, 0 /* PLAIN */);
}

/* pf_page with its values in `encoding`. */
static void pf_page_in(pf_body_t *chunk, int32_t n, int32_t uncompressed, const void *body, size_t len,
                       int32_t encoding)
{
    floe_parquet_thrift_writer_t w;
    uint8_t *header;
    size_t header_len;
    static const int32_t fields[] = {0 /* DATA_PAGE */, 0, 0};

    floe_parquet_thrift_writer_init(&w);
    floe_parquet_thrift_struct_begin(&w);
    for (int16_t id = 1; id <= 3; id++) {
        floe_parquet_thrift_write_field(&w, id, FLOE_THRIFT_I32);
        floe_parquet_thrift_write_i32(&w, id == 1 ? fields[0] : id == 2 ? uncompressed : (int32_t)len);
    }
    floe_parquet_thrift_write_field(&w, 5, FLOE_THRIFT_STRUCT);
    floe_parquet_thrift_struct_begin(&w);
    for (int16_t id = 1; id <= 4; id++) {
        floe_parquet_thrift_write_field(&w, id, FLOE_THRIFT_I32);
        floe_parquet_thrift_write_i32(&w, id == 1 ? n : id == 2 ? encoding : 3 /* RLE */);
    }
    floe_parquet_thrift_struct_end(&w);
    floe_parquet_thrift_struct_end(&w);
    header = floe_parquet_thrift_writer_take(&w, &header_len);
    pf_put(chunk, header, header_len);
    pf_put(chunk, body, len);
    free(header);
}

/* Appends a ZSTD page of an optional long column: rows [from, to), value i * 1000, null when
 * i % 3 == 1. */
static void pf_zstd_page(pf_body_t *chunk, int64_t from, int64_t to)
{
    pf_body_t body = {.n = 0};
    /* Zeroed: -O2's -Wmaybe-uninitialized cannot see that the loop below fills [0, to - from). */
    uint8_t levels[16] = {0}, packed[512];
    size_t n;

    assert(from <= to && to - from <= (int64_t)sizeof(levels));
    for (int64_t i = from; i < to; i++)
        levels[i - from] = i % 3 == 1 ? 0 : 1;
    pf_levels(&body, levels, (size_t)(to - from));
    for (int64_t i = from; i < to; i++) {
        int64_t v = i * 1000;
        if (i % 3 != 1)
            pf_put(&body, &v, 8);
    }
    n = ZSTD_compress(packed, sizeof(packed), body.b, body.n, 3);
    pf_page(chunk, (int32_t)(to - from), (int32_t)body.n, packed, n);
}

TEST(parquet_filter_decodes_zstd_pages_and_writes_zstd_again)
{
    static const uint64_t deleted[] = {0, 4, 9};
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT64, 0, FLOE_PARQUET_ZSTD, 1, 0, NULL, 0};
    floe_parquet_filtered_t out, again;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0}, want = {.n = 0};
    uint8_t levels[16], plain[512];
    size_t n = 0, at = 0, plain_len = 0;
    int64_t nulls = 0;

    pf_zstd_page(&chunk, 0, 6), pf_zstd_page(&chunk, 6, 10);
    for (int64_t i = 0; i < 10; i++) {
        if (i == 0 || i == 4 || i == 9)
            continue;
        levels[n++] = i % 3 == 1 ? 0 : 1;
        nulls += i % 3 == 1;
    }
    pf_levels(&want, levels, n);
    for (int64_t i = 0; i < 10; i++) {
        int64_t v = i * 1000;
        if (i != 0 && i != 4 && i != 9 && i % 3 != 1)
            pf_put(&want, &v, 8);
    }
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 10, deleted, 3, &out, &err) == 0 && out.num_values == 7 &&
              out.null_count == nulls && out.codec == FLOE_PARQUET_ZSTD,
          "two ZSTD pages of an optional long column keep the other 7 rows, in a ZSTD page");
    CHECK(!out.has_min && !out.has_max, "without the file's footer the filter gives no bounds");
    while (at + 4 <= out.len && memcmp(out.bytes + at, "\x28\xb5\x2f\xfd", 4) != 0) /* the frame's magic */
        at++;
    if (at + 4 <= out.len)
        plain_len = ZSTD_decompress(plain, sizeof(plain), out.bytes + at, out.len - at);
    CHECK(at + 4 <= out.len && !ZSTD_isError(plain_len) && plain_len == want.n &&
              memcmp(plain, want.b, want.n) == 0 && out.uncompressed_len == at + plain_len,
          "the written page decompresses to the kept levels and values, PLAIN");
    CHECK(floe_parquet_filter_chunk(out.bytes, out.len, &col, 7, (const uint64_t[]){6}, 1, &again, &err) == 0 &&
              again.num_values == 6 && again.null_count == nulls,
          "the written ZSTD chunk filters again");
    free(again.bytes);
    free(out.bytes);
}

TEST(parquet_filter_refuses_zstd_frames_larger_than_their_page)
{
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_ZSTD, 0, 0, NULL, 0};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0};
    int32_t values[64] = {0};
    uint8_t packed[512];
    size_t n = ZSTD_compress(packed, sizeof(packed), values, sizeof(values), 3);

    pf_page(&chunk, 4, 16, packed, n); /* the frame holds 256 bytes, the header says 16 */
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 4, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "decompress") != NULL,
          "a ZSTD frame larger than its page's stated size is refused");
    chunk.n = 0;
    pf_page(&chunk, 4, 16, "\x28\xb5\x2f\xfdgarbage", 11);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 4, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a broken ZSTD frame is refused");
    chunk.n = 0;
    pf_page(&chunk, 64, 256, packed, n);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 64, (const uint64_t[]){1}, 1, &out, &err) == 0 &&
              out.num_values == 63,
          "the same frame with its true size decodes");
    free(out.bytes);
}

TEST(parquet_filter_drops_whole_rows_of_a_list_column)
{
    static const uint64_t deleted[] = {0, 2};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t want = {.n = 0};
    /* nested's tags (optional list of optional ints): [1, 2], [], null, [7, null, 3]. Without rows 0
     * and 2: entries (rep, def) (0, 1) the empty list, (0, 3) 7, (1, 2) null, (1, 3) 3 */
    const uint8_t reps[] = {0, 0, 1, 1}, defs[] = {1, 3, 2, 3};
    int32_t seven = 7, three = 3;

    pf_levels(&want, reps, 4);
    pf_levels(&want, defs, 4);
    pf_put(&want, &seven, 4), pf_put(&want, &three, 4);
    CHECK(pf_filter("nested", 0, 2, deleted, 2, &out, &err) == 0 && out.num_rows == 2 && out.num_values == 4 &&
              out.null_count == 2 && pf_ends_with(&out, &want),
          "a list's element column keeps rows 1 and 3: their repetition levels, definition levels and values");
    free(out.bytes);
    CHECK(pf_filter("nested", 0, 2, (const uint64_t[]){3}, 1, &out, &err) == 0 && out.num_rows == 3 &&
              out.num_values == 4,
          "deleting the last row drops its three entries");
    free(out.bytes);
    CHECK(pf_filter("nested", 0, 2, NULL, 0, &out, &err) == 0 && out.num_rows == 4 && out.num_values == 7 &&
              out.null_count == 3,
          "nothing deleted keeps the seven entries of the four rows");
    free(out.bytes);
}

/* Appends a v1 page of a list of required ints (max repetition and definition levels 1) holding
 * the entries reps/defs[0..n) and values[0..n_values) to chunk. */
static void pf_list_page(pf_body_t *chunk, const uint8_t *reps, const uint8_t *defs, size_t n, const int32_t *values,
                         size_t n_values)
{
    pf_body_t body = {.n = 0};

    pf_levels(&body, reps, n);
    pf_levels(&body, defs, n);
    pf_put(&body, values, n_values * 4);
    pf_page(chunk, (int32_t)n, (int32_t)body.n, body.b, body.n);
}

TEST(parquet_filter_follows_a_row_into_the_next_page)
{
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_UNCOMPRESSED, 1, 1, NULL, 0};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0}, broken = {.n = 0}, want = {.n = 0};
    /* rows [1, 2, 3], [4], []: the first row goes on into the second page */
    static const uint8_t reps1[] = {0, 1}, defs1[] = {1, 1}, reps2[] = {1, 0, 0}, defs2[] = {1, 1, 0};
    static const int32_t values1[] = {1, 2}, values2[] = {3, 4};
    static const uint8_t want_reps[] = {0, 1, 1, 0}, want_defs[] = {1, 1, 1, 0};

    pf_list_page(&chunk, reps1, defs1, 2, values1, 2);
    pf_list_page(&chunk, reps2, defs2, 3, values2, 2);
    pf_levels(&want, want_reps, 4);
    pf_levels(&want, want_defs, 4);
    pf_put(&want, values1, 8), pf_put(&want, &values2[0], 4);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 3, (const uint64_t[]){1}, 1, &out, &err) == 0 &&
              out.num_rows == 2 && out.num_values == 4 && out.null_count == 1 && pf_ends_with(&out, &want),
          "without the second row, the first keeps its three values across both pages, and the empty list stays");
    free(out.bytes);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 3, (const uint64_t[]){0}, 1, &out, &err) == 0 &&
              out.num_rows == 2 && out.num_values == 2,
          "without the first row, its value in the second page goes too");
    free(out.bytes);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "more rows") != NULL,
          "a chunk holding more rows than its row group is refused");
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 4, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "fewer rows") != NULL,
          "a chunk holding fewer rows than its row group is refused");
    pf_list_page(&broken, reps2, defs2, 3, values2, 2);
    CHECK(floe_parquet_filter_chunk(broken.b, broken.n, &col, 2, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "start a row") != NULL,
          "a chunk whose first value goes on a row is refused");
    col.max_definition_level = 0;
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a repeated column without definition levels is refused");
}

TEST(parquet_filter_refuses_broken_pages)
{
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_UNCOMPRESSED, 1, 0, NULL, 0};
    static const uint8_t garbage[] = {0x15, 0x00, 0x15, 0x7f, 0x15, 0x7f, 0x00};

    CHECK(floe_parquet_filter_chunk(garbage, sizeof(garbage), &col, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a page longer than its chunk is refused");
    col = (floe_parquet_filter_column_t){FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY, 0, FLOE_PARQUET_UNCOMPRESSED, 1, 1, NULL, 0};
    CHECK(floe_parquet_filter_chunk(garbage, 0, &col, 0, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "type") != NULL,
          "a fixed-length array column of no length is refused, even without pages");
    col = (floe_parquet_filter_column_t){FLOE_PARQUET_INT32, 0, FLOE_PARQUET_UNCOMPRESSED, 1, 0, NULL, 0};
    CHECK(pf_filter("ints", 0, 0, NULL, 0, &out, &err) == 0 && out.num_values == 4, "nothing deleted keeps every row");
    free(out.bytes);
}

TEST(parquet_filter_leaves_nan_out_of_a_float_columns_bounds)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_filter_column_t col;
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0}, nans = {.n = 0};
    const float values[] = {1.5f, __builtin_nanf(""), -1.0f, 0.25f}, nan = __builtin_nanf(""), lo = -1.0f, hi = 1.5f;

    pq_open("types", &md); /* its ratio column (leaf 4): a required FLOAT */
    col = (floe_parquet_filter_column_t){FLOE_PARQUET_FLOAT, 0, FLOE_PARQUET_UNCOMPRESSED, 0, 0, &md, 4};
    pf_page(&chunk, 4, (int32_t)sizeof(values), values, sizeof(values));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 4, (const uint64_t[]){3}, 1, &out, &err) == 0 &&
              pf_bounds(&out, &lo, &hi, 4),
          "a NaN is no bound: the others' least and greatest are");
    free(out.bytes);
    pf_put(&nans, &nan, 4), pf_put(&nans, &nan, 4);
    chunk.n = 0;
    pf_page(&chunk, 2, 8, nans.b, nans.n);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, NULL, 0, &out, &err) == 0 && out.num_values == 2 &&
              !out.has_min && !out.has_max,
          "a chunk of NaNs has no bounds");
    free(out.bytes);
    floe_parquet_file_metadata_dispose(&md);
}

/* ---- position delete files (position_deletes.h), decoded through floe_parquet_filter_values ---- */

TEST(position_deletes_decode_groups_sorted_unique_positions_by_path)
{
    pq_file_t f = pq_file("pos_deletes");
    floe_iceberg_pos_deletes_t d;
    floe_iceberg_error_t err = {0};
    const floe_iceberg_pos_target_t *a, *b, *c;

    CHECK(floe_iceberg_pos_deletes_decode(f.data, f.len, 100, &d, &err) == 0, "a position delete file decodes");
    CHECK(d.n_rows == 7 && d.n_targets == 3, "its 7 rows (two snappy row groups) name three data files");
    a = floe_iceberg_pos_deletes_find(&d, "s3://b/t/data/a.parquet");
    b = floe_iceberg_pos_deletes_find(&d, "s3://b/t/data/b.parquet");
    c = floe_iceberg_pos_deletes_find(&d, "s3://b/t/data/c.parquet");
    CHECK(a != NULL && a->n == 3 && a->positions[0] == 0 && a->positions[1] == 1 && a->positions[2] == 3,
          "a.parquet's positions ascend and its repeated row counts once, across row groups");
    CHECK(b != NULL && b->n == 2 && b->positions[0] == 0 && b->positions[1] == 9, "b.parquet loses rows 0 and 9");
    CHECK(c != NULL && c->n == 1 && c->positions[0] == 5, "c.parquet loses row 5");
    CHECK(floe_iceberg_pos_deletes_find(&d, "s3://b/t/data/d.parquet") == NULL, "a file it does not name has none");
    floe_iceberg_pos_deletes_dispose(&d);
    CHECK(d.targets == NULL && d.n_targets == 0, "dispose zeroes it");
}

TEST(position_deletes_refuse_files_they_cannot_read)
{
    pq_file_t f = pq_file("pos_deletes"), ints = pq_file("ints");
    floe_iceberg_pos_deletes_t d;
    floe_iceberg_error_t err = {0};
    uint8_t *broken = malloc(f.len);
    floe_parquet_file_metadata_t md;
    floe_parquet_values_t v;
    floe_parquet_range_t r;

    CHECK(floe_iceberg_pos_deletes_decode(f.data, f.len, 6, &d, &err) != 0 && d.targets == NULL &&
              strstr(err.message, "more than 6 rows") != NULL,
          "a file with more rows than the limit is refused before it is decoded");
    CHECK(floe_iceberg_pos_deletes_decode(ints.data, ints.len, 100, &d, &err) != 0 &&
              strstr(err.message, "file_path") != NULL,
          "a data file is not a position delete file: it has no file_path column");
    CHECK(floe_iceberg_pos_deletes_decode(f.data, f.len / 2, 100, &d, &err) != 0, "half a file is refused");
    pq_open("pos_deletes", &md);
    CHECK(floe_parquet_chunk_range(&md, 0, 0, pq_footer(f).offset, &r, &err) == 0, "the path chunk is found");
    memcpy(broken, f.data, f.len);
    memset(broken + r.offset, 0xff, 4); /* the first path chunk's page header */
    CHECK(floe_iceberg_pos_deletes_decode(broken, f.len, 100, &d, &err) != 0 && d.targets == NULL &&
              err.message[0] != '\0',
          "a chunk that does not decode is refused with a reason");
    CHECK(floe_parquet_filter_values(f.data + r.offset, (size_t)r.length,
                                     &(floe_parquet_filter_column_t){FLOE_PARQUET_BYTE_ARRAY, 0, FLOE_PARQUET_SNAPPY,
                                                                     0, 0, NULL, 0},
                                     4, &v, &err) == 0 &&
              v.n_values == 4 && v.null_count == 0 && v.len == 4 * (4 + strlen("s3://b/t/data/a.parquet")) &&
              memcmp(v.plain + 4, "s3://b/t/data/a.parquet", 23) == 0,
          "floe_parquet_filter_values gives a chunk's values PLAIN, a string's length first");
    free(v.plain);
    CHECK(floe_parquet_filter_values(f.data + r.offset, (size_t)r.length,
                                     &(floe_parquet_filter_column_t){FLOE_PARQUET_BYTE_ARRAY, 0, FLOE_PARQUET_LZ4,
                                                                     0, 0, NULL, 0},
                                     4, &v, &err) != 0 && v.plain == NULL && strstr(err.message, "LZ4") != NULL,
          "a codec Floe does not decode is refused, named");
    floe_parquet_file_metadata_dispose(&md);
    free(broken);
}

#define PF_FIXTURE(n) ((pq_file_t){#n, pf_fixture_##n, sizeof(pf_fixture_##n)})

/* Decodes the footer of a pyarrow fixture (parquet_filter_fixtures.h); one that does not decode aborts. */
static void pf_open(pq_file_t f, floe_parquet_file_metadata_t *md)
{
    floe_parquet_footer_t ft = pq_footer(f);
    floe_iceberg_error_t err;

    if (floe_parquet_decode(ft.in_tail, ft.length, md, &err) != 0) {
        fprintf(stderr, "fixture %s: %s\n", f.name, err.message);
        abort();
    }
}

/* Whether every column of fixture f without pf_fixture_deleted is written exactly as the same
 * column of its oracle (the kept rows as pyarrow writes them PLAIN) with nothing deleted: the same
 * levels, values, entry, row and null counts. Says which column differs, and why, on stderr. */
static bool pf_matches_oracle(pq_file_t f, pq_file_t oracle, uint32_t n_leaves)
{
    floe_parquet_file_metadata_t md, kept;
    bool same = true;

    pf_open(f, &md);
    pf_open(oracle, &kept);
    if (md.n_leaves != n_leaves || kept.n_leaves != n_leaves || md.n_row_groups != 1 || kept.n_row_groups != 1) {
        fprintf(stderr, "%s: %u leaves, %u row groups\n", f.name, md.n_leaves, md.n_row_groups);
        same = false;
    }
    for (uint32_t c = 0; same && c < n_leaves; c++) {
        floe_parquet_filtered_t a, b;
        floe_iceberg_error_t err, err_b;
        size_t n_deleted = sizeof(pf_fixture_deleted) / sizeof(pf_fixture_deleted[0]);
        int rc = pf_filter_file(f, &md, 0, c, pf_fixture_deleted, n_deleted, &a, &err);
        int rc_b = pf_filter_file(oracle, &kept, 0, c, NULL, 0, &b, &err_b);
        same = rc == 0 && rc_b == 0 && a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0 &&
               a.num_values == b.num_values && a.num_rows == b.num_rows && a.null_count == b.null_count &&
               a.num_rows == kept.row_groups[0].num_rows &&
               a.num_values == kept.row_groups[0].columns[c].meta_data.num_values;
        if (!same)
            fprintf(stderr, "%s column %u: %s%s (%lld/%lld values, %lld/%lld rows)\n", f.name, c,
                    rc ? err.message : "", rc_b ? err_b.message : "", (long long)a.num_values, (long long)b.num_values,
                    (long long)a.num_rows, (long long)b.num_rows);
        free(a.bytes);
        free(b.bytes);
    }
    floe_parquet_file_metadata_dispose(&md);
    floe_parquet_file_metadata_dispose(&kept);
    return same;
}

TEST(parquet_filter_drops_rows_of_lists_maps_and_structs_as_pyarrow_writes_them)
{
    /* id, tags (list), attrs (map: key, value), info (struct: name, scores (list)) */
    CHECK(pf_matches_oracle(PF_FIXTURE(lists_v1), PF_FIXTURE(lists_kept), 6),
          "lists, a map and a list in a struct, in small snappy v1 pages with dictionaries, keep the other rows' "
          "entries and values, as pyarrow writes those rows");
    CHECK(pf_matches_oracle(PF_FIXTURE(lists_v2), PF_FIXTURE(lists_kept), 6),
          "the same in gzip data pages v2 (levels uncompressed, repetition levels first)");
}

TEST(parquet_filter_decodes_lz4_raw_pages)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_LZ4_RAW, 0, 0, NULL, 0};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0}, want = {.n = 0};
    /* one LZ4 block of literals only: a token (8 literals), then the ints 5 and 7 */
    static const uint8_t block[] = {0x80, 5, 0, 0, 0, 7, 0, 0, 0};
    int32_t seven = 7;

    pf_open(PF_FIXTURE(lists_lz4), &md);
    CHECK(md.row_groups[0].columns[1].meta_data.codec == FLOE_PARQUET_LZ4_RAW &&
              pf_matches_oracle(PF_FIXTURE(lists_lz4), PF_FIXTURE(lists_kept), 6),
          "pyarrow's LZ4_RAW pages of lists, a map and a struct keep the other rows, as pyarrow writes them PLAIN");
    floe_parquet_file_metadata_dispose(&md);
    pf_page(&chunk, 2, 8, block, sizeof(block));
    pf_put(&want, &seven, 4);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, (const uint64_t[]){0}, 1, &out, &err) == 0 &&
              out.num_values == 1 && out.codec == FLOE_PARQUET_UNCOMPRESSED && pf_ends_with(&out, &want),
          "an LZ4_RAW page's kept value is written uncompressed");
    free(out.bytes);
    chunk.n = 0;
    pf_page(&chunk, 3, 12, block, sizeof(block));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "decompress") != NULL,
          "an LZ4 block shorter than its page's stated size is refused");
    chunk.n = 0;
    pf_page(&chunk, 1, 4, block, sizeof(block));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 1, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "an LZ4 block longer than its page's stated size is refused");
    chunk.n = 0;
    pf_page(&chunk, 2, 8, block, sizeof(block) - 2);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a truncated LZ4 block is refused");
}

TEST(parquet_filter_decodes_brotli_pages)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_filter_column_t col = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_BROTLI, 0, 0, NULL, 0};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0};
    /* a Brotli stream holding the ints 5 and 7 as one uncompressed meta-block (pyarrow's
     * pa.Codec("brotli").compress of those 8 bytes) */
    static const uint8_t stream[] = {0x8b, 0x03, 0x80, 5, 0, 0, 0, 7, 0, 0, 0, 0x03};

    pf_open(PF_FIXTURE(lists_brotli), &md);
    CHECK(md.row_groups[0].columns[1].meta_data.codec == FLOE_PARQUET_BROTLI &&
              pf_matches_oracle(PF_FIXTURE(lists_brotli), PF_FIXTURE(lists_kept), 6),
          "pyarrow's Brotli v2 pages of lists, a map and a struct keep the other rows, as pyarrow writes them PLAIN");
    floe_parquet_file_metadata_dispose(&md);
    pf_page(&chunk, 2, 8, stream, sizeof(stream));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, (const uint64_t[]){0}, 1, &out, &err) == 0 &&
              out.num_values == 1 && out.codec == FLOE_PARQUET_UNCOMPRESSED,
          "a Brotli page's kept value is written uncompressed");
    free(out.bytes);
    chunk.n = 0;
    pf_page(&chunk, 1, 4, stream, sizeof(stream));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 1, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "decompress") != NULL,
          "a Brotli stream longer than its page's stated size is refused");
    chunk.n = 0;
    pf_page(&chunk, 0, 0, "\x06", 1); /* an empty page: a stream of no bytes */
    pf_page(&chunk, 2, 8, stream, sizeof(stream));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, NULL, 0, &out, &err) == 0 && out.num_values == 2,
          "an empty Brotli page decodes to nothing");
    free(out.bytes);
    chunk.n = 0;
    pf_page(&chunk, 0, 0, "", 0);
    pf_page(&chunk, 2, 8, stream, sizeof(stream));
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &col, 2, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a Brotli page of no bytes is refused");
}

TEST(parquet_filter_decodes_delta_and_byte_stream_split_values)
{
    /* ints (DELTA_BINARY_PACKED, one optional), strings (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY),
     * floats (BYTE_STREAM_SPLIT), a fixed-length array (DELTA_BYTE_ARRAY), a list of longs
     * (DELTA_BINARY_PACKED) */
    CHECK(pf_matches_oracle(PF_FIXTURE(deltas), PF_FIXTURE(deltas_kept), 8),
          "DELTA and BYTE_STREAM_SPLIT values in data pages v2 keep the other rows' values, as pyarrow writes them "
          "PLAIN");
    CHECK(pf_matches_oracle(PF_FIXTURE(deltas_v1), PF_FIXTURE(deltas_kept), 8),
          "the same in small snappy data pages v1");
}

TEST(parquet_filter_refuses_delta_values_that_do_not_fit)
{
    floe_parquet_filter_column_t ints = {FLOE_PARQUET_INT32, 0, FLOE_PARQUET_UNCOMPRESSED, 0, 0, NULL, 0};
    floe_parquet_filter_column_t strings = {FLOE_PARQUET_BYTE_ARRAY, 0, FLOE_PARQUET_UNCOMPRESSED, 0, 0, NULL, 0};
    floe_parquet_filtered_t out;
    floe_iceberg_error_t err;
    pf_body_t chunk = {.n = 0}, want = {.n = 0};
    /* DELTA_BINARY_PACKED: block 128, 4 miniblocks, 3 values, first 5 (zigzag 10); a block of
     * min delta 1 (zigzag 2) and miniblocks of width 0: 5, 6, 7 */
    static const uint8_t three[] = {0x80, 0x01, 4, 3, 10, 2, 0, 0, 0, 0};
    static const uint8_t too_many[] = {0x80, 0x01, 4, 9, 10, 2, 0, 0, 0, 0}; /* 9 values in a page of 3 */
    static const uint8_t truncated[] = {0x80, 0x01, 4, 3, 10, 2, 8, 8, 8, 8, 1}; /* width 8: 2 bytes missing */
    /* DELTA_BYTE_ARRAY: prefix lengths 2, 0 (zigzag 4, 0), suffix lengths 1, 1, suffixes "a", "b":
     * the first value cannot have a prefix */
    static const uint8_t prefixed[] = {0x80, 0x01, 4, 2, 4, 0, 0, 0, 0, 0, /* prefix lengths */
                                       0x80, 0x01, 4, 2, 2, 0, 0, 0, 0, 0, 'a', 'b'};
    int32_t five = 5, seven = 7;

    pf_page_in(&chunk, 3, sizeof(three), three, sizeof(three), 5 /* DELTA_BINARY_PACKED */);
    pf_put(&want, &five, 4), pf_put(&want, &seven, 4);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &ints, 3, (const uint64_t[]){1}, 1, &out, &err) == 0 &&
              out.num_values == 2 && pf_ends_with(&out, &want),
          "DELTA_BINARY_PACKED ints 5, 6, 7 without the second are 5 and 7, PLAIN");
    free(out.bytes);
    chunk.n = 0;
    pf_page_in(&chunk, 3, sizeof(too_many), too_many, sizeof(too_many), 5);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &ints, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL &&
              strstr(err.message, "encoding 5") != NULL,
          "more DELTA values than the page holds are refused");
    chunk.n = 0;
    pf_page_in(&chunk, 3, sizeof(truncated), truncated, sizeof(truncated), 5);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &ints, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a miniblock longer than the page is refused");
    chunk.n = 0;
    pf_page_in(&chunk, 2, sizeof(prefixed), prefixed, sizeof(prefixed), 7 /* DELTA_BYTE_ARRAY */);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &strings, 2, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "a first string with a prefix is refused");
    chunk.n = 0;
    pf_page_in(&chunk, 3, 12, "abcdefghijkl", 12, 9 /* BYTE_STREAM_SPLIT */);
    CHECK(floe_parquet_filter_chunk(chunk.b, chunk.n, &strings, 3, NULL, 0, &out, &err) != 0 && out.bytes == NULL,
          "BYTE_STREAM_SPLIT strings are refused");
}
