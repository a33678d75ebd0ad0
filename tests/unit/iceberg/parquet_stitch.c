/* Tests of runtime/iceberg/parquet_stitch.c: column chunk ranges in real files, which files may be
 * stitched, stitched files whose every offset points at the bytes it names, and the OffsetIndex
 * and bloom filter header helpers. */
#include "parquet_support.h"

/* Decodes a file built in memory; a failure aborts. */
static void pq_open_bytes(const uint8_t *data, size_t len, floe_parquet_file_metadata_t *md,
                          floe_parquet_footer_t *ft)
{
    floe_iceberg_error_t err;

    if (floe_parquet_footer_locate(data, len, len, ft, &err) != 0 ||
        floe_parquet_decode(ft->in_tail, ft->length, md, &err) != 0) {
        fprintf(stderr, "stitched file: %s\n", err.message);
        abort();
    }
}

TEST(parquet_chunk_ranges_cover_each_chunk_of_real_files)
{
    for (size_t i = 0; i < PQ_N_FILES; i++) {
        floe_parquet_file_metadata_t md;
        floe_iceberg_error_t err;
        uint64_t data_end = pq_footer(pq_files[i]).offset;
        bool all_pages = true, all_contiguous = true;

        pq_open(pq_files[i].name, &md);
        for (uint32_t r = 0; r < md.n_row_groups; r++) {
            floe_parquet_range_t span, range;
            bool is_contiguous;
            uint64_t next;
            CHECK(floe_parquet_row_group_range(&md, r, data_end, &span, &is_contiguous, &err) == 0,
                  "finds each row group's span");
            all_contiguous = all_contiguous && is_contiguous;
            next = span.offset;
            for (uint32_t c = 0; c < md.n_leaves; c++) {
                CHECK(floe_parquet_chunk_range(&md, r, c, data_end, &range, &err) == 0, "finds each chunk's range");
                /* A page header is a struct whose first field, the page type, is an i32. */
                all_pages = all_pages && pq_files[i].data[range.offset] == 0x15 && range.offset == next;
                next = range.offset + range.length;
            }
            CHECK(next == span.offset + span.length, "the chunks end where the span ends");
        }
        CHECK(all_pages, "every chunk range starts at a page header, right after the previous chunk");
        CHECK(all_contiguous, "hyparquet-writer writes each row group's chunks contiguously");
        floe_parquet_file_metadata_dispose(&md);
    }
}

