/* Tests of runtime/iceberg/manifest.h: real manifests and manifest lists written by avsc
 * (avro_fixtures.h, from tests/fixtures/avro/write-fixtures.mjs) read field by field; what Floe
 * writes reads back equal and carries what Iceberg readers look for; hostile bytes are refused. */
#include <stdlib.h>

#include <cjson/cJSON.h>
#include <zstd.h>

#include "avro_fixtures.h"
#include "harness.h"
#include "iceberg/avro_container.h"
#include "iceberg/manifest.h"

#define ERR_MAX 256

static const char mf_schema[] =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"category\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"},"
    "{\"id\":4,\"name\":\"price\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":5,\"name\":\"score\",\"required\":false,\"type\":\"double\"}]}";

static bool mf_bytes_are(floe_iceberg_bytes_t b, const void *expected, size_t len)
{
    return b.len == len && (len == 0 || memcmp(b.data, expected, len) == 0);
}

static bool mf_le64_is(floe_iceberg_bytes_t b, int64_t v)
{
    uint8_t le[8];

    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)((uint64_t)v >> (8 * i));
    return mf_bytes_are(b, le, 8);
}

static bool mf_le32_is(floe_iceberg_bytes_t b, int32_t v)
{
    uint8_t le[4];

    for (int i = 0; i < 4; i++)
        le[i] = (uint8_t)((uint32_t)v >> (8 * i));
    return mf_bytes_are(b, le, 4);
}

static bool mf_count_is(const floe_iceberg_count_t *c, int32_t id, int64_t v)
{
    return c->field_id == id && c->value == v;
}

static int mf_read(const uint8_t *data, size_t len, floe_iceberg_manifest_t *m)
{
    char err[ERR_MAX] = "";
    int rc = floe_iceberg_manifest_read(data, len, m, err, sizeof(err));

    if (rc != 0)
        fprintf(stderr, "manifest read: %s\n", err);
    return rc;
}

static int mf_list_read(const uint8_t *data, size_t len, floe_iceberg_manifest_list_t *l)
{
    char err[ERR_MAX] = "";
    int rc = floe_iceberg_manifest_list_read(data, len, l, err, sizeof(err));

    if (rc != 0)
        fprintf(stderr, "manifest list read: %s\n", err);
    return rc;
}

/* The first entry of manifest_v2_deflate: every field set. */
static void mf_check_full_entry(const floe_iceberg_manifest_entry_t *e)
{
    const floe_iceberg_data_file_t *f = &e->file;
    static const uint8_t price_lo[] = {0xff, 0x85}, price_hi[] = {0x01, 0x00, 0x00};
    double lo = -0.5, hi = 12.25;

    CHECK(e->status == FLOE_ICEBERG_ENTRY_ADDED, "reads the status of an added file");
    CHECK(e->has_snapshot_id && e->snapshot_id == 3051729675574597004LL, "reads a 64-bit snapshot id exactly");
    CHECK(!e->has_sequence_number && !e->has_file_sequence_number, "a null sequence number is absent (inherited)");
    CHECK(f->content == FLOE_ICEBERG_CONTENT_DATA, "reads the content of a data file");
    CHECK(strcmp(f->file_path, "s3://bucket/t/data/category=books/ts_day=2024-03-01/00000-0.parquet") == 0,
          "reads the file path");
    CHECK(strcmp(f->file_format, "PARQUET") == 0, "reads the file format");
    CHECK(f->n_partition == 2 && !f->partition[0].is_null && mf_bytes_are(f->partition[0].value, "books", 5),
          "an identity partition on a string is its UTF-8 bytes");
    CHECK(f->n_partition == 2 && !f->partition[1].is_null && mf_le32_is(f->partition[1].value, 19783),
          "a day partition is 4 bytes little-endian");
    CHECK(f->record_count == 100 && f->file_size_in_bytes == 4096, "reads the record count and file size");
    CHECK(f->n_column_sizes == 2 && mf_count_is(&f->column_sizes[0], 1, 800) && mf_count_is(&f->column_sizes[1], 2, 1200),
          "reads column sizes");
    CHECK(f->n_value_counts == 2 && mf_count_is(&f->value_counts[1], 2, 100), "reads value counts");
    CHECK(f->n_null_value_counts == 2 && mf_count_is(&f->null_value_counts[1], 2, 3), "reads null value counts");
    CHECK(f->n_nan_value_counts == 1 && mf_count_is(&f->nan_value_counts[0], 5, 2), "reads NaN value counts");
    CHECK(f->n_lower_bounds == 5 && f->lower_bounds[0].field_id == 1 && mf_le64_is(f->lower_bounds[0].value, -5),
          "reads a long lower bound");
    CHECK(f->n_lower_bounds == 5 && mf_bytes_are(f->lower_bounds[1].value, "apple", 5), "reads a string lower bound");
    CHECK(f->n_lower_bounds == 5 && mf_le64_is(f->lower_bounds[2].value, 1709251200000000LL),
          "reads a timestamp lower bound");
    CHECK(f->n_lower_bounds == 5 && mf_bytes_are(f->lower_bounds[3].value, price_lo, 2), "reads a decimal lower bound");
    CHECK(f->n_lower_bounds == 5 && mf_bytes_are(f->lower_bounds[4].value, &lo, 8), "reads a double lower bound");
    CHECK(f->n_upper_bounds == 5 && mf_le64_is(f->upper_bounds[0].value, 9000000000LL), "reads a long upper bound");
    CHECK(f->n_upper_bounds == 5 && mf_bytes_are(f->upper_bounds[1].value, "pear", 4), "reads a string upper bound");
    CHECK(f->n_upper_bounds == 5 && mf_le64_is(f->upper_bounds[2].value, 1709251200000000LL + 86399999999LL),
          "reads a timestamp upper bound");
    CHECK(f->n_upper_bounds == 5 && mf_bytes_are(f->upper_bounds[3].value, price_hi, 3), "reads a decimal upper bound");
    CHECK(f->n_upper_bounds == 5 && f->upper_bounds[4].field_id == 5 && mf_bytes_are(f->upper_bounds[4].value, &hi, 8),
          "reads a double upper bound");
    CHECK(!f->has_key_metadata, "a null key_metadata is absent");
    CHECK(f->n_split_offsets == 1 && f->split_offsets[0] == 4, "reads split offsets");
    CHECK(f->n_equality_ids == 0, "a null equality_ids list is empty");
    CHECK(f->has_sort_order_id && f->sort_order_id == 0, "reads the sort order id 0 as present");
}

