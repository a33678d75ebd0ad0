/* Tests of runtime/store/: the store API S3 Tables calls, crash recovery, and SQLite failures
 * reported as errors, never as misses. */
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "harness.h"
#include "store/store.h"

typedef struct store_fixture {
    char dir[PATH_MAX];
    char db[PATH_MAX + 16];
    floe_state_t *st;
} store_fixture_t;

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int fixture_open(store_fixture_t *f)
{
    snprintf(f->dir, sizeof(f->dir), "%s/floe-store-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(f->db, sizeof(f->db), "%s/floe.db", f->dir);
    if (floe_state_open(f->db, 0, &f->st) != 0 || floe_store_recover(f->st, f->dir) != 0)
        return -1;
    return 0;
}

static void fixture_close(store_fixture_t *f)
{
    floe_state_close(f->st);
    nftw(f->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Files under objects/ (recursively). */
static int count_object_files(const store_fixture_t *f)
{
    char root[PATH_MAX + 16], sub[PATH_MAX + 300];
    DIR *d, *s;
    struct dirent *e, *g;
    int n = 0;

    snprintf(root, sizeof(root), "%s/objects", f->dir);
    if ((d = opendir(root)) == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", root, e->d_name);
        if ((s = opendir(sub)) == NULL)
            continue;
        while ((g = readdir(s)) != NULL)
            n += g->d_name[0] != '.';
        closedir(s);
    }
    closedir(d);
    return n;
}

TEST(store_objects_round_trip)
{
    store_fixture_t f;
    char etag[33], *data = NULL;
    size_t len = 0;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    CHECK(floe_store_create_bucket(f.st, "wh--table-s3", true, 1000) == FLOE_OK, "a warehouse bucket is created");
    CHECK(floe_store_put_object(f.st, f.dir, "wh--table-s3", "metadata/00000-a.metadata.json", "{\"a\":1}", 7,
                                "application/json", 2000, etag) == FLOE_OK,
          "an object is written from memory");
    CHECK(strlen(etag) == 32 && strspn(etag, "0123456789abcdef") == 32, "the ETag is 32 lower-case hex digits");
    CHECK(floe_store_read_object(f.st, f.dir, "wh--table-s3", "metadata/00000-a.metadata.json", &data, &len) ==
                  FLOE_OK &&
              len == 7 && memcmp(data, "{\"a\":1}", 7) == 0,
          "the object reads back whole");
    free(data);
    CHECK(floe_store_head_object(f.st, "wh--table-s3", "metadata/00000-a.metadata.json", &len) == FLOE_OK &&
              len == 7,
          "head reports the size");
    CHECK(floe_store_head_object(f.st, "wh--table-s3", "missing", NULL) == FLOE_ENOTFOUND,
          "a missing key is NOT_FOUND");
    CHECK(floe_store_put_object(f.st, f.dir, "no-bucket", "k", "x", 1, NULL, 0, etag) == FLOE_ENOTFOUND,
          "writing into a missing bucket is NOT_FOUND");
    CHECK(floe_store_put_object(f.st, f.dir, "wh--table-s3", "metadata/00000-a.metadata.json", "{}", 2, NULL, 3000,
                                etag) == FLOE_OK,
          "an overwrite succeeds");
    CHECK(count_object_files(&f) == 1, "the overwritten object's old file is gone");
    fixture_close(&f);
}

TEST(store_warehouse_buckets_are_not_listed)
{
    store_fixture_t f;
    h2o_mem_pool_t pool;
    floe_store_bucket_entry_t *list;
    floe_store_bucket_t b;
    size_t n = 0;

    h2o_mem_init_pool(&pool);
    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "tbl-0001--table-s3", true, 1);
    floe_store_bucket_create(f.st, "plain-bucket", false, "", "111111111111", 1);
    CHECK(floe_store_bucket_create(f.st, "plain-bucket", false, "", "222222222222", 1) == FLOE_EEXISTS,
          "a taken name is EXISTS, whichever account asks");
    CHECK(floe_store_bucket_list(f.st, &pool, "111111111111", &list, &n) == FLOE_OK && n == 1 &&
              strcmp(list[0].name, "plain-bucket") == 0,
          "ListBuckets' view holds only the owner's plain bucket");
    CHECK(floe_store_bucket_list(f.st, &pool, "222222222222", &list, &n) == FLOE_OK && n == 0,
          "another account lists none of it");
    CHECK(floe_store_bucket_get(f.st, &pool, "tbl-0001--table-s3", &b) == FLOE_OK && b.is_warehouse,
          "the warehouse is found by name and marked as one");
    fixture_close(&f);
    h2o_mem_clear_pool(&pool);
}

TEST(store_create_bucket_joins_the_callers_transaction)
{
    store_fixture_t f;
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;

    h2o_mem_init_pool(&pool);
    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_state_begin(f.st);
    CHECK(floe_store_create_bucket(f.st, "rolled-back--table-s3", true, 1) == FLOE_OK,
          "creating inside an open transaction succeeds");
    floe_state_rollback(f.st);
    CHECK(floe_store_bucket_get(f.st, &pool, "rolled-back--table-s3", &b) == FLOE_ENOTFOUND,
          "the caller's rollback undoes the bucket: it joined, it did not commit on its own");
    floe_state_begin(f.st);
    CHECK(floe_store_put_object(f.st, f.dir, "x", "k", "", 0, NULL, 0, (char[33]){0}) == FLOE_EFAIL,
          "put_object refuses to run inside a transaction");
    floe_state_rollback(f.st);
    fixture_close(&f);
    h2o_mem_clear_pool(&pool);
}

TEST(store_delete_bucket_recursive_removes_everything)
{
    store_fixture_t f;
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_upload_t up = {0};
    floe_store_blob_t blob;
    floe_store_part_t part = {0};
    char etag[33];

    h2o_mem_init_pool(&pool);
    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "doomed--table-s3", true, 1);
    for (int i = 0; i < 3; i++) {
        char key[16];
        snprintf(key, sizeof(key), "data/%d", i);
        floe_store_put_object(f.st, f.dir, "doomed--table-s3", key, "xyz", 3, NULL, 1, etag);
    }
    floe_store_bucket_get(f.st, &pool, "doomed--table-s3", &b);
    up.key = "data/upload";
    CHECK(floe_store_upload_create(f.st, &pool, b.id, &up, 1) == FLOE_OK, "an upload starts");
    floe_store_blob_open(f.dir, &blob);
    floe_store_blob_write(&blob, "part", 4);
    floe_store_blob_finish(&blob);
    part.part_number = 1;
    memcpy(part.file_id, blob.id, sizeof(part.file_id));
    part.size = 4;
    part.etag = "00000000000000000000000000000000";
    CHECK(floe_store_part_commit(f.st, f.dir, up.id, &part) == FLOE_OK, "a part is recorded");
    CHECK(count_object_files(&f) == 4, "three objects and one part are on disk");
    CHECK(floe_store_delete_bucket_recursive(f.st, f.dir, "doomed--table-s3") == FLOE_OK,
          "the warehouse is deleted with everything in it");
    CHECK(floe_store_bucket_get(f.st, &pool, "doomed--table-s3", &b) == FLOE_ENOTFOUND, "the bucket is gone");
    CHECK(count_object_files(&f) == 0, "every object and part file is removed");
    CHECK(floe_store_delete_bucket_recursive(f.st, f.dir, "doomed--table-s3") == FLOE_OK,
          "deleting it again is fine (idempotent)");
    fixture_close(&f);
    h2o_mem_clear_pool(&pool);
}

TEST(store_recover_sweeps_what_a_crash_leaves)
{
    store_fixture_t f;
    char etag[33], path[PATH_MAX + 64], *data = NULL;
    size_t len;
    FILE *fp;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "kept", false, 1);
    floe_store_put_object(f.st, f.dir, "kept", "k", "kept bytes", 10, NULL, 1, etag);
    snprintf(path, sizeof(path), "%s/tmp/obj-unfinished", f.dir);
    fp = fopen(path, "w");
    fputs("partial", fp);
    fclose(fp);
    snprintf(path, sizeof(path), "%s/objects/ee", f.dir);
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/objects/ee/ee000000000000000000000000000000", f.dir);
    fp = fopen(path, "w");
    fputs("published, never committed", fp);
    fclose(fp);
    CHECK(count_object_files(&f) == 2, "before recovery an orphan sits beside the object");
    CHECK(floe_store_recover(f.st, f.dir) == 0, "recovery runs");
    CHECK(count_object_files(&f) == 1, "the orphan is removed");
    snprintf(path, sizeof(path), "%s/tmp/obj-unfinished", f.dir);
    CHECK(access(path, F_OK) != 0, "the unfinished temp file is removed");
    CHECK(floe_store_read_object(f.st, f.dir, "kept", "k", &data, &len) == FLOE_OK && len == 10,
          "the committed object is untouched");
    free(data);
    fixture_close(&f);
}

