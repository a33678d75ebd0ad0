/*
 * The statement test: every SQL statement the program declares (FLOE_SQL, db/state.h) is
 * prepared against a freshly migrated database, so a statement that names a column or table the
 * schema lacks fails here, not on the one request that runs it. Also: the schema script and the
 * database image a fresh start uses instead of the migrations are the schema they end with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

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

/* The version row of db, or -1. */
static int version_of(sqlite3 *db)
{
    sqlite3_stmt *stmt = NULL;
    int version = -1;

    if (sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return version;
}

/* A fresh data directory's database file is the build's image (schema_image.c), not the result of
 * running the schema script: it must be exactly the database the script makes, whole, current and
 * in WAL mode, and it must never replace a file that is already there. */
TEST(schema_image_is_the_database_the_snapshot_makes)
{
    char dir[] = "/tmp/floe-image-test-XXXXXX", path[64];
    sqlite3 *image = NULL, *scripted = NULL, *replayed = NULL;
    sqlite3_stmt *stmt = NULL;

    CHECK(mkdtemp(dir) != NULL, "a scratch directory can be made");
    snprintf(path, sizeof(path), "%s/floe.db", dir);
    CHECK(floe_schema_image_write(path) == FLOE_OK, "the image is written where no database is");
    CHECK(floe_schema_image_write(path) == FLOE_EFAIL, "the image never replaces an existing database file");
    CHECK(sqlite3_open_v2(path, &image, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK, "the image opens");
    CHECK(sqlite3_prepare_v2(image, "PRAGMA integrity_check", -1, &stmt, NULL) == SQLITE_OK &&
              sqlite3_step(stmt) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(stmt, 0), "ok") == 0,
          "the image passes SQLite's integrity check");
    sqlite3_finalize(stmt);
    CHECK(sqlite3_prepare_v2(image, "PRAGMA journal_mode", -1, &stmt, NULL) == SQLITE_OK &&
              sqlite3_step(stmt) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(stmt, 0), "wal") == 0,
          "the image is in WAL mode, as every Floe database");
    sqlite3_finalize(stmt);
    CHECK(version_of(image) == floe_schema_version(), "the image holds the current schema version");
    CHECK(floe_schema_migrate(image) == 0 && version_of(image) == floe_schema_version(),
          "migrating the image finds nothing to do");

    CHECK(sqlite3_open(":memory:", &scripted) == SQLITE_OK && floe_schema_migrate(scripted) == 0,
          "a database is created from the schema script");
    CHECK(sqlite3_open(":memory:", &replayed) == SQLITE_OK && floe_schema_replay(replayed) == 0,
          "every migration replays on an empty database");
    char *a = schema_of(image), *b = schema_of(scripted), *c = schema_of(replayed);
    CHECK(strlen(a) > 1000, "the image holds the schema's tables");
    if (strcmp(a, b) != 0 || strcmp(a, c) != 0)
        fprintf(stderr, "image:\n%s\nscript:\n%s\nreplayed:\n%s\n", a, b, c);
    CHECK(strcmp(a, b) == 0, "the image has exactly the schema the script makes");
    CHECK(strcmp(a, c) == 0, "the image has exactly the schema an upgrade through every migration gives");
    free(a);
    free(b);
    free(c);
    sqlite3_close(image);
    sqlite3_close(scripted);
    sqlite3_close(replayed);
    char side[80];
    unlink(path);
    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
    rmdir(dir);
}

/* Reads the whole file at path into a malloc'ed buffer (*n bytes); NULL when it cannot. */
static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long size;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)size)) != NULL && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    *n = buf ? (size_t)size : 0;
    fclose(f);
    return buf;
}

/* Someone resets a data directory by removing floe.db alone and leaves its WAL, which holds a
 * commit. SQLite discards a WAL beside an empty database; written over the image it would bring
 * the old database's pages into the new one. The image steps aside and the new database is
 * current and clean. */
TEST(schema_image_is_not_written_under_a_stale_wal)
{
    char dir[] = "/tmp/floe-image-test-XXXXXX", path[64], wal[80];
    sqlite3 *old = NULL;
    floe_state_t *st = NULL;
    unsigned char *frames = NULL;
    size_t n = 0;
    FILE *f;

    CHECK(mkdtemp(dir) != NULL, "a scratch directory can be made");
    snprintf(path, sizeof(path), "%s/floe.db", dir);
    snprintf(wal, sizeof(wal), "%s-wal", path);
    CHECK(sqlite3_open(path, &old) == SQLITE_OK &&
              sqlite3_exec(old,
                           "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                           "CREATE TABLE stale (x); INSERT INTO stale VALUES (1)",
                           NULL, NULL, NULL) == SQLITE_OK,
          "an old database commits into its WAL");
    frames = read_all(wal, &n);
    CHECK(frames != NULL && n > 32, "the old database's WAL holds its commit");
    sqlite3_close(old);
    unlink(path);
    f = fopen(wal, "wb");
    CHECK(f != NULL && frames != NULL && fwrite(frames, 1, n, f) == n, "the WAL is left behind alone");
    if (f)
        fclose(f);
    free(frames);

    CHECK(floe_schema_image_write(path) == FLOE_EFAIL, "the image is not written beside a stale WAL");
    CHECK(floe_state_open(path, 1, &st) == 0, "the data directory still opens");
    if (st != NULL) {
        sqlite3 *db = floe_state_db(st);
        sqlite3_stmt *stmt = NULL;
        CHECK(version_of(db) == floe_schema_version(), "the new database holds the current schema");
        CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE name = 'stale'", -1, &stmt, NULL) ==
                      SQLITE_OK &&
                  sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0) == 0,
              "nothing of the old database reaches the new one");
        sqlite3_finalize(stmt);
        floe_state_close(st);
    }
    unlink(path);
    unlink(wal);
    snprintf(wal, sizeof(wal), "%s-shm", path);
    unlink(wal);
    rmdir(dir);
}
