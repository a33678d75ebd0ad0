/*
 * Tests of runtime/iceberg/puffin.c and deletion_vector.c against bytes laid out by hand from the
 * Puffin spec and the table spec's deletion-vector-v1 layout (lengths, magics, the Roaring
 * portable format with array, bitmap and run containers, CRC-32), and of the encoder's round trip.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "harness.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/puffin.h"

typedef struct ice_bytes {
    uint8_t b[4096];
    size_t n;
} ice_bytes_t;

static void ice_put(ice_bytes_t *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void ice_le(ice_bytes_t *o, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        o->b[o->n++] = (uint8_t)(v >> (8 * i));
}

static void ice_be32(ice_bytes_t *o, uint32_t v)
{
    uint8_t be[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    ice_put(o, be, 4);
}

/* Wraps a 64-bit Roaring vector as a deletion-vector-v1 blob: length, magic, vector, CRC. */
static void ice_dv_blob(const ice_bytes_t *vector, ice_bytes_t *blob)
{
    static const uint8_t magic[4] = {0xD1, 0xD3, 0x39, 0x64};
    blob->n = 0;
    ice_be32(blob, (uint32_t)(vector->n + 4));
    ice_put(blob, magic, 4);
    ice_put(blob, vector->b, vector->n);
    ice_be32(blob, (uint32_t)crc32(0L, blob->b + 4, (uInt)(vector->n + 4)));
}

/* Positions {1, 3, 65536+2} under key 0 (two array containers, no runs) and {2^32 + 5, 2^32 + 6,
 * 2^32 + 7} under key 1 as one run container. */
static void ice_spec_vector(ice_bytes_t *v)
{
    v->n = 0;
    ice_le(v, 2, 8); /* two 32-bit bitmaps */
    /* key 0: cookie 12346, 2 containers, headers (key, card-1), offsets, then the arrays */
    ice_le(v, 0, 4);
    ice_le(v, 12346, 4);
    ice_le(v, 2, 4);
    ice_le(v, 0, 2), ice_le(v, 1, 2);
    ice_le(v, 1, 2), ice_le(v, 0, 2);
    ice_le(v, 24, 4), ice_le(v, 28, 4);
    ice_le(v, 1, 2), ice_le(v, 3, 2);
    ice_le(v, 2, 2);
    /* key 1: cookie 12347 with size-1 = 0 in the high half, run flags, header, no offsets (< 4) */
    ice_le(v, 1, 4);
    ice_le(v, 12347, 4);
    ice_le(v, 0x01, 1);
    ice_le(v, 0, 2), ice_le(v, 2, 2);
    ice_le(v, 1, 2);               /* one run */
    ice_le(v, 5, 2), ice_le(v, 2, 2); /* start 5, length-1 2 */
}

TEST(deletion_vector_decodes_the_spec_layout)
{
    ice_bytes_t v, blob;
    floe_iceberg_dv_t dv;
    char err[200] = "";
    static const uint64_t want[] = {1, 3, 65538, UINT64_C(4294967301), UINT64_C(4294967302), UINT64_C(4294967303)};

    ice_spec_vector(&v);
    ice_dv_blob(&v, &blob);
    CHECK(floe_iceberg_dv_decode(blob.b, blob.n, 100, &dv, err, sizeof(err)) == 0, "a spec-laid-out vector decodes");
    CHECK(dv.n == 6 && memcmp(dv.positions, want, sizeof(want)) == 0,
          "array and run containers under two keys give the deleted positions in order");
    CHECK(floe_iceberg_dv_contains(&dv, 65538) && !floe_iceberg_dv_contains(&dv, 2), "membership is answered");
    floe_iceberg_dv_dispose(&dv);
    CHECK(floe_iceberg_dv_decode(blob.b, blob.n, 5, &dv, err, sizeof(err)) == -1 && strstr(err, "more than 5"),
          "a vector over the caller's limit is refused");
}

TEST(deletion_vector_refuses_damaged_blobs)
{
    ice_bytes_t v, blob;
    floe_iceberg_dv_t dv;
    char err[200];
    static const struct {
        size_t at;
        uint8_t value;
        const char *reason;
    } damage[] = {
        {3, 0x7F, "length field"}, {4, 0x00, "magic"}, {20, 0xFF, "CRC-32"},
    };

    ice_spec_vector(&v);
    for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
        ice_dv_blob(&v, &blob);
        blob.b[damage[i].at] = damage[i].value;
        err[0] = '\0';
        CHECK(floe_iceberg_dv_decode(blob.b, blob.n, 100, &dv, err, sizeof(err)) == -1 &&
                  strstr(err, damage[i].reason) != NULL && dv.positions == NULL,
              "a damaged blob is refused with the reason");
    }
    v.b[v.n - 4] = 0xFF, v.b[v.n - 3] = 0xFF; /* the run now passes the container's end */
    ice_dv_blob(&v, &blob);
    CHECK(floe_iceberg_dv_decode(blob.b, blob.n, 1000000, &dv, err, sizeof(err)) == -1 && strstr(err, "run"),
          "a run past its container is refused even with a valid CRC");
    ice_spec_vector(&v);
    v.b[8 + 16] = 0; /* the second array value 3 becomes 0: out of order */
    ice_dv_blob(&v, &blob);
    CHECK(floe_iceberg_dv_decode(blob.b, blob.n, 100, &dv, err, sizeof(err)) == -1 && strstr(err, "ascending"),
          "positions out of order are refused");
    CHECK(floe_iceberg_dv_decode(blob.b, 6, 100, &dv, err, sizeof(err)) == -1, "a truncated blob is refused");
}