/* The second entry of manifest_v2_deflate: sparse. */
static void mf_check_sparse_entry(const floe_iceberg_manifest_entry_t *e)
{
    const floe_iceberg_data_file_t *f = &e->file;

    CHECK(e->status == FLOE_ICEBERG_ENTRY_EXISTING && e->has_snapshot_id && e->snapshot_id == 12345,
          "reads an existing entry's snapshot id");
    CHECK(e->has_sequence_number && e->sequence_number == 7 && e->has_file_sequence_number &&
              e->file_sequence_number == 6,
          "reads both sequence numbers");
    CHECK(f->n_partition == 2 && f->partition[0].is_null && !f->partition[1].is_null &&
              mf_le32_is(f->partition[1].value, 19784),
          "a null partition value is marked null");
    CHECK(f->n_column_sizes == 0 && f->n_value_counts == 0 && f->n_lower_bounds == 0 && f->n_upper_bounds == 0,
          "null statistics maps are empty");
    CHECK(f->has_key_metadata && mf_bytes_are(f->key_metadata, "\x01\x02\x03", 3), "reads key metadata");
    CHECK(!f->has_sort_order_id && f->n_split_offsets == 0, "null sort order and split offsets are absent");
}

static void mf_check_v2_header(const floe_iceberg_manifest_t *m, int32_t content)
{
    CHECK(m->format_version == 2, "reads format-version 2");
    CHECK(m->content == content, "reads the content header");
    CHECK(m->schema_id == 0 && m->partition_spec_id == 0, "reads the schema and spec ids");
    CHECK(m->schema_json != NULL && strcmp(m->schema_json, mf_schema) == 0, "keeps the table schema JSON as written");
    CHECK(m->partition_spec_json != NULL && strstr(m->partition_spec_json, "\"ts_day\"") != NULL,
          "keeps the partition spec JSON");
}

TEST(manifest_reads_avsc_v2_deflate_every_field)
{
    floe_iceberg_manifest_t m;

    if (mf_read(avro_fixture_manifest_v2_deflate, sizeof(avro_fixture_manifest_v2_deflate), &m) != 0) {
        CHECK(0, "reads a v2 manifest written by avsc with the deflate codec");
        return;
    }
    mf_check_v2_header(&m, 0);
    CHECK(m.n_entries == 2, "reads both entries");
    if (m.n_entries == 2) {
        mf_check_full_entry(&m.entries[0]);
        mf_check_sparse_entry(&m.entries[1]);
    }
    floe_iceberg_manifest_dispose(&m);
    CHECK(m.arena == NULL && m.entries == NULL, "dispose zeroes the manifest");
}

TEST(manifest_reads_avsc_v2_deletes_with_null_codec)
{
    floe_iceberg_manifest_t m;

    if (mf_read(avro_fixture_manifest_v2_deletes_null, sizeof(avro_fixture_manifest_v2_deletes_null), &m) != 0) {
        CHECK(0, "reads a v2 delete manifest written by avsc with the null codec");
        return;
    }
    mf_check_v2_header(&m, 1);
    CHECK(m.n_entries == 1, "reads the one entry");
    if (m.n_entries == 1) {
        const floe_iceberg_data_file_t *f = &m.entries[0].file;
        CHECK(m.entries[0].status == FLOE_ICEBERG_ENTRY_DELETED, "reads a deleted entry");
        CHECK(f->content == FLOE_ICEBERG_CONTENT_EQUALITY_DELETES, "reads equality-delete content");
        CHECK(f->n_equality_ids == 2 && f->equality_ids[0] == 1 && f->equality_ids[1] == 2, "reads equality ids");
        CHECK(f->n_partition == 2 && mf_bytes_are(f->partition[0].value, "toys", 4) && f->partition[1].is_null,
              "reads a partition tuple with a null day");
        CHECK(f->n_column_sizes == 0, "an empty map reads as no entries");
    }
    floe_iceberg_manifest_dispose(&m);
}

static void mf_check_v1(const uint8_t *data, size_t len)
{
    floe_iceberg_manifest_t m;

    if (mf_read(data, len, &m) != 0) {
        CHECK(0, "reads a v1 manifest written by avsc");
        return;
    }
    CHECK(m.format_version == 1 && m.content == 0, "a v1 manifest without content reads as data");
    CHECK(m.n_entries == 3, "reads entries from several blocks");
    for (size_t i = 0; i < m.n_entries; i++) {
        const floe_iceberg_manifest_entry_t *e = &m.entries[i];
        const floe_iceberg_data_file_t *f = &e->file;
        CHECK(e->has_snapshot_id && e->snapshot_id == 42 + (int64_t)i, "reads the required v1 snapshot id");
        CHECK(!e->has_sequence_number && !e->has_file_sequence_number, "a v1 entry has no sequence numbers");
        CHECK(f->content == 0 && f->record_count == 10 + (int64_t)i, "a v1 data file is data");
        CHECK(f->n_partition == 1 && f->partition[0].is_null == (i == 1), "reads a [int, null] union either way");
        if (i != 1)
            CHECK(mf_le32_is(f->partition[0].value, 19000 + (int32_t)i), "reads a v1 day partition");
        CHECK(f->n_value_counts == 1 && mf_count_is(&f->value_counts[0], 1, 10), "reads an Avro map of counts");
        CHECK(f->n_lower_bounds == 2 && f->n_upper_bounds == 1 && mf_le64_is(f->upper_bounds[0].value, 10),
              "reads Avro maps of bounds");
        CHECK(f->has_key_metadata == (i == 1), "reads a [bytes, null] union either way");
        CHECK(f->n_split_offsets == (i == 1 ? 0u : 2u), "reads a [array, null] union either way");
    }
    if (m.n_entries == 3) {
        const floe_iceberg_data_file_t *f = &m.entries[0].file;
        bool has_1 = false, has_3 = false;
        for (size_t i = 0; i < f->n_column_sizes; i++) {
            has_1 |= mf_count_is(&f->column_sizes[i], 1, 80);
            has_3 |= mf_count_is(&f->column_sizes[i], 3, 120);
        }
        CHECK(f->n_column_sizes == 2 && has_1 && has_3, "an Avro map's string keys are field ids");
    }
    floe_iceberg_manifest_dispose(&m);
}

TEST(manifest_reads_avsc_v1_with_maps_and_null_second_unions)
{
    mf_check_v1(avro_fixture_manifest_v1_null, sizeof(avro_fixture_manifest_v1_null));
    mf_check_v1(avro_fixture_manifest_v1_deflate, sizeof(avro_fixture_manifest_v1_deflate));
}

