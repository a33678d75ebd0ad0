/*
 * The peer of bench/tables: a plain SQLite transaction loop doing what one table commit does to
 * the database (a compare-and-swap UPDATE of one row), on a database file in a directory the
 * caller names (so on the same disk as Floe's), with Floe's pragmas. Prints commits/s.
 *
 *   bench_sqlite_commit_loop DIR SECONDS [full]      "full": synchronous=FULL, as --fsync-commits
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void must(int rc, sqlite3 *db, const char *what)
{
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    char path[4096], token[32], next[32];
    sqlite3 *db;
    sqlite3_stmt *update;
    double seconds, start;
    long n = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s DIR SECONDS [full]\n", argv[0]);
        return 2;
    }
    seconds = atof(argv[2]);
    snprintf(path, sizeof(path), "%s/commit-loop.db", argv[1]);
    unlink(path);
    must(sqlite3_open(path, &db), db, "open");
    must(sqlite3_exec(db, "PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON", NULL,
                      NULL, NULL), db, "pragmas");
    must(sqlite3_exec(db, argc > 3 && strcmp(argv[3], "full") == 0 ? "PRAGMA synchronous=FULL"
                                                                   : "PRAGMA synchronous=NORMAL",
                      NULL, NULL, NULL), db, "synchronous");
    must(sqlite3_exec(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, token TEXT NOT NULL, location TEXT);"
                          "INSERT INTO t VALUES (1, 't0', NULL)", NULL, NULL, NULL), db, "schema");
    must(sqlite3_prepare_v2(db, "UPDATE t SET token = ?1, location = ?2 WHERE id = 1 AND token = ?3", -1, &update,
                            NULL), db, "prepare");
    strcpy(token, "t0");
    for (start = now_s(); now_s() - start < seconds; n++) {
        snprintf(next, sizeof(next), "t%ld", n + 1);
        must(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "begin");
        sqlite3_bind_text(update, 1, next, -1, SQLITE_STATIC);
        sqlite3_bind_text(update, 2, "s3://warehouse/metadata/00001.metadata.json", -1, SQLITE_STATIC);
        sqlite3_bind_text(update, 3, token, -1, SQLITE_STATIC);
        must(sqlite3_step(update), db, "update");
        sqlite3_reset(update);
        must(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
        strcpy(token, next);
    }
    printf("%.0f\n", (double)n / (now_s() - start));
    sqlite3_finalize(update);
    sqlite3_close(db);
    unlink(path);
    return 0;
}
