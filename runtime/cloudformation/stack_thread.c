/*
 * The stack engine's thread of stack_thread.h: a background loop (background/loop.h) that takes
 * the queued stack work one piece at a time (stack_run_steps.c) and runs it: a change set's
 * changes (stack_changes.c) or a stack's phases (stack_run.c).
 *
 * Design notes:
 *  1. The loop waits on a process-wide bell (one engine per process): the API kicks it after
 *     queueing work; the thread also looks every IDLE_WAIT_MS, so work queued by another thread's
 *     connection or left by a restart is never stranded.
 */
#include <assert.h>
#include <stdlib.h>

#include "background/loop.h"
#include "base/xalloc.h"
#include "cloudformation/stack_run.h"
#include "cloudformation/stack_thread.h"

#define IDLE_WAIT_MS 1000

struct floe_stack_engine {
    floe_background_t *bg;
    floe_loop_t loop;
};

/* Design note 1. */
static floe_loop_bell_t bell = FLOE_LOOP_BELL_INIT;

void floe_stack_engine_kick(void)
{
    floe_loop_kick(&bell);
}

/* What a piece of work is: a change set to compute, or a stack to carry to a stable state. */
static void run_work(floe_run_t *run)
{
    if (run->work.change_set_row_id != 0)
        floe_run_change_set(run);
    else
        floe_run_stack(run);
}

/* The loop's take: at once again after work, else a look every IDLE_WAIT_MS. */
static int64_t take(void *arg)
{
    floe_stack_engine_t *e = arg;

    return floe_run_take_one(e->bg, run_work) > 0 ? FLOE_LOOP_AGAIN : IDLE_WAIT_MS;
}

floe_stack_engine_t *floe_stack_engine_start(floe_background_t *bg)
{
    floe_stack_engine_t *e = floe_xcalloc(1, sizeof(*e));

    e->bg = bg;
    if (floe_loop_start(&e->loop, "stack engine", &bell, take, e) != FLOE_OK) {
        free(e);
        return NULL;
    }
    return e;
}

void floe_stack_engine_stop(floe_stack_engine_t *e)
{
    if (e == NULL)
        return;
    assert(floe_background_is_stopping(e->bg)); /* its steps fail at once: it stops between two */
    floe_loop_stop(&e->loop);
    free(e);
}