TEST(manifest_reads_what_the_e2e_tests_write)
{
    floe_iceberg_manifest_t m;

    if (mf_read(avro_fixture_manifest_e2e, sizeof(avro_fixture_manifest_e2e), &m) != 0) {
        CHECK(0, "reads a manifest with only the required fields, as tests/e2e/iceberg_rest/60-iceberg-rest.mjs writes");
        return;
    }
    CHECK(m.n_entries == 1 && m.entries[0].file.n_partition == 0, "an unpartitioned entry has an empty tuple");
    CHECK(m.n_entries == 1 && m.entries[0].file.n_value_counts == 0 && !m.entries[0].file.has_sort_order_id,
          "missing optional fields are absent");
    CHECK(m.n_entries == 1 && m.entries[0].file.record_count == 2, "reads the record count");
    floe_iceberg_manifest_dispose(&m);
}

static void mf_check_list_v2(const uint8_t *data, size_t len, int64_t snapshot_id, bool has_parent)
{
    floe_iceberg_manifest_list_t l;

    if (mf_list_read(data, len, &l) != 0) {
        CHECK(0, "reads a v2 manifest list written by avsc");
        return;
    }
    CHECK(l.format_version == 2 && l.snapshot_id == snapshot_id && l.sequence_number == 8, "reads the list header");
    CHECK(l.has_parent_snapshot_id == has_parent && (!has_parent || l.parent_snapshot_id == 12345),
          "a parent-snapshot-id of \"null\" is absent");
    CHECK(l.n_files == 2, "reads both manifests");
    if (l.n_files == 2) {
        const floe_iceberg_manifest_file_t *a = &l.files[0], *b = &l.files[1];
        CHECK(strcmp(a->manifest_path, "s3://bucket/t/metadata/a-m0.avro") == 0 && a->manifest_length == 7000,
              "reads the manifest path and length");
        CHECK(a->partition_spec_id == 0 && a->content == 0 && a->sequence_number == 7 && a->min_sequence_number == 6,
              "reads spec id, content and sequence numbers");
        CHECK(a->added_snapshot_id == 3051729675574597004LL, "reads a 64-bit added snapshot id");
        CHECK(a->added_files_count == 2 && a->existing_files_count == 1 && a->deleted_files_count == 0,
              "reads file counts");
        CHECK(a->added_rows_count == 101 && a->existing_rows_count == 1 && a->deleted_rows_count == 0,
              "reads row counts");
        CHECK(a->n_partitions == 2 && a->partitions[0].contains_null && !a->partitions[0].has_contains_nan &&
                  mf_bytes_are(a->partitions[0].lower_bound, "books", 5) &&
                  mf_bytes_are(a->partitions[0].upper_bound, "books", 5),
              "reads a string field summary");
        CHECK(a->n_partitions == 2 && !a->partitions[1].contains_null && a->partitions[1].has_contains_nan &&
                  !a->partitions[1].contains_nan && mf_le32_is(a->partitions[1].lower_bound, 19783) &&
                  mf_le32_is(a->partitions[1].upper_bound, 19784),
              "reads a day field summary");
        CHECK(!a->has_key_metadata, "null key metadata is absent");
        CHECK(b->content == 1 && b->partition_spec_id == 1 && b->deleted_rows_count == 9 && b->n_partitions == 0,
              "reads a delete manifest");
        CHECK(b->has_key_metadata && mf_bytes_are(b->key_metadata, "\xde\xad", 2), "reads key metadata");
    }
    floe_iceberg_manifest_list_dispose(&l);
}

TEST(manifest_list_reads_avsc_v2_deflate_and_null)
{
    mf_check_list_v2(avro_fixture_manifest_list_v2_deflate, sizeof(avro_fixture_manifest_list_v2_deflate),
                     3051729675574597004LL, true);
    mf_check_list_v2(avro_fixture_manifest_list_v2_null, sizeof(avro_fixture_manifest_list_v2_null), 99, false);
}

/* The container `data` written again with the zstandard codec, as Iceberg Java writes it: each
 * block one ZSTD frame without its content size (a stream). */
static floe_avro_buf_t mf_as_zstandard(const uint8_t *data, size_t len)
{
    floe_avro_buf_t out = {0};
    floe_parquet_arena_t *arena = floe_parquet_arena_new(1 << 20);
    floe_avro_reader_t r;
    floe_avro_block_t b;
    char err[ERR_MAX] = "";

    CHECK(floe_avro_reader_open(&r, data, len, arena, err, sizeof(err)) == 0, "the fixture opens");
    floe_avro_buf_append(&out, FLOE_AVRO_MAGIC, FLOE_AVRO_MAGIC_LEN);
    floe_avro_buf_long(&out, (int64_t)r.n_meta);
    for (size_t i = 0; i < r.n_meta; i++) {
        bool is_codec = strcmp(r.meta[i].key, "avro.codec") == 0;
        floe_avro_buf_long(&out, (int64_t)strlen(r.meta[i].key));
        floe_avro_buf_append(&out, r.meta[i].key, strlen(r.meta[i].key));
        floe_avro_buf_long(&out, is_codec ? 9 : (int64_t)r.meta[i].value_len);
        floe_avro_buf_append(&out, is_codec ? (const uint8_t *)"zstandard" : r.meta[i].value,
                             is_codec ? 9 : r.meta[i].value_len);
    }
    floe_avro_buf_long(&out, 0);
    floe_avro_buf_append(&out, r.sync, FLOE_AVRO_SYNC_LEN);
    while (floe_avro_reader_next(&r, &b, err, sizeof(err)) == 1) {
        ZSTD_CCtx *z = ZSTD_createCCtx();
        size_t cap = ZSTD_compressBound(b.len);
        uint8_t *packed = malloc(cap);
        ZSTD_inBuffer in = {b.data, b.len, 0};
        ZSTD_outBuffer dst = {packed, cap, 0};
        CHECK(ZSTD_compressStream2(z, &dst, &in, ZSTD_e_end) == 0, "a block compresses");
        floe_avro_buf_long(&out, b.n_objects);
        floe_avro_buf_long(&out, (int64_t)dst.pos);
        floe_avro_buf_append(&out, packed, dst.pos);
        floe_avro_buf_append(&out, r.sync, FLOE_AVRO_SYNC_LEN);
        free(packed);
        ZSTD_freeCCtx(z);
    }
    floe_avro_reader_close(&r);
    floe_parquet_arena_free(arena);
    return out;
}

