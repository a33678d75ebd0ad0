/* Tests of runtime/replication/rewrite.c: a replica's metadata names its own warehouse, and only
 * paths inside the source's warehouse move. */
#include <cjson/cJSON.h>

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