#define SMALL_VALUE_LIMIT 100 /* bytes: SQLITE_LIMIT_LENGTH for the failure tests */

/* A key longer than SMALL_VALUE_LIMIT, in the pool. */
static char *long_key(h2o_mem_pool_t *pool)
{
    char *key = h2o_mem_alloc_pool(pool, 2 * SMALL_VALUE_LIMIT + 1);
    memset(key, 'k', 2 * SMALL_VALUE_LIMIT);
    key[2 * SMALL_VALUE_LIMIT] = '\0';
    return key;
}

/* A bind SQLite refuses (SQLITE_TOOBIG) used to leave the parameter NULL, so the look-up found
 * nothing and S3 answered NoSuchKey or NoSuchBucket. It must be an error (500 InternalError). */
TEST(store_refused_binds_are_errors_not_misses)
{
    store_fixture_t f;
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    floe_store_upload_t up, *ups;
    floe_store_cursor_t c;
    char etag[33], *key;
    size_t n;

    h2o_mem_init_pool(&pool);
    key = long_key(&pool);
    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "plain", false, 1);
    floe_store_put_object(f.st, f.dir, "plain", "k", "x", 1, NULL, 1, etag);
    CHECK(floe_store_bucket_get(f.st, &pool, "plain", &b) == FLOE_OK, "the bucket is found");
    sqlite3_limit(floe_state_db(f.st), SQLITE_LIMIT_LENGTH, SMALL_VALUE_LIMIT);
    CHECK(floe_store_object_get(f.st, &pool, b.id, key, &obj) == FLOE_EFAIL,
          "an object look-up whose key cannot be bound is an error, not NoSuchKey");
    CHECK(floe_store_object_find(f.st, &pool, "plain", key, &b, &obj) == FLOE_EFAIL,
          "GetObject's look-up whose key cannot be bound is an error, not NoSuchBucket or NoSuchKey");
    CHECK(floe_store_bucket_get(f.st, &pool, key, &b) == FLOE_EFAIL,
          "a bucket look-up whose name cannot be bound is an error, not NoSuchBucket");
    CHECK(floe_store_head_object(f.st, "plain", key, NULL) == FLOE_EFAIL,
          "head_object passes the error on");
    CHECK(floe_store_upload_get(f.st, &pool, b.id, "k", key, &up) == FLOE_EFAIL,
          "an upload look-up whose id cannot be bound is an error, not NoSuchUpload");
    CHECK(floe_store_upload_list(f.st, &pool, b.id, NULL, "k", key, 10, &ups, &n) == FLOE_EFAIL,
          "an upload listing whose resume point cannot be read is an error, not a listing from elsewhere");
    CHECK(floe_store_cursor_open(&c, f.st, &pool, b.id, key, NULL) == FLOE_EFAIL,
          "a listing whose prefix cannot be bound is an error, not an empty listing");
    CHECK(floe_store_object_delete(f.st, f.dir, b.id, key) == FLOE_EFAIL,
          "a delete whose key cannot be bound is an error, not a silent success");
    sqlite3_limit(floe_state_db(f.st), SQLITE_LIMIT_LENGTH, 1000000000);
    fixture_close(&f);
    h2o_mem_clear_pool(&pool);
}

