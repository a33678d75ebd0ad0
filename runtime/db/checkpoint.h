/*
 * The WAL hook of every connection, which floe_state_open installs: SQLite calls it once a commit
 * is in the WAL and the write lock is released. Installing a hook replaces SQLite's automatic
 * checkpoint, so this one checkpoints the way that did (PASSIVE, once the WAL holds
 * CHECKPOINT_FRAMES frames); and it tells the connection's watcher (floe_state_watch_inserts) that
 * the commit inserted a row into the watched table, which an update hook notes during the
 * transaction and a rollback hook forgets. And it counts the commits that changed what
 * authorization reads (floe_checkpoint_watch_policies): a pre-update hook (and, for renames of a
 * table, a temporary trigger) notes the change during the transaction, and the hook bumps a process-wide generation once the commit is
 * in the WAL, so a cache filled before the commit is stale by the time the writer answers, on any
 * connection. Inside db/ only.
 */
#ifndef FLOE_DB_CHECKPOINT_H
#define FLOE_DB_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#define FLOE_CHECKPOINT_WATCHES 4 /* replication's queue and Athena's queries today */

/** One watched table of a connection. */
typedef struct floe_checkpoint_watch {
    const char *table;             /* the watched table */
    void (*on_insert)(void *arg); /* called after a commit that inserted into it */
    void *arg;
    bool is_inserted; /* the open transaction inserted into it */
} floe_checkpoint_watch_t;

/** One connection's hook state; it lives as long as the connection (in floe_state_t). */
typedef struct floe_checkpoint {
    floe_checkpoint_watch_t watches[FLOE_CHECKPOINT_WATCHES];
    size_t n_watches;
    bool is_policy_changed; /* the open transaction changed a row authorization reads */
} floe_checkpoint_t;

/** Installs the WAL hook on `db`, over `c` (zeroed: nothing watched yet). */
void floe_checkpoint_install(sqlite3 *db, floe_checkpoint_t *c);

/**
 * Installs the pre-update hook and the temporary trigger that make a commit on `db` which changes
 * a row authorization reads (table bucket and table policies, a bucket's or table's existence and
 * name, IAM's users, roles, policies, attachments, access keys and sessions) or any table bucket's
 * row (the bucket cache keeps them) bump the policy generation. On a migrated database. FLOE_OK or
 * FLOE_EFAIL (logged).
 */
int floe_checkpoint_watch_policies(sqlite3 *db, floe_checkpoint_t *c);

/** The policy generation: how many commits of this process have changed what authorization reads. */
uint64_t floe_checkpoint_policy_generation(void);

/** Makes the hook call fn(arg) after each commit on `db` that inserted a row into `table`, besides
 * the watches already made (at most FLOE_CHECKPOINT_WATCHES; one per table). */
void floe_checkpoint_watch(sqlite3 *db, floe_checkpoint_t *c, const char *table, void (*fn)(void *arg), void *arg);

#endif
