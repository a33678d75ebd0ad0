/* Tests of runtime/iceberg/parquet_stats.c: file-wide column statistics of real files, in each
 * column's order, and what is left out when it is doubtful. */
#include <math.h>

#include "parquet_support.h"

static floe_parquet_column_stats_t pq_stats(const floe_parquet_file_metadata_t *md, uint32_t leaf)
{
    floe_parquet_column_stats_t st;

    floe_parquet_column_stats(md, leaf, &st);
    return st;
}

static double pq_double(floe_parquet_bytes_t b)
{
    double d;
    float f;

    if (b.len == 4) {
        memcpy(&f, b.data, 4);
        return f;
    }
    memcpy(&d, b.data, 8);
    return d;
}

/* A big-endian two's complement value of up to 8 bytes. */
static int64_t pq_be(floe_parquet_bytes_t b)
{
    uint64_t v = b.len > 0 && (b.data[0] & 0x80) ? UINT64_MAX : 0;

    for (uint32_t i = 0; i < b.len; i++)
        v = v << 8 | b.data[i];
    return (int64_t)v;
}

TEST(parquet_stats_sum_counts_and_order_integers)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_column_stats_t id, big;
    int64_t size = 0;

    pq_open("ints", &md);
    id = pq_stats(&md, 0);
    big = pq_stats(&md, 1);
    for (uint32_t r = 0; r < md.n_row_groups; r++)
        size += md.row_groups[r].columns[1].meta_data.total_compressed_size;
    CHECK(id.num_values == 10 && id.has_null_count && id.null_count == 0, "counts a required column's values");
    CHECK(big.num_values == 10 && big.null_count == 3 && big.total_compressed_size == size,
          "sums values, nulls and bytes over row groups");
    CHECK(id.has_min && id.has_max && pq_le(id.min) == -7 && pq_le(id.max) == 20,
          "bounds an int column by its smallest and largest value");
    CHECK(big.has_min && big.has_max && pq_le(big.min) == -5 && pq_le(big.max) == INT64_C(9000000000000) - 5,
          "bounds a long column across row groups");
    CHECK(!id.is_min_exact && !id.is_max_exact, "a bound is not called exact when the writer did not say so");
    CHECK(!big.has_nan_count, "an int column has no NaN count");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_stats_order_strings_booleans_and_doubles)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_column_stats_t name, flag, score;

    pq_open("strings", &md);
    name = pq_stats(&md, 0);
    flag = pq_stats(&md, 1);
    score = pq_stats(&md, 2);
    CHECK(name.null_count == 9 && name.num_values == 60, "counts a string column's nulls");
    CHECK(pq_name_is(name.min, "alpha") && pq_name_is(name.max, "\xc3\xa9" "cho"),
          "orders strings by unsigned bytes, so \"écho\" sorts after \"delta\"");
    CHECK(flag.has_min && flag.min.len == 1 && flag.min.data[0] == 0 && flag.max.data[0] == 1,
          "bounds a boolean column by false and true");
    CHECK(score.has_min && pq_double(score.min) == -7.5 && pq_double(score.max) == 7.25,
          "bounds a double column across row groups");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_stats_follow_logical_types)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_column_stats_t u32, day, ts, price, ratio;

    pq_open("types", &md);
    u32 = pq_stats(&md, 0);
    day = pq_stats(&md, 1);
    ts = pq_stats(&md, 2);
    price = pq_stats(&md, 3);
    ratio = pq_stats(&md, 4);
    CHECK(u32.has_max && (uint32_t)pq_le(u32.min) == 1 && (uint32_t)pq_le(u32.max) == 4000000000u,
          "orders an unsigned int column as unsigned");
    CHECK(pq_le(day.min) == 17000 && pq_le(day.max) == 20000, "bounds a date column");
    CHECK(ts.null_count == 2 && pq_le(ts.min) == -5 && pq_le(ts.max) == INT64_C(1800000000000000),
          "bounds a timestamp column and counts its nulls");
    CHECK(price.has_min && price.min.len == 4 && pq_be(price.min) == -10000 && pq_be(price.max) == 9999,
          "orders a decimal in a fixed-length array as a signed big-endian number");
    CHECK(pq_double(ratio.min) == -2.5 && pq_double(ratio.max) == 8, "bounds a float column");
    floe_parquet_file_metadata_dispose(&md);
}

