/*
 * Helpers shared by the parquet_*.c unit tests: the real files of parquet_fixtures.h, opened down
 * to their decoded footers, and a small valid footer written by hand for tests that splice in
 * hostile or unknown fields. Every helper is static inline so a test file that does not use one
 * does not warn.
 */
#ifndef FLOE_TEST_PARQUET_SUPPORT_H
#define FLOE_TEST_PARQUET_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "iceberg/parquet_encode.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_stats.h"
#include "iceberg/parquet_stitch.h"
#include "parquet_fixtures.h"

typedef struct pq_file {
    const char *name;
    const uint8_t *data;
    size_t len;
} pq_file_t;

#define PQ_FILE(n) {#n, pq_fixture_##n, sizeof(pq_fixture_##n)}

static const pq_file_t pq_files[] = {
    PQ_FILE(ints), PQ_FILE(ints_b), PQ_FILE(ints_snappy), PQ_FILE(strings), PQ_FILE(nested), PQ_FILE(types),
    PQ_FILE(pos_deletes),
    PQ_FILE(position_deletes),
};
#define PQ_N_FILES (sizeof(pq_files) / sizeof(pq_files[0]))

static inline pq_file_t pq_file(const char *name)
{
    for (size_t i = 0; i < PQ_N_FILES; i++) {
        if (strcmp(pq_files[i].name, name) == 0)
            return pq_files[i];
    }
    fprintf(stderr, "no fixture %s\n", name);
    abort();
}

/* The footer of a fixture (the whole file is the tail). A fixture that does not locate aborts. */
static inline floe_parquet_footer_t pq_footer(pq_file_t f)
{
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;

    if (floe_parquet_footer_locate(f.data, f.len, f.len, &ft, &err) != 0 || ft.in_tail == NULL) {
        fprintf(stderr, "fixture %s: %s\n", f.name, err.message);
        abort();
    }
    return ft;
}

/* Decodes a fixture's footer into *md; the caller disposes it. A fixture that does not decode aborts. */
static inline void pq_open(const char *name, floe_parquet_file_metadata_t *md)
{
    pq_file_t f = pq_file(name);
    floe_parquet_footer_t ft = pq_footer(f);
    floe_iceberg_error_t err;

    if (floe_parquet_decode(ft.in_tail, ft.length, md, &err) != 0) {
        fprintf(stderr, "fixture %s: %s\n", name, err.message);
        abort();
    }
}

static inline bool pq_name_is(floe_parquet_bytes_t b, const char *s)
{
    return b.data != NULL && b.len == strlen(s) && memcmp(b.data, s, b.len) == 0;
}

static inline int64_t pq_le(floe_parquet_bytes_t b)
{
    uint64_t v = 0;

    for (uint32_t i = b.len; i-- > 0;)
        v = v << 8 | b.data[i];
    if (b.len == 4)
        return (int32_t)(uint32_t)v;
    return (int64_t)v;
}

/* Decodes `len` bytes; true when refused with a message (and md left zeroed). */
static inline bool pq_refused(const uint8_t *data, size_t len)
{
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;

    if (floe_parquet_decode(data, len, &md, &err) == 0) {
        floe_parquet_file_metadata_dispose(&md);
        return false;
    }
    return err.code == FLOE_ICEBERG_EINVALID && err.message[0] != '\0' && md.schema == NULL && md.arena == NULL;
}

/* Decodes, encodes, decodes and encodes again: true when both encodings are equal (the round
 * trip is stable). Refused input counts as stable. */
static inline bool pq_round_trip_is_stable(const uint8_t *data, size_t len)
{
    floe_parquet_file_metadata_t a, b;
    floe_iceberg_error_t err;
    uint8_t *first, *second;
    size_t first_len, second_len;
    bool same;

    if (floe_parquet_decode(data, len, &a, &err) != 0)
        return true;
    first = floe_parquet_encode(&a, &first_len);
    if (floe_parquet_decode(first, first_len, &b, &err) != 0) {
        fprintf(stderr, "re-encoded footer does not decode: %s\n", err.message);
        free(first);
        floe_parquet_file_metadata_dispose(&a);
        return false;
    }
    second = floe_parquet_encode(&b, &second_len);
    same = first_len == second_len && memcmp(first, second, first_len) == 0;
    free(first);
    free(second);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
    return same;
}

/*
 * A minimal valid FileMetaData, by hand in the compact protocol: version 1, a root with one
 * required INT32 leaf "a", 0 rows, no row groups. PQ_MINIMAL_END is the offset of its final stop
 * byte, where a test may splice more fields (with ids above 4).
 */
static const uint8_t pq_minimal[] = {
    0x15, 0x02,                               /* 1: version = 1 */
    0x19, 0x2c,                               /* 2: schema, a list of 2 structs */
    0x48, 0x04, 'r', 'o', 'o', 't', 0x15, 0x02, 0x00, /*   {4: name "root", 5: num_children 1} */
    0x15, 0x02, 0x25, 0x00, 0x18, 0x01, 'a', 0x00,    /*   {1: type INT32, 3: REQUIRED, 4: name "a"} */
    0x16, 0x00,                               /* 3: num_rows = 0 */
    0x19, 0x0c,                               /* 4: row_groups, a list of 0 structs */
    0x00,                                     /* stop */
};
#define PQ_MINIMAL_END (sizeof(pq_minimal) - 1)

