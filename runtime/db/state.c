/*
 * SQLite connections, transactions and the statement cache (state.h).
 *
 * Design notes:
 *  1. One connection per thread, never shared: the connection is opened with SQLITE_OPEN_NOMUTEX.
 *  2. WAL journal, synchronous=NORMAL: a committed transaction survives a crash of the process
 *     (kill -9), and with --fsync-commits (synchronous=FULL) a power loss too; readers never
 *     block the writer. Writers serialize on BEGIN IMMEDIATE with a busy
 *     timeout, so a mutation either commits whole or not at all.
 *  3. foreign_keys=ON on every connection: SQLite does not remember it per database.
 *  4. With a single serving thread the one connection runs in exclusive locking mode (see
 *     floe_state_open): reads then cost no system calls for locking. The data directory lock
 *     (server.c) keeps any other process out either way.
 *  5. Statements are cached by the address of their SQL text, which is a static string next to
 *     the handler that owns it; floe_state_end_call() resets them all after a call that left a
 *     transaction open, so no read snapshot outlives the call that took it.
 *  6. Every connection's WAL hook is checkpoint.c's, installed on open: it checkpoints as SQLite's
 *     automatic checkpoint would, tells a watcher (floe_state_watch_inserts) of commits, and bumps
 *     the policy generation (floe_state_policy_generation) after a commit that changed a row
 *     authorization reads, which a pre-update hook on every connection notes.
 *  7. SQLite's memory statistics are off (floe_state_open's first call, before SQLite starts):
 *     Floe reads none and sets no heap limit, and with them on every allocation and free SQLite
 *     makes takes a process-wide mutex to count itself. Debian's library is built without
 *     lookaside memory, so even one indexed read allocates its cursors and text columns.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/xalloc.h"
#include "db/checkpoint.h"
#include "db/schema_snapshot.h"
#include "db/state.h"

#define BUSY_TIMEOUT_MS 10000
#define STMT_CACHE_SLOTS 256 /* power of two, well above the number of distinct statements */

typedef struct stmt_slot {
    const char *sql;
    sqlite3_stmt *stmt;
} stmt_slot_t;

struct floe_state {
    sqlite3 *db;
    floe_checkpoint_t checkpoint; /* its WAL hook's state (checkpoint.h) */
    stmt_slot_t cache[STMT_CACHE_SLOTS];
};

static int exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "floe: sqlite: %s: %s\n", sql, err ? err : sqlite3_errmsg(db));
        sqlite3_free(err);
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int configure(sqlite3 *db, int is_sole_connection)
{
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    if (is_sole_connection && exec(db, "PRAGMA locking_mode=EXCLUSIVE"))
        return FLOE_EFAIL;
    if (exec(db, "PRAGMA journal_mode=WAL") || exec(db, "PRAGMA synchronous=NORMAL"))
        return FLOE_EFAIL;
    return FLOE_OK;
}

static void configure_library(void)
{
    /* Refused (SQLITE_MISUSE) once SQLite has started; then it only keeps counting. */
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int floe_state_open(const char *path, int is_sole_connection, floe_state_t **out)
{
    static pthread_once_t library_once = PTHREAD_ONCE_INIT;
    floe_state_t *st = floe_xcalloc(1, sizeof(*st));
    int rc;

    pthread_once(&library_once, configure_library);
    /* A fresh data directory's database starts as the build's image of the current schema; when
     * it cannot, SQLite creates the file and floe_schema_migrate runs the schema script. */
    (void)floe_schema_image_write(path);
    rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);

    if (rc != SQLITE_OK) {
        fprintf(stderr, "floe: cannot open %s: %s\n", path, st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
        goto Error;
    }
    floe_checkpoint_install(st->db, &st->checkpoint);
    /* Foreign keys go on after the migrations, which rebuild tables (schema.c checks them). */
    if (configure(st->db, is_sole_connection) || floe_schema_migrate(st->db) || exec(st->db, "PRAGMA foreign_keys=ON") ||
        floe_checkpoint_watch_policies(st->db, &st->checkpoint))
        goto Error;
    *out = st;
    return FLOE_OK;
Error:
    floe_state_close(st);
    return FLOE_EFAIL;
}

void floe_state_close(floe_state_t *st)
{
    if (st == NULL)
        return;
    for (size_t i = 0; i < STMT_CACHE_SLOTS; i++)
        sqlite3_finalize(st->cache[i].stmt);
    sqlite3_close(st->db);
    free(st);
}

int floe_state_fsync_commits(floe_state_t *st)
{
    return exec(st->db, "PRAGMA synchronous=FULL");
}

void floe_state_watch_inserts(floe_state_t *st, const char *table, void (*fn)(void *arg), void *arg)
{
    floe_checkpoint_watch(st->db, &st->checkpoint, table, fn, arg);
}

sqlite3 *floe_state_db(floe_state_t *st)
{
    return st->db;
}

static size_t slot_of(const char *sql)
{
    uintptr_t h = (uintptr_t)sql;
    h ^= h >> 17;
    h *= UINT64_C(0x9E3779B97F4A7C15) & UINTPTR_MAX;
    return (size_t)(h >> 8) & (STMT_CACHE_SLOTS - 1);
}

sqlite3_stmt *floe_state_stmt(floe_state_t *st, const char *sql)
{
    size_t i = slot_of(sql);
    sqlite3_stmt *stmt = NULL;

    for (size_t probe = 0; probe < STMT_CACHE_SLOTS; probe++, i = (i + 1) & (STMT_CACHE_SLOTS - 1)) {
        stmt_slot_t *slot = &st->cache[i];
        if (slot->sql == sql) {
            sqlite3_reset(slot->stmt);
            sqlite3_clear_bindings(slot->stmt);
            return slot->stmt;
        }
        if (slot->sql == NULL) {
            if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK) {
                fprintf(stderr, "floe: sqlite prepare: %s: %s\n", sql, sqlite3_errmsg(st->db));
                return NULL;
            }
            slot->sql = sql;
            slot->stmt = stmt;
            return stmt;
        }
    }
    fprintf(stderr, "floe: statement cache is full\n");
    abort();
}