TEST(manifest_reads_the_zstandard_codec)
{
    floe_avro_buf_t file = mf_as_zstandard(avro_fixture_manifest_v2_deflate, sizeof(avro_fixture_manifest_v2_deflate));
    floe_avro_buf_t list =
        mf_as_zstandard(avro_fixture_manifest_list_v2_deflate, sizeof(avro_fixture_manifest_list_v2_deflate));
    floe_iceberg_manifest_t m;

    CHECK(file.len > 100 && memmem(file.data, file.len, "zstandard", 9) != NULL, "the copy says zstandard");
    if (mf_read(file.data, file.len, &m) != 0) {
        CHECK(0, "reads a v2 manifest with the zstandard codec");
    } else {
        mf_check_v2_header(&m, 0);
        CHECK(m.n_entries == 2, "reads both entries");
        if (m.n_entries == 2) {
            mf_check_full_entry(&m.entries[0]);
            mf_check_sparse_entry(&m.entries[1]);
        }
        floe_iceberg_manifest_dispose(&m);
    }
    mf_check_list_v2(list.data, list.len, 3051729675574597004LL, true);
    floe_avro_buf_dispose(&file);
    floe_avro_buf_dispose(&list);
}

TEST(manifest_list_reads_avsc_v1_with_v1_names_and_defaults)
{
    floe_iceberg_manifest_list_t l;

    if (mf_list_read(avro_fixture_manifest_list_v1_null, sizeof(avro_fixture_manifest_list_v1_null), &l) != 0) {
        CHECK(0, "reads a v1 manifest list written by avsc");
        return;
    }
    CHECK(l.format_version == 1 && l.snapshot_id == 42 && !l.has_parent_snapshot_id && l.sequence_number == 0,
          "reads a v1 list header without sequence-number");
    CHECK(l.n_files == 1, "reads the one manifest");
    if (l.n_files == 1) {
        const floe_iceberg_manifest_file_t *f = &l.files[0];
        CHECK(f->content == 0 && f->sequence_number == 0 && f->min_sequence_number == 0,
              "v1 manifests are data with sequence number 0");
        CHECK(f->added_files_count == 3 && f->existing_files_count == 0 && f->deleted_files_count == 0,
              "reads added_data_files_count and a null count as 0");
        CHECK(f->added_rows_count == 33 && f->existing_rows_count == 0, "reads v1 row counts");
        CHECK(f->n_partitions == 1 && mf_le32_is(f->partitions[0].upper_bound, 19002), "reads v1 summaries");
    }
    floe_iceberg_manifest_list_dispose(&l);
}

/* ---- round trips ---- */

static bool mf_same_bytes(floe_iceberg_bytes_t a, floe_iceberg_bytes_t b)
{
    return mf_bytes_are(a, b.data, b.len);
}

static bool mf_same_file(const floe_iceberg_data_file_t *a, const floe_iceberg_data_file_t *b)
{
    bool same = a->content == b->content && strcmp(a->file_path, b->file_path) == 0 &&
                strcmp(a->file_format, b->file_format) == 0 && a->record_count == b->record_count &&
                a->file_size_in_bytes == b->file_size_in_bytes && a->n_partition == b->n_partition &&
                a->n_column_sizes == b->n_column_sizes && a->n_value_counts == b->n_value_counts &&
                a->n_null_value_counts == b->n_null_value_counts && a->n_nan_value_counts == b->n_nan_value_counts &&
                a->n_lower_bounds == b->n_lower_bounds && a->n_upper_bounds == b->n_upper_bounds &&
                a->has_key_metadata == b->has_key_metadata && a->n_split_offsets == b->n_split_offsets &&
                a->n_equality_ids == b->n_equality_ids && a->has_sort_order_id == b->has_sort_order_id &&
                (!a->has_sort_order_id || a->sort_order_id == b->sort_order_id);

    for (size_t i = 0; same && i < a->n_partition; i++)
        same = a->partition[i].is_null == b->partition[i].is_null &&
               (a->partition[i].is_null || mf_same_bytes(a->partition[i].value, b->partition[i].value));
    for (size_t i = 0; same && i < a->n_column_sizes; i++)
        same = a->column_sizes[i].field_id == b->column_sizes[i].field_id &&
               a->column_sizes[i].value == b->column_sizes[i].value;
    for (size_t i = 0; same && i < a->n_nan_value_counts; i++)
        same = a->nan_value_counts[i].value == b->nan_value_counts[i].value;
    for (size_t i = 0; same && i < a->n_lower_bounds; i++)
        same = a->lower_bounds[i].field_id == b->lower_bounds[i].field_id &&
               mf_same_bytes(a->lower_bounds[i].value, b->lower_bounds[i].value);
    for (size_t i = 0; same && i < a->n_upper_bounds; i++)
        same = mf_same_bytes(a->upper_bounds[i].value, b->upper_bounds[i].value);
    for (size_t i = 0; same && i < a->n_split_offsets; i++)
        same = a->split_offsets[i] == b->split_offsets[i];
    for (size_t i = 0; same && i < a->n_equality_ids; i++)
        same = a->equality_ids[i] == b->equality_ids[i];
    return same && (!a->has_key_metadata || mf_same_bytes(a->key_metadata, b->key_metadata));
}

static bool mf_same_manifest(const floe_iceberg_manifest_t *a, const floe_iceberg_manifest_t *b)
{
    bool same = strcmp(a->schema_json, b->schema_json) == 0 &&
                strcmp(a->partition_spec_json, b->partition_spec_json) == 0 && a->schema_id == b->schema_id &&
                a->partition_spec_id == b->partition_spec_id && a->content == b->content &&
                a->n_entries == b->n_entries;

    for (size_t i = 0; same && i < a->n_entries; i++) {
        const floe_iceberg_manifest_entry_t *x = &a->entries[i], *y = &b->entries[i];
        same = x->status == y->status && x->has_snapshot_id == y->has_snapshot_id &&
               x->snapshot_id == y->snapshot_id && x->has_sequence_number == y->has_sequence_number &&
               x->sequence_number == y->sequence_number &&
               x->has_file_sequence_number == y->has_file_sequence_number &&
               x->file_sequence_number == y->file_sequence_number && mf_same_file(&x->file, &y->file);
    }
    return same;
}