TEST(parquet_stats_leave_out_what_is_doubtful)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_column_stats_t st;
    floe_parquet_statistics_t *s;
    double nan = NAN;

    pq_open("ints", &md);
    md.row_groups[1].columns[1].meta_data.has_statistics = false;
    st = pq_stats(&md, 1);
    CHECK(!st.has_min && !st.has_max && !st.has_null_count && st.num_values == 10,
          "a row group without statistics leaves the file without bounds or null count");
    md.row_groups[1].columns[1].meta_data.has_statistics = true;
    s = &md.row_groups[2].columns[1].meta_data.statistics;
    s->has_min_value = s->has_max_value = false;
    s->null_count = md.row_groups[2].columns[1].meta_data.num_values;
    st = pq_stats(&md, 1);
    CHECK(st.has_min && st.has_max && pq_le(st.max) == INT64_C(6000000000000) - 5,
          "a row group of nulls only does not take the bounds away");
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        floe_parquet_bytes_t low = md.row_groups[r].columns[0].meta_data.statistics.min_value;
        s = &md.row_groups[r].columns[0].meta_data.statistics;
        s->min_value = s->max_value;
        s->max_value = low;
    }
    st = pq_stats(&md, 0);
    CHECK(!st.has_min && !st.has_max, "bounds that cross (min above max) are both left out");
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        floe_parquet_bytes_t high = md.row_groups[r].columns[0].meta_data.statistics.min_value;
        s = &md.row_groups[r].columns[0].meta_data.statistics;
        s->min_value = s->max_value;
        s->max_value = high;
    }
    md.column_orders[0].kind = 3;
    st = pq_stats(&md, 0);
    CHECK(!st.has_min && !st.has_max && st.has_null_count, "an unknown column order gives no bounds");
    md.column_orders[0].kind = FLOE_PARQUET_TYPE_ORDER;
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        s = &md.row_groups[r].columns[0].meta_data.statistics;
        s->min = s->min_value;
        s->max = s->max_value;
        s->has_min = s->has_max = true;
        s->has_min_value = s->has_max_value = false;
    }
    st = pq_stats(&md, 0);
    CHECK(st.has_min && pq_le(st.min) == -7 && pq_le(st.max) == 20,
          "the deprecated min and max bound a signed column");
    md.row_groups[0].columns[0].meta_data.statistics.min.len = 3;
    st = pq_stats(&md, 0);
    CHECK(!st.has_min && st.has_max, "a bound of the wrong width is left out");
    s = &md.row_groups[0].columns[0].meta_data.statistics;
    s->has_min_value = s->has_max_value = true;
    s->min_value = s->max_value = md.row_groups[1].columns[0].meta_data.statistics.min;
    s->has_is_min_value_exact = s->is_min_value_exact = true;
    md.row_groups[1].columns[0].meta_data.num_values = INT64_MAX;
    st = pq_stats(&md, 0);
    CHECK(st.num_values == INT64_MAX, "sums saturate");
    floe_parquet_file_metadata_dispose(&md);

    pq_open("strings", &md);
    for (uint32_t r = 0; r < md.n_row_groups; r++) {
        s = &md.row_groups[r].columns[0].meta_data.statistics;
        s->min = s->min_value;
        s->max = s->max_value;
        s->has_min = s->has_max = true;
        s->has_min_value = s->has_max_value = false;
    }
    st = pq_stats(&md, 0);
    CHECK(!st.has_min && !st.has_max, "the deprecated min and max do not bound strings (they were signed)");
    s = &md.row_groups[1].columns[2].meta_data.statistics;
    s->max_value.data = (const uint8_t *)&nan;
    st = pq_stats(&md, 2);
    CHECK(st.has_min && !st.has_max, "a NaN bound is left out");
    s = &md.row_groups[0].columns[2].meta_data.statistics;
    s->has_is_min_value_exact = s->is_min_value_exact = true;
    st = pq_stats(&md, 2);
    CHECK(st.is_min_exact, "a bound the writer called exact stays exact");
    floe_parquet_file_metadata_dispose(&md);
}

