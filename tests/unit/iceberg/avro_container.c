/* Tests of runtime/iceberg/avro_container.c, avro_schema.c and avro_datum.c: the container
 * framing reads what it writes, and hostile schemas and datums are refused before Avro C sees
 * them (LeakSanitizer checks that nothing Avro C built is left behind). */
#include <stdlib.h>

#include <zstd.h>

#include "harness.h"
#include "iceberg/avro_container.h"
#include "iceberg/avro_datum.h"
#include "iceberg/avro_schema.h"
#include "iceberg/manifest.h"

#define AC_ERR_MAX 256

/* A container of one-byte-or-more datums `data` split at `offsets`, with `schema`. */
static floe_avro_buf_t ac_file(const char *schema, const uint8_t *data, const size_t *offsets, size_t n, bool deflate)
{
    floe_avro_buf_t out = {0};
    floe_avro_meta_t meta[] = {{"avro.schema", (uint8_t *)schema, strlen(schema)},
                               {"avro.codec", (uint8_t *)(deflate ? "deflate" : "null"), deflate ? 7 : 4},
                               {"format-version", (uint8_t *)"2", 1}};
    char err[AC_ERR_MAX];

    CHECK(floe_avro_container_write(&out, meta, 3, data, offsets, n, deflate, err, sizeof(err)) == 0,
          "writes a container");
    return out;
}

TEST(avro_container_reads_what_it_writes)
{
    static const uint8_t data[] = {1, 2, 3, 4, 5, 6};
    static const size_t offsets[] = {0, 1, 3, 6};
    char err[AC_ERR_MAX];

    for (int deflate = 0; deflate <= 1; deflate++) {
        floe_avro_buf_t file = ac_file("\"bytes\"", data, offsets, 3, deflate);
        floe_parquet_arena_t *arena = floe_parquet_arena_new(1 << 20);
        floe_avro_reader_t r;
        floe_avro_block_t b;
        CHECK(floe_avro_reader_open(&r, file.data, file.len, arena, err, sizeof(err)) == 0, "opens its own file");
        CHECK(floe_avro_reader_meta(&r, "format-version") != NULL &&
                  strcmp((const char *)floe_avro_reader_meta(&r, "format-version")->value, "2") == 0,
              "keeps header metadata");
        CHECK(floe_avro_reader_next(&r, &b, err, sizeof(err)) == 1 && b.n_objects == 3 && b.len == sizeof(data) &&
                  memcmp(b.data, data, sizeof(data)) == 0,
              "one small block holds every datum, inflated when deflated");
        CHECK(floe_avro_reader_next(&r, &b, err, sizeof(err)) == 0, "then the file ends");
        floe_avro_reader_close(&r);
        floe_parquet_arena_free(arena);
        floe_avro_buf_dispose(&file);
    }
}

/* Appends Avro long v (zig-zag varint) to b. */
static void ac_long(uint8_t *b, size_t *n, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);

    do {
        b[(*n)++] = (uint8_t)((z & 0x7f) | (z >= 0x80 ? 0x80 : 0));
        z >>= 7;
    } while (z != 0);
}