static void mf_round_trip(const uint8_t *data, size_t len, const char *what)
{
    floe_iceberg_manifest_t a, b;
    uint8_t *out = NULL, *out2 = NULL;
    size_t out_len = 0, out2_len = 0;
    char err[ERR_MAX] = "";

    if (mf_read(data, len, &a) != 0)
        return;
    CHECK(floe_iceberg_manifest_write(&a, &out, &out_len, err, sizeof(err)) == 0, what);
    if (out != NULL && mf_read(out, out_len, &b) == 0) {
        CHECK(b.format_version == 2, "Floe writes format version 2");
        CHECK(mf_same_manifest(&a, &b), what);
        CHECK(floe_iceberg_manifest_write(&b, &out2, &out2_len, err, sizeof(err)) == 0 && out2_len == out_len &&
                  memcmp(out, out2, out_len) == 0,
              "writing what was read from Floe's file gives the same bytes");
        floe_iceberg_manifest_dispose(&b);
    } else {
        CHECK(0, "reads the manifest Floe wrote");
    }
    if (err[0] != '\0')
        fprintf(stderr, "%s\n", err);
    free(out);
    free(out2);
    floe_iceberg_manifest_dispose(&a);
}

TEST(manifest_write_then_read_is_equal)
{
    mf_round_trip(avro_fixture_manifest_v2_deflate, sizeof(avro_fixture_manifest_v2_deflate),
                  "a v2 manifest with every field reads back equal");
    mf_round_trip(avro_fixture_manifest_v2_deletes_null, sizeof(avro_fixture_manifest_v2_deletes_null),
                  "a delete manifest reads back equal");
    mf_round_trip(avro_fixture_manifest_e2e, sizeof(avro_fixture_manifest_e2e),
                  "an unpartitioned manifest reads back equal");
}

static bool mf_same_list(const floe_iceberg_manifest_list_t *a, const floe_iceberg_manifest_list_t *b)
{
    bool same = a->snapshot_id == b->snapshot_id && a->has_parent_snapshot_id == b->has_parent_snapshot_id &&
                a->parent_snapshot_id == b->parent_snapshot_id && a->sequence_number == b->sequence_number &&
                a->n_files == b->n_files;

    for (size_t i = 0; same && i < a->n_files; i++) {
        const floe_iceberg_manifest_file_t *x = &a->files[i], *y = &b->files[i];
        same = strcmp(x->manifest_path, y->manifest_path) == 0 && x->manifest_length == y->manifest_length &&
               x->partition_spec_id == y->partition_spec_id && x->content == y->content &&
               x->sequence_number == y->sequence_number && x->min_sequence_number == y->min_sequence_number &&
               x->added_snapshot_id == y->added_snapshot_id && x->added_files_count == y->added_files_count &&
               x->existing_files_count == y->existing_files_count &&
               x->deleted_files_count == y->deleted_files_count && x->added_rows_count == y->added_rows_count &&
               x->existing_rows_count == y->existing_rows_count && x->deleted_rows_count == y->deleted_rows_count &&
               x->n_partitions == y->n_partitions && x->has_key_metadata == y->has_key_metadata &&
               (!x->has_key_metadata || mf_same_bytes(x->key_metadata, y->key_metadata));
        for (size_t j = 0; same && j < x->n_partitions; j++) {
            const floe_iceberg_field_summary_t *s = &x->partitions[j], *t = &y->partitions[j];
            same = s->contains_null == t->contains_null && s->has_contains_nan == t->has_contains_nan &&
                   s->contains_nan == t->contains_nan && s->has_lower_bound == t->has_lower_bound &&
                   s->has_upper_bound == t->has_upper_bound &&
                   (!s->has_lower_bound || mf_same_bytes(s->lower_bound, t->lower_bound)) &&
                   (!s->has_upper_bound || mf_same_bytes(s->upper_bound, t->upper_bound));
        }
    }
    return same;
}

TEST(manifest_list_write_then_read_is_equal)
{
    const struct { const uint8_t *data; size_t len; } files[] = {
        {avro_fixture_manifest_list_v2_deflate, sizeof(avro_fixture_manifest_list_v2_deflate)},
        {avro_fixture_manifest_list_v1_null, sizeof(avro_fixture_manifest_list_v1_null)},
    };

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        floe_iceberg_manifest_list_t a, b;
        uint8_t *out = NULL;
        size_t out_len;
        char err[ERR_MAX] = "";
        if (mf_list_read(files[i].data, files[i].len, &a) != 0)
            continue;
        CHECK(floe_iceberg_manifest_list_write(&a, &out, &out_len, err, sizeof(err)) == 0, "writes a manifest list");
        if (out != NULL && mf_list_read(out, out_len, &b) == 0) {
            CHECK(b.format_version == 2 && mf_same_list(&a, &b), "a manifest list reads back equal, as v2");
            floe_iceberg_manifest_list_dispose(&b);
        } else {
            CHECK(0, "reads the manifest list Floe wrote");
        }
        free(out);
        floe_iceberg_manifest_list_dispose(&a);
    }
}

TEST(manifest_v3_fields_round_trip_and_stay_out_of_v2)
{
    floe_iceberg_manifest_t a, b;
    floe_iceberg_manifest_list_t la, lb;
    uint8_t *out = NULL;
    size_t out_len = 0;
    char err[ERR_MAX] = "";

    if (mf_read(avro_fixture_manifest_v2_deletes_null, sizeof(avro_fixture_manifest_v2_deletes_null), &a) != 0 ||
        a.n_entries == 0)
        return;
    a.format_version = 3;
    a.entries[0].file.referenced_data_file = "s3://b/t/data/a.parquet";
    a.entries[0].file.has_content_offset = true;
    a.entries[0].file.content_offset = 4;
    a.entries[0].file.has_content_size_in_bytes = true;
    a.entries[0].file.content_size_in_bytes = 73;
    a.entries[0].file.has_first_row_id = true;
    a.entries[0].file.first_row_id = INT64_C(9007199254740993);
    CHECK(floe_iceberg_manifest_write(&a, &out, &out_len, err, sizeof(err)) == 0, "a v3 manifest is written");
    if (out != NULL && mf_read(out, out_len, &b) == 0) {
        const floe_iceberg_data_file_t *f = &b.entries[0].file;
        CHECK(b.format_version == 3 && f->referenced_data_file != NULL &&
                  strcmp(f->referenced_data_file, "s3://b/t/data/a.parquet") == 0 && f->has_content_offset &&
                  f->content_offset == 4 && f->has_content_size_in_bytes && f->content_size_in_bytes == 73 &&
                  f->has_first_row_id && f->first_row_id == INT64_C(9007199254740993),
              "a deletion vector's referenced_data_file, content_offset, content_size_in_bytes and first_row_id "
              "read back exactly from a v3 manifest");
        CHECK(b.n_entries < 2 || (b.entries[1].file.referenced_data_file == NULL &&
                                  !b.entries[1].file.has_content_offset && !b.entries[1].file.has_first_row_id),
              "unset v3 fields read back as absent");
        floe_iceberg_manifest_dispose(&b);
    }
    free(out);
    out = NULL;
    a.format_version = 2;
    CHECK(floe_iceberg_manifest_write(&a, &out, &out_len, err, sizeof(err)) == 0 && mf_read(out, out_len, &b) == 0 &&
              b.format_version == 2 && b.entries[0].file.referenced_data_file == NULL &&
              !b.entries[0].file.has_first_row_id,
          "a v2 manifest has no v3 fields");
    floe_iceberg_manifest_dispose(&b);
    free(out);
    out = NULL;
    floe_iceberg_manifest_dispose(&a);

    if (mf_list_read(avro_fixture_manifest_list_v2_deflate, sizeof(avro_fixture_manifest_list_v2_deflate), &la) != 0 ||
        la.n_files == 0)
        return;
    la.format_version = 3;
    la.files[0].has_first_row_id = true;
    la.files[0].first_row_id = 42;
    CHECK(floe_iceberg_manifest_list_write(&la, &out, &out_len, err, sizeof(err)) == 0 &&
              mf_list_read(out, out_len, &lb) == 0 && lb.format_version == 3 && lb.files[0].has_first_row_id &&
              lb.files[0].first_row_id == 42 && mf_same_list(&la, &lb),
          "a v3 manifest list carries first_row_id");
    floe_iceberg_manifest_list_dispose(&lb);
    free(out);
    floe_iceberg_manifest_list_dispose(&la);
}