int floe_state_bind_va(sqlite3_stmt *stmt, const char *types, va_list *ap)
{
    int rc = SQLITE_OK;

    assert(strlen(types) == (size_t)sqlite3_bind_parameter_count(stmt));
    for (int i = 0; types[i] != '\0' && rc == SQLITE_OK; i++) {
        switch (types[i]) {
        case 't': rc = sqlite3_bind_text(stmt, i + 1, va_arg(*ap, const char *), -1, SQLITE_STATIC); break;
        case 'T': rc = sqlite3_bind_text(stmt, i + 1, va_arg(*ap, const char *), -1, SQLITE_TRANSIENT); break;
        case 'i': rc = sqlite3_bind_int64(stmt, i + 1, va_arg(*ap, int64_t)); break;
        case 'n': rc = sqlite3_bind_int(stmt, i + 1, va_arg(*ap, int)); break;
        default: assert(!"floe_state_bind_va: unknown type letter"); rc = SQLITE_MISUSE;
        }
    }
    return rc;
}

int floe_state_begin(floe_state_t *st)
{
    return exec(st->db, "BEGIN IMMEDIATE");
}

int floe_state_commit(floe_state_t *st)
{
    if (exec(st->db, "COMMIT") == 0)
        return FLOE_OK;
    floe_state_rollback(st);
    return FLOE_EFAIL;
}

void floe_state_rollback(floe_state_t *st)
{
    if (!sqlite3_get_autocommit(st->db))
        exec(st->db, "ROLLBACK");
}

int floe_state_end_call(floe_state_t *st)
{
    sqlite3_stmt *stmt = NULL;

    /* Most calls end with every statement reset (a lookup resets its own): then no statement
     * holds a snapshot, and walking the connection's statements would cost more than the lookup. */
    if (sqlite3_txn_state(st->db, NULL) == SQLITE_TXN_NONE)
        return 0;
    while ((stmt = sqlite3_next_stmt(st->db, stmt)) != NULL) {
        if (sqlite3_stmt_busy(stmt))
            sqlite3_reset(stmt);
    }
    if (!sqlite3_get_autocommit(st->db)) {
        floe_state_rollback(st);
        return 1;
    }
    return 0;
}

uint64_t floe_state_policy_generation(void)
{
    return floe_checkpoint_policy_generation();
}

bool floe_state_is_reading(floe_state_t *st)
{
    return sqlite3_txn_state(st->db, NULL) != SQLITE_TXN_NONE;
}

const char *floe_state_errmsg(floe_state_t *st)
{
    return sqlite3_errmsg(st->db);
}

/* The linker gathers the FLOE_SQL entries into one array between these two symbols. */
extern const char *const __start_floe_sql[] __attribute__((weak));
extern const char *const __stop_floe_sql[] __attribute__((weak));

void floe_sql_each(void (*fn)(const char *sql, void *arg), void *arg)
{
    for (const char *const *p = __start_floe_sql; p != NULL && p < __stop_floe_sql; p++)
        fn(*p, arg);
}