TEST(parquet_chunk_range_starts_at_the_dictionary_page)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_range_t range;
    floe_iceberg_error_t err;

    pq_open("strings", &md);
    CHECK(floe_parquet_chunk_range(&md, 0, 0, 1206, &range, &err) == 0 && range.offset == 4 && range.length == 160,
          "a dictionary-encoded chunk starts at its dictionary page");
    md.row_groups[0].columns[0].meta_data.dictionary_page_offset = 0;
    CHECK(floe_parquet_chunk_range(&md, 0, 0, 1206, &range, &err) == 0 && range.offset == 65,
          "a dictionary page offset of 0 means no dictionary, as some writers write it");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_chunk_range_refuses_bytes_outside_the_data)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_range_t range;
    floe_iceberg_error_t err;
    bool is_contiguous;
    uint64_t data_end = pq_footer(pq_file("ints")).offset;
    floe_parquet_column_meta_data_t *m;

    pq_open("ints", &md);
    m = &md.row_groups[0].columns[1].meta_data;
    CHECK(floe_parquet_chunk_range(&md, 3, 0, data_end, &range, &err) != 0, "refuses a row group that is not there");
    CHECK(floe_parquet_chunk_range(&md, 0, 2, data_end, &range, &err) != 0, "refuses a column that is not there");
    m->total_compressed_size = INT64_MAX;
    CHECK(floe_parquet_chunk_range(&md, 0, 1, data_end, &range, &err) != 0, "refuses a chunk running into the footer");
    m->total_compressed_size = 10;
    m->data_page_offset = 2;
    CHECK(floe_parquet_chunk_range(&md, 0, 1, data_end, &range, &err) != 0, "refuses a chunk over the leading magic");
    m->data_page_offset = md.row_groups[0].columns[0].meta_data.data_page_offset;
    CHECK(floe_parquet_row_group_range(&md, 0, data_end, &range, &is_contiguous, &err) != 0 &&
              strstr(err.message, "overlap") != NULL,
          "refuses a row group whose chunks overlap");
    m->has_dictionary_page_offset = true;
    m->dictionary_page_offset = m->data_page_offset + 100;
    m->data_page_offset += 1000;
    m->total_compressed_size = 10;
    CHECK(floe_parquet_chunk_range(&md, 0, 1, data_end, &range, &err) != 0,
          "refuses a chunk whose first data page lies outside it");
    md.row_groups[0].columns[1].has_file_path = true;
    CHECK(floe_parquet_chunk_range(&md, 0, 1, data_end, &range, &err) != 0, "refuses a chunk in another file");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_compatible_needs_equal_schemas_and_codecs)
{
    floe_parquet_file_metadata_t ints, ints_b, snappy, strings;
    floe_iceberg_error_t err;

    pq_open("ints", &ints);
    pq_open("ints_b", &ints_b);
    pq_open("ints_snappy", &snappy);
    pq_open("strings", &strings);
    CHECK(floe_parquet_compatible(&ints, &ints_b, &err) == 0, "accepts two files with one schema and one codec");
    CHECK(floe_parquet_compatible(&ints, &snappy, &err) != 0 && strstr(err.message, "codec") != NULL,
          "refuses files whose codecs differ");
    CHECK(floe_parquet_compatible(&ints, &strings, &err) != 0 && strstr(err.message, "schema") != NULL,
          "refuses files whose schemas differ");
    ints_b.schema[2].field_id = 7;
    CHECK(floe_parquet_compatible(&ints, &ints_b, &err) != 0, "refuses a different field id");
    ints_b.schema[2].field_id = 2;
    ints_b.has_column_orders = false;
    CHECK(floe_parquet_compatible(&ints, &ints_b, &err) != 0, "refuses files of which one lacks column orders");
    ints_b.has_column_orders = true;
    ints_b.row_groups[1].columns[0].meta_data.codec = FLOE_PARQUET_ZSTD;
    CHECK(floe_parquet_compatible(&ints, &ints_b, &err) != 0, "refuses a file that mixes codecs in one column");
    floe_parquet_file_metadata_dispose(&ints);
    floe_parquet_file_metadata_dispose(&ints_b);
    floe_parquet_file_metadata_dispose(&snappy);
    floe_parquet_file_metadata_dispose(&strings);
}

/* Every chunk of the stitched file holds the bytes of the chunk it came from. */
static bool pq_chunks_match(const uint8_t *file, const floe_parquet_file_metadata_t *md, uint32_t r,
                            pq_file_t from, const floe_parquet_file_metadata_t *src, uint32_t src_r, uint64_t data_end)
{
    floe_iceberg_error_t err;

    for (uint32_t c = 0; c < md->n_leaves; c++) {
        floe_parquet_range_t now, before;
        const floe_parquet_column_meta_data_t *m = &md->row_groups[r].columns[c].meta_data;
        const floe_parquet_column_meta_data_t *old = &src->row_groups[src_r].columns[c].meta_data;
        if (floe_parquet_chunk_range(md, r, c, data_end, &now, &err) != 0 ||
            floe_parquet_chunk_range(src, src_r, c, UINT64_MAX, &before, &err) != 0 || now.length != before.length ||
            memcmp(file + now.offset, from.data + before.offset, now.length) != 0)
            return false;
        if (m->data_page_offset - (int64_t)now.offset != old->data_page_offset - (int64_t)before.offset ||
            m->num_values != old->num_values || m->statistics.null_count != old->statistics.null_count)
            return false;
    }
    return true;
}