static int pq_cmp(const floe_parquet_file_metadata_t *md, uint32_t leaf, const char *a, uint32_t a_len, const char *b,
                  uint32_t b_len)
{
    floe_parquet_bytes_t x = {(const uint8_t *)a, a_len}, y = {(const uint8_t *)b, b_len};
    int cmp = 99;

    return floe_parquet_value_compare(md, leaf, x, y, &cmp) == 0 ? cmp : 99;
}

TEST(parquet_value_compare_uses_the_column_order)
{
    floe_parquet_file_metadata_t md;
    floe_parquet_schema_element_t *price;

    pq_open("types", &md);
    CHECK(pq_cmp(&md, 0, "\xff\xff\xff\xff", 4, "\x01\x00\x00\x00", 4) > 0, "unsigned: 2^32-1 is above 1");
    CHECK(pq_cmp(&md, 1, "\xff\xff\xff\xff", 4, "\x01\x00\x00\x00", 4) < 0, "signed: -1 is below 1");
    CHECK(pq_cmp(&md, 1, "\x01\x00\x00", 3, "\x01\x00\x00\x00", 4) == 99, "refuses a value of the wrong width");
    CHECK(pq_cmp(&md, 3, "\xff\xff\xff\x00", 4, "\x00\x00\x00\x01", 4) < 0, "decimal: -256 is below 1");
    price = &md.schema[md.leaves[3].schema_index];
    price->type = FLOE_PARQUET_BYTE_ARRAY;
    price->has_type_length = false;
    CHECK(pq_cmp(&md, 3, "\xff", 1, "\x00\x01", 2) < 0, "decimal bytes: -1 is below 1");
    CHECK(pq_cmp(&md, 3, "\xff\x00", 2, "\x80", 1) < 0, "decimal bytes: -256 is below -128");
    CHECK(pq_cmp(&md, 3, "\x00\x80", 2, "\x7f", 1) > 0, "decimal bytes: 128 is above 127");
    CHECK(pq_cmp(&md, 3, "\x00\x05", 2, "\x05", 1) == 0 && pq_cmp(&md, 3, "", 0, "\x00", 1) == 0,
          "decimal bytes: sign extension does not change a value");
    CHECK(pq_cmp(&md, 4, "\x00\x00\xc0\x7f", 4, "\x00\x00\x80\x3f", 4) == 99, "refuses to order NaN");
    md.schema[md.leaves[4].schema_index].type = FLOE_PARQUET_INT96;
    CHECK(pq_cmp(&md, 4, "abcdefghijkl", 12, "abcdefghijkl", 12) == 99, "INT96 has no order Floe knows");
    floe_parquet_file_metadata_dispose(&md);

    pq_open("strings", &md);
    CHECK(pq_cmp(&md, 0, "ab", 2, "abc", 3) < 0 && pq_cmp(&md, 0, "b", 1, "abc", 3) > 0 &&
              pq_cmp(&md, 0, "\xc3", 1, "z", 1) > 0 && pq_cmp(&md, 0, "", 0, "", 0) == 0,
          "strings: unsigned bytes, a prefix first");
    CHECK(pq_cmp(&md, 1, "\x02", 1, "\x01", 1) == 99, "refuses a boolean that is neither 0 nor 1");
    floe_parquet_file_metadata_dispose(&md);
}
