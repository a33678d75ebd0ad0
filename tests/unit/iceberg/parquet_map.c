/*
 * Tests of runtime/iceberg/parquet_map.c on the position_deletes fixture (hyparquet-writer: a
 * file_path column of dictionary-encoded strings and a pos column, snappy, two row groups): the
 * paths move, everything else reads back as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "iceberg/parquet_map.h"
#include "parquet_support.h"

#define PM_FILE_PATH 2147483546
#define PM_POS 2147483545
#define PM_FROM "s3://source--table-s3/"
#define PM_TO "s3://a-longer-replica-warehouse--table-s3/"

typedef struct pm_values {
    char v[8][96];
    size_t n;
} pm_values_t;

/* A map that keeps every value and records it. */
static uint8_t *pm_collect(const uint8_t *value, size_t len, size_t *out_len, void *arg)
{
    pm_values_t *c = arg;

    (void)out_len;
    if (c->n < 8)
        snprintf(c->v[c->n], sizeof(c->v[0]), "%.*s", (int)len, (const char *)value);
    c->n++;
    return NULL;
}

/* A map that moves paths under PM_FROM to PM_TO. */
static uint8_t *pm_move(const uint8_t *value, size_t len, size_t *out_len, void *arg)
{
    size_t from = strlen(PM_FROM), to = strlen(PM_TO);
    uint8_t *out;

    (void)arg;
    if (len < from || memcmp(value, PM_FROM, from) != 0)
        return NULL;
    out = malloc(to + len - from);
    memcpy(out, PM_TO, to);
    memcpy(out + to, value + from, len - from);
    *out_len = to + len - from;
    return out;
}

TEST(parquet_map_moves_the_paths_of_a_position_delete_file)
{
    static const char *const want[] = {PM_TO "data/a.parquet", PM_TO "data/a.parquet", PM_TO "data/a.parquet",
                                       PM_TO "data/b.parquet", PM_TO "data/b.parquet", "s3://elsewhere/data/c.parquet"};
    static const int64_t positions[] = {0, 3, 7, 1, 2, 5};
    pq_file_t f = pq_file("position_deletes");
    floe_parquet_mapped_t m, again, twice;
    floe_parquet_file_metadata_t md = {0};
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err = {0};
    pm_values_t values = {.n = 0};
    int64_t sizes[2] = {0, 0};
    bool same = true;

    CHECK(floe_parquet_map_column(f.data, f.len, PM_FILE_PATH, pm_move, NULL, &m, &err) == 0,
          "the position delete file is written again");
    CHECK(floe_parquet_footer_locate(m.bytes, m.len, m.len, &ft, &err) == 0 && ft.in_tail != NULL &&
              floe_parquet_decode(ft.in_tail, ft.length, &md, &err) == 0,
          "the new file is Parquet");
    CHECK(md.num_rows == 6 && md.n_row_groups == 2 && md.row_groups[0].num_rows == 4 && md.row_groups[1].num_rows == 2,
          "with the same rows in the same row groups");
    CHECK(md.n_schema == 3 && floe_parquet_leaf_element(&md, 0)->field_id == PM_FILE_PATH &&
              floe_parquet_leaf_element(&md, 1)->field_id == PM_POS,
          "and the same schema, field ids included");
    CHECK(floe_parquet_map_column(m.bytes, m.len, PM_FILE_PATH, pm_collect, &values, &again, &err) == 0 &&
              values.n == 6,
          "its file_path column reads back");
    for (size_t i = 0; i < 6 && i < values.n; i++)
        same = same && strcmp(values.v[i], want[i]) == 0;
    CHECK(same, "each path in the warehouse moved, in order, and the one elsewhere is kept");
    for (uint32_t g = 0; g < md.n_row_groups; g++) {
        floe_parquet_range_t r;
        const floe_parquet_column_meta_data_t *pos = &md.row_groups[g].columns[1].meta_data;
        int64_t n = md.row_groups[g].num_rows, at = g == 0 ? 0 : 4;
        CHECK(floe_parquet_chunk_range(&md, g, 1, ft.offset, &r, &err) == 0 && pos->codec == FLOE_PARQUET_UNCOMPRESSED &&
                  r.length >= (uint64_t)(8 * n) &&
                  memcmp(m.bytes + r.offset + r.length - 8 * n, &positions[at], (size_t)(8 * n)) == 0,
              "the positions are the same, PLAIN at the end of their page");
        for (uint32_t c = 0; c < 2; c++)
            sizes[c] += md.row_groups[g].columns[c].meta_data.total_compressed_size;
        const floe_parquet_statistics_t *st = &md.row_groups[g].columns[0].meta_data.statistics;
        CHECK(st->has_min_value && st->is_min_value_exact && st->has_max_value && st->is_max_value_exact &&
                  !(st->min_value.len >= strlen(PM_FROM) && memcmp(st->min_value.data, PM_FROM, strlen(PM_FROM)) == 0) &&
                  !(st->max_value.len >= strlen(PM_FROM) && memcmp(st->max_value.data, PM_FROM, strlen(PM_FROM)) == 0),
              "the paths' bounds are the new paths', exact: no bound of the old paths is left in the footer");
    }
    CHECK(m.n_sizes == 2 && m.field_ids[0] == PM_FILE_PATH && m.sizes[0] == sizes[0] && m.field_ids[1] == PM_POS &&
              m.sizes[1] == sizes[1],
          "the column sizes are the new chunks' bytes");
    CHECK(floe_parquet_map_column(f.data, f.len, PM_FILE_PATH, pm_move, NULL, &twice, &err) == 0 &&
              twice.len == m.len && memcmp(twice.bytes, m.bytes, m.len) == 0,
          "the same input gives the same bytes (a replay writes the same copy)");
    floe_parquet_mapped_dispose(&twice);
    floe_parquet_mapped_dispose(&again);
    floe_parquet_file_metadata_dispose(&md);
    floe_parquet_mapped_dispose(&m);
}

TEST(parquet_map_refuses_what_it_cannot_rewrite)
{
    pq_file_t f = pq_file("position_deletes");
    floe_parquet_mapped_t m;
    floe_iceberg_error_t err = {0};
    static const uint8_t not_parquet[] = "PAR1 this is not a parquet file PAR1";

    CHECK(floe_parquet_map_column(f.data, f.len, 7, pm_move, NULL, &m, &err) != 0 && m.bytes == NULL &&
              strstr(err.message, "field id 7") != NULL,
          "a missing column is refused with the reason");
    CHECK(floe_parquet_map_column(f.data, f.len, PM_POS, pm_move, NULL, &m, &err) != 0 && m.bytes == NULL &&
              strstr(err.message, "BYTE_ARRAY") != NULL,
          "a column that holds no strings is refused");
    CHECK(floe_parquet_map_column(not_parquet, sizeof(not_parquet) - 1, PM_FILE_PATH, pm_move, NULL, &m, &err) != 0 &&
              m.bytes == NULL,
          "bytes that are not Parquet are refused");
    CHECK(floe_parquet_map_column(f.data, f.len - 1, PM_FILE_PATH, pm_move, NULL, &m, &err) != 0 && m.bytes == NULL,
          "a truncated file is refused");
}