TEST(parquet_stitch_two_files_moves_every_offset)
{
    static const char *const names[] = {"ints", "ints_b"};
    floe_parquet_file_metadata_t md, a, b;
    floe_parquet_footer_t ft;
    size_t len;
    uint8_t *file = pq_stitch(names, 2, false, &len);
    floe_iceberg_error_t err;

    pq_open_bytes(file, len, &md, &ft);
    pq_open("ints", &a);
    pq_open("ints_b", &b);
    CHECK(memcmp(file, "PAR1", 4) == 0, "the stitched file starts with the magic");
    CHECK(md.num_rows == 16 && md.n_row_groups == 5, "holds the rows and row groups of both files");
    CHECK(md.row_groups[0].num_rows == 4 && md.row_groups[3].num_rows == 3 && md.row_groups[4].num_rows == 3,
          "keeps each row group's row count");
    CHECK(pq_chunks_match(file, &md, 0, pq_file("ints"), &a, 0, ft.offset) &&
              pq_chunks_match(file, &md, 2, pq_file("ints"), &a, 2, ft.offset) &&
              pq_chunks_match(file, &md, 3, pq_file("ints_b"), &b, 0, ft.offset) &&
              pq_chunks_match(file, &md, 4, pq_file("ints_b"), &b, 1, ft.offset),
          "every chunk's new offsets point at its copied bytes");
    CHECK(md.row_groups[3].columns[0].meta_data.data_page_offset >
              b.row_groups[0].columns[0].meta_data.data_page_offset,
          "the second file's chunks moved");
    CHECK(md.row_groups[3].columns[0].file_offset == md.row_groups[3].columns[0].meta_data.data_page_offset,
          "the deprecated file_offset moves with its chunk");
    CHECK(floe_parquet_compatible(&md, &a, &err) == 0, "the stitched file can be stitched again");
    CHECK(md.has_key_value_metadata && pq_name_is(md.key_value_metadata[0].key, "iceberg.schema") &&
              pq_name_is(md.created_by, "hyparquet"),
          "keeps the first file's key-value metadata and writer");
    CHECK(pq_round_trip_is_stable(ft.in_tail, ft.length), "the stitched footer round-trips");
    floe_parquet_file_metadata_dispose(&md);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
    free(file);
}

TEST(parquet_stitch_moves_or_drops_page_indexes_and_bloom_filters)
{
    static const char *const names[] = {"strings", "strings"};
    floe_parquet_file_metadata_t md, src;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    size_t len, back_len;
    uint8_t *file = pq_stitch(names, 2, true, &len), *back;
    pq_file_t f = pq_file("strings");
    const floe_parquet_column_chunk_t *kept, *old, *dropped;
    floe_parquet_range_t now, before;

    pq_open_bytes(file, len, &md, &ft);
    pq_open("strings", &src);
    CHECK(md.num_rows == 120 && md.n_row_groups == 4, "holds both copies' rows");
    kept = &md.row_groups[1].columns[0];
    old = &src.row_groups[1].columns[0];
    CHECK(kept->has_column_index_offset && kept->column_index_length == old->column_index_length &&
              memcmp(file + kept->column_index_offset, f.data + old->column_index_offset,
                     (size_t)old->column_index_length) == 0,
          "a copied column index is where the footer says");
    CHECK(kept->meta_data.has_bloom_filter_offset && kept->meta_data.bloom_filter_length == 47 &&
              memcmp(file + kept->meta_data.bloom_filter_offset, f.data + old->meta_data.bloom_filter_offset, 47) == 0,
          "a copied bloom filter is where the footer says");
    floe_parquet_chunk_range(&md, 1, 0, ft.offset, &now, &err);
    floe_parquet_chunk_range(&src, 1, 0, UINT64_MAX, &before, &err);
    CHECK(kept->has_offset_index_offset &&
              floe_parquet_offset_index_rewrite(file + kept->offset_index_offset, (size_t)kept->offset_index_length,
                                                now, before.offset, &back, &back_len, &err) == 0 &&
              back_len == (size_t)old->offset_index_length &&
              memcmp(back, f.data + old->offset_index_offset, back_len) == 0,
          "a rewritten offset index moved back gives the original bytes");
    free(back);
    dropped = &md.row_groups[3].columns[0];
    CHECK(!dropped->has_column_index_offset && !dropped->has_column_index_length &&
              !dropped->has_offset_index_offset && !dropped->has_offset_index_length &&
              !dropped->meta_data.has_bloom_filter_offset && !dropped->meta_data.has_bloom_filter_length,
          "indexes and bloom filters that were not copied are dropped, not left pointing at other bytes");
    CHECK(pq_chunks_match(file, &md, 3, f, &src, 1, ft.offset) &&
              md.row_groups[3].columns[0].meta_data.has_dictionary_page_offset,
          "the second copy's chunks, dictionaries included, moved too");
    floe_parquet_file_metadata_dispose(&md);
    floe_parquet_file_metadata_dispose(&src);
    free(file);
}