TEST(deletion_vector_encoder_round_trips_arrays_and_bitmaps)
{
    size_t n = 5000 + 3, len;
    uint64_t *pos = malloc(n * sizeof(uint64_t));
    floe_iceberg_dv_t dv;
    char err[200] = "";
    uint8_t *blob;

    for (size_t i = 0; i < 5000; i++)
        pos[i] = i * 2; /* 5000 values below 65536... */
    pos[5000] = 70000; /* ...a bitmap container, then an array one */
    pos[5001] = UINT64_C(1) << 40;
    pos[5002] = (UINT64_C(1) << 40) + 1;
    blob = floe_iceberg_dv_encode(pos, n, &len);
    CHECK(floe_iceberg_dv_decode(blob, len, n, &dv, err, sizeof(err)) == 0 && dv.n == n &&
              memcmp(dv.positions, pos, n * sizeof(uint64_t)) == 0,
          "what the encoder writes decodes to the same positions");
    floe_iceberg_dv_dispose(&dv);
    free(blob);
    blob = floe_iceberg_dv_encode(NULL, 0, &len);
    CHECK(floe_iceberg_dv_decode(blob, len, 1, &dv, err, sizeof(err)) == 0 && dv.n == 0, "an empty vector round trips");
    free(blob);
    free(pos);
}

/* A Puffin file: magic, one blob, footer with `json`, flags. */
static void ice_puffin(ice_bytes_t *f, const ice_bytes_t *blob, const char *json, uint8_t flags)
{
    f->n = 0;
    ice_put(f, "PFA1", 4);
    ice_put(f, blob->b, blob->n);
    ice_put(f, "PFA1", 4);
    ice_put(f, json, strlen(json));
    ice_le(f, strlen(json), 4);
    ice_le(f, flags, 4);
    ice_put(f, "PFA1", 4);
}

TEST(puffin_reads_a_deletion_vector_file)
{
    ice_bytes_t v, blob, file;
    floe_puffin_t p;
    floe_iceberg_dv_t dv;
    const floe_puffin_blob_t *b;
    const uint8_t *data;
    size_t n;
    char err[200] = "", json[600];

    ice_spec_vector(&v);
    ice_dv_blob(&v, &blob);
    snprintf(json, sizeof(json),
             "{\"blobs\":[{\"type\":\"deletion-vector-v1\",\"fields\":[2147483645],\"snapshot-id\":-1,"
             "\"sequence-number\":-1,\"offset\":4,\"length\":%zu,\"properties\":{\"referenced-data-file\":"
             "\"s3://b/t/data/a.parquet\",\"cardinality\":\"6\"}}],\"properties\":{\"created-by\":\"test\"}}",
             blob.n);
    ice_puffin(&file, &blob, json, 0);
    CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == 0 && p.n_blobs == 1, "the footer reads");
    b = floe_puffin_find(&p, FLOE_PUFFIN_DELETION_VECTOR, "s3://b/t/data/a.parquet");
    CHECK(b != NULL && b->offset == 4 && b->snapshot_id == -1 &&
              strcmp(floe_puffin_blob_property(b, "cardinality"), "6") == 0,
          "the deletion vector of a data file is found by referenced-data-file");
    CHECK(b != NULL && floe_puffin_blob_bytes(file.b, b, &data, &n, err, sizeof(err)) == 0 &&
              floe_iceberg_dv_decode(data, n, 100, &dv, err, sizeof(err)) == 0 && dv.n == 6,
          "its bytes decode to the vector");
    floe_iceberg_dv_dispose(&dv);
    CHECK(floe_puffin_find(&p, FLOE_PUFFIN_DELETION_VECTOR, "s3://b/t/data/other.parquet") == NULL,
          "another data file has no vector here");
    floe_puffin_dispose(&p);
}