/* ---- what Iceberg readers need in Floe's files ---- */

/* Every record field in an Avro schema carries a field-id, every array an element-id or the
 * logicalType map. */
static bool mf_schema_has_ids(const cJSON *type)
{
    if (cJSON_IsArray(type)) {
        for (const cJSON *b = type->child; b != NULL; b = b->next)
            if (!mf_schema_has_ids(b))
                return false;
        return true;
    }
    if (!cJSON_IsObject(type))
        return true;
    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(type, "type"));
    if (kind != NULL && strcmp(kind, "record") == 0) {
        for (const cJSON *f = cJSON_GetObjectItem(type, "fields")->child; f != NULL; f = f->next)
            if (!cJSON_IsNumber(cJSON_GetObjectItem(f, "field-id")) || !mf_schema_has_ids(cJSON_GetObjectItem(f, "type")))
                return false;
        return true;
    }
    if (kind != NULL && strcmp(kind, "array") == 0) {
        const char *logical = cJSON_GetStringValue(cJSON_GetObjectItem(type, "logicalType"));
        if (!cJSON_IsNumber(cJSON_GetObjectItem(type, "element-id")) && (logical == NULL || strcmp(logical, "map") != 0))
            return false;
        return mf_schema_has_ids(cJSON_GetObjectItem(type, "items"));
    }
    return true;
}

/* The header of a container Floe wrote, as key -> value. */
static const floe_avro_meta_t *mf_meta(const floe_avro_reader_t *r, const char *key)
{
    return floe_avro_reader_meta(r, key);
}

TEST(manifest_written_header_has_iceberg_keys_and_field_ids)
{
    floe_iceberg_manifest_t m;
    floe_iceberg_manifest_list_t l;
    uint8_t *out = NULL, *list_out = NULL;
    size_t out_len, list_len;
    char err[ERR_MAX];
    floe_avro_reader_t r;
    floe_parquet_arena_t *arena = floe_parquet_arena_new(1 << 20);

    if (mf_read(avro_fixture_manifest_v2_deflate, sizeof(avro_fixture_manifest_v2_deflate), &m) != 0 ||
        floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err)) != 0) {
        CHECK(0, "writes a manifest");
        floe_parquet_arena_free(arena);
        return;
    }
    CHECK(floe_avro_reader_open(&r, out, out_len, arena, err, sizeof(err)) == 0, "Floe's manifest has an Avro header");
    const char *keys[] = {"schema", "schema-id", "partition-spec", "partition-spec-id", "format-version", "content",
                          "avro.schema", "avro.codec"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CHECK(mf_meta(&r, keys[i]) != NULL, "the manifest header has every key Iceberg Java writes");
    CHECK(strcmp((const char *)mf_meta(&r, "format-version")->value, "2") == 0, "format-version is 2");
    CHECK(strcmp((const char *)mf_meta(&r, "content")->value, "data") == 0, "content is spelled data");
    CHECK(strcmp((const char *)mf_meta(&r, "avro.codec")->value, "deflate") == 0, "the codec is deflate");
    cJSON *schema = cJSON_Parse((const char *)mf_meta(&r, "avro.schema")->value);
    CHECK(schema != NULL && mf_schema_has_ids(schema), "every Avro field carries its Iceberg field-id");
    char *text = cJSON_PrintUnformatted(schema);
    CHECK(text != NULL && strstr(text, "\"name\":\"ts_day\",\"type\":[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}]"
                                       ",\"field-id\":1001") != NULL,
          "the day partition is an optional date with the partition field id");
    CHECK(text != NULL && strstr(text, "\"name\":\"k126_v127\"") != NULL && strstr(text, "\"field-id\":127") != NULL,
          "bounds are Java's key/value records with key and value ids");
    free(text);
    cJSON_Delete(schema);
    floe_avro_reader_close(&r);

    if (mf_list_read(avro_fixture_manifest_list_v2_deflate, sizeof(avro_fixture_manifest_list_v2_deflate), &l) == 0 &&
        floe_iceberg_manifest_list_write(&l, &list_out, &list_len, err, sizeof(err)) == 0 &&
        floe_avro_reader_open(&r, list_out, list_len, arena, err, sizeof(err)) == 0) {
        CHECK(strcmp((const char *)mf_meta(&r, "snapshot-id")->value, "3051729675574597004") == 0,
              "the list header has the exact snapshot-id");
        CHECK(mf_meta(&r, "parent-snapshot-id") != NULL && mf_meta(&r, "sequence-number") != NULL &&
                  strcmp((const char *)mf_meta(&r, "format-version")->value, "2") == 0,
              "the list header has parent-snapshot-id, sequence-number and format-version 2");
        schema = cJSON_Parse((const char *)mf_meta(&r, "avro.schema")->value);
        CHECK(schema != NULL && mf_schema_has_ids(schema), "every manifest_file field carries its field-id");
        cJSON_Delete(schema);
        floe_avro_reader_close(&r);
    } else {
        CHECK(0, "writes a manifest list");
    }
    floe_iceberg_manifest_list_dispose(&l);
    floe_iceberg_manifest_dispose(&m);
    floe_parquet_arena_free(arena);
    free(out);
    free(list_out);
}