/* A statement that fails when stepped (here: its table is gone, so the cached statement cannot be
 * prepared again) is an error on every path. */
TEST(store_failed_statements_are_errors_not_misses)
{
    store_fixture_t f;
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    char etag[33], *data = NULL;
    size_t len;

    h2o_mem_init_pool(&pool);
    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    floe_store_create_bucket(f.st, "plain", false, 1);
    floe_store_put_object(f.st, f.dir, "plain", "k", "x", 1, NULL, 1, etag);
    CHECK(floe_store_bucket_get(f.st, &pool, "plain", &b) == FLOE_OK, "the bucket is found");
    CHECK(floe_store_object_get(f.st, &pool, b.id, "k", &obj) == FLOE_OK &&
              floe_store_object_find(f.st, &pool, "plain", "k", &b, &obj) == FLOE_OK &&
              floe_store_bucket_delete(f.st, f.dir, b.id) == FLOE_EEXISTS,
          "the statements under test are prepared and cached");
    CHECK(sqlite3_exec(floe_state_db(f.st), "DROP TABLE s3_object", NULL, NULL, NULL) == SQLITE_OK,
          "the object table is dropped behind the store's back");
    CHECK(floe_store_object_get(f.st, &pool, b.id, "k", &obj) == FLOE_EFAIL,
          "an object look-up that fails is an error, not NoSuchKey");
    CHECK(floe_store_object_find(f.st, &pool, "plain", "k", &b, &obj) == FLOE_EFAIL,
          "GetObject's look-up that fails is an error, not NoSuchBucket");
    CHECK(floe_store_read_object(f.st, f.dir, "plain", "k", &data, &len) == FLOE_EFAIL,
          "reading an object that cannot be looked up is an error");
    CHECK(floe_store_bucket_delete(f.st, f.dir, b.id) == FLOE_EFAIL,
          "deleting a bucket whose emptiness cannot be checked is an error, not a deletion");
    CHECK(floe_store_bucket_get(f.st, &pool, "plain", &b) == FLOE_OK, "and the bucket is still there");
    fixture_close(&f);
    h2o_mem_clear_pool(&pool);
}
