/* Tests of runtime/iceberg/compact.c: which files a binpack plan joins and which partitions it
 * skips, stitched layouts that make valid Parquet files from real ones, and the merged statistics
 * of the new file's manifest entry. */
#include <assert.h>

#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "parquet_support.h"

/* ---- helpers ----------------------------------------------------------------------------- */

#define CP_MAX_FILES 16

/* Data files with one int partition field, built by hand. */
typedef struct cp_table {
    floe_iceberg_data_file_t files[CP_MAX_FILES];
    floe_iceberg_partition_value_t parts[CP_MAX_FILES];
    uint8_t part_bytes[CP_MAX_FILES][4];
    floe_compact_file_t entries[CP_MAX_FILES];
    size_t n;
} cp_table_t;

static size_t cp_add(cp_table_t *t, int32_t partition, int64_t size, int32_t content)
{
    size_t i = t->n++;
    floe_iceberg_data_file_t *f = &t->files[i];
    static char parquet[] = "PARQUET";

    memset(f, 0, sizeof(*f));
    for (int b = 0; b < 4; b++)
        t->part_bytes[i][b] = (uint8_t)((uint32_t)partition >> (8 * b));
    t->parts[i] = (floe_iceberg_partition_value_t){false, {t->part_bytes[i], 4}};
    f->content = content;
    f->file_format = parquet;
    f->partition = &t->parts[i];
    f->n_partition = 1;
    f->file_size_in_bytes = size;
    f->record_count = 1;
    t->entries[i] = (floe_compact_file_t){f, 0};
    return i;
}

/* Writes a layout's bytes, copying from the inputs' files; the caller frees. */
static uint8_t *cp_materialize(const floe_compact_layout_t *l, const pq_file_t *inputs)
{
    const uint8_t *data[16] = {NULL};

    for (size_t i = 0; i < l->n_pieces; i++) {
        if (l->pieces[i].source == FLOE_COMPACT_LITERAL)
            continue;
        assert(l->pieces[i].source >= 0 && l->pieces[i].source < 16);
        data[l->pieces[i].source] = inputs[l->pieces[i].source].data;
    }
    return floe_compact_layout_bytes(l, data);
}

/* Decodes a fixture and fills its source; the caller disposes *md. */
static void cp_source(const char *name, floe_parquet_file_metadata_t *md, floe_compact_source_t *src,
                      bool with_indexes)
{
    pq_file_t f = pq_file(name);
    floe_parquet_range_t r;

    pq_open(name, md);
    memset(src, 0, sizeof(*src));
    src->footer = md;
    src->footer_offset = pq_footer(f).offset;
    r = floe_compact_index_range(md, src->footer_offset);
    if (with_indexes && r.length > 0) {
        src->index_bytes = f.data + r.offset;
        src->index_offset = r.offset;
        src->index_len = (size_t)r.length;
    }
}

/* Every chunk of row group r of the new file holds the bytes of chunk src_r of `from`. */
static bool cp_chunks_match(const uint8_t *file, const floe_parquet_file_metadata_t *md, uint32_t r, uint64_t data_end,
                            pq_file_t from, const floe_parquet_file_metadata_t *src, uint32_t src_r)
{
    floe_iceberg_error_t err;

    for (uint32_t c = 0; c < md->n_leaves; c++) {
        floe_parquet_range_t now, before;
        if (floe_parquet_chunk_range(md, r, c, data_end, &now, &err) != 0 ||
            floe_parquet_chunk_range(src, src_r, c, UINT64_MAX, &before, &err) != 0 || now.length != before.length ||
            memcmp(file + now.offset, from.data + before.offset, now.length) != 0)
            return false;
    }
    return true;
}

/* ---- plan -------------------------------------------------------------------------------- */

