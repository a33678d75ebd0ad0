/*
 * The statement test: every SQL statement the program declares (FLOE_SQL, db/state.h) is
 * prepared against a freshly migrated database, so a statement that names a column or table the
 * schema lacks fails here, not on the one request that runs it.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/schema_snapshot.h"
#include "db/state.h"
#include "harness.h"

typedef struct sql_check {
    sqlite3 *db;
    int count;
} sql_check_t;

static void prepare_one(const char *sql, void *arg)
{
    sql_check_t *c = arg;
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &stmt, NULL);
    if (rc != SQLITE_OK)
        fprintf(stderr, "cannot prepare: %s\n  %s\n", sqlite3_errmsg(c->db), sql);
    CHECK(rc == SQLITE_OK, "every declared statement compiles against the migrated schema");
    sqlite3_finalize(stmt);
    c->count++;
}

TEST(sql_every_statement_prepares_against_a_fresh_schema)
{
    char dir[] = "/tmp/floe-sql-test-XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL, "a scratch directory can be made");
    snprintf(path, sizeof(path), "%s/floe.db", dir);
    floe_state_t *st = NULL;
    CHECK(floe_state_open(path, 0, &st) == 0, "a fresh database opens and migrates");
    if (st == NULL)
        return;
    sql_check_t c = {floe_state_db(st), 0};
    floe_sql_each(prepare_one, &c);
    /* The registry is gathered by the linker; an empty one would make this test vacuous. */
    CHECK(c.count >= 90, "the registry holds the program's statements, not an empty section");
    floe_state_close(st);
    unlink(path);
    char wal[80];
    snprintf(wal, sizeof(wal), "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof(wal), "%s-shm", path);
    unlink(wal);
    rmdir(dir);
}

/* The schema of db as one string: each object's type, name and SQL, in name order. Caller frees. */
static char *schema_of(sqlite3 *db)
{
    sqlite3_stmt *stmt = NULL;
    size_t len = 0;
    char *text = NULL;
    FILE *out = open_memstream(&text, &len);

    sqlite3_prepare_v2(db,
                       "SELECT type, name, sql FROM sqlite_master WHERE name <> 'schema_version' ORDER BY type, name",
                       -1, &stmt, NULL);
    while (sqlite3_step(stmt) == SQLITE_ROW)
        fprintf(out, "%s %s: %s\n", sqlite3_column_text(stmt, 0), sqlite3_column_text(stmt, 1),
                sqlite3_column_text(stmt, 2) ? (const char *)sqlite3_column_text(stmt, 2) : "");
    sqlite3_finalize(stmt);
    fclose(out);
    return text;
}

TEST(schema_fresh_database_matches_every_migration_replayed)
{
    sqlite3 *fresh = NULL, *replayed = NULL;
    CHECK(sqlite3_open(":memory:", &fresh) == SQLITE_OK && floe_schema_migrate(fresh) == 0,
          "a fresh database is created from the schema snapshot");
    CHECK(sqlite3_open(":memory:", &replayed) == SQLITE_OK && floe_schema_replay(replayed) == 0,
          "every migration replays on an empty database");
    char *a = schema_of(fresh), *b = schema_of(replayed);
    CHECK(strlen(a) > 1000, "the fresh database holds the schema's tables");
    if (strcmp(a, b) != 0)
        fprintf(stderr, "snapshot:\n%s\nreplayed:\n%s\n", a, b);
    CHECK(strcmp(a, b) == 0, "a fresh database has exactly the schema an upgrade through every migration gives");
    free(a);
    free(b);
    sqlite3_close(fresh);
    sqlite3_close(replayed);
}
