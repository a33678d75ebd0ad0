/* Tests of runtime/iceberg/parquet_footer.c and parquet_encode.c: finding, decoding and writing
 * back the footers of real files, keeping unknown fields, and refusing hostile footers. */
#include "iceberg/parquet_arena.h"
#include "parquet_support.h"

TEST(parquet_footer_locate_finds_the_footer_in_a_tail)
{
    pq_file_t f = pq_file("ints");
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    size_t tail = 100;

    CHECK(floe_parquet_footer_locate(f.data, f.len, f.len, &ft, &err) == 0, "locates the footer of a whole file");
    CHECK(ft.length == 480 && ft.offset == f.len - 8 - 480, "reads the footer length before the trailing magic");
    CHECK(ft.in_tail == f.data + ft.offset, "points into the tail at the footer");
    CHECK(floe_parquet_footer_locate(f.data + f.len - tail, tail, f.len, &ft, &err) == 0,
          "locates the footer from a tail shorter than the footer");
    CHECK(ft.in_tail == NULL && ft.offset == f.len - 8 - 480 && ft.length == 480,
          "says where to read a footer the tail does not hold");
    CHECK(floe_parquet_footer_locate(f.data + f.len - 488, 488, f.len, &ft, &err) == 0 &&
              ft.in_tail == f.data + f.len - 488,
          "finds a footer that fills the tail exactly");
}

TEST(parquet_footer_locate_refuses_what_is_not_parquet)
{
    pq_file_t f = pq_file("ints");
    uint8_t copy[720];
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;

    memcpy(copy, f.data, sizeof(copy));
    CHECK(floe_parquet_footer_locate(copy, 7, 7, &ft, &err) != 0, "refuses a file too short for the trailer");
    CHECK(floe_parquet_footer_locate(copy, 12, 12, &ft, &err) != 0, "refuses a file with no room for a footer");
    CHECK(floe_parquet_footer_locate(copy, 720, 700, &ft, &err) != 0, "refuses a tail longer than the file");
    copy[0] = 'X';
    CHECK(floe_parquet_footer_locate(copy, 720, 720, &ft, &err) != 0, "refuses a whole file without leading magic");
    CHECK(floe_parquet_footer_locate(copy + 20, 700, 720, &ft, &err) == 0,
          "does not ask a partial tail for the leading magic");
    memcpy(copy + 716, "PARE", 4);
    CHECK(floe_parquet_footer_locate(copy + 20, 700, 720, &ft, &err) != 0 && strstr(err.message, "encrypted") != NULL,
          "refuses an encrypted footer by name");
    memcpy(copy + 716, "PAR2", 4);
    CHECK(floe_parquet_footer_locate(copy + 20, 700, 720, &ft, &err) != 0, "refuses a wrong trailing magic");
    memcpy(copy + 716, "PAR1", 4);
    memcpy(copy + 712, "\xd5\x02\x00\x00", 4); /* 725 */
    CHECK(floe_parquet_footer_locate(copy + 20, 700, 720, &ft, &err) != 0, "refuses a footer longer than the file");
    memcpy(copy + 712, "\x00\x00\x00\x00", 4);
    CHECK(floe_parquet_footer_locate(copy + 20, 700, 720, &ft, &err) != 0, "refuses an empty footer");
    memcpy(copy + 712, "\xff\xff\xff\x7f", 4);
    CHECK(floe_parquet_footer_locate(copy + 20, 700, UINT64_C(1) << 40, &ft, &err) != 0,
          "refuses a footer longer than FLOE_PARQUET_FOOTER_MAX");
}