TEST(compact_plan_bins_small_files_of_each_partition)
{
    cp_table_t t = {0};
    floe_compact_plan_t plan;
    floe_parquet_file_metadata_t ints, snappy;
    const floe_parquet_file_metadata_t *footers[CP_MAX_FILES] = {0};

    pq_open("ints", &ints);
    pq_open("ints_snappy", &snappy);
    for (int i = 0; i < 5; i++)
        cp_add(&t, 1, 100, FLOE_ICEBERG_CONTENT_DATA);  /* 0..4 */
    cp_add(&t, 1, 200, FLOE_ICEBERG_CONTENT_DATA);      /* 5: near the target */
    cp_add(&t, 2, 100, FLOE_ICEBERG_CONTENT_DATA);      /* 6: alone in its partition */
    cp_add(&t, 3, 50, FLOE_ICEBERG_CONTENT_DATA);       /* 7, 8: with an equality delete file */
    cp_add(&t, 3, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 3, 10, FLOE_ICEBERG_CONTENT_EQUALITY_DELETES); /* 9 */
    cp_add(&t, 4, 50, FLOE_ICEBERG_CONTENT_DATA);       /* 10, 11, 12: one uses another codec */
    cp_add(&t, 4, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 4, 50, FLOE_ICEBERG_CONTENT_DATA);
    floe_compact_select(t.entries, t.n, 250, &plan);
    CHECK(plan.is_candidate[0] && plan.is_candidate[4] && !plan.is_candidate[5],
          "files under 75 % of the target are candidates, a file near it is not");
    CHECK(!plan.is_candidate[6], "a partition with one small file has nothing to join");
    CHECK(!plan.is_candidate[7] && !plan.is_candidate[8] && plan.n_skipped == 1 &&
              strstr(plan.skipped[0].reason, "delete files") != NULL &&
              strstr(plan.skipped[0].reason, "spec 0 partition (3)") != NULL,
          "a partition with equality delete files is skipped, and the reason names it");
    for (size_t i = 0; i < t.n; i++)
        footers[i] = plan.is_candidate[i] ? &ints : NULL;
    footers[11] = &snappy;
    floe_compact_pack(&plan, t.entries, footers);
    CHECK(plan.n_bins == 3, "two bins in partition 1 (the fifth file is left alone), one in partition 4");
    CHECK(plan.n_bins == 3 && plan.bins[0].n_files == 2 && plan.bins[0].files[0] == 0 && plan.bins[0].files[1] == 1 &&
              plan.bins[0].n_bytes == 200 && plan.bins[1].files[0] == 2 && plan.bins[1].files[1] == 3,
          "bins fill first-fit in manifest order, up to the target");
    CHECK(plan.n_bins == 3 && plan.bins[2].n_files == 2 && plan.bins[2].files[0] == 10 && plan.bins[2].files[1] == 12,
          "a file whose codec differs is not stitched with the others");
    floe_compact_plan_dispose(&plan);
    floe_parquet_file_metadata_dispose(&ints);
    floe_parquet_file_metadata_dispose(&snappy);
}

TEST(compact_plan_bins_hold_at_most_max_rows)
{
    cp_table_t t = {0};
    floe_compact_plan_t plan;
    floe_parquet_file_metadata_t ints;
    const floe_parquet_file_metadata_t *footers[CP_MAX_FILES] = {0};

    pq_open("ints", &ints);
    for (int i = 0; i < 4; i++)
        cp_add(&t, 1, 10, FLOE_ICEBERG_CONTENT_DATA);
    floe_compact_select(t.entries, t.n, 1000, &plan);
    for (size_t i = 0; i < t.n; i++)
        footers[i] = &ints;
    plan.max_rows = 2 * ints.num_rows; /* two files a bin, though all four fit the target */
    floe_compact_pack(&plan, t.entries, footers);
    CHECK(plan.n_bins == 2 && plan.bins[0].n_files == 2 && plan.bins[1].n_files == 2 &&
              plan.bins[0].n_rows == 2 * ints.num_rows,
          "a bin takes files only while their rows fit max_rows");
    floe_compact_plan_dispose(&plan);
    floe_parquet_file_metadata_dispose(&ints);
}

TEST(compact_plan_deletion_vectors_do_not_skip_their_partition)
{
    cp_table_t t = {0};
    floe_compact_plan_t plan;
    size_t dv, pos;
    static char data_file[] = "s3://b/t/data/a.parquet", puffin[] = "PUFFIN";

    cp_add(&t, 5, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 5, 50, FLOE_ICEBERG_CONTENT_DATA);
    dv = cp_add(&t, 5, 10, FLOE_ICEBERG_CONTENT_POSITION_DELETES);
    t.files[dv].referenced_data_file = data_file;
    t.files[dv].file_format = puffin;
    cp_add(&t, 6, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 6, 50, FLOE_ICEBERG_CONTENT_DATA);
    pos = cp_add(&t, 6, 10, FLOE_ICEBERG_CONTENT_POSITION_DELETES); /* a Parquet position delete file */
    t.files[pos].referenced_data_file = data_file;
    cp_add(&t, 7, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 7, 50, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 7, 10, FLOE_ICEBERG_CONTENT_EQUALITY_DELETES);
    floe_compact_select(t.entries, t.n, 250, &plan);
    CHECK(plan.is_candidate[0] && plan.is_candidate[1],
          "a deletion vector names its data file, so its partition is still compacted");
    CHECK(!plan.is_candidate[dv] && !plan.is_candidate[pos], "delete files themselves are no candidates");
    CHECK(plan.is_candidate[3] && plan.is_candidate[4],
          "a partition with a Parquet position delete file is compacted: the job applies its positions");
    CHECK(!plan.is_candidate[6] && !plan.is_candidate[7] && plan.n_skipped == 1 &&
              strstr(plan.skipped[0].reason, "partition (7)") != NULL &&
              strstr(plan.skipped[0].reason, "equality delete files") != NULL,
          "a partition with an equality delete file is skipped, and the reason says equality deletes");
    CHECK(floe_compact_is_deletion_vector(&t.files[dv]) && !floe_compact_is_deletion_vector(&t.files[pos]),
          "only a Puffin blob is a deletion vector");
    floe_compact_plan_dispose(&plan);
}

