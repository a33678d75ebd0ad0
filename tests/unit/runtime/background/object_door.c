/* Tests of runtime/background/object_door.c's whole-object read (the part that runs on the background
 * thread itself): a found object's bytes come back NUL-terminated, and a file that is gone or
 * shorter than its row is told apart. Included after store/store.c (its fixture). */
#include <errno.h>

#include "background/object_door.h"

#define WAREHOUSE "wh--table-s3"

/* Puts `text` as object `key` of a warehouse, then gives its found entry, read straight from the
 * store (what a door's find step gives). */
static floe_object_door_found_t put_and_find(store_fixture_t *f, const char *key, const char *text)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    floe_object_door_found_t found = {0};
    char etag[33];

    floe_store_create_bucket(f->st, WAREHOUSE, true, 1);
    floe_store_put_object(f->st, f->dir, WAREHOUSE, key, text, strlen(text), NULL, 2, etag);
    h2o_mem_init_pool(&pool);
    if (floe_store_object_find(f->st, &pool, WAREHOUSE, key, &b, &obj) == FLOE_OK && obj.key != NULL) {
        found.is_found = true;
        memcpy(found.file_id, obj.file_id, sizeof(found.file_id));
        found.size = obj.size;
    }
    h2o_mem_clear_pool(&pool);
    return found;
}

TEST(object_door_reads_a_found_object_whole)
{
    store_fixture_t f;
    floe_object_door_t door = {.who = "test"};
    floe_object_door_found_t found;
    uint8_t *data = NULL;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    door.data_dir = f.dir;
    found = put_and_find(&f, "metadata/m.json", "{\"a\":1}");
    CHECK(found.is_found && found.size == 7, "the object's row names its file and size");
    CHECK(floe_object_door_read(&door, &found, &data) == FLOE_OK && memcmp(data, "{\"a\":1}", 7) == 0 &&
              data[7] == '\0',
          "reads the bytes, followed by a NUL so text parses in place");
    free(data);
    fixture_close(&f);
}

TEST(object_door_read_tells_a_gone_file_from_a_short_one)
{
    store_fixture_t f;
    floe_object_door_t door = {.who = "test"};
    floe_object_door_found_t found, gone = {.is_found = true, .size = 3};
    uint8_t *data = NULL;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    door.data_dir = f.dir;
    found = put_and_find(&f, "data/a", "abc");
    memset(gone.file_id, 'f', FLOE_STORE_ID_LEN);
    CHECK(floe_object_door_read(&door, &gone, &data) == FLOE_EIO && errno == ENOENT,
          "a file that is gone cannot be opened (ENOENT)");
    found.size = 10;
    CHECK(floe_object_door_read(&door, &found, &data) == FLOE_EIO && errno == 0,
          "a file shorter than its row is a failed read with errno 0 (truncated)");
    fixture_close(&f);
}
