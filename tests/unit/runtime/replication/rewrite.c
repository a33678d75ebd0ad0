/* Tests of runtime/replication/rewrite.c: a replica's metadata and delete files name its own
 * warehouse, and only paths inside the source's warehouse move. */
#include <cjson/cJSON.h>

#include "iceberg/puffin.h"
#include "parquet_fixtures.h"
#include "replication/rewrite.h"

TEST(replication_rewrite_moves_warehouse_paths_only)
{
    floe_rewrite_t rw = {"s3://src--table-s3", "s3://dst--table-s3"};
    char *p = floe_rewrite_path(&rw, "s3://src--table-s3/data/a.parquet");

    CHECK(p != NULL && strcmp(p, "s3://dst--table-s3/data/a.parquet") == 0, "a path in the warehouse moves");
    free(p);
    CHECK(floe_rewrite_path(&rw, "s3://src--table-s3-other/data/a") == NULL, "a longer bucket name is elsewhere");
    CHECK(floe_rewrite_path(&rw, "s3://elsewhere/data/a") == NULL, "a path outside stays");
    CHECK(floe_rewrite_key("s3://src--table-s3", "s3://src--table-s3/metadata/x.avro") != NULL &&
              strcmp(floe_rewrite_key("s3://src--table-s3", "s3://src--table-s3/metadata/x.avro"), "metadata/x.avro") == 0,
          "the key of a warehouse path");
}

TEST(replication_rewrite_metadata_names_the_replica)
{
    floe_rewrite_t rw = {"s3://src--table-s3", "s3://dst--table-s3"};
    cJSON *md = cJSON_Parse(
        "{\"location\":\"s3://src--table-s3\",\"snapshots\":[{\"manifest-list\":\"s3://src--table-s3/metadata/snap.avro\"},"
        "{\"manifests\":[\"s3://src--table-s3/metadata/m.avro\",\"s3://other/m.avro\"]}],"
        "\"metadata-log\":[{\"metadata-file\":\"s3://src--table-s3/metadata/00000.metadata.json\"}],"
        "\"statistics\":[{\"statistics-path\":\"s3://src--table-s3/metadata/s.puffin\"}]}");
    char *out;

    floe_rewrite_metadata(&rw, md);
    out = cJSON_PrintUnformatted(md);
    CHECK(strstr(out, "src--table-s3") == NULL, "no path names the source's warehouse");
    CHECK(strstr(out, "\"location\":\"s3://dst--table-s3\"") != NULL, "the location is the replica's warehouse");
    CHECK(strstr(out, "s3://other/m.avro") != NULL, "a path elsewhere is kept");
    CHECK(strstr(out, "s3://dst--table-s3/metadata/snap.avro") != NULL, "the manifest list moves");
    free(out);
    cJSON_Delete(md);
}

/* A Puffin file of one 8-byte blob and the footer `json`, flags as given. */
static size_t rr_puffin(uint8_t *out, const char *json, uint8_t flags)
{
    size_t n = 0, len = strlen(json);

    memcpy(out + n, "PFA1", 4), n += 4;
    memset(out + n, 0xAB, 8), n += 8;
    memcpy(out + n, "PFA1", 4), n += 4;
    memcpy(out + n, json, len), n += len;
    for (int i = 0; i < 4; i++)
        out[n++] = (uint8_t)(len >> (8 * i));
    out[n++] = flags, out[n++] = 0, out[n++] = 0, out[n++] = 0;
    memcpy(out + n, "PFA1", 4), n += 4;
    return n;
}

