/* Tests of runtime/store/share.c: a file that two object rows name (a replica's data file) stays
 * until the last row naming it goes, whichever way the rows go. Included after store.c (its
 * fixture). */
#include "store/share.h"

/* The store bucket id of `name`. */
static int64_t bucket_id_of(store_fixture_t *f, const char *name)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b = {0};

    h2o_mem_init_pool(&pool);
    if (floe_store_bucket_get(f->st, &pool, name, &b) != FLOE_OK)
        b.id = -1;
    h2o_mem_clear_pool(&pool);
    return b.id;
}

static bool reads_as(store_fixture_t *f, const char *bucket, const char *key, const char *want)
{
    char *data = NULL;
    size_t len = 0;
    bool ok = floe_store_read_object(f->st, f->dir, bucket, key, &data, &len) == FLOE_OK &&
              len == strlen(want) && memcmp(data, want, len) == 0;
    free(data);
    return ok;
}

TEST(store_share_keeps_a_file_until_its_last_row_goes)
{
    store_fixture_t f;
    char etag[33];
    int64_t src, dst;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "source--table-s3", true, 1);
    floe_store_create_bucket(f.st, "replica--table-s3", true, 1);
    src = bucket_id_of(&f, "source--table-s3");
    dst = bucket_id_of(&f, "replica--table-s3");
    floe_store_put_object(f.st, f.dir, "source--table-s3", "data/a.parquet", "parquet bytes", 13, NULL, 2, etag);
    CHECK(floe_store_object_share(f.st, f.dir, src, "data/a.parquet", dst, "data/a.parquet", 3) == FLOE_OK,
          "a data file is shared into the replica's warehouse");
    CHECK(count_object_files(&f) == 1, "sharing copies no bytes: one file, two rows");
    CHECK(reads_as(&f, "replica--table-s3", "data/a.parquet", "parquet bytes"), "the replica reads the bytes");
    CHECK(floe_store_object_share(f.st, f.dir, src, "data/a.parquet", dst, "data/a.parquet", 4) == FLOE_OK &&
              count_object_files(&f) == 1,
          "replaying a share changes nothing");
    CHECK(floe_store_object_share(f.st, f.dir, src, "data/missing", dst, "data/missing", 4) == FLOE_ENOTFOUND,
          "sharing a missing object is not found");
    CHECK(floe_store_object_delete(f.st, f.dir, src, "data/a.parquet") == FLOE_OK &&
              count_object_files(&f) == 1 && reads_as(&f, "replica--table-s3", "data/a.parquet", "parquet bytes"),
          "deleting the source's row keeps the file the replica still names");
    CHECK(floe_store_object_delete(f.st, f.dir, dst, "data/a.parquet") == FLOE_OK && count_object_files(&f) == 0,
          "deleting the last row removes the file");
    fixture_close(&f);
}

TEST(store_share_survives_the_source_warehouse_deletion)
{
    store_fixture_t f;
    char etag[33];
    int64_t src, dst;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "source--table-s3", true, 1);
    floe_store_create_bucket(f.st, "replica--table-s3", true, 1);
    src = bucket_id_of(&f, "source--table-s3");
    dst = bucket_id_of(&f, "replica--table-s3");
    floe_store_put_object(f.st, f.dir, "source--table-s3", "data/a.parquet", "shared", 6, NULL, 2, etag);
    floe_store_put_object(f.st, f.dir, "source--table-s3", "data/b.parquet", "not shared", 10, NULL, 2, etag);
    floe_store_object_share(f.st, f.dir, src, "data/a.parquet", dst, "data/a.parquet", 3);
    CHECK(floe_store_delete_bucket_recursive(f.st, f.dir, "source--table-s3") == FLOE_OK,
          "the source's warehouse is deleted");
    CHECK(count_object_files(&f) == 1, "only the unshared file is removed");
    CHECK(reads_as(&f, "replica--table-s3", "data/a.parquet", "shared"), "the replica still reads its data file");
    floe_store_put_object(f.st, f.dir, "replica--table-s3", "data/a.parquet", "replaced", 8, NULL, 4, etag);
    CHECK(count_object_files(&f) == 1, "overwriting the last row naming a file removes the old file");
    CHECK(floe_store_recover(f.st, f.dir) == 0 && reads_as(&f, "replica--table-s3", "data/a.parquet", "replaced"),
          "the start-up sweep keeps a file a row names");
    (void)dst;
    fixture_close(&f);
}