TEST(avro_container_reads_zstandard_blocks)
{
    static const uint8_t data[] = {1, 2, 3, 4, 5, 6};
    static const size_t offsets[] = {0, 1, 3, 6};
    floe_avro_buf_t out = {0};
    floe_avro_meta_t meta[] = {{"avro.schema", (uint8_t *)"\"bytes\"", 7}, {"avro.codec", (uint8_t *)"zstandard", 9}};
    char err[AC_ERR_MAX] = "";
    uint8_t file[1024], packed[256];
    size_t header_len, n, packed_len;
    ZSTD_CCtx *z = ZSTD_createCCtx();
    ZSTD_inBuffer in = {data, sizeof(data), 0};
    ZSTD_outBuffer dst = {packed, sizeof(packed), 0};
    floe_parquet_arena_t *arena = floe_parquet_arena_new(1 << 20);
    floe_avro_reader_t r;
    floe_avro_block_t b;

    /* The stream API leaves the content size out of the frame, as Avro Java's codec does. */
    CHECK(ZSTD_compressStream2(z, &dst, &in, ZSTD_e_end) == 0, "compresses the block");
    packed_len = dst.pos;
    ZSTD_freeCCtx(z);
    CHECK(floe_avro_container_write(&out, meta, 2, data, offsets, 3, false, err, sizeof(err)) == 0,
          "writes a container labelled zstandard with its block stored");
    header_len = out.len - FLOE_AVRO_SYNC_LEN - sizeof(data) - 2; /* count and size: one byte each */
    memcpy(file, out.data, header_len);
    n = header_len;
    ac_long(file, &n, 3);
    ac_long(file, &n, (int64_t)packed_len);
    memcpy(file + n, packed, packed_len);
    n += packed_len;
    memcpy(file + n, out.data + out.len - FLOE_AVRO_SYNC_LEN, FLOE_AVRO_SYNC_LEN);
    n += FLOE_AVRO_SYNC_LEN;
    CHECK(floe_avro_reader_open(&r, file, n, arena, err, sizeof(err)) == 0 &&
              floe_avro_reader_next(&r, &b, err, sizeof(err)) == 1 && b.n_objects == 3 && b.len == sizeof(data) &&
              memcmp(b.data, data, sizeof(data)) == 0 && floe_avro_reader_next(&r, &b, err, sizeof(err)) == 0,
          "a zstandard block is decoded");
    floe_avro_reader_close(&r);
    file[header_len + 2] ^= 0xff; /* the frame's magic */
    CHECK(floe_avro_reader_open(&r, file, n, arena, err, sizeof(err)) == 0 &&
              floe_avro_reader_next(&r, &b, err, sizeof(err)) == -1 && strstr(err, "zstandard") != NULL,
          "a block that is not ZSTD is refused with the reason");
    floe_avro_reader_close(&r);
    file[header_len + 2] ^= 0xff;
    file[header_len + 1] = (uint8_t)((packed_len - 1) << 1); /* the frame less its last byte */
    memmove(file + header_len + 2 + packed_len - 1, file + header_len + 2 + packed_len, FLOE_AVRO_SYNC_LEN);
    CHECK(packed_len < 64 && floe_avro_reader_open(&r, file, n - 1, arena, err, sizeof(err)) == 0 &&
              floe_avro_reader_next(&r, &b, err, sizeof(err)) == -1 && strstr(err, "zstandard") != NULL,
          "a frame cut short is refused");
    floe_avro_reader_close(&r);
    floe_parquet_arena_free(arena);
    floe_avro_buf_dispose(&out);
}

TEST(avro_container_refuses_impossible_blocks)
{
    static const uint8_t data[] = {1, 2, 3};
    static const size_t offsets[] = {0, 3};
    floe_avro_buf_t file = ac_file("\"bytes\"", data, offsets, 1, false);
    floe_parquet_arena_t *arena = floe_parquet_arena_new(1 << 20);
    floe_avro_reader_t r;
    floe_avro_block_t b;
    char err[AC_ERR_MAX] = "";
    size_t block_at = file.len - FLOE_AVRO_SYNC_LEN - sizeof(data) - 2; /* count and size: one byte each */

    file.data[block_at] = 0x7e; /* zig-zag 63 objects, in 3 bytes */
    CHECK(floe_avro_reader_open(&r, file.data, file.len, arena, err, sizeof(err)) == 0 &&
              floe_avro_reader_next(&r, &b, err, sizeof(err)) == -1 && strstr(err, "claims 63 objects") != NULL,
          "a block may not claim more objects than it has bytes");
    floe_avro_reader_close(&r);
    file.data[block_at] = 2;
    file.data[block_at + 1] = 0x7e; /* size 63: past the end */
    CHECK(floe_avro_reader_open(&r, file.data, file.len, arena, err, sizeof(err)) == 0 &&
              floe_avro_reader_next(&r, &b, err, sizeof(err)) == -1 && strstr(err, "block 1: truncated") != NULL,
          "a block longer than the file is truncated");
    floe_avro_reader_close(&r);
    floe_parquet_arena_free(arena);
    floe_avro_buf_dispose(&file);
}