TEST(compact_position_deletes_apply_by_partition_sequence_and_reference)
{
    cp_table_t t = {0};
    size_t a, other, del, global, dv;
    static char a_path[] = "s3://b/t/data/a.parquet", other_path[] = "s3://b/t/data/o.parquet";
    static char puffin[] = "PUFFIN";

    a = cp_add(&t, 1, 50, FLOE_ICEBERG_CONTENT_DATA);
    t.files[a].file_path = a_path;
    other = cp_add(&t, 2, 50, FLOE_ICEBERG_CONTENT_DATA);
    t.files[other].file_path = other_path;
    del = cp_add(&t, 1, 10, FLOE_ICEBERG_CONTENT_POSITION_DELETES);
    global = cp_add(&t, 0, 10, FLOE_ICEBERG_CONTENT_POSITION_DELETES);
    t.files[global].n_partition = 0;
    dv = cp_add(&t, 1, 10, FLOE_ICEBERG_CONTENT_POSITION_DELETES);
    t.files[dv].file_format = puffin;
    t.files[dv].referenced_data_file = a_path;
    CHECK(floe_compact_position_deletes_apply(&t.entries[del], 3, &t.entries[a], 3) &&
              floe_compact_position_deletes_apply(&t.entries[del], 4, &t.entries[a], 3),
          "a delete file of the same partition applies to data files of its sequence number or older");
    CHECK(!floe_compact_position_deletes_apply(&t.entries[del], 3, &t.entries[a], 4),
          "it does not apply to a newer data file (such as compaction's own output)");
    CHECK(!floe_compact_position_deletes_apply(&t.entries[del], 3, &t.entries[other], 1),
          "nor to another partition's files");
    CHECK(floe_compact_position_deletes_apply(&t.entries[global], 3, &t.entries[other], 1),
          "a delete file of an unpartitioned spec applies to every partition");
    t.files[del].referenced_data_file = other_path;
    CHECK(!floe_compact_position_deletes_apply(&t.entries[del], 3, &t.entries[a], 1),
          "a referenced_data_file naming another file keeps it from applying");
    t.files[del].referenced_data_file = a_path;
    CHECK(floe_compact_position_deletes_apply(&t.entries[del], 3, &t.entries[a], 1),
          "and one naming this file lets it apply");
    CHECK(!floe_compact_position_deletes_apply(&t.entries[dv], 3, &t.entries[a], 1) &&
              !floe_compact_position_deletes_apply(&t.entries[a], 3, &t.entries[a], 1),
          "deletion vectors and data files are not position delete files");
}

TEST(compact_dv_split_sorts_row_groups_into_whole_and_partial)
{
    floe_parquet_file_metadata_t md = {0};
    floe_parquet_row_group_t groups[3] = {{.num_rows = 4}, {.num_rows = 3}, {.num_rows = 5}};
    bool dropped[3], partial[3];
    const uint64_t positions[] = {1, 4, 5, 6, 7, 8, 9, 10, 11, 99};
    int64_t rows = -1;

    md.row_groups = groups;
    md.n_row_groups = 3;
    floe_compact_dv_split(&md, positions, 10, dropped, partial, &rows);
    CHECK(!dropped[0] && partial[0], "one deleted row of four: the first row group is written again");
    CHECK(dropped[1] && !partial[1] && dropped[2] && !partial[2], "every row of the second and third: both dropped");
    CHECK(rows == 9, "nine rows are deleted (position 99 is past the file)");
    floe_compact_dv_split(&md, NULL, 0, dropped, partial, &rows);
    CHECK(!dropped[0] && !partial[0] && !dropped[1] && !partial[2] && rows == 0, "an empty vector touches nothing");
}

TEST(compact_plan_unpartitioned_deletes_skip_every_partition)
{
    cp_table_t t = {0};
    floe_compact_plan_t plan;
    size_t del;

    cp_add(&t, 1, 10, FLOE_ICEBERG_CONTENT_DATA);
    cp_add(&t, 1, 10, FLOE_ICEBERG_CONTENT_DATA);
    del = cp_add(&t, 0, 10, FLOE_ICEBERG_CONTENT_EQUALITY_DELETES);
    t.files[del].n_partition = 0;
    t.entries[del].spec_id = 1;
    floe_compact_select(t.entries, t.n, 1000, &plan);
    CHECK(!plan.is_candidate[0] && !plan.is_candidate[1] && plan.n_skipped == 1 &&
              strstr(plan.skipped[0].reason, "unpartitioned") != NULL,
          "a delete file of an unpartitioned spec may apply anywhere, so every partition is skipped");
    floe_compact_plan_dispose(&plan);
    t.files[del].content = FLOE_ICEBERG_CONTENT_POSITION_DELETES;
    floe_compact_select(t.entries, t.n, 1000, &plan);
    CHECK(plan.is_candidate[0] && plan.is_candidate[1] && plan.n_skipped == 0,
          "an unpartitioned position delete file skips nothing: the job applies it where it names rows");
    floe_compact_plan_dispose(&plan);
}

/* ---- stitch ------------------------------------------------------------------------------ */

