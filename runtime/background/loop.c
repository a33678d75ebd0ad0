/*
 * The background loop of loop.h: one thread that takes work and waits on a bell between takes.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "background/loop.h"
#include "base/log.h"
#include "call/call.h"

#define MS_PER_S 1000
#define NS_PER_MS 1000000
#define NS_PER_S 1000000000L

void floe_loop_bell_init(floe_loop_bell_t *bell)
{
    pthread_mutex_init(&bell->mutex, NULL);
    pthread_cond_init(&bell->cond, NULL);
    bell->kicks = 0;
}

void floe_loop_bell_dispose(floe_loop_bell_t *bell)
{
    pthread_mutex_destroy(&bell->mutex);
    pthread_cond_destroy(&bell->cond);
}

void floe_loop_kick(floe_loop_bell_t *bell)
{
    pthread_mutex_lock(&bell->mutex);
    bell->kicks++;
    pthread_cond_broadcast(&bell->cond);
    pthread_mutex_unlock(&bell->mutex);
}

/* Whether the loop must leave; notes the kicks seen so far (design note 1). */
static bool should_stop(floe_loop_t *loop, unsigned long *seen)
{
    pthread_mutex_lock(&loop->bell->mutex);
    bool is_stopping = loop->is_stopping;
    *seen = loop->bell->kicks;
    pthread_mutex_unlock(&loop->bell->mutex);
    return is_stopping;
}

static struct timespec deadline_after(int64_t wait_ms)
{
    struct timespec t;

    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += wait_ms / MS_PER_S;
    t.tv_nsec += (wait_ms % MS_PER_S) * NS_PER_MS;
    if (t.tv_nsec >= NS_PER_S) {
        t.tv_sec++;
        t.tv_nsec -= NS_PER_S;
    }
    return t;
}

/* Waits for a kick newer than `seen`, the stop, or wait_ms (FLOE_LOOP_FOREVER: no deadline). */
static void wait_for_work(floe_loop_t *loop, unsigned long seen, int64_t wait_ms)
{
    floe_loop_bell_t *bell = loop->bell;
    struct timespec deadline = deadline_after(wait_ms < 0 ? 0 : wait_ms);

    pthread_mutex_lock(&bell->mutex);
    while (bell->kicks == seen && !loop->is_stopping) {
        if (wait_ms == FLOE_LOOP_FOREVER)
            pthread_cond_wait(&bell->cond, &bell->mutex);
        else if (pthread_cond_timedwait(&bell->cond, &bell->mutex, &deadline) == ETIMEDOUT)
            break;
    }
    pthread_mutex_unlock(&bell->mutex);
}

static void *run_loop(void *arg)
{
    floe_loop_t *loop = arg;
    unsigned long seen;

    while (!should_stop(loop, &seen)) {
        int64_t wait_ms = loop->take(loop->arg);
        if (wait_ms != FLOE_LOOP_AGAIN)
            wait_for_work(loop, seen, wait_ms);
    }
    return NULL;
}

int floe_loop_start(floe_loop_t *loop, const char *name, floe_loop_bell_t *bell, floe_loop_take_fn take, void *arg)
{
    int err;

    loop->bell = bell;
    loop->take = take;
    loop->arg = arg;
    loop->is_stopping = false;
    if ((err = pthread_create(&loop->thread, NULL, run_loop, loop)) != 0) {
        floe_log("cannot start the %s thread: %s", name, strerror(err));
        return FLOE_EFAIL;
    }
    loop->is_started = true;
    return FLOE_OK;
}

void floe_loop_ask_stop(floe_loop_t *loop)
{
    if (!loop->is_started)
        return;
    pthread_mutex_lock(&loop->bell->mutex);
    loop->is_stopping = true;
    pthread_cond_broadcast(&loop->bell->cond);
    pthread_mutex_unlock(&loop->bell->mutex);
}

void floe_loop_join(floe_loop_t *loop)
{
    if (!loop->is_started)
        return;
    pthread_join(loop->thread, NULL);
    loop->is_started = false;
}

void floe_loop_stop(floe_loop_t *loop)
{
    floe_loop_ask_stop(loop);
    floe_loop_join(loop);
}
