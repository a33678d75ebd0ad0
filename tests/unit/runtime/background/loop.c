/* Tests of runtime/background/loop.c: a loop takes again at once after work, wakes for a kick,
 * looks again by the deadline its take names, and stops (joined) whether it waits forever or not. */
#include <pthread.h>
#include <time.h>

#include "background/loop.h"

#define LOOP_TEST_PATIENCE_MS 10000 /* how long a check waits for the thread before it fails */
#define LOOP_TEST_DEADLINE_MS 5

typedef struct loop_probe {
    pthread_mutex_t mutex;
    int n_takes;
    int n_work;         /* takes that report work (FLOE_LOOP_AGAIN) before the probe starts waiting */
    int64_t wait_ms;    /* what a take without work returns */
} loop_probe_t;

static int64_t probe_take(void *arg)
{
    loop_probe_t *p = arg;
    int64_t wait_ms;

    pthread_mutex_lock(&p->mutex);
    p->n_takes++;
    wait_ms = p->n_work > 0 ? (p->n_work--, FLOE_LOOP_AGAIN) : p->wait_ms;
    pthread_mutex_unlock(&p->mutex);
    return wait_ms;
}

static int probe_takes(loop_probe_t *p)
{
    pthread_mutex_lock(&p->mutex);
    int n = p->n_takes;
    pthread_mutex_unlock(&p->mutex);
    return n;
}

/* Waits (polling every millisecond, up to LOOP_TEST_PATIENCE_MS) until the probe saw n takes. */
static int wait_for_takes(loop_probe_t *p, int n)
{
    struct timespec ms = {0, 1000000};

    for (int waited = 0; waited < LOOP_TEST_PATIENCE_MS; waited++) {
        if (probe_takes(p) >= n)
            return 1;
        nanosleep(&ms, NULL);
    }
    return 0;
}

TEST(loop_takes_again_at_once_after_work_then_waits_for_a_kick)
{
    static floe_loop_bell_t bell = FLOE_LOOP_BELL_INIT;
    loop_probe_t p = {PTHREAD_MUTEX_INITIALIZER, 0, 3, FLOE_LOOP_FOREVER};
    floe_loop_t loop = {0};

    CHECK(floe_loop_start(&loop, "test", &bell, probe_take, &p) == FLOE_OK, "starts its thread");
    CHECK(wait_for_takes(&p, 4), "takes again at once while a take reports work, then once more");
    floe_loop_kick(&bell);
    CHECK(wait_for_takes(&p, 5), "a kick wakes a loop that waits without a deadline");
    floe_loop_stop(&loop);
    CHECK(!loop.is_started, "stop joins the thread");
}

TEST(loop_looks_again_by_the_deadline_its_take_names)
{
    static floe_loop_bell_t bell = FLOE_LOOP_BELL_INIT;
    loop_probe_t p = {PTHREAD_MUTEX_INITIALIZER, 0, 0, LOOP_TEST_DEADLINE_MS};
    floe_loop_t loop = {0};

    CHECK(floe_loop_start(&loop, "test", &bell, probe_take, &p) == FLOE_OK, "starts its thread");
    CHECK(wait_for_takes(&p, 3), "looks again after each deadline without any kick");
    floe_loop_stop(&loop);
}

TEST(loop_stops_while_it_waits_forever)
{
    floe_loop_bell_t bell;
    loop_probe_t p = {PTHREAD_MUTEX_INITIALIZER, 0, 0, FLOE_LOOP_FOREVER};
    floe_loop_t loop = {0};

    floe_loop_bell_init(&bell);
    CHECK(floe_loop_start(&loop, "test", &bell, probe_take, &p) == FLOE_OK, "starts its thread");
    CHECK(wait_for_takes(&p, 1), "takes once at start");
    floe_loop_ask_stop(&loop);
    floe_loop_join(&loop); /* a lost stop would hang here, and CTest's timeout would fail the test */
    CHECK(probe_takes(&p) == 1, "takes nothing after the stop");
    floe_loop_join(&loop);  /* a second join does nothing */
    floe_loop_bell_dispose(&bell);
}