TEST(compact_stitch_makes_a_valid_file_from_its_inputs)
{
    floe_parquet_file_metadata_t a, b, c, md;
    floe_compact_source_t src[3];
    pq_file_t files[3] = {pq_file("ints"), pq_file("ints_b"), pq_file("ints")};
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    uint8_t *file;

    cp_source("ints", &a, &src[0], true);
    cp_source("ints_b", &b, &src[1], true);
    cp_source("ints", &c, &src[2], true);
    CHECK(floe_compact_stitch(src, 3, &l, &err) == 0, "lays out three compatible files");
    CHECK(l.n_pieces == 5 && l.pieces[0].source == FLOE_COMPACT_LITERAL && l.pieces[1].source == 0 &&
              l.pieces[2].source == 1 && l.pieces[3].source == 2 && l.pieces[4].source == FLOE_COMPACT_LITERAL,
          "contiguous row groups of one input are one copy: magic, three copies, footer");
    file = cp_materialize(&l, files);
    CHECK(file != NULL && memcmp(file, "PAR1", 4) == 0, "the pieces add up to the file's size");
    if (file == NULL)
        return;
    CHECK(floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "the new file ends with a footer that decodes");
    CHECK(md.num_rows == a.num_rows * 2 + b.num_rows && l.num_rows == md.num_rows &&
              md.n_row_groups == a.n_row_groups * 2 + b.n_row_groups,
          "holds every row group of every input");
    CHECK(cp_chunks_match(file, &md, 0, ft.offset, files[0], &a, 0) &&
              cp_chunks_match(file, &md, a.n_row_groups, ft.offset, files[1], &b, 0) &&
              cp_chunks_match(file, &md, md.n_row_groups - 1, ft.offset, files[2], &c, c.n_row_groups - 1),
          "every column chunk is its input's bytes, where the footer says");
    CHECK(l.n_split_offsets == md.n_row_groups && l.split_offsets[0] == 4 &&
              l.split_offsets[1] > l.split_offsets[0] &&
              l.split_offsets[a.n_row_groups] == md.row_groups[a.n_row_groups].columns[0].meta_data.data_page_offset,
          "split offsets are each row group's first byte");
    floe_parquet_file_metadata_dispose(&md);
    free(file);
    floe_compact_layout_dispose(&l);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
    floe_parquet_file_metadata_dispose(&c);
}

TEST(compact_stitch_keeps_page_indexes_only_when_it_can_move_them)
{
    floe_parquet_file_metadata_t a, b, md, orig;
    floe_compact_source_t src[2];
    pq_file_t files[2] = {pq_file("strings"), pq_file("strings")};
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    floe_parquet_range_t now, before;
    uint8_t *file, *back = NULL;
    size_t back_len = 0;
    const floe_parquet_column_chunk_t *kept, *old, *dropped;
    uint32_t last;

    cp_source("strings", &a, &src[0], true);
    cp_source("strings", &b, &src[1], false);
    pq_open("strings", &orig);
    CHECK(floe_compact_stitch(src, 2, &l, &err) == 0 && l.n_kept_indexes > 0 && l.n_dropped_indexes > 0,
          "keeps the indexes it has the bytes of and drops the others");
    file = cp_materialize(&l, files);
    CHECK(file != NULL && floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "the new file decodes");
    if (file == NULL)
        return;
    kept = &md.row_groups[0].columns[0];
    old = &orig.row_groups[0].columns[0];
    CHECK(kept->has_column_index_offset &&
              memcmp(file + kept->column_index_offset, files[0].data + old->column_index_offset,
                     (size_t)old->column_index_length) == 0,
          "a kept column index is copied where the footer says");
    floe_parquet_chunk_range(&md, 0, 0, ft.offset, &now, &err);
    floe_parquet_chunk_range(&orig, 0, 0, UINT64_MAX, &before, &err);
    CHECK(kept->has_offset_index_offset &&
              floe_parquet_offset_index_rewrite(file + kept->offset_index_offset, (size_t)kept->offset_index_length,
                                                now, before.offset, &back, &back_len, &err) == 0 &&
              back_len == (size_t)old->offset_index_length &&
              memcmp(back, files[0].data + old->offset_index_offset, back_len) == 0,
          "a kept offset index points at the moved pages");
    free(back);
    CHECK(kept->meta_data.has_bloom_filter_offset &&
              memcmp(file + kept->meta_data.bloom_filter_offset, files[0].data + old->meta_data.bloom_filter_offset,
                     (size_t)old->meta_data.bloom_filter_length) == 0,
          "a kept bloom filter is copied where the footer says");
    last = md.n_row_groups - 1;
    dropped = &md.row_groups[last].columns[0];
    CHECK(!dropped->has_column_index_offset && !dropped->has_offset_index_offset &&
              !dropped->meta_data.has_bloom_filter_offset,
          "indexes without their bytes are dropped, not left pointing at other bytes");
    CHECK(cp_chunks_match(file, &md, last, ft.offset, files[1], &b, b.n_row_groups - 1),
          "the second input's chunks moved with their dictionaries");
    floe_parquet_file_metadata_dispose(&md);
    free(file);
    floe_compact_layout_dispose(&l);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
    floe_parquet_file_metadata_dispose(&orig);
}

