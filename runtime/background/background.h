/*
 * Background work's door to the state: threads that run off the event loop (CloudFormation stacks,
 * maintenance jobs, replication) hand each catalog or store step to the serving thread that owns
 * the SQLite connection, and wait for its answer. The step runs there as an ordinary call (its own
 * pool, the thread's state, an account and region), between requests; the slow parts of a job
 * (reading and writing object files) stay on the background thread.
 *
 * Why not a second SQLite connection: with one serving thread the connection holds SQLite's
 * exclusive lock for its whole life (db/state.h), which is what keeps requests fast; a second
 * connection could never open the database. Steps are short, so requests never wait long.
 *
 * Design notes:
 *  1. floe_background_call blocks its (background) thread until the serving thread has run the
 *     step; it must never be called from a serving thread, which would wait for itself (asserted).
 *  2. Shutdown: floe_background_stop (on the serving thread) refuses new steps at once and keeps
 *     the loop turning until every step already sent has run, so no waiter is left hanging and no
 *     message is left in the queue.
 */
#ifndef FLOE_BACKGROUND_H
#define FLOE_BACKGROUND_H

#include "call/call.h"
#include "call/worker.h"

#define FLOE_BACKGROUND_MESSAGE_MAX 512

typedef struct floe_background floe_background_t;

/** What a failed step recorded in its call (floe_failure_t), its message copied. */
typedef struct floe_background_error {
    int code;
    floe_subject_t subject;
    char message[FLOE_BACKGROUND_MESSAGE_MAX];
} floe_background_error_t;

/** A step: runs on the serving thread with a fresh call; returns FLOE_OK or FLOE_EFAIL (with the
 * call's error recorded, as every catalog function does). `arg` is the caller's. */
typedef int (*floe_background_fn)(floe_call_t *call, void *arg);

/** Opens the door on `w`'s event loop (call on w's thread). Freed by floe_background_free. */
floe_background_t *floe_background_new(floe_worker_t *w);

/**
 * From a background thread: runs fn(call, arg) on the serving thread in the account and region
 * `scope` (NULL: the server's defaults), waits, and returns what fn returned. On FLOE_EFAIL, *err
 * (if not NULL) says why; after floe_background_stop every call fails at once with
 * FLOE_EFAIL "the server is stopping".
 */
int floe_background_call(floe_background_t *bg, const floe_scope_t *scope, floe_background_fn fn, void *arg,
                         floe_background_error_t *err /* OUT, may be NULL */);

/** True once floe_background_stop has run: background loops check it between steps. */
int floe_background_is_stopping(floe_background_t *bg);

/** On the serving thread: refuses new steps and runs the loop until the ones in flight are done. */
void floe_background_stop(floe_background_t *bg);

void floe_background_free(floe_background_t *bg);

#endif
