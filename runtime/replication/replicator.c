/*
 * The replication worker of replicator.h: its thread, the wake-up and the SQLite hooks that
 * trigger it.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "http/log.h"
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
    pthread_t thread;
    bool is_stopping; /* under kick_mutex */
};

/* The wake-up: a counter under a mutex, process-wide like the worker. */
static pthread_mutex_t kick_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t kick_cond = PTHREAD_COND_INITIALIZER;
static unsigned long kicks;

void floe_replicator_kick(void)
{
    pthread_mutex_lock(&kick_mutex);
    kicks++;
    pthread_cond_broadcast(&kick_cond);
    pthread_mutex_unlock(&kick_mutex);
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

static bool should_stop(floe_replicator_t *r, unsigned long *seen)
{
    pthread_mutex_lock(&kick_mutex);
    bool is_stopping = r->is_stopping;
    *seen = kicks;
    pthread_mutex_unlock(&kick_mutex);
    return is_stopping;
}

/* Waits for a kick newer than `seen`, the stop, or IDLE_WAIT_MS. */
static void wait_for_work(floe_replicator_t *r, unsigned long seen)
{
    struct timespec deadline;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += IDLE_WAIT_MS / 1000;
    pthread_mutex_lock(&kick_mutex);
    while (kicks == seen && !r->is_stopping) {
        if (pthread_cond_timedwait(&kick_cond, &kick_mutex, &deadline) == ETIMEDOUT)
            break;
    }
    pthread_mutex_unlock(&kick_mutex);
}

static void *run_replicator(void *arg)
{
    floe_replicator_t *r = arg;
    unsigned long seen;

    while (!should_stop(r, &seen)) {
        if (floe_replica_take_one(r->bg, r->config) <= 0)
            wait_for_work(r, seen);
    }
    return NULL;
}

floe_replicator_t *floe_replicator_start(floe_background_t *bg, const floe_config_t *config)
{
    floe_replicator_t *r = floe_xcalloc(1, sizeof(*r));

    r->bg = bg;
    r->config = config;
    if (pthread_create(&r->thread, NULL, run_replicator, r) != 0) {
        floe_log("cannot start the replication thread");
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
    pthread_mutex_lock(&kick_mutex);
    r->is_stopping = true;
    pthread_cond_broadcast(&kick_cond);
    pthread_mutex_unlock(&kick_mutex);
    pthread_join(r->thread, NULL);
    free(r);
}