TEST(compact_stitch_refuses_inputs_that_differ)
{
    floe_parquet_file_metadata_t a, b;
    floe_compact_source_t src[2];
    floe_compact_layout_t l;
    floe_iceberg_error_t err;

    cp_source("ints", &a, &src[0], false);
    cp_source("ints_snappy", &b, &src[1], false);
    CHECK(floe_compact_stitch(src, 2, &l, &err) != 0 && strstr(err.message, "codec") != NULL && l.pieces == NULL,
          "refuses inputs whose codecs differ, with the reason");
    CHECK(floe_compact_stitch(src, 0, &l, &err) != 0, "refuses a file without inputs");
    src[1].footer = &a;
    src[1].footer_offset = 20;
    CHECK(floe_compact_stitch(src, 2, &l, &err) != 0 && l.pieces == NULL,
          "refuses an input whose chunks run past its data");
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
}

/* ---- merge ------------------------------------------------------------------------------- */

static floe_iceberg_bytes_t cp_long(int64_t v, uint8_t *buf)
{
    for (int b = 0; b < 8; b++)
        buf[b] = (uint8_t)((uint64_t)v >> (8 * b));
    return (floe_iceberg_bytes_t){buf, 8};
}

TEST(compact_merge_sums_counts_and_orders_bounds_by_type)
{
    floe_iceberg_data_file_t in[3], out;
    const floe_iceberg_data_file_t *inputs[3] = {&in[0], &in[1], &in[2]};
    floe_iceberg_count_t values[3][2], nulls[3][1];
    floe_iceberg_bound_t lower[3][2], upper[3][2];
    uint8_t buf[3][2][8];
    static const floe_compact_field_type_t types[] = {{1, "long"}, {2, "string"}};
    static const int64_t lows[3] = {5, -7, 2}, highs[3] = {9, -1, 300};
    static const char *const names[3] = {"m", "b", "z"};
    floe_compact_layout_t layout = {.size = 1234, .num_rows = 30};
    int64_t splits[2] = {4, 600};
    floe_parquet_arena_t *arena = floe_parquet_arena_new(SIZE_MAX);
    floe_iceberg_error_t err;
    char path[] = "s3://w/data/new.parquet";

    layout.split_offsets = splits;
    layout.n_split_offsets = 2;
    memset(in, 0, sizeof(in));
    for (int k = 0; k < 3; k++) {
        in[k].record_count = 10;
        in[k].partition = NULL;
        values[k][0] = (floe_iceberg_count_t){1, 10};
        values[k][1] = (floe_iceberg_count_t){2, 10};
        nulls[k][0] = (floe_iceberg_count_t){2, k};
        in[k].value_counts = values[k];
        in[k].n_value_counts = 2;
        in[k].null_value_counts = nulls[k];
        in[k].n_null_value_counts = k == 1 ? 0 : 1;
        lower[k][0] = (floe_iceberg_bound_t){1, cp_long(lows[k], buf[k][0])};
        upper[k][0] = (floe_iceberg_bound_t){1, cp_long(highs[k], buf[k][1])};
        lower[k][1] = upper[k][1] = (floe_iceberg_bound_t){2, {(uint8_t *)names[k], 1}};
        in[k].lower_bounds = lower[k];
        in[k].upper_bounds = upper[k];
        in[k].n_lower_bounds = in[k].n_upper_bounds = 2;
        in[k].has_sort_order_id = true;
        in[k].sort_order_id = k == 1 ? 1 : 0;
    }
    in[2].n_upper_bounds = 1; /* no upper bound for the string column */
    CHECK(floe_compact_merge(inputs, 3, types, 2, &layout, path, arena, &out, &err) == 0, "merges three files");
    CHECK(out.record_count == 30 && out.file_size_in_bytes == 1234 && out.n_split_offsets == 2 &&
              strcmp(out.file_format, "PARQUET") == 0 && out.file_path == path && out.content == 0,
          "the new entry has the layout's rows, size and split offsets");
    CHECK(out.n_value_counts == 2 && out.value_counts[0].value == 30 && out.value_counts[1].value == 30,
          "value counts are summed");
    CHECK(out.n_null_value_counts == 0, "a count one input lacks is left out");
    CHECK(out.n_lower_bounds == 2 && pq_le((floe_parquet_bytes_t){out.lower_bounds[0].value.data, 8}) == -7 &&
              out.lower_bounds[1].value.data[0] == 'b',
          "a lower bound is the least, by the column's type (a negative long is not the greatest byte string)");
    CHECK(out.n_upper_bounds == 1 && pq_le((floe_parquet_bytes_t){out.upper_bounds[0].value.data, 8}) == 300,
          "an upper bound is the greatest, and left out when an input lacks one");
    CHECK(out.has_sort_order_id == false, "no sort order is claimed for files laid end to end");
    CHECK(floe_compact_merge(inputs, 2, types, 2, &layout, path, arena, &out, &err) != 0 &&
              strstr(err.message, "rows") != NULL,
          "refuses inputs whose record counts do not add up to the file's rows");
    CHECK(floe_compact_merge(inputs, 3, types, 1, &layout, path, arena, &out, &err) == 0 && out.n_lower_bounds == 1,
          "a bound of a column whose type is unknown is left out");
    floe_parquet_arena_free(arena);
}