TEST(puffin_refuses_malformed_files)
{
    ice_bytes_t blob = {.n = 8}, file;
    floe_puffin_t p;
    char err[200];
    static const struct {
        const char *json;
        uint8_t flags;
        const char *reason;
    } cases[] = {
        {"{\"blobs\":[]}", 1, "LZ4"},
        {"{\"blob\":[]}", 0, "'blobs'"},
        {"[1]", 0, "'blobs'"},
        {"{\"blobs\":[{\"type\":\"x\",\"fields\":[],\"snapshot-id\":1,\"sequence-number\":1,\"offset\":4,"
         "\"length\":9}]}",
         0, "outside the file"},
        {"{\"blobs\":[{\"type\":\"x\",\"fields\":[],\"snapshot-id\":1,\"sequence-number\":1,\"offset\":4}]}", 0,
         "integer offset"},
        {"{\"blobs\":[{\"fields\":[]}]}", 0, "'type'"},
        {"{\"blobs\":", 0, "not JSON"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ice_puffin(&file, &blob, cases[i].json, cases[i].flags);
        err[0] = '\0';
        CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == -1 && strstr(err, cases[i].reason) != NULL &&
                  p.root == NULL,
              "a malformed Puffin file is refused with the reason");
    }
    ice_puffin(&file, &blob, "{\"blobs\":[]}", 0);
    CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == 0, "an empty Puffin file reads");
    floe_puffin_dispose(&p);
    file.b[file.n - 1] = 'X';
    CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == -1 && strstr(err, "end with"),
          "a file without the closing magic is refused");
    CHECK(floe_puffin_read(file.b, 10, &p, err, sizeof(err)) == -1, "a tiny file is refused");
    file.b[file.n - 1] = '1';
    file.b[file.n - 12] = 0xFF; /* payload size far past the file */
    CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == -1 && strstr(err, "exceeds"),
          "a payload size past the file is refused");
}

TEST(puffin_footer_written_again_keeps_the_blobs_where_they_were)
{
    ice_bytes_t v, blob, file;
    floe_puffin_t p, again;
    const floe_puffin_blob_t *b;
    floe_iceberg_dv_t dv;
    const uint8_t *data;
    uint8_t *out = NULL;
    size_t n, out_len = 0;
    char err[200] = "", json[700];

    ice_spec_vector(&v);
    ice_dv_blob(&v, &blob);
    snprintf(json, sizeof(json),
             "{\"blobs\":[{\"type\":\"deletion-vector-v1\",\"fields\":[2147483645],\"snapshot-id\":-1,"
             "\"sequence-number\":-1,\"offset\":4,\"length\":%zu,\"properties\":{\"referenced-data-file\":"
             "\"s3://src/data/a.parquet\",\"cardinality\":\"6\"}},{\"type\":\"other\",\"fields\":[],"
             "\"snapshot-id\":3051729675574597004,\"sequence-number\":2,\"offset\":4,\"length\":0}],"
             "\"properties\":{\"created-by\":\"test\"}}",
             blob.n);
    ice_puffin(&file, &blob, json, 0);
    CHECK(floe_puffin_read(file.b, file.n, &p, err, sizeof(err)) == 0, "the footer reads");
    floe_puffin_set_blob_property(&p, 0, "referenced-data-file", "s3://a-longer-replica-warehouse/data/a.parquet");
    floe_puffin_set_blob_property(&p, 1, "note", "added");
    CHECK(floe_puffin_write(file.b, file.n, &p, &out, &out_len, err, sizeof(err)) == 0, "the footer is written");
    floe_puffin_dispose(&p);
    CHECK(out_len > 4 + blob.n && memcmp(out, file.b, 4 + blob.n) == 0, "the magic and the blob are unchanged");
    CHECK(floe_puffin_read(out, out_len, &again, err, sizeof(err)) == 0 && again.n_blobs == 2, "the new file reads");
    CHECK(floe_puffin_find(&again, FLOE_PUFFIN_DELETION_VECTOR, "s3://src/data/a.parquet") == NULL,
          "the vector no longer names the old path");
    b = floe_puffin_find(&again, FLOE_PUFFIN_DELETION_VECTOR, "s3://a-longer-replica-warehouse/data/a.parquet");
    CHECK(b != NULL && b->offset == 4 && strcmp(floe_puffin_blob_property(b, "cardinality"), "6") == 0,
          "it names the new path, at the same offset, its other properties kept");
    CHECK(b != NULL && floe_puffin_blob_bytes(out, b, &data, &n, err, sizeof(err)) == 0 &&
              floe_iceberg_dv_decode(data, n, 100, &dv, err, sizeof(err)) == 0 && dv.n == 6,
          "the blob at its offset still decodes to the vector");
    floe_iceberg_dv_dispose(&dv);
    CHECK(again.blobs[1].snapshot_id == 3051729675574597004LL &&
              strcmp(floe_puffin_blob_property(&again.blobs[1], "note"), "added") == 0,
          "a blob without properties gets them, and a 63-bit snapshot id survives");
    CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(again.properties, "created-by")->valuestring, "test") == 0,
          "the file's properties are kept");
    CHECK(out[out_len - 8] == 0, "the footer is not compressed");
    floe_puffin_dispose(&again);
    free(out);
}
