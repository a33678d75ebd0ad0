/*
 * The replication worker of replicator.h: its thread, the wake-up and the SQLite hooks that
 * trigger it.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "background/loop.h"
#include "replication/replica.h"
#include "replication/replicator.h"
#include "base/xalloc.h"

#define IDLE_WAIT_MS 1000
#define QUEUE_TABLE "replication_queue"
/* SQLite's default wal_autocheckpoint (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT): installing a WAL hook
 * replaces the automatic checkpoint, so on_commit does the same checkpoint itself. */
#define WAL_AUTOCHECKPOINT_FRAMES 1000

struct floe_replicator {
    floe_background_t *bg;
    const floe_config_t *config;
    floe_loop_t loop;
};

/* The wake-up: a bell (background/loop.h), process-wide like the worker. */
static floe_loop_bell_t bell = FLOE_LOOP_BELL_INIT;

void floe_replicator_kick(void)
{
    floe_loop_kick(&bell);
}

/* Whether the open transaction of this thread's connection queued work (design note 1). A
 * connection is used by its own serving thread only, so the flag is per thread. */
static _Thread_local bool is_queue_changed;

static void on_update(void *arg, int op, const char *db, const char *table, sqlite3_int64 rowid)
{
    (void)arg;
    (void)db;
    (void)rowid;
    if (op == SQLITE_INSERT && strcmp(table, QUEUE_TABLE) == 0)
        is_queue_changed = true;
}

static void on_rollback(void *arg)
{
    (void)arg;
    is_queue_changed = false;
}

/* SQLite's WAL hook runs once a commit is in the WAL, where the next read of any connection sees
 * it; the worker woken here therefore finds the queued row, whichever connection looks. */
static int on_commit(void *arg, sqlite3 *db, const char *name, int n_frames)
{
    (void)arg;
    if (is_queue_changed) {
        is_queue_changed = false;
        floe_replicator_kick();
    }
    if (n_frames >= WAL_AUTOCHECKPOINT_FRAMES)
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return SQLITE_OK;
}

void floe_replicator_watch(floe_state_t *st)
{
    sqlite3 *db = floe_state_db(st);

    sqlite3_update_hook(db, on_update, NULL);
    sqlite3_rollback_hook(db, on_rollback, NULL);
    sqlite3_wal_hook(db, on_commit, NULL);
}

/* The loop's take: at once again after a commit replicated, else a look every IDLE_WAIT_MS. */
static int64_t take(void *arg)
{
    floe_replicator_t *r = arg;

    return floe_replica_take_one(r->bg, r->config) > 0 ? FLOE_LOOP_AGAIN : IDLE_WAIT_MS;
}

floe_replicator_t *floe_replicator_start(floe_background_t *bg, const floe_config_t *config)
{
    floe_replicator_t *r = floe_xcalloc(1, sizeof(*r));

    r->bg = bg;
    r->config = config;
    if (floe_loop_start(&r->loop, "replication", &bell, take, r) != FLOE_OK) {
        free(r);
        return NULL;
    }
    return r;
}

void floe_replicator_stop(floe_replicator_t *r)
{
    if (r == NULL)
        return;
    assert(floe_background_is_stopping(r->bg)); /* its steps fail at once: it stops between two */
    floe_loop_stop(&r->loop);
    free(r);
}
