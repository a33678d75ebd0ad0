/*
 * The replication worker: one thread, off the event loop, that drains the replication queue
 * (catalog/replication_queue.h) in order, one source commit at a time (replica.h does each). It is
 * started and stopped with the server, on the first worker, and reaches the state only through
 * that worker's background door (background.h).
 *
 * Design notes:
 *  1. Wake-up: floe_replicator_watch asks db/ to tell it of every commit, on each serving thread's
 *     connection, that added a row to replication_queue (the triggers of migration 9 add them in
 *     the commit's own transaction). db/ tells it from the connection's WAL hook, which SQLite
 *     calls once the commit is in the WAL and its lock released (db/checkpoint.h), and the worker
 *     is kicked. So the worker's first look, a step on the first serving thread's own
 *     connection, always sees the commit, whichever thread made it: no polling on the way from a
 *     commit to its replication. The worker also looks every IDLE_WAIT_MS, for work left by a
 *     restart.
 *  2. Restart: the queue is durable and a row leaves only when its commit is replicated, so work
 *     interrupted by a stop or a crash is taken again at the next start (replica.h design note 4).
 */
#ifndef FLOE_REPLICATION_REPLICATOR_H
#define FLOE_REPLICATION_REPLICATOR_H

#include "background/background.h"
#include "base/config.h"
#include "db/state.h"

typedef struct floe_replicator floe_replicator_t;

/** Starts the worker's thread over the door `bg` (the first worker's). Returns the worker, which
 * floe_replicator_stop releases, or NULL (logged) when the thread cannot start. One per process. */
floe_replicator_t *floe_replicator_start(floe_background_t *bg, const floe_config_t *config);

/** Stops the worker: call on the serving thread after floe_background_stop (its steps then fail at
 * once, so it stops between two); joins its thread and frees it. NULL is ignored. */
void floe_replicator_stop(floe_replicator_t *r);

/** Wakes the worker: work was queued. */
void floe_replicator_kick(void);

/** Makes commits on connection `st` wake the worker (design note 1). */
void floe_replicator_watch(floe_state_t *st);

#endif
