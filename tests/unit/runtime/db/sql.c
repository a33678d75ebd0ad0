/*
 * Tests of runtime/db/sql.c and runtime/call/call_sql.c, the one checked-statement layer: each kind of
 * constraint (UNIQUE or PRIMARY KEY, NOT NULL, FOREIGN KEY, CHECK) comes back as its own code when
 * the caller expects it, and any kind it does not expect is a failure inside: logged, and on a call
 * an InternalServerErrorException (a 500), never the modeled error of another kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <h2o/memory.h>
#include <sqlite3.h>

#include "call/call_sql.h"
#include "db/sql.h"
#include "harness.h"

/* Statements on a scratch table of this test only, so not FLOE_SQL (the statement test prepares
 * every registered statement against the real schema). */
static const char db_sql_scratch[] =
    "CREATE TABLE scratch_parent (id INTEGER PRIMARY KEY);"
    "CREATE TABLE scratch (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n >= 0),"
    " parent INTEGER REFERENCES scratch_parent (id));"
    "INSERT INTO scratch_parent (id) VALUES (1);"
    "INSERT INTO scratch (id, name, n, parent) VALUES (1, 'taken', 0, 1);";
static const char db_sql_insert[] = "INSERT INTO scratch (name, n, parent) VALUES (?1, ?2, ?3)";

typedef struct db_sql_fixture {
    char dir[64];
    char path[96];
    floe_state_t *st;
} db_sql_fixture_t;

static int db_sql_open(db_sql_fixture_t *f)
{
    snprintf(f->dir, sizeof(f->dir), "/tmp/floe-db-sql-XXXXXX");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(f->path, sizeof(f->path), "%s/floe.db", f->dir);
    if (floe_state_open(f->path, 0, &f->st) != FLOE_OK)
        return -1;
    return sqlite3_exec(floe_state_db(f->st), db_sql_scratch, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void db_sql_close(db_sql_fixture_t *f)
{
    char file[128];

    floe_state_close(f->st);
    unlink(f->path);
    snprintf(file, sizeof(file), "%s-wal", f->path);
    unlink(file);
    snprintf(file, sizeof(file), "%s-shm", f->path);
    unlink(file);
    rmdir(f->dir);
}

/* Inserts (name, n, parent) into the scratch table expecting `expect`; floe_db_step's answer. */
static int db_sql_insert_row(db_sql_fixture_t *f, const char *name, int n, int parent, unsigned expect)
{
    sqlite3_stmt *stmt = floe_db_bind(f->st, db_sql_insert, "tnn", name, n, parent);
    int rc;

    if (stmt == NULL)
        return 1000; /* not a code floe_db_step answers */
    rc = floe_db_step(f->st, stmt, expect);
    sqlite3_reset(stmt);
    return rc;
}

TEST(db_sql_each_constraint_kind_is_reported_as_itself)
{
    db_sql_fixture_t f;
    const unsigned all = FLOE_DB_UNIQUE | FLOE_DB_NOTNULL | FLOE_DB_FOREIGNKEY | FLOE_DB_CHECK;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    CHECK(db_sql_insert_row(&f, "taken", 0, 1, all) == FLOE_EUNIQUE, "a duplicate name is a UNIQUE refusal");
    CHECK(db_sql_insert_row(&f, NULL, 0, 1, all) == FLOE_ENOTNULL, "a missing name is a NOT NULL refusal");
    CHECK(db_sql_insert_row(&f, "orphan", 0, 2, all) == FLOE_EFOREIGNKEY,
          "a parent that does not exist is a FOREIGN KEY refusal");
    CHECK(db_sql_insert_row(&f, "negative", -1, 1, all) == FLOE_ECHECK, "a negative count is a CHECK refusal");
    CHECK(db_sql_insert_row(&f, "fine", 1, 1, all) == SQLITE_DONE, "a row that breaks nothing is written");
    db_sql_close(&f);
}

TEST(db_sql_a_constraint_kind_not_expected_is_a_failure)
{
    db_sql_fixture_t f;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    CHECK(db_sql_insert_row(&f, NULL, 0, 1, FLOE_DB_UNIQUE) == FLOE_EFAIL,
          "a NOT NULL refusal where only UNIQUE is expected is a failure, not a taken name");
    CHECK(db_sql_insert_row(&f, "taken", 0, 1, FLOE_DB_FOREIGNKEY) == FLOE_EFAIL,
          "a UNIQUE refusal where only FOREIGN KEY is expected is a failure, not a reference");
    CHECK(db_sql_insert_row(&f, "orphan", 0, 2, FLOE_DB_NONE) == FLOE_EFAIL,
          "a FOREIGN KEY refusal where none is expected is a failure");
    CHECK(db_sql_insert_row(&f, "negative", -1, 1, FLOE_DB_UNIQUE | FLOE_DB_NOTNULL) == FLOE_EFAIL,
          "a CHECK refusal where other kinds are expected is a failure");
    db_sql_close(&f);
}

TEST(db_sql_constraint_kind_of_extended_codes)
{
    CHECK(floe_db_constraint_kind(SQLITE_CONSTRAINT_PRIMARYKEY) == FLOE_EUNIQUE, "a PRIMARY KEY clash is UNIQUE");
    CHECK(floe_db_constraint_kind(SQLITE_CONSTRAINT_TRIGGER) == FLOE_EFAIL,
          "a trigger's refusal is none of the four kinds");
    CHECK(floe_db_constraint_kind(SQLITE_CONSTRAINT) == FLOE_EFAIL,
          "a bare constraint code, its kind unknown, is never folded into one kind");
    CHECK(floe_db_constraint_kind(SQLITE_IOERR) == FLOE_EFAIL, "a disk error is no constraint");
}

TEST(call_sql_unexpected_constraint_fails_the_call_with_a_500)
{
    db_sql_fixture_t f;
    h2o_mem_pool_t pool;
    floe_config_t config = {0};
    floe_call_t call;
    sqlite3_stmt *stmt;

    CHECK(db_sql_open(&f) == 0, "a fresh database with a scratch table opens");
    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, f.st, &config);
    stmt = floe_sql_bind(&call, db_sql_insert, "tnn", "taken", 0, 1);
    CHECK(stmt != NULL && floe_sql_step(&call, stmt, FLOE_DB_UNIQUE) == FLOE_EUNIQUE,
          "an expected UNIQUE refusal comes back as such");
    CHECK(call.failure.code == FLOE_OK, "an expected refusal leaves the call for the caller to fail as it means");
    sqlite3_reset(stmt);
    stmt = floe_sql_bind(&call, db_sql_insert, "tnn", "orphan", 0, 2);
    CHECK(stmt != NULL && floe_sql_step(&call, stmt, FLOE_DB_UNIQUE) == FLOE_EFAIL,
          "a FOREIGN KEY refusal where a UNIQUE one is expected is a failure");
    CHECK(call.failure.code == FLOE_EFAIL,
          "the call fails with InternalServerErrorException, not a modeled conflict");
    sqlite3_reset(stmt);
    h2o_mem_clear_pool(&pool);
    db_sql_close(&f);
}