/* The little-endian int64 at p. */
static int64_t cp_le64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return (int64_t)v;
}

TEST(compact_stitch_writes_out_row_lineage_columns)
{
    floe_parquet_file_metadata_t a, b, md;
    floe_compact_source_t src[2];
    pq_file_t files[2] = {pq_file("ints"), pq_file("ints_b")};
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    bool has_both = false, is_complete = false;
    uint8_t *file;
    int64_t want_row = 100;

    cp_source("ints", &a, &src[0], true);
    cp_source("ints_b", &b, &src[1], true);
    src[0].has_lineage = src[1].has_lineage = true;
    src[0].first_row_id = 100, src[0].sequence_number = 3;
    src[1].first_row_id = 100 + a.num_rows, src[1].sequence_number = 7;
    CHECK(floe_compact_stitch(src, 2, &l, &err) == 0, "lays out two inputs with lineage");
    file = cp_materialize(&l, files);
    CHECK(file != NULL, "the pieces add up to the file's size");
    if (file == NULL)
        return;
    CHECK(floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "the new file's footer decodes");
    floe_compact_lineage_inspect(&md, &has_both, &is_complete);
    CHECK(has_both && is_complete, "it has both lineage columns, without nulls");
    CHECK(floe_compact_lineage_has_any(&md) && !floe_compact_lineage_has_any(&a), "the inputs had neither");
    CHECK(md.n_leaves == a.n_leaves + 2 && md.schema[0].num_children == a.schema[0].num_children + 2,
          "the schema gains two leaves");
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        const floe_parquet_row_group_t *rg = &md.row_groups[r];
        const floe_parquet_column_meta_data_t *id = &rg->columns[rg->n_columns - 2].meta_data;
        const floe_parquet_column_meta_data_t *seq = &rg->columns[rg->n_columns - 1].meta_data;
        int64_t n = rg->num_rows;
        const uint8_t *ids = file + id->data_page_offset + (id->total_compressed_size - n * 8);
        const uint8_t *seqs = file + seq->data_page_offset + (seq->total_compressed_size - n * 8);
        int64_t want_seq = r < a.n_row_groups ? 3 : 7;
        CHECK(id->num_values == n && seq->num_values == n, "one value per row");
        CHECK(cp_le64(ids) == want_row && cp_le64(ids + (n - 1) * 8) == want_row + n - 1,
              "row ids run on from each input's first row id");
        CHECK(cp_le64(seqs) == want_seq && cp_le64(seqs + (n - 1) * 8) == want_seq,
              "every row has its input's sequence number");
        want_row += n;
    }
    CHECK(want_row == 100 + a.num_rows + b.num_rows, "every row has a row id");
    floe_parquet_file_metadata_dispose(&md);
    free(file);
    floe_compact_layout_dispose(&l);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
}

/* Statistics with exact int32 bounds lo and hi. */
static bool cp_exact(const floe_parquet_statistics_t *st, int32_t lo, int32_t hi)
{
    return st->has_min_value && st->has_max_value && st->min_value.len == 4 && st->max_value.len == 4 &&
           memcmp(st->min_value.data, &lo, 4) == 0 && memcmp(st->max_value.data, &hi, 4) == 0 &&
           st->has_is_min_value_exact && st->is_min_value_exact && st->has_is_max_value_exact && st->is_max_value_exact;
}

/* Statistics with the bounds of `old`, marked inexact (compact.h design note 5). */
static bool cp_carried(const floe_parquet_statistics_t *st, const floe_parquet_statistics_t *old)
{
    return old->has_min_value && old->has_max_value && st->has_min_value && st->has_max_value &&
           st->min_value.len == old->min_value.len && st->max_value.len == old->max_value.len &&
           memcmp(st->min_value.data, old->min_value.data, old->min_value.len) == 0 &&
           memcmp(st->max_value.data, old->max_value.data, old->max_value.len) == 0 && st->has_is_min_value_exact &&
           !st->is_min_value_exact && st->has_is_max_value_exact && !st->is_max_value_exact;
}

