/*
 * The statement test: every SQL statement the program declares (FLOE_SQL, catalog/state.h) is
 * prepared against a freshly migrated database, so a statement that names a column or table the
 * schema lacks fails here, not on the one request that runs it.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/state.h"
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
