/*
 * Tests of runtime/db/checkpoint.c, the WAL hook every connection has: a watcher hears of each
 * commit that inserted into its table, and of nothing else; and the WAL is still checkpointed as it
 * grows, as SQLite's automatic checkpoint (which the hook replaces) did. Included after db/sql.c
 * (its scratch-table fixture).
 */
static const char db_checkpoint_insert_parent[] = "INSERT INTO scratch_parent (id) VALUES (?1)";

static void db_checkpoint_count(void *arg)
{
    ++*(int *)arg;
}

/* Inserts parent row `id` (a table nobody watches) in its own transaction. */
static int db_checkpoint_insert_unwatched(db_sql_fixture_t *f, int id)
{
    return floe_db_exec(f->st, db_checkpoint_insert_parent, "n", id);
}

TEST(db_checkpoint_a_commit_that_inserted_into_the_watched_table_tells_the_watcher)
{
    db_sql_fixture_t f;
    int heard = 0;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    floe_state_watch_inserts(f.st, "scratch", db_checkpoint_count, &heard);
    CHECK(db_sql_insert_row(&f, "first", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE && heard == 1,
          "a commit that inserted into the watched table is heard once");
    CHECK(db_checkpoint_insert_unwatched(&f, 2) == FLOE_OK && heard == 1,
          "a commit that inserted only elsewhere is not heard");
    CHECK(floe_state_begin(f.st) == FLOE_OK && db_sql_insert_row(&f, "undone", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE,
          "an insert runs in an open transaction");
    floe_state_rollback(f.st);
    CHECK(heard == 1, "a rolled-back insert is not heard");
    CHECK(db_checkpoint_insert_unwatched(&f, 3) == FLOE_OK && heard == 1,
          "the next commit does not carry the rolled-back insert");
    CHECK(floe_state_begin(f.st) == FLOE_OK && db_sql_insert_row(&f, "a", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE &&
              db_sql_insert_row(&f, "b", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE && floe_state_commit(f.st) == FLOE_OK,
          "two inserts commit in one transaction");
    CHECK(heard == 2, "a commit of two inserts is heard once");
    db_sql_close(&f);
}

TEST(db_checkpoint_each_watched_table_has_its_own_watcher)
{
    db_sql_fixture_t f;
    int scratch = 0, parents = 0;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    /* replication's queue and Athena's queries are watched on every serving connection */
    floe_state_watch_inserts(f.st, "scratch", db_checkpoint_count, &scratch);
    floe_state_watch_inserts(f.st, "scratch_parent", db_checkpoint_count, &parents);
    CHECK(db_sql_insert_row(&f, "first", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE && scratch == 1 && parents == 0,
          "the first watcher still hears its table after a second table is watched");
    CHECK(db_checkpoint_insert_unwatched(&f, 2) == FLOE_OK && scratch == 1 && parents == 1,
          "the second watcher hears its own table, and the first does not");
    floe_state_watch_inserts(f.st, "scratch", db_checkpoint_count, &parents);
    CHECK(db_sql_insert_row(&f, "second", 0, 1, FLOE_DB_NONE) == FLOE_DB_DONE && scratch == 1 && parents == 2,
          "watching a table again replaces its watcher");
    db_sql_close(&f);
}

TEST(db_checkpoint_the_wal_is_checkpointed_as_it_grows_under_a_watch)
{
    enum { COMMITS = 2500 }; /* well past SQLite's automatic checkpoint at 1000 frames */
    db_sql_fixture_t f;
    int heard = 0, frames = -1, checkpointed = -1, failed = 0;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    floe_state_watch_inserts(f.st, "scratch", db_checkpoint_count, &heard);
    for (int id = 2; id < COMMITS + 2; id++)
        failed += db_checkpoint_insert_unwatched(&f, id) != FLOE_OK;
    CHECK(failed == 0, "every commit is written");
    CHECK(sqlite3_wal_checkpoint_v2(floe_state_db(f.st), NULL, SQLITE_CHECKPOINT_PASSIVE, &frames, &checkpointed) ==
              SQLITE_OK,
          "the test can read the WAL's size");
    CHECK(frames >= 0 && frames < COMMITS, "the WAL was checkpointed and started over: it holds fewer frames than the "
                                           "commits written, each at least one");
    db_sql_close(&f);
}
