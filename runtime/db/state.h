/*
 * Floe's durable state: one SQLite database in the data directory, one connection per thread.
 * This module (the db/ wing, below catalog/ and store/, which both use it) owns connections, the
 * schema migrations (schema.c), transactions, the prepared-statement cache and the WAL's
 * checkpoints (checkpoint.c); sql.h runs statements on it. The SQL of each resource lives in the
 * file that owns its table (catalog/, store/, cloudformation/stack_store.c), declared with
 * FLOE_SQL. Only db/ includes <sqlite3.h>: the connection and its statements are opaque elsewhere.
 */
#ifndef FLOE_DB_STATE_H
#define FLOE_DB_STATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/failure.h"

typedef struct floe_state floe_state_t;

/* SQLite's connection and prepared statement, named without <sqlite3.h>. */
struct sqlite3;
/** A statement of the cache (SQLite's sqlite3_stmt), which callers step and read with db/sql.h. */
typedef struct sqlite3_stmt floe_db_stmt_t;

#define FLOE_STATE_FILE "floe.db"

/**
 * Declares one SQL statement at file scope: `FLOE_SQL(sql_get_thing, "SELECT ...");` defines the
 * static string `sql_get_thing` (for floe_state_stmt) and registers it in the `floe_sql` section,
 * so floe_sql_each can hand every statement of the program to the statement test, which prepares
 * each against a freshly migrated database. Every statement Floe runs is declared this way.
 */
#define FLOE_SQL(name, text)                                                                                 \
    static const char name[] = text;                                                                           \
    static const char *const name##_registered __attribute__((used, section("floe_sql"))) = name

/** Calls fn(sql, arg) for every statement declared with FLOE_SQL in the linked program. */
void floe_sql_each(void (*fn)(const char *sql, void *arg), void *arg);

/**
 * Opens (creating if needed) the database at `path` and migrates it to the current schema.
 * With `is_sole_connection` the connection takes SQLite's exclusive locking mode: it keeps its file
 * lock and WAL index for its whole life instead of taking and dropping them (four fcntl(2) calls)
 * around every statement. Only valid when no other connection will ever open the database while
 * this one lives (a single serving thread). Returns FLOE_OK and sets *out, which the caller releases with
 * floe_state_close; FLOE_EFAIL on error (logged).
 */
int floe_state_open(const char *path, int is_sole_connection, floe_state_t **out /* OUT */);

/**
 * Calls fn(arg) on this connection's thread after each commit on `st` whose transaction inserted a
 * row into `table` (a string that outlives the connection), once the commit is in the WAL, where
 * the next read of any connection sees it (checkpoint.h). A connection has a watch per table
 * (replication's queue, Athena's queries); watching a table again replaces its watch.
 */
void floe_state_watch_inserts(floe_state_t *st, const char *table, void (*fn)(void *arg), void *arg);

/** Makes every later commit on this connection wait for fsync (synchronous=FULL). FLOE_OK or FLOE_EFAIL. */
int floe_state_fsync_commits(floe_state_t *st);
void floe_state_close(floe_state_t *st);

/** The connection, for db/'s own sqlite3_* calls (and unit tests that break a database on purpose). */
struct sqlite3 *floe_state_db(floe_state_t *st);

/**
 * A prepared statement for `sql`, reset and with bindings cleared. `sql` must be a string with
 * static storage: the cache is keyed by its address. The statement stays owned by the cache.
 * Returns NULL if it does not compile (logged).
 */
floe_db_stmt_t *floe_state_stmt(floe_state_t *st, const char *sql);

/**
 * Binds parameters 1..n of `stmt` from `ap`, one letter of `types` each: 't' text (const char *,
 * NULL binds NULL, SQLITE_STATIC: it must outlive the statement's use), 'T' text copied by
 * SQLite, 'i' int64_t, 'n' int. Returns SQLITE_OK or the first bind's error code. The one bind
 * loop behind db/sql.h.
 */
int floe_state_bind_va(floe_db_stmt_t *stmt, const char *types, va_list *ap);

/** BEGIN IMMEDIATE: takes the write lock now, waiting up to the busy timeout. FLOE_OK or FLOE_EFAIL. */
int floe_state_begin(floe_state_t *st);
/** COMMIT. FLOE_OK or FLOE_EFAIL (the transaction is then rolled back). */
int floe_state_commit(floe_state_t *st);
/** ROLLBACK if a transaction is open. */
void floe_state_rollback(floe_state_t *st);

/**
 * Ends a call: when the connection still holds a transaction, resets every statement (releasing
 * read snapshots) and rolls back a transaction a handler left open. Returns 1 if it had to roll
 * back (a handler bug), else 0.
 */
int floe_state_end_call(floe_state_t *st);

/**
 * A number that grows after every commit, on any connection of the process, that changed a row
 * authorization reads (a table bucket's or table's policy, a bucket or table created, deleted or
 * renamed, IAM's users, roles, policies, attachments, access keys and sessions) or that the bucket
 * cache keeps (any table bucket's row). It grows once the commit is in the WAL and before the
 * writer answers, so a cache of those rows that remembers the generation it read them at (read
 * before the read's snapshot is taken) is stale exactly when the generation has moved.
 */
uint64_t floe_state_policy_generation(void);

/** True when `st` holds a transaction (a read snapshot or a write) open. */
bool floe_state_is_reading(floe_state_t *st);

/** The last SQLite error message of this connection. */
const char *floe_state_errmsg(floe_state_t *st);

/** Applies every migration the database lacks (schema.c). FLOE_OK or FLOE_EFAIL. */
int floe_schema_migrate(struct sqlite3 *db);
/** The schema version this build writes. */
int floe_schema_version(void);

#endif
