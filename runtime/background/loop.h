/*
 * One background thread's loop, shared by the stack engine, the replication worker and the
 * maintenance thread: take a piece of work; when there was none, wait for a kick, the stop, or a
 * deadline the taker names; again until stopped. Not for what a piece of work is (each owner's
 * take function), nor for reaching the state (background.h).
 *
 * Design notes:
 *  1. A bell is a counter under a mutex. A kick bumps it; the loop reads it before each take and
 *     waits only while it is unchanged, so a kick that lands during a take is never lost.
 *  2. The take function returns how long the loop may wait before the next take: FLOE_LOOP_AGAIN
 *     (take again at once: there was work), a number of milliseconds (look again by then even
 *     without a kick, for work no kick announced), or FLOE_LOOP_FOREVER (only a kick or the stop).
 *  3. Stopping is two steps so an owner can stop its steps in between: floe_loop_ask_stop wakes
 *     the thread and makes it leave before its next take; floe_loop_join waits for it. A thread
 *     blocked in a background step leaves only once floe_background_stop makes that step fail, so
 *     the serving thread asks, stops the door, then joins.
 */
#ifndef FLOE_BACKGROUND_LOOP_H
#define FLOE_BACKGROUND_LOOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define FLOE_LOOP_AGAIN ((int64_t)0)
#define FLOE_LOOP_FOREVER ((int64_t)-1)

/** The wake-up a loop waits on (design note 1); a process-wide one may be static. */
typedef struct floe_loop_bell {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned long kicks;
} floe_loop_bell_t;

/** A static bell's initializer. */
#define FLOE_LOOP_BELL_INIT {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0}

/** One take: FLOE_LOOP_AGAIN, a wait in milliseconds, or FLOE_LOOP_FOREVER (design note 2). */
typedef int64_t (*floe_loop_take_fn)(void *arg);

/** A loop's thread; its owner embeds it and leaves it to these functions. */
typedef struct floe_loop {
    floe_loop_bell_t *bell;
    floe_loop_take_fn take;
    void *arg;
    pthread_t thread;
    bool is_stopping; /* under bell->mutex */
    bool is_started;
} floe_loop_t;

/** Prepares a bell that is not static; floe_loop_bell_dispose releases it. */
void floe_loop_bell_init(floe_loop_bell_t *bell);
void floe_loop_bell_dispose(floe_loop_bell_t *bell);

/** Wakes the loops waiting on `bell`: work may be there. Any thread. */
void floe_loop_kick(floe_loop_bell_t *bell);

/**
 * Starts `loop`'s thread, which calls take(arg) until stopped, waiting on `bell` between takes.
 * FLOE_OK, or FLOE_EFAIL when the thread cannot start (logged with `name`, the thread's purpose).
 */
int floe_loop_start(floe_loop_t *loop, const char *name, floe_loop_bell_t *bell, floe_loop_take_fn take, void *arg);

/** Wakes the thread and makes it leave before its next take; does not wait (design note 3). */
void floe_loop_ask_stop(floe_loop_t *loop);

/** Waits for the thread of a loop asked to stop; nothing when it never started. */
void floe_loop_join(floe_loop_t *loop);

/** Both: for an owner whose steps already fail at once. */
void floe_loop_stop(floe_loop_t *loop);

#endif