TEST(compact_stitch_writes_rewritten_row_groups_where_the_footer_says)
{
    floe_parquet_file_metadata_t a, b, md;
    floe_compact_source_t src[2];
    pq_file_t files[2] = {pq_file("ints"), pq_file("ints_b")};
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    floe_parquet_filtered_t cols[2];
    floe_compact_rewrite_t rw;
    const floe_compact_rewrite_t *rewrites[3] = {NULL, NULL, NULL};
    static const uint64_t deleted[] = {2}, kept[] = {0, 1, 3};
    uint8_t *file;

    cp_source("ints", &a, &src[0], true);
    cp_source("ints_b", &b, &src[1], true);
    for (uint32_t c = 0; c < 2; c++) {
        const floe_parquet_column_meta_data_t *m = &a.row_groups[0].columns[c].meta_data;
        floe_parquet_filter_column_t col = {m->type, 0, m->codec, a.leaves[c].max_definition_level, 0,
                                            c == 0 ? &a : NULL, c}; /* big: no exact bounds */
        floe_parquet_range_t r;
        CHECK(floe_parquet_chunk_range(&a, 0, c, pq_footer(files[0]).offset, &r, &err) == 0 &&
                  floe_parquet_filter_chunk(files[0].data + r.offset, (size_t)r.length, &col, a.row_groups[0].num_rows,
                                            deleted, 1, &cols[c], &err) == 0,
              "the first row group's chunks filter");
    }
    rw = (floe_compact_rewrite_t){cols, 3, kept};
    rewrites[0] = &rw;
    src[0].rewrites = rewrites;
    src[0].has_lineage = src[1].has_lineage = true;
    src[0].first_row_id = 10, src[1].first_row_id = 20;
    CHECK(floe_compact_stitch(src, 2, &l, &err) == 0, "lays out a file with a rewritten row group");
    file = cp_materialize(&l, files);
    CHECK(file != NULL && floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "its footer decodes");
    if (file != NULL) {
        const floe_parquet_row_group_t *rg = &md.row_groups[0];
        const floe_parquet_column_meta_data_t *ids = &rg->columns[2].meta_data;
        CHECK(md.num_rows == a.num_rows - 1 + b.num_rows && l.num_rows == md.num_rows && rg->num_rows == 3,
              "the rewritten row group holds the three kept rows");
        for (uint32_t c = 0; c < 2; c++)
            CHECK(rg->columns[c].meta_data.codec == FLOE_PARQUET_UNCOMPRESSED &&
                      rg->columns[c].meta_data.num_values == 3 &&
                      rg->columns[c].meta_data.total_compressed_size == (int64_t)cols[c].len &&
                      memcmp(file + rg->columns[c].meta_data.data_page_offset, cols[c].bytes, cols[c].len) == 0 &&
                      !rg->columns[c].meta_data.has_dictionary_page_offset && !rg->columns[c].has_offset_index_offset,
                  "each of its chunks is the filtered bytes, PLAIN and uncompressed, without page indexes");
        CHECK(rg->columns[1].meta_data.statistics.has_null_count && rg->columns[1].meta_data.statistics.null_count == 1,
              "the null count is kept (row 1's null)");
        CHECK(cp_exact(&rg->columns[0].meta_data.statistics, -7, 2),
              "the id column's bounds are the kept rows' exact least and greatest (ids -7, -4 and 2)");
        CHECK(cp_carried(&rg->columns[1].meta_data.statistics, &a.row_groups[0].columns[1].meta_data.statistics),
              "without exact bounds, the big column keeps the old chunk's, marked inexact");
        CHECK(cp_le64(file + ids->data_page_offset + ids->total_compressed_size - 24) == 10 &&
                  cp_le64(file + ids->data_page_offset + ids->total_compressed_size - 16) == 11 &&
                  cp_le64(file + ids->data_page_offset + ids->total_compressed_size - 8) == 13,
              "the kept rows keep their row ids (first row id + their positions 0, 1 and 3)");
        CHECK(md.row_groups[1].columns[0].meta_data.codec == a.row_groups[1].columns[0].meta_data.codec,
              "the next row group is copied as it was");
        floe_parquet_file_metadata_dispose(&md);
    }
    free(file);
    floe_compact_layout_dispose(&l);
    free(cols[0].bytes);
    free(cols[1].bytes);
    floe_parquet_file_metadata_dispose(&a);
    floe_parquet_file_metadata_dispose(&b);
}