TEST(parquet_decode_reads_row_counts_and_schema)
{
    floe_parquet_file_metadata_t md;
    const floe_parquet_schema_element_t *id, *big;

    pq_open("ints", &md);
    CHECK(md.version == 2 && md.num_rows == 10, "reads the version and the row count");
    CHECK(md.n_row_groups == 3 && md.row_groups[0].num_rows == 4 && md.row_groups[1].num_rows == 4 &&
              md.row_groups[2].num_rows == 2,
          "reads each row group's row count");
    CHECK(md.n_schema == 3 && pq_name_is(md.schema[0].name, "root") && md.schema[0].num_children == 2,
          "reads the schema root");
    CHECK(md.n_leaves == 2 && md.leaves[0].schema_index == 1 && md.leaves[1].schema_index == 2, "finds both leaves");
    id = floe_parquet_leaf_element(&md, 0);
    big = floe_parquet_leaf_element(&md, 1);
    CHECK(pq_name_is(id->name, "id") && id->type == FLOE_PARQUET_INT32 &&
              id->repetition_type == FLOE_PARQUET_REQUIRED &&
              id->has_field_id && id->field_id == 1,
          "reads a required int column with its Iceberg field id");
    CHECK(pq_name_is(big->name, "big") && big->type == FLOE_PARQUET_INT64 &&
              big->repetition_type == FLOE_PARQUET_OPTIONAL && big->field_id == 2,
          "reads a nullable long column");
    CHECK(md.leaves[0].max_definition_level == 0 && md.leaves[1].max_definition_level == 1,
          "a nullable column has one definition level");
    CHECK(!id->has_converted_type && !id->has_logical_type && !id->has_type_length, "absent fields stay absent");
    CHECK(md.has_key_value_metadata && md.n_key_value_metadata == 1 &&
              pq_name_is(md.key_value_metadata[0].key, "iceberg.schema") && md.key_value_metadata[0].has_value,
          "reads the key-value metadata");
    CHECK(md.has_created_by && strcmp((const char *)md.created_by.data, "hyparquet") == 0,
          "reads created_by as a C string");
    CHECK(md.has_column_orders && md.n_column_orders == 2 && md.column_orders[1].kind == FLOE_PARQUET_TYPE_ORDER,
          "reads the column orders");
    floe_parquet_file_metadata_dispose(&md);
    CHECK(md.schema == NULL && md.arena == NULL, "dispose zeroes the footer");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_decode_reads_nested_schema_leaves)
{
    floe_parquet_file_metadata_t md;
    const floe_parquet_column_meta_data_t *m;

    pq_open("nested", &md);
    CHECK(md.n_schema == 7 && md.n_leaves == 3, "finds three leaves under two groups");
    CHECK(md.leaves[0].schema_index == 2 && md.leaves[0].depth == 2 && md.leaves[0].max_definition_level == 1 &&
              md.leaves[0].max_repetition_level == 0,
          "a required field of an optional struct has one definition level");
    CHECK(md.leaves[1].schema_index == 3 && md.leaves[1].max_definition_level == 2, "point.label has two");
    CHECK(md.leaves[2].schema_index == 6 && md.leaves[2].depth == 3 && md.leaves[2].max_definition_level == 3 &&
              md.leaves[2].max_repetition_level == 1,
          "a list element has three definition levels and one repetition level");
    CHECK(md.parents[6] == 5 && md.parents[5] == 4 && md.parents[4] == 0 && md.parents[2] == 1,
          "records each element's group");
    m = &md.row_groups[0].columns[2].meta_data;
    CHECK(m->n_path_in_schema == 3 && pq_name_is(m->path_in_schema[0], "tags") &&
              pq_name_is(m->path_in_schema[1], "list") && pq_name_is(m->path_in_schema[2], "element"),
          "reads a nested column's path");
    CHECK(md.schema[4].has_converted_type && md.schema[4].converted_type == 3, "reads the LIST converted type");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_decode_reads_logical_types)
{
    floe_parquet_file_metadata_t md;
    const floe_parquet_schema_element_t *u32, *day, *ts, *price;

    pq_open("types", &md);
    u32 = floe_parquet_leaf_element(&md, 0);
    day = floe_parquet_leaf_element(&md, 1);
    ts = floe_parquet_leaf_element(&md, 2);
    price = floe_parquet_leaf_element(&md, 3);
    CHECK(u32->has_logical_type && u32->logical_type.kind == FLOE_PARQUET_LOGICAL_INTEGER &&
              u32->logical_type.bit_width == 32 && !u32->logical_type.is_signed,
          "reads an unsigned INTEGER logical type (whose bitWidth the writer sent as an i32)");
    CHECK(day->logical_type.kind == FLOE_PARQUET_LOGICAL_DATE, "reads DATE");
    CHECK(ts->logical_type.kind == FLOE_PARQUET_LOGICAL_TIMESTAMP && ts->logical_type.unit == FLOE_PARQUET_MICROS &&
              ts->logical_type.is_adjusted_to_utc,
          "reads TIMESTAMP with its unit and time zone");
    CHECK(price->logical_type.kind == FLOE_PARQUET_LOGICAL_DECIMAL && price->logical_type.scale == 2 &&
              price->logical_type.precision == 9 && price->type_length == 4 && price->scale == 2,
          "reads DECIMAL in a fixed-length array");
    CHECK(u32->logical_type.encoded.len > 0 && u32->logical_type.encoded.data[u32->logical_type.encoded.len - 1] == 0,
          "keeps the logical type's encoded struct");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_decode_reads_column_chunk_metadata)
{
    floe_parquet_file_metadata_t md;
    const floe_parquet_column_chunk_t *name, *score;
    const floe_parquet_column_meta_data_t *m;

    pq_open("strings", &md);
    name = &md.row_groups[0].columns[0];
    m = &name->meta_data;
    CHECK(m->type == FLOE_PARQUET_BYTE_ARRAY && m->codec == FLOE_PARQUET_SNAPPY && m->num_values == 40,
          "reads a chunk's type, codec and value count");
    CHECK(m->has_dictionary_page_offset && m->dictionary_page_offset == 4 && m->data_page_offset == 65 &&
              m->total_compressed_size == 160 && m->total_uncompressed_size == 153,
          "reads a chunk's page offsets and sizes");
    CHECK(m->n_encodings == 2 && m->encodings[0] == 0 && m->encodings[1] == 8, "reads the encodings");
    CHECK(m->has_statistics && m->statistics.has_null_count && m->statistics.null_count == 6 &&
              pq_name_is(m->statistics.min_value, "alpha") && pq_name_is(m->statistics.max_value, "\xc3\xa9" "cho"),
          "reads the statistics");
    CHECK(m->has_encoding_stats && m->n_encoding_stats == 2 && m->encoding_stats[1].page_type == 3 &&
              m->encoding_stats[1].count == 3,
          "reads the page encoding stats");
    CHECK(m->has_bloom_filter_offset && m->bloom_filter_offset == 1112 && m->has_bloom_filter_length &&
              m->bloom_filter_length == 47,
          "reads the bloom filter's place");
    CHECK(name->has_column_index_offset && name->column_index_offset == 894 && name->column_index_length == 53 &&
              name->has_offset_index_offset && name->offset_index_offset == 988 && name->offset_index_length == 27,
          "reads the page indexes' places");
    score = &md.row_groups[1].columns[2];
    CHECK(!score->has_column_index_offset && score->has_offset_index_offset &&
              !score->meta_data.has_bloom_filter_offset,
          "absent indexes stay absent");
    CHECK(md.row_groups[0].has_total_compressed_size && md.row_groups[0].total_compressed_size == 554 &&
              !md.row_groups[0].has_file_offset,
          "reads the row group's sizes");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_encode_reproduces_the_writers_bytes)
{
    for (size_t i = 0; i < PQ_N_FILES; i++) {
        floe_parquet_footer_t ft = pq_footer(pq_files[i]);
        floe_parquet_file_metadata_t md;
        uint8_t *out, *footer;
        size_t len, footer_len;
        floe_iceberg_error_t err;

        pq_open(pq_files[i].name, &md);
        out = floe_parquet_encode(&md, &len);
        CHECK(len == ft.length && memcmp(out, ft.in_tail, len) == 0,
              "writes back exactly the footer hyparquet-writer wrote");
        CHECK(pq_round_trip_is_stable(ft.in_tail, ft.length), "decode, encode, decode gives the same footer");
        CHECK(floe_parquet_encode_footer(&md, &footer, &footer_len, &err) == 0 && footer_len == ft.length + 8 &&
                  memcmp(footer, ft.in_tail, ft.length + 8) == 0,
              "writes the footer, its length and the magic as the file ends");
        free(out);
        free(footer);
        floe_parquet_file_metadata_dispose(&md);
    }
}