/* ---- every partition type ---- */

static const char mf_all_types_schema[] =
    "{\"type\":\"struct\",\"schema-id\":3,\"fields\":["
    "{\"id\":1,\"name\":\"b\",\"required\":false,\"type\":\"boolean\"},"
    "{\"id\":2,\"name\":\"i\",\"required\":false,\"type\":\"int\"},"
    "{\"id\":3,\"name\":\"l\",\"required\":false,\"type\":\"long\"},"
    "{\"id\":4,\"name\":\"f\",\"required\":false,\"type\":\"float\"},"
    "{\"id\":5,\"name\":\"d\",\"required\":false,\"type\":\"double\"},"
    "{\"id\":6,\"name\":\"dt\",\"required\":false,\"type\":\"date\"},"
    "{\"id\":7,\"name\":\"t\",\"required\":false,\"type\":\"time\"},"
    "{\"id\":8,\"name\":\"ts\",\"required\":false,\"type\":\"timestamp\"},"
    "{\"id\":9,\"name\":\"s\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":10,\"name\":\"u\",\"required\":false,\"type\":\"uuid\"},"
    "{\"id\":11,\"name\":\"fx\",\"required\":false,\"type\":\"fixed[3]\"},"
    "{\"id\":12,\"name\":\"bin\",\"required\":false,\"type\":\"binary\"},"
    "{\"id\":13,\"name\":\"dec\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":14,\"name\":\"dec2\",\"required\":false,\"type\":\"decimal(9, 2)\"}]}";

static const char mf_all_types_spec[] =
    "[{\"name\":\"b\",\"transform\":\"identity\",\"source-id\":1,\"field-id\":1000},"
    "{\"name\":\"i\",\"transform\":\"identity\",\"source-id\":2,\"field-id\":1001},"
    "{\"name\":\"l\",\"transform\":\"identity\",\"source-id\":3,\"field-id\":1002},"
    "{\"name\":\"f\",\"transform\":\"identity\",\"source-id\":4,\"field-id\":1003},"
    "{\"name\":\"d\",\"transform\":\"identity\",\"source-id\":5,\"field-id\":1004},"
    "{\"name\":\"dt\",\"transform\":\"identity\",\"source-id\":6,\"field-id\":1005},"
    "{\"name\":\"t\",\"transform\":\"identity\",\"source-id\":7,\"field-id\":1006},"
    "{\"name\":\"ts hour\",\"transform\":\"hour\",\"source-id\":8,\"field-id\":1007},"
    "{\"name\":\"s_trunc\",\"transform\":\"truncate[2]\",\"source-id\":9,\"field-id\":1008},"
    "{\"name\":\"u\",\"transform\":\"identity\",\"source-id\":10,\"field-id\":1009},"
    "{\"name\":\"fx\",\"transform\":\"identity\",\"source-id\":11,\"field-id\":1010},"
    "{\"name\":\"bin_bucket\",\"transform\":\"bucket[16]\",\"source-id\":12,\"field-id\":1011},"
    "{\"name\":\"dec\",\"transform\":\"identity\",\"source-id\":13,\"field-id\":1012},"
    "{\"name\":\"1dec2\",\"transform\":\"identity\",\"source-id\":14,\"field-id\":1013},"
    "{\"name\":\"ts_year\",\"transform\":\"year\",\"source-id\":8,\"field-id\":1014},"
    "{\"name\":\"ts_month\",\"transform\":\"month\",\"source-id\":8,\"field-id\":1015},"
    "{\"name\":\"l_void\",\"transform\":\"void\",\"source-id\":3,\"field-id\":1016}]";

#define MF_N_TYPES 17

TEST(manifest_every_partition_type_round_trips)
{
    static const uint8_t b1[] = {1}, i4[] = {0xfe, 0xff, 0xff, 0xff}, l8[] = {1, 2, 3, 4, 5, 6, 7, 0x80},
                         f4[] = {0, 0, 0xc0, 0x3f}, d8[] = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f}, dt4[] = {0x47, 0x4d, 0, 0},
                         t8[] = {0, 0x10, 0, 0, 0, 0, 0, 0}, h4[] = {0x10, 0x27, 0, 0}, s[] = {'a', 'b'},
                         u16[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, fx3[] = {9, 8, 7},
                         bk4[] = {5, 0, 0, 0}, dec_neg[] = {0xfe, 0x0c}, dec_pos[] = {0x01}, y4[] = {54, 0, 0, 0},
                         m4[] = {0x93, 0x02, 0, 0};
    floe_iceberg_partition_value_t tuple[MF_N_TYPES] = {
        {false, {(uint8_t *)b1, 1}},   {false, {(uint8_t *)i4, 4}},     {false, {(uint8_t *)l8, 8}},
        {false, {(uint8_t *)f4, 4}},   {false, {(uint8_t *)d8, 8}},     {false, {(uint8_t *)dt4, 4}},
        {false, {(uint8_t *)t8, 8}},   {false, {(uint8_t *)h4, 4}},     {false, {(uint8_t *)s, 2}},
        {false, {(uint8_t *)u16, 16}}, {false, {(uint8_t *)fx3, 3}},    {false, {(uint8_t *)bk4, 4}},
        {false, {(uint8_t *)dec_neg, 2}}, {false, {(uint8_t *)dec_pos, 1}}, {false, {(uint8_t *)y4, 4}},
        {false, {(uint8_t *)m4, 4}},   {true, {NULL, 0}},
    };
    floe_iceberg_manifest_entry_t entry = {
        .status = FLOE_ICEBERG_ENTRY_ADDED, .has_snapshot_id = true, .snapshot_id = -1,
        .file = {.file_path = "s3://b/f.parquet", .file_format = "PARQUET", .partition = tuple,
                 .n_partition = MF_N_TYPES, .record_count = 1, .file_size_in_bytes = 2},
    };
    floe_iceberg_manifest_t m = {.schema_json = (char *)mf_all_types_schema, .schema_id = 3,
                                 .partition_spec_json = (char *)mf_all_types_spec, .partition_spec_id = 4,
                                 .entries = &entry, .n_entries = 1};
    floe_iceberg_manifest_t back;
    uint8_t *out = NULL;
    size_t out_len;
    char err[ERR_MAX] = "";

    CHECK(floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err)) == 0,
          "writes a partition tuple of every transform result type");
    if (out == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    if (mf_read(out, out_len, &back) == 0) {
        CHECK(back.schema_id == 3 && back.partition_spec_id == 4, "keeps the schema and spec ids");
        CHECK(back.n_entries == 1 && back.entries[0].file.n_partition == MF_N_TYPES, "reads the tuple back");
        for (size_t i = 0; back.n_entries == 1 && i < MF_N_TYPES && i < back.entries[0].file.n_partition; i++) {
            const floe_iceberg_partition_value_t *v = &back.entries[0].file.partition[i];
            if (v->is_null != tuple[i].is_null || (!v->is_null && !mf_same_bytes(v->value, tuple[i].value)))
                fprintf(stderr, "partition field %zu differs\n", i);
            CHECK(v->is_null == tuple[i].is_null && (v->is_null || mf_same_bytes(v->value, tuple[i].value)),
                  "every partition value reads back as its single-value form");
        }
        floe_iceberg_manifest_dispose(&back);
    }
    free(out);

    tuple[1].value.len = 3;
    CHECK(floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err)) != 0 && strstr(err, "partition") != NULL,
          "refuses an int partition value that is not 4 bytes");
    tuple[1].value.len = 4;
    entry.file.n_partition = 2;
    CHECK(floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err)) != 0,
          "refuses a tuple with fewer values than the spec has fields");
    m.partition_spec_json = "[{\"name\":\"x\",\"transform\":\"identity\",\"source-id\":99}]";
    CHECK(floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err)) != 0 && strstr(err, "source") != NULL,
          "refuses a spec whose source column is not in the schema");
}