TEST(parquet_stitch_refuses_what_would_break_the_file)
{
    floe_parquet_file_metadata_t ints, snappy, out;
    floe_parquet_chunk_move_t moves[2];
    floe_iceberg_error_t err;
    uint64_t data_end = pq_footer(pq_file("ints")).offset;

    pq_open("ints", &ints);
    pq_open("ints_snappy", &snappy);
    floe_parquet_stitch_begin(&ints, &out);
    CHECK(out.n_row_groups == 0 && out.num_rows == 0 && out.n_leaves == 2, "begins with no rows");
    CHECK(floe_parquet_row_group_moves(&ints, 0, data_end, 4, moves, &err) == 0, "moves a row group to offset 4");
    CHECK(floe_parquet_stitch_append(&out, &ints, 0, moves, &err) == 0 && out.n_row_groups == 1 && out.num_rows == 4,
          "appends a row group");
    CHECK(floe_parquet_stitch_append(&out, &snappy, 0, moves, &err) != 0 && out.n_row_groups == 1,
          "refuses a row group of another codec than the file's");
    CHECK(floe_parquet_stitch_append(&out, &ints, 3, moves, &err) != 0, "refuses a row group that is not there");
    moves[1].has_column_index = true;
    CHECK(floe_parquet_stitch_append(&out, &ints, 1, moves, &err) != 0 && out.n_row_groups == 1,
          "refuses to keep a column index the chunk does not have");
    moves[1].has_column_index = false;
    moves[1].offset = UINT64_MAX - 10;
    CHECK(floe_parquet_stitch_append(&out, &ints, 1, moves, &err) != 0 && out.n_row_groups == 1,
          "refuses an offset past 2^63");
    CHECK(floe_parquet_row_group_moves(&ints, 0, 50, 4, moves, &err) != 0,
          "refuses to move a row group that runs past the data");
    floe_parquet_file_metadata_dispose(&out);
    floe_parquet_file_metadata_dispose(&ints);
    floe_parquet_file_metadata_dispose(&snappy);
}