TEST(parquet_round_trip_keeps_unknown_fields)
{
    /* Unknown FileMetaData fields out of id order: 20 (a list of two i64), 12 (a struct with a
     * bool and a binary), then a bool field, first as id 7 (column_orders), then as id 14. */
    static const uint8_t extra[] = {
        0x09, 0x28,                       /* long-form header: type list, id 20 (zigzag 40) */
        0x26, 0x02, 0x04,                 /*   a list of 2 i64: 1, 2 */
        0x0c, 0x18,                       /* long-form header: type struct, id 12 */
        0x11, 0x18, 0x02, 'h', 'i', 0x00, /*   {1: true, 2: "hi"} */
        0x01, 0x0e,                       /* long-form header: type true, id 7 */
    };
    size_t len;
    uint8_t *footer = pq_minimal_with(extra, sizeof(extra), &len);
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;

    CHECK(floe_parquet_decode(footer, len, &md, &err) != 0 && strstr(err.message, "column_orders") != NULL,
          "a known field with the wrong type is refused by name");
    footer[len - 3] = 0x01;
    footer[len - 2] = 0x1c; /* id 14: unknown */
    CHECK(floe_parquet_decode(footer, len, &md, &err) == 0, "decodes a footer with unknown fields");
    CHECK(md.extra.n_fields == 3 && md.extra.fields[0].id == 12 && md.extra.fields[1].id == 14 &&
              md.extra.fields[2].id == 20,
          "keeps the unknown fields, sorted by id");
    CHECK(md.extra.fields[0].type == 12 && md.extra.fields[0].value.len == 6 && md.extra.fields[1].type == 1 &&
              md.extra.fields[1].value.len == 0 && md.extra.fields[2].value.len == 3,
          "keeps each unknown field's type and encoded value");
    CHECK(pq_round_trip_is_stable(footer, len), "unknown fields survive a round trip");
    floe_parquet_file_metadata_dispose(&md);
    free(footer);
}