/* ---- hostile input ---- */

typedef struct mf_fixture {
    const uint8_t *data;
    size_t len;
} mf_fixture_t;

#define MF_FIXTURE(n) {avro_fixture_##n, sizeof(avro_fixture_##n)}

static const mf_fixture_t mf_fixtures[] = {
    MF_FIXTURE(manifest_v2_deflate), MF_FIXTURE(manifest_v2_deletes_null), MF_FIXTURE(manifest_v1_null),
    MF_FIXTURE(manifest_v1_deflate), MF_FIXTURE(manifest_e2e), MF_FIXTURE(manifest_list_v2_deflate),
    MF_FIXTURE(manifest_list_v2_null), MF_FIXTURE(manifest_list_v1_null),
};

/* Reads a heap copy of exactly len bytes with both readers, so ASan sees any over-read; returns
 * how many entries and manifests were read. */
static size_t mf_read_both(const uint8_t *data, size_t len)
{
    uint8_t *copy = malloc(len > 0 ? len : 1);
    floe_iceberg_manifest_t m;
    floe_iceberg_manifest_list_t l;
    char err[ERR_MAX] = "";
    size_t n;

    memcpy(copy, data, len);
    if (floe_iceberg_manifest_read(copy, len, &m, err, sizeof(err)) != 0)
        CHECK(err[0] != '\0' && m.arena == NULL, "a refused manifest has a reason and holds nothing");
    err[0] = '\0';
    if (floe_iceberg_manifest_list_read(copy, len, &l, err, sizeof(err)) != 0)
        CHECK(err[0] != '\0' && l.arena == NULL, "a refused manifest list has a reason and holds nothing");
    n = m.n_entries + l.n_files;
    floe_iceberg_manifest_dispose(&m);
    floe_iceberg_manifest_list_dispose(&l);
    free(copy);
    return n;
}

TEST(manifest_truncated_files_are_refused_at_every_length)
{
    for (size_t f = 0; f < sizeof(mf_fixtures) / sizeof(mf_fixtures[0]); f++) {
        size_t full = mf_read_both(mf_fixtures[f].data, mf_fixtures[f].len);
        CHECK(full > 0, "every fixture reads");
        /* A cut right after a block is a shorter valid file: it may read, but never all of it. */
        for (size_t len = 0; len < mf_fixtures[f].len; len++)
            CHECK(mf_read_both(mf_fixtures[f].data, len) < full, "a truncated file never reads whole");
    }
}

/* Every byte of the blocks (the last MF_BLOCKS_BYTES) and every MF_HEADER_STRIDE-th byte of the
 * header, whose schema JSON Avro C's parser refuses quickly but not cheaply. */
#define MF_BLOCKS_BYTES 400
#define MF_HEADER_STRIDE 31

TEST(manifest_flipped_bytes_never_crash)
{
    static const uint8_t flips[] = {0x01, 0xff};

    for (size_t f = 0; f < sizeof(mf_fixtures) / sizeof(mf_fixtures[0]); f++) {
        uint8_t *copy = malloc(mf_fixtures[f].len);
        size_t blocks = mf_fixtures[f].len > MF_BLOCKS_BYTES ? mf_fixtures[f].len - MF_BLOCKS_BYTES : 0;
        for (size_t i = 0; i < mf_fixtures[f].len; i += i < blocks ? MF_HEADER_STRIDE : 1)
            for (size_t k = 0; k < sizeof(flips); k++) {
                memcpy(copy, mf_fixtures[f].data, mf_fixtures[f].len);
                copy[i] ^= flips[k];
                mf_read_both(copy, mf_fixtures[f].len);
            }
        free(copy);
    }
}

TEST(manifest_refusals_say_why)
{
    floe_iceberg_manifest_t m;
    floe_iceberg_manifest_list_t l;
    char err[ERR_MAX];
    uint8_t data[sizeof(avro_fixture_manifest_v2_deletes_null)];

    CHECK(floe_iceberg_manifest_read((const uint8_t *)"PAR1", 4, &m, err, sizeof(err)) != 0 &&
              strstr(err, "manifest: not an Avro") != NULL,
          "a file that is not Avro is refused as such");
    memcpy(data, avro_fixture_manifest_v2_deletes_null, sizeof(data));
    data[sizeof(data) - 1] ^= 1;
    CHECK(floe_iceberg_manifest_read(data, sizeof(data), &m, err, sizeof(err)) != 0 &&
              strstr(err, "block 1: sync marker") != NULL,
          "a damaged sync marker names the block");
    CHECK(floe_iceberg_manifest_read(avro_fixture_manifest_list_v2_null, sizeof(avro_fixture_manifest_list_v2_null), &m,
                                     err, sizeof(err)) != 0 &&
              strstr(err, "object 1") != NULL,
          "a manifest list is not a manifest, and the message names the object");
    CHECK(floe_iceberg_manifest_list_read(avro_fixture_manifest_e2e, sizeof(avro_fixture_manifest_e2e), &l, err,
                                          sizeof(err)) != 0 &&
              strstr(err, "manifest list: ") == err,
          "a manifest is not a manifest list");
}