TEST(compact_stitch_keeps_bloom_filters_and_bounds_of_rewritten_row_groups)
{
    floe_parquet_file_metadata_t a, md;
    floe_compact_source_t src;
    pq_file_t files[1] = {pq_file("strings")};
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    floe_parquet_filtered_t cols[3];
    floe_compact_rewrite_t rw;
    const floe_compact_rewrite_t *rewrites[2] = {NULL, NULL};
    static const uint64_t deleted[] = {0, 1, 2}; /* the first rows: "alpha", "bravo", "charlie" */
    uint64_t kept[40];
    uint8_t *file;

    cp_source("strings", &a, &src, true);
    for (uint64_t i = 3; i < 40; i++)
        kept[i - 3] = i;
    for (uint32_t c = 0; c < 3; c++) {
        const floe_parquet_column_meta_data_t *m = &a.row_groups[0].columns[c].meta_data;
        floe_parquet_filter_column_t col = {m->type, 0, m->codec, a.leaves[c].max_definition_level, 0, &a, c};
        floe_parquet_range_t r;
        CHECK(floe_parquet_chunk_range(&a, 0, c, src.footer_offset, &r, &err) == 0 &&
                  floe_parquet_filter_chunk(files[0].data + r.offset, (size_t)r.length, &col, 40, deleted, 3, &cols[c],
                                            &err) == 0,
              "the first row group's chunks filter");
    }
    rw = (floe_compact_rewrite_t){cols, 37, kept};
    rewrites[0] = &rw;
    src.rewrites = rewrites;
    CHECK(floe_compact_stitch(&src, 1, &l, &err) == 0, "lays out the file");
    file = cp_materialize(&l, files);
    CHECK(file != NULL && floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "its footer decodes");
    if (file != NULL) {
        const floe_parquet_column_chunk_t *name = &md.row_groups[0].columns[0];
        const floe_parquet_column_meta_data_t *old = &a.row_groups[0].columns[0].meta_data;
        const floe_parquet_statistics_t *st = &name->meta_data.statistics;
        CHECK(old->has_bloom_filter_offset && name->meta_data.has_bloom_filter_offset &&
                  memcmp(file + name->meta_data.bloom_filter_offset, files[0].data + old->bloom_filter_offset,
                         (size_t)old->bloom_filter_length) == 0,
              "the rewritten chunk keeps its bloom filter, copied where the footer says (it holds no false negative)");
        CHECK(!name->has_column_index_offset && !name->has_offset_index_offset,
              "but not its page indexes, which describe pages it no longer has");
        CHECK(st->has_min_value && st->min_value.len == 5 && memcmp(st->min_value.data, "alpha", 5) == 0 &&
                  st->is_min_value_exact && st->has_max_value && memcmp(st->max_value.data, "\xc3\xa9" "cho", 5) == 0 &&
                  st->is_max_value_exact && st->has_null_count && st->null_count == cols[0].null_count,
              "its statistics are the kept values' exact bounds and nulls");
        CHECK(!st->has_distinct_count, "and no distinct count, which may have dropped");
        floe_parquet_file_metadata_dispose(&md);
    }
    free(file);
    floe_compact_layout_dispose(&l);
    for (uint32_t c = 0; c < 3; c++)
        free(cols[c].bytes);
    floe_parquet_file_metadata_dispose(&a);
}

TEST(compact_stitch_counts_a_rewritten_list_columns_entries_apart_from_its_rows)
{
    floe_parquet_file_metadata_t a, md;
    floe_compact_source_t src;
    pq_file_t file_in = pq_file("nested");
    floe_compact_layout_t l;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err;
    floe_parquet_filtered_t cols[3];
    floe_compact_rewrite_t rw;
    const floe_compact_rewrite_t *rewrites[1];
    static const uint64_t deleted[] = {0, 2}, kept[] = {1, 3};
    uint8_t *file = NULL;
    bool filtered = true;

    /* nested: point.x, point.label, tags (a list): [1, 2], [], null, [7, null, 3] */
    cp_source("nested", &a, &src, false);
    for (uint32_t c = 0; c < 3; c++) {
        const floe_parquet_column_meta_data_t *m = &a.row_groups[0].columns[c].meta_data;
        floe_parquet_filter_column_t col = {m->type, 0, m->codec, a.leaves[c].max_definition_level,
                                            a.leaves[c].max_repetition_level, &a, c};
        floe_parquet_range_t r;
        filtered = filtered && floe_parquet_chunk_range(&a, 0, c, src.footer_offset, &r, &err) == 0 &&
                   floe_parquet_filter_chunk(file_in.data + r.offset, (size_t)r.length, &col, a.row_groups[0].num_rows,
                                             deleted, 2, &cols[c], &err) == 0;
    }
    CHECK(filtered, "every chunk of the row group filters");
    if (!filtered)
        abort();
    rw = (floe_compact_rewrite_t){cols, 2, kept};
    rewrites[0] = &rw;
    src.rewrites = rewrites;
    CHECK(floe_compact_stitch(&src, 1, &l, &err) == 0, "lays out a file with the rewritten row group");
    file = cp_materialize(&l, &file_in);
    CHECK(file != NULL && floe_parquet_footer_locate(file, l.size, l.size, &ft, &err) == 0 &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "its footer decodes");
    if (file != NULL) {
        const floe_parquet_row_group_t *rg = &md.row_groups[0];
        CHECK(md.num_rows == 2 && rg->num_rows == 2, "the row group holds the two kept rows");
        CHECK(rg->columns[0].meta_data.num_values == 2 && rg->columns[2].meta_data.num_values == 4,
              "a column that does not repeat has a value a row; the list's column its four entries "
              "([] and 7, null, 3)");
        CHECK(rg->columns[2].meta_data.statistics.has_null_count && rg->columns[2].meta_data.statistics.null_count == 2,
              "the list's null count counts its empty list and its null element");
        floe_parquet_file_metadata_dispose(&md);
    }
    free(file);
    floe_compact_layout_dispose(&l);
    for (uint32_t c = 0; c < 3; c++)
        free(cols[c].bytes);
    floe_parquet_file_metadata_dispose(&a);
}