TEST(parquet_round_trip_keeps_unknown_fields_inside_structs)
{
    /* The schema leaf carries field 11 (vector_length, i32 7) and field 30 (a double). */
    static const uint8_t leaf_extra[] = {
        0x15, 0x02, 0x25, 0x00, 0x18, 0x01, 'a', 0x75, 0x0e,                 /* ..., 11: 7 */
        0x07, 0x3c, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x00,                    /* 30: 1.0, stop */
    };
    uint8_t footer[64];
    size_t len = 0;
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;
    const floe_parquet_schema_element_t *leaf;

    memcpy(footer, pq_minimal, 13); /* up to the leaf */
    len = 13;
    memcpy(footer + len, leaf_extra, sizeof(leaf_extra));
    len += sizeof(leaf_extra);
    memcpy(footer + len, pq_minimal + 21, sizeof(pq_minimal) - 21);
    len += sizeof(pq_minimal) - 21;
    CHECK(floe_parquet_decode(footer, len, &md, &err) == 0, "decodes a schema element with unknown fields");
    leaf = &md.schema[1];
    CHECK(leaf->extra.n_fields == 2 && leaf->extra.fields[0].id == 11 && leaf->extra.fields[1].id == 30 &&
              leaf->extra.fields[1].value.len == 8,
          "keeps a schema element's unknown fields");
    CHECK(pq_round_trip_is_stable(footer, len), "and writes them back");
    floe_parquet_file_metadata_dispose(&md);
}