TEST(avro_schema_check_refuses_what_avro_c_would_leak_on)
{
    static const char *const bad[] = {
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"r\","
        "\"fields\":[]}}]}", /* a name defined twice */
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"type\":\"int\"}]}",                  /* a field without a name */
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"a\",\"type\":\"int\"}]}",
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"nope\"}]}", /* unknown type */
        "{\"type\":\"record\",\"name\":\"1r\",\"fields\":[]}",                                     /* not an Avro name */
        "{\"type\":\"fixed\",\"name\":\"f\",\"size\":-1}",
        "{\"type\":\"enum\",\"name\":\"e\",\"symbols\":[\"A\",\"A\"]}",
        "[[\"int\"]]",
        "[]",
        "{\"type\":\"array\"}",
        "not json",
    };
    static const char *const good[] = {
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",{\"type\":\"fixed\","
        "\"name\":\"f\",\"size\":16}]},{\"name\":\"b\",\"type\":\"f\"},{\"name\":\"c\",\"type\":{\"type\":\"map\","
        "\"values\":{\"type\":\"int\",\"logicalType\":\"date\"}}}]}",
        "{\"type\":\"enum\",\"name\":\"e\",\"symbols\":[\"A\",\"B\"]}",
    };
    char err[AC_ERR_MAX];

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK(floe_avro_schema_check(bad[i], strlen(bad[i]), err, sizeof(err)) != 0 && strstr(err, "avro.schema") != NULL,
              "refuses a schema Avro C would refuse, before Avro C parses it");
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        CHECK(floe_avro_schema_check(good[i], strlen(good[i]), err, sizeof(err)) == 0, "accepts a valid schema");

    /* The same through the manifest reader: refused with the reason, nothing leaked. */
    static const uint8_t datum[] = {0};
    static const size_t offsets[] = {0, 1};
    floe_avro_buf_t file = ac_file(bad[0], datum, offsets, 1, false);
    floe_iceberg_manifest_t m;
    CHECK(floe_iceberg_manifest_read(file.data, file.len, &m, err, sizeof(err)) != 0 &&
              strstr(err, "manifest: header: avro.schema") != NULL,
          "a manifest whose schema defines a name twice is refused");
    floe_avro_buf_dispose(&file);
}

static int ac_check(const char *schema_json, const uint8_t *data, size_t len, char *err)
{
    avro_schema_t schema;
    size_t consumed, items = 1000;
    int rc;

    if (avro_schema_from_json_length(schema_json, strlen(schema_json), &schema) != 0)
        return -2;
    rc = floe_avro_datum_check(schema, data, len, &consumed, &items, err, AC_ERR_MAX);
    avro_schema_decref(schema);
    return rc == 0 && consumed == len ? 0 : -1;
}

TEST(avro_datum_check_refuses_lengths_and_counts_past_the_data)
{
    static const char arr_null[] = "{\"type\":\"array\",\"items\":\"null\"}";
    static const char union_schema[] = "[\"null\",\"string\"]";
    static const uint8_t huge_count[] = {0xfe, 0xff, 0xff, 0xff, 0x0f}; /* 2^31 - 1 nulls: no bytes each */
    static const uint8_t few_nulls[] = {0x06, 0x00};                    /* three nulls */
    static const uint8_t neg_len[] = {0x02, 0x01};                      /* branch 1, length -1 */
    static const uint8_t long_len[] = {0x02, 0xc8, 0x01, 'a'};          /* branch 1, length 100, 1 byte */
    static const uint8_t bad_branch[] = {0x04};                         /* branch 2 of 2 */
    static const uint8_t long_varint[] = {0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    char err[AC_ERR_MAX] = "";

    CHECK(ac_check(arr_null, huge_count, sizeof(huge_count), err) == -1 && strstr(err, "too many") != NULL,
          "an array may not claim more items than the budget, even of empty items");
    CHECK(ac_check(arr_null, few_nulls, sizeof(few_nulls), err) == 0, "a few empty items are fine");
    CHECK(ac_check(union_schema, neg_len, sizeof(neg_len), err) == -1 && strstr(err, "negative") != NULL,
          "a negative string length is refused");
    CHECK(ac_check(union_schema, long_len, sizeof(long_len), err) == -1 && strstr(err, "truncated") != NULL,
          "a string longer than the data is refused before anything is allocated");
    CHECK(ac_check(union_schema, bad_branch, sizeof(bad_branch), err) == -1 && strstr(err, "union") != NULL,
          "a union branch out of range is refused");
    CHECK(ac_check(union_schema, long_varint, sizeof(long_varint), err) == -1 && strstr(err, "varint") != NULL,
          "a varint longer than 10 bytes is refused");
}