TEST(parquet_offset_index_rewrite_refuses_pages_outside_the_chunk)
{
    floe_parquet_file_metadata_t md;
    pq_file_t f = pq_file("strings");
    const floe_parquet_column_chunk_t *c;
    floe_parquet_range_t range;
    floe_iceberg_error_t err;
    uint8_t *out, copy[64];
    size_t out_len;

    pq_open("strings", &md);
    c = &md.row_groups[0].columns[0];
    floe_parquet_chunk_range(&md, 0, 0, UINT64_MAX, &range, &err);
    CHECK(floe_parquet_offset_index_rewrite(f.data + c->offset_index_offset, (size_t)c->offset_index_length, range,
                                            1000, &out, &out_len, &err) == 0,
          "rewrites a real offset index");
    free(out);
    range.length -= 20;
    CHECK(floe_parquet_offset_index_rewrite(f.data + c->offset_index_offset, (size_t)c->offset_index_length, range,
                                            1000, &out, &out_len, &err) != 0 &&
              strstr(err.message, "outside") != NULL,
          "refuses a page beyond the chunk's end");
    range.length += 20;
    memcpy(copy, f.data + c->offset_index_offset, (size_t)c->offset_index_length);
    copy[c->offset_index_length] = 0;
    CHECK(floe_parquet_offset_index_rewrite(copy, (size_t)c->offset_index_length + 1, range, 1000, &out, &out_len,
                                            &err) != 0,
          "refuses bytes after the offset index");
    CHECK(floe_parquet_offset_index_rewrite(copy, (size_t)c->offset_index_length - 1, range, 1000, &out, &out_len,
                                            &err) != 0,
          "refuses a truncated offset index");
    CHECK(floe_parquet_offset_index_rewrite((const uint8_t *)"\x00", 1, range, 1000, &out, &out_len, &err) != 0,
          "refuses an offset index without page locations");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_offset_index_rewrite_writes_the_shortest_encoding)
{
    /* three pages at 35, 100 and 135 of a chunk at [4, 164); the first page's size (2) is an
     * overlong varint (82 00), valid Thrift that a writer (or the fuzzer) may produce */
    static const uint8_t overlong[] = {0x19, 0x3c, 0x16, 0x46, 0x15, 0x82, 0x00, 0x16, 0x01, 0x00, 0x16, 0xc8, 0x01,
                                       0x15, 0x46, 0x16, 0x24, 0x00, 0x16, 0x8e, 0x02, 0x15, 0x3a, 0x16, 0x46, 0x00,
                                       0x00};
    static const uint8_t shortest[] = {0x19, 0x3c, 0x16, 0x46, 0x15, 0x02, 0x16, 0x01, 0x00, 0x16, 0xc8, 0x01, 0x15,
                                       0x46, 0x16, 0x24, 0x00, 0x16, 0x8e, 0x02, 0x15, 0x3a, 0x16, 0x46, 0x00, 0x00};
    floe_parquet_range_t chunk = {4, 160};
    floe_iceberg_error_t err;
    uint8_t *out = NULL;
    size_t out_len = 0;

    CHECK(floe_parquet_offset_index_rewrite(overlong, sizeof(overlong), chunk, 4, &out, &out_len, &err) == 0 &&
              out_len == sizeof(shortest) && memcmp(out, shortest, out_len) == 0,
          "an offset index rewritten in place holds the same values, each varint in its shortest form, so a "
          "kept offset index need not be the input's bytes (fuzz_compact_stitch compares it so)");
    free(out);
}

TEST(parquet_bloom_filter_size_reads_the_header)
{
    floe_parquet_file_metadata_t md;
    pq_file_t f = pq_file("strings");
    const floe_parquet_column_meta_data_t *m;
    floe_iceberg_error_t err;
    uint64_t size = 0;

    pq_open("strings", &md);
    m = &md.row_groups[0].columns[0].meta_data;
    CHECK(floe_parquet_bloom_filter_size(f.data + m->bloom_filter_offset, FLOE_PARQUET_BLOOM_HEAD_LEN, &size, &err) ==
                  0 &&
              size == (uint64_t)m->bloom_filter_length,
          "the header gives the bloom filter's whole size");
    CHECK(floe_parquet_bloom_filter_size(f.data + m->bloom_filter_offset, 3, &size, &err) != 0,
          "refuses a header cut short");
    CHECK(floe_parquet_bloom_filter_size((const uint8_t *)"\x15\x01\x00", 3, &size, &err) != 0,
          "refuses a negative bitset size");
    floe_parquet_file_metadata_dispose(&md);
}