/* pq_minimal with `extra` spliced in before its final stop; the caller frees. */
static inline uint8_t *pq_minimal_with(const uint8_t *extra, size_t extra_len, size_t *len)
{
    uint8_t *out = malloc(sizeof(pq_minimal) + extra_len);

    memcpy(out, pq_minimal, PQ_MINIMAL_END);
    memcpy(out + PQ_MINIMAL_END, extra, extra_len);
    out[PQ_MINIMAL_END + extra_len] = 0x00;
    *len = sizeof(pq_minimal) + extra_len;
    return out;
}

/* A growing buffer for files built in memory. */
typedef struct pq_buf {
    uint8_t *data;
    size_t len, cap;
} pq_buf_t;

static inline void pq_put(pq_buf_t *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

/* Copies the page indexes and bloom filter of chunk c (of a file `f` whose chunk moved as *mv
 * says) to the end of out, and records where in *mv. */
static inline void pq_copy_indexes(pq_file_t f, const floe_parquet_column_chunk_t *c, floe_parquet_range_t old,
                                   floe_parquet_chunk_move_t *mv, pq_buf_t *out)
{
    floe_iceberg_error_t err;
    uint8_t *rewritten;
    size_t n;

    if (c->has_column_index_offset) {
        mv->has_column_index = true;
        mv->column_index_offset = out->len;
        pq_put(out, f.data + c->column_index_offset, (size_t)c->column_index_length);
    }
    if (c->has_offset_index_offset) {
        if (floe_parquet_offset_index_rewrite(f.data + c->offset_index_offset, (size_t)c->offset_index_length, old,
                                              mv->offset, &rewritten, &n, &err) != 0) {
            fprintf(stderr, "offset index: %s\n", err.message);
            abort();
        }
        mv->has_offset_index = true;
        mv->offset_index_offset = out->len;
        mv->offset_index_length = (uint32_t)n;
        pq_put(out, rewritten, n);
        free(rewritten);
    }
    if (c->meta_data.has_bloom_filter_offset) {
        mv->has_bloom_filter = true;
        mv->bloom_filter_offset = out->len;
        pq_put(out, f.data + c->meta_data.bloom_filter_offset, (size_t)c->meta_data.bloom_filter_length);
    }
}

#define PQ_MAX_GROUPS 16
#define PQ_MAX_COLUMNS 8

/*
 * Stitches every row group of the named fixtures, in order, into one Parquet file in memory, as
 * compaction will: each row group's span copied whole, then (when keep_indexes) the page indexes
 * and bloom filters of the first fixture's row groups, then the footer. Returns the file (the
 * caller frees) and its length; a failure aborts.
 */
static inline uint8_t *pq_stitch(const char *const *names, size_t n_names, bool keep_indexes, size_t *len)
{
    floe_parquet_file_metadata_t md[4], out;
    floe_parquet_chunk_move_t moves[PQ_MAX_GROUPS][PQ_MAX_COLUMNS];
    const floe_parquet_file_metadata_t *src[PQ_MAX_GROUPS];
    uint32_t src_group[PQ_MAX_GROUPS];
    size_t n_groups = 0;
    pq_buf_t b = {0};
    floe_iceberg_error_t err;
    uint8_t *footer;
    size_t footer_len;

    pq_put(&b, FLOE_PARQUET_MAGIC, FLOE_PARQUET_MAGIC_LEN);
    for (size_t i = 0; i < n_names; i++) {
        pq_file_t f = pq_file(names[i]);
        uint64_t data_end = pq_footer(f).offset;
        pq_open(names[i], &md[i]);
        for (uint32_t r = 0; r < md[i].n_row_groups; r++) {
            floe_parquet_range_t span;
            bool is_contiguous;
            if (floe_parquet_row_group_range(&md[i], r, data_end, &span, &is_contiguous, &err) != 0 ||
                floe_parquet_row_group_moves(&md[i], r, data_end, b.len, moves[n_groups], &err) != 0) {
                fprintf(stderr, "%s: %s\n", names[i], err.message);
                abort();
            }
            pq_put(&b, f.data + span.offset, span.length);
            src[n_groups] = &md[i];
            src_group[n_groups++] = r;
        }
    }
    for (size_t g = 0; keep_indexes && g < n_groups && src[g] == &md[0]; g++) {
        for (uint32_t c = 0; c < md[0].n_leaves; c++) {
            floe_parquet_range_t old;
            floe_parquet_chunk_range(&md[0], src_group[g], c, UINT64_MAX, &old, &err);
            pq_copy_indexes(pq_file(names[0]), &md[0].row_groups[src_group[g]].columns[c], old, &moves[g][c], &b);
        }
    }
    floe_parquet_stitch_begin(&md[0], &out);
    for (size_t g = 0; g < n_groups; g++) {
        if (floe_parquet_stitch_append(&out, src[g], src_group[g], moves[g], &err) != 0) {
            fprintf(stderr, "stitch: %s\n", err.message);
            abort();
        }
    }
    if (floe_parquet_encode_footer(&out, &footer, &footer_len, &err) != 0)
        abort();
    pq_put(&b, footer, footer_len);
    free(footer);
    floe_parquet_file_metadata_dispose(&out);
    for (size_t i = 0; i < n_names; i++)
        floe_parquet_file_metadata_dispose(&md[i]);
    *len = b.len;
    return b.data;
}

#endif
