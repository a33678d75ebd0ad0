/*
 * The WAL hook of every connection, which floe_state_open installs: SQLite calls it once a commit
 * is in the WAL and the write lock is released. Installing a hook replaces SQLite's automatic
 * checkpoint, so this one checkpoints the way that did (PASSIVE, once the WAL holds
 * CHECKPOINT_FRAMES frames); and it tells the connection's watcher (floe_state_watch_inserts) that
 * the commit inserted a row into the watched table, which an update hook notes during the
 * transaction and a rollback hook forgets. Inside db/ only.
 */
#ifndef FLOE_DB_CHECKPOINT_H
#define FLOE_DB_CHECKPOINT_H

#include <stdbool.h>

#include <sqlite3.h>

/** One connection's hook state; it lives as long as the connection (in floe_state_t). */
typedef struct floe_checkpoint {
    const char *table;             /* the watched table, or NULL */
    void (*on_insert)(void *arg); /* called after a commit that inserted into it */
    void *arg;
    bool is_inserted; /* the open transaction inserted into it */
} floe_checkpoint_t;

/** Installs the WAL hook on `db`, over `c` (zeroed: nothing watched yet). */
void floe_checkpoint_install(sqlite3 *db, floe_checkpoint_t *c);

/** Makes the hook call fn(arg) after each commit on `db` that inserted a row into `table`. */
void floe_checkpoint_watch(sqlite3 *db, floe_checkpoint_t *c, const char *table, void (*fn)(void *arg), void *arg);

#endif
