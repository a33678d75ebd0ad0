/*
 * The replication worker of replicator.h: its thread, and the wake-up a commit that queued work
 * rings.
 */
#include <assert.h>
#include <stdlib.h>

#include "background/loop.h"
#include "base/xalloc.h"
#include "replication/replica.h"
#include "replication/replicator.h"

#define IDLE_WAIT_MS 1000
#define QUEUE_TABLE "replication_queue"

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

/* db/ calls this after a commit that queued work, once it is in the WAL (design note 1). */
static void on_queued(void *arg)
{
    (void)arg;
    floe_replicator_kick();
}

void floe_replicator_watch(floe_state_t *st)
{
    floe_state_watch_inserts(st, QUEUE_TABLE, on_queued, NULL);
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