TEST(replication_rewrite_delete_files_name_the_replicas_data_files)
{
    floe_rewrite_t rw = {"s3://source--table-s3", "s3://dst--table-s3"};
    static const char json[] =
        "{\"blobs\":[{\"type\":\"deletion-vector-v1\",\"fields\":[2147483645],\"snapshot-id\":-1,\"sequence-number\":-1,"
        "\"offset\":4,\"length\":8,\"properties\":{\"referenced-data-file\":\"s3://source--table-s3/data/a.parquet\"}},"
        "{\"type\":\"deletion-vector-v1\",\"fields\":[2147483645],\"snapshot-id\":-1,\"sequence-number\":-1,"
        "\"offset\":4,\"length\":8,\"properties\":{\"referenced-data-file\":\"s3://elsewhere/b.parquet\"}}]}";
    uint8_t file[1024], *out = NULL;
    size_t len = rr_puffin(file, json, 0), out_len = 0;
    floe_puffin_t p;
    floe_parquet_mapped_t m;
    char err[256] = "";

    CHECK(floe_rewrite_puffin(&rw, file, len, &out, &out_len, err, sizeof(err)) == 0 &&
              floe_puffin_read(out, out_len, &p, err, sizeof(err)) == 0,
          "a deletion-vector file is rewritten");
    CHECK(p.n_blobs == 2 &&
              floe_puffin_find(&p, FLOE_PUFFIN_DELETION_VECTOR, "s3://dst--table-s3/data/a.parquet") == &p.blobs[0] &&
              floe_puffin_find(&p, FLOE_PUFFIN_DELETION_VECTOR, "s3://elsewhere/b.parquet") == &p.blobs[1],
          "its vector of a warehouse data file names the replica's copy, one elsewhere stays");
    CHECK(memcmp(out, file, 12) == 0, "the blob is unchanged, where it was");
    floe_puffin_dispose(&p);
    free(out);
    len = rr_puffin(file, json, 1);
    CHECK(floe_rewrite_puffin(&rw, file, len, &out, &out_len, err, sizeof(err)) == -1 && strstr(err, "LZ4") != NULL,
          "a compressed footer is refused with the reason");
    CHECK(floe_rewrite_puffin(&rw, file, 10, &out, &out_len, err, sizeof(err)) == -1 && err[0] != '\0',
          "a file that is not Puffin is refused");

    CHECK(floe_rewrite_position_deletes(&rw, pq_fixture_position_deletes, sizeof(pq_fixture_position_deletes), &m, err,
                                        sizeof(err)) == 0 &&
              memmem(m.bytes, m.len, "s3://dst--table-s3/data/a.parquet", 33) != NULL &&
              memmem(m.bytes, m.len, "s3://dst--table-s3/data/b.parquet", 33) != NULL &&
              memmem(m.bytes, m.len, "source--table-s3", 16) == NULL,
          "a Parquet position delete file's paths name the replica's data files");
    floe_parquet_mapped_dispose(&m);
    CHECK(floe_rewrite_position_deletes(&rw, pq_fixture_ints, sizeof(pq_fixture_ints), &m, err, sizeof(err)) == -1 &&
              strstr(err, "field id 2147483546") != NULL,
          "a file without a file_path column is refused with the reason");
}

TEST(replication_rewrite_path_bounds_move_only_when_both_lie_in_the_warehouse)
{
    floe_rewrite_t rw = {"s3://src--table-s3", "s3://dst--table-s3"};
    floe_iceberg_bytes_t a = {(uint8_t *)"s3://src--table-s3/data/a", 25}, b = {(uint8_t *)"s3://src--table-s3/data/b", 25};
    floe_iceberg_bytes_t out = {(uint8_t *)"s3://other/x", 12}, truncated = {(uint8_t *)"s3://src--table-s3/", 19};
    char *lo, *hi;

    CHECK(floe_rewrite_path_bounds(&rw, &a, &b, &lo, &hi) && strcmp(lo, "s3://dst--table-s3/data/a") == 0 &&
              strcmp(hi, "s3://dst--table-s3/data/b") == 0,
          "bounds in the warehouse move, keeping their order");
    free(lo);
    free(hi);
    CHECK(!floe_rewrite_path_bounds(&rw, &a, &out, &lo, &hi) && lo == NULL && hi == NULL,
          "an upper bound elsewhere drops both: a path between them may lie outside, and stays");
    CHECK(!floe_rewrite_path_bounds(&rw, &truncated, &b, &lo, &hi) && lo == NULL && hi == NULL,
          "a bound truncated to the warehouse itself drops both");
    CHECK(!floe_rewrite_path_bounds(&rw, NULL, &b, &lo, &hi) && lo == NULL && hi == NULL, "a missing bound drops both");
}
