/*
 * Tests of runtime/catalog/replication_queue.c and the triggers of schema migration 9: a commit of
 * a covered table is queued in its own transaction, an uncovered table's or a replica's is not,
 * and a replica is marked. Included after catalog/table.c (its fixture).
 */
#include "catalog/replication.h"
#include "catalog/replication_queue.h"

/* Moves t's pointer to metadata file n of its warehouse. */
static int commit_to(catalog_fixture_t *f, floe_table_row_t *t, int n)
{
    char *token, *location = floe_call_printf(&f->call, "s3://%s/metadata/%05d-x.metadata.json", t->warehouse_bucket, n);

    if (floe_table_swap_metadata(&f->call, t, t->version_token, location, &token) != FLOE_OK)
        return -1;
    t->version_token = token;
    t->metadata_location = location;
    return 0;
}

static size_t queue_length(catalog_fixture_t *f)
{
    sqlite3_stmt *stmt;
    size_t n = 0;

    if (sqlite3_prepare_v2(floe_state_db(f->st), "SELECT COUNT(*) FROM replication_queue", -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        n = (size_t)sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return n;
}

TEST(replication_queue_follows_commits_of_covered_tables)
{
    catalog_fixture_t f;
    floe_table_row_t t, replica;
    floe_replication_rule_t rule = {1, (char *[]){"arn:aws:s3tables:eu-west-1:222222222222:bucket/d"}};
    floe_replication_work_t work;
    char token[FLOE_UUID_LEN + 1];
    bool found;

    CHECK(catalog_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(catalog_create(&f, "t", &t) == 0 && catalog_create(&f, "r", &replica) == 0, "two tables are created");
    CHECK(commit_to(&f, &t, 1) == 0 && queue_length(&f) == 0, "an uncovered table's commit is not queued");
    CHECK(floe_replication_write(&f.call, FLOE_REPLICATION_OF_TABLE, t.id, "role", &rule, 1, token) == FLOE_OK &&
              floe_replication_queue_table(&f.call, t.id) == FLOE_OK && queue_length(&f) == 1,
          "a new configuration queues the table's current state");
    CHECK(commit_to(&f, &t, 2) == 0 && commit_to(&f, &t, 3) == 0 && queue_length(&f) == 3,
          "each commit of a covered table is queued");
    CHECK(floe_replication_queue_next(&f.call, &work, &found) == FLOE_OK && found && work.table_id == t.id &&
              strstr(work.metadata_location, "/00001-") != NULL,
          "the queue is taken in commit order");
    CHECK(floe_replication_queue_done(&f.call, work.id) == FLOE_OK && queue_length(&f) == 2, "done work leaves");
    CHECK(!floe_replication_is_replica(&f.call, t.id), "a source is no replica");
    CHECK(floe_replication_mark_replica(&f.call, replica.id, t.arn) == FLOE_OK &&
              floe_replication_is_replica(&f.call, replica.id),
          "a marked table is a replica");
    CHECK(floe_replication_write(&f.call, FLOE_REPLICATION_OF_BUCKET, f.bucket.id, "role", &rule, 1, token) == FLOE_OK &&
              commit_to(&f, &replica, 1) == 0 && queue_length(&f) == 2,
          "a replica's own commits are never queued, even in a covered bucket");
    CHECK(floe_replication_queue_bucket(&f.call, f.bucket.id) == FLOE_OK && queue_length(&f) == 3,
          "a bucket configuration queues its tables but not its replicas");
    CHECK(f.call.failure.code == FLOE_OK, "nothing failed the call");
    catalog_fixture_close(&f);
}