/* Every prefix of a real footer is refused, and never crashes. */
TEST(parquet_decode_refuses_every_truncation)
{
    for (size_t i = 0; i < PQ_N_FILES; i++) {
        floe_parquet_footer_t ft = pq_footer(pq_files[i]);
        bool all_refused = true;
        for (size_t n = 0; n < ft.length; n++) {
            uint8_t *copy = malloc(n + 1);
            memcpy(copy, ft.in_tail, n);
            all_refused = all_refused && pq_refused(copy, n);
            free(copy);
        }
        CHECK(all_refused, "refuses each truncated footer with a message");
    }
}

/* Every byte of a real footer changed to a few values: decoded or refused, and what decodes
 * round-trips. */
TEST(parquet_decode_survives_every_byte_changed)
{
    static const uint8_t values[] = {0x00, 0x01, 0x0f, 0x19, 0x7f, 0x80, 0xfc, 0xff};

    for (size_t i = 0; i < PQ_N_FILES; i++) {
        floe_parquet_footer_t ft = pq_footer(pq_files[i]);
        uint8_t *copy = malloc(ft.length);
        bool stable = true;
        for (size_t at = 0; at < ft.length; at++) {
            for (size_t v = 0; v < sizeof(values); v++) {
                memcpy(copy, ft.in_tail, ft.length);
                copy[at] = values[v];
                stable = stable && pq_round_trip_is_stable(copy, ft.length);
            }
        }
        CHECK(stable, "every changed footer is refused or round-trips");
        free(copy);
    }
}

typedef struct pq_hostile {
    const char *sentence;
    const uint8_t *bytes;
    size_t len;
} pq_hostile_t;

#define PQ_BYTES(...) (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__})

TEST(parquet_decode_refuses_hostile_footers)
{
    const pq_hostile_t cases[] = {
        {"refuses a list claiming more elements than bytes remain", PQ_BYTES(0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0x3f)},
        {"refuses a varint longer than 10 bytes",
         PQ_BYTES(0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00)},
        {"refuses an i32 that does not fit", PQ_BYTES(0x15, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00)},
        {"refuses a binary running past the end", PQ_BYTES(0x15, 0x02, 0xb8, 0x7f, 'x', 0x00)},
        {"refuses an unknown Thrift type", PQ_BYTES(0x1e, 0x00)},
        {"refuses a field id past 32767", PQ_BYTES(0x05, 0xfe, 0xff, 0x03, 0x02, 0xf5, 0x02, 0x00)},
        {"refuses a missing stop", PQ_BYTES(0x15, 0x02)},
        {"refuses a stop byte carrying an id", PQ_BYTES(0x10)},
        {"refuses an empty struct (required fields missing)", PQ_BYTES(0x00)},
        {"refuses a known field seen twice", PQ_BYTES(0x15, 0x02, 0x05, 0x02, 0x02)},
        {"refuses a map claiming more entries than bytes remain", PQ_BYTES(0xbb, 0xff, 0xff, 0x03, 0x55, 0x00)},
        {"refuses a list of an unknown element type", PQ_BYTES(0x15, 0x02, 0x19, 0x10, 0x00)},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK(pq_refused(cases[i].bytes, cases[i].len), cases[i].sentence);
}

TEST(parquet_decode_refuses_deep_nesting)
{
    /* FileMetaData field 15 holding structs nested 200 deep. */
    enum { DEPTH = 200 };
    uint8_t footer[PQ_MINIMAL_END + 2 * DEPTH + 2];
    size_t len = 0;

    memcpy(footer, pq_minimal, PQ_MINIMAL_END);
    len = PQ_MINIMAL_END;
    footer[len++] = 0xbc; /* +11 -> 15: struct */
    for (int i = 1; i < DEPTH; i++)
        footer[len++] = 0x1c; /* field 1: struct */
    for (int i = 0; i < DEPTH; i++)
        footer[len++] = 0x00;
    footer[len++] = 0x00;
    CHECK(pq_refused(footer, len), "refuses unknown structs nested deeper than the limit");
    /* 30 deep is fine. */
    len = PQ_MINIMAL_END;
    footer[len++] = 0xbc;
    for (int i = 1; i < 30; i++)
        footer[len++] = 0x1c;
    for (int i = 0; i < 30; i++)
        footer[len++] = 0x00;
    footer[len++] = 0x00;
    CHECK(!pq_refused(footer, len), "skips unknown structs nested within the limit");
}

TEST(parquet_decode_refuses_an_inconsistent_model)
{
    size_t len;
    uint8_t footer[sizeof(pq_minimal) + 16];
    uint8_t *spliced;

    memcpy(footer, pq_minimal, sizeof(pq_minimal));
    footer[11] = 0x04; /* root has 2 children, the list 1 leaf */
    CHECK(pq_refused(footer, sizeof(pq_minimal)), "refuses a schema that ends inside a group");
    footer[11] = 0x00; /* root has 0 children: the leaf is outside the tree */
    CHECK(pq_refused(footer, sizeof(pq_minimal)), "refuses schema elements outside the root's tree");
    footer[11] = 0x01; /* -1 */
    CHECK(pq_refused(footer, sizeof(pq_minimal)), "refuses a negative child count");
    memcpy(footer, pq_minimal, sizeof(pq_minimal));
    footer[22] = 0x01; /* num_rows = -1 */
    CHECK(pq_refused(footer, sizeof(pq_minimal)), "refuses a negative row count");
    memcpy(footer, pq_minimal, sizeof(pq_minimal));
    memcpy(footer + sizeof(pq_minimal) - 1, PQ_BYTES(0x00, 0x00));
    CHECK(pq_refused(footer, sizeof(pq_minimal) + 1), "refuses bytes after the FileMetaData");
    spliced = pq_minimal_with(PQ_BYTES(0x48, 0x00), &len); /* 8: encryption_algorithm */
    CHECK(pq_refused(spliced, len), "refuses an encrypted file");
    free(spliced);
    /* 7: column_orders, a list of ColumnOrder unions {1: TYPE_ORDER {}} */
    spliced = pq_minimal_with(PQ_BYTES(0x39, 0x2c, 0x1c, 0x00, 0x00, 0x1c, 0x00, 0x00), &len);
    CHECK(pq_refused(spliced, len), "refuses more column orders than leaves");
    free(spliced);
    spliced = pq_minimal_with(PQ_BYTES(0x39, 0x1c, 0x1c, 0x00, 0x1c, 0x00, 0x00), &len);
    CHECK(pq_refused(spliced, len), "refuses a union that sets two members");
    free(spliced);
    spliced = pq_minimal_with(PQ_BYTES(0x39, 0x1c, 0x1c, 0x00, 0x00), &len);
    CHECK(!pq_refused(spliced, len), "accepts one column order for one leaf");
    free(spliced);
}

/* A row group whose one column chunk is as given, in a copy of pq_minimal. */
static size_t pq_with_chunk(uint8_t *out, const uint8_t *chunk_meta, size_t meta_len)
{
    size_t len = PQ_MINIMAL_END - 1;

    memcpy(out, pq_minimal, len);
    out[len - 2] = 0x02; /* num_rows 1 */
    out[len++] = 0x1c;   /* row_groups: 1 struct */
    out[len++] = 0x19;   /* 1: columns */
    out[len++] = 0x1c;   /*   1 struct */
    out[len++] = 0x26;   /*   2: file_offset */
    out[len++] = 0x08;   /*      4 */
    out[len++] = 0x1c;   /*   3: meta_data */
    memcpy(out + len, chunk_meta, meta_len);
    len += meta_len;
    out[len++] = 0x00; /* end of chunk */
    out[len++] = 0x16; /* 2: total_byte_size */
    out[len++] = 0x00;
    out[len++] = 0x16; /* 3: num_rows */
    out[len++] = 0x02;
    out[len++] = 0x00; /* end of row group */
    out[len++] = 0x00; /* end of file */
    return len;
}

TEST(parquet_decode_checks_column_chunks_against_the_schema)
{
    /* ColumnMetaData {1: INT32, 2: [PLAIN], 3: ["a"], 4: UNCOMPRESSED, 5: 1, 6: 10, 7: 10, 9: 4} */
    static const uint8_t good[] = {0x15, 0x02, 0x19, 0x15, 0x00, 0x19, 0x18, 0x01, 'a', 0x15, 0x00,
                                   0x16, 0x02, 0x16, 0x14, 0x16, 0x14, 0x26, 0x08, 0x00};
    uint8_t meta[sizeof(good)], footer[128];
    floe_parquet_file_metadata_t md;
    floe_iceberg_error_t err;
    size_t len = pq_with_chunk(footer, good, sizeof(good));

    CHECK(floe_parquet_decode(footer, len, &md, &err) == 0 && md.n_row_groups == 1 &&
              md.row_groups[0].columns[0].meta_data.data_page_offset == 4,
          "decodes a hand-written row group");
    floe_parquet_file_metadata_dispose(&md);
    CHECK(pq_round_trip_is_stable(footer, len), "and round-trips it");
    memcpy(meta, good, sizeof(good));
    meta[1] = 0x04; /* INT64 */
    len = pq_with_chunk(footer, meta, sizeof(meta));
    CHECK(pq_refused(footer, len), "refuses a chunk whose type differs from its leaf");
    memcpy(meta, good, sizeof(good));
    meta[8] = 'b';
    len = pq_with_chunk(footer, meta, sizeof(meta));
    CHECK(pq_refused(footer, len), "refuses a chunk whose path names another column");
    memcpy(meta, good, sizeof(good));
    meta[18] = 0x07; /* data_page_offset -4 */
    len = pq_with_chunk(footer, meta, sizeof(meta));
    CHECK(pq_refused(footer, len), "refuses a negative offset");
    memcpy(meta, good, sizeof(good));
    meta[17] = 0x46; /* 10 -> ... data_page_offset becomes field 11 (dictionary): 9 is missing */
    len = pq_with_chunk(footer, meta, sizeof(meta));
    CHECK(pq_refused(footer, len), "refuses a chunk without its required data_page_offset");
    len = pq_with_chunk(footer, good, sizeof(good));
    footer[29] = 0x8c; /* the chunk's field 3 (meta_data) becomes an unknown field 10 */
    CHECK(floe_parquet_decode(footer, len, &md, &err) != 0 && strstr(err.message, "meta_data") != NULL,
          "refuses a chunk without its metadata");
}

TEST(parquet_arena_refuses_to_pass_its_limit)
{
    floe_parquet_arena_t *arena = floe_parquet_arena_new(200000);
    void *a = floe_parquet_arena_alloc(arena, 10, 8);
    void *b = floe_parquet_arena_alloc(arena, 90000, 1);

    CHECK(a != NULL && b != NULL, "hands out memory within its limit");
    CHECK(floe_parquet_arena_alloc(arena, 100000, 1) == NULL, "refuses memory past its limit");
    CHECK(floe_parquet_arena_alloc(arena, SIZE_MAX / 2, 4) == NULL, "refuses a size that overflows");
    CHECK(((const uint8_t *)b)[89999] == 0, "hands out zeroed memory");
    floe_parquet_arena_free(arena);
}
