/*
 * The maintenance wing's front header: the maintenance thread that runs table
 * maintenance jobs on a schedule (--maintenance-interval) and on demand (POST
 * /_floe/maintenance/run, route.h), off the event loop. server.c creates it, starts it on the
 * first worker (whose background door it uses, background.h), attaches every worker (so a waiting
 * route request can be answered on its own loop) and stops it at shutdown.
 *
 * Design notes:
 *  1. One maintenance thread runs every job, one at a time, so one table never has two jobs at
 *     once and jobs never compete with each other for the serving thread. On-demand requests go
 *     before the scheduled sweep, which checks for them between tables.
 *  2. A route request waits asynchronously: the serving thread queues it and returns to its loop;
 *     the maintenance thread answers through the worker's message queue (h2o multithread), and
 *     the worker sends the response. A request whose client went away is dropped when the answer
 *     arrives.
 *  3. Shutdown (server.c, first worker): floe_maintenance_stop sets the stop flag (jobs stop
 *     between steps), closes the background door, joins the thread, and fails requests still
 *     queued with 503. Every worker then runs its loop until its waiting requests are answered
 *     (floe_maintenance_detach) before it disposes its context.
 */
#ifndef FLOE_MAINTENANCE_H
#define FLOE_MAINTENANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "background/background.h"
#include "base/config.h"
#include "call/worker.h"
#include "maintenance/job.h"

typedef struct floe_maintenance floe_maintenance_t;

/** What to run: a job type on a table (or on every table of a table bucket), with the job's clock. */
typedef struct floe_maintenance_request {
    const char *arn;
    floe_job_type_t type;
    bool has_now;
    int64_t now_ms;
} floe_maintenance_request_t;

/** How a request ended: the HTTP status for the route and its JSON body (malloc'ed). */
typedef struct floe_maintenance_result {
    int http_status;
    char *json;
} floe_maintenance_result_t;

/** A new, stopped maintenance service for the server's settings. Freed by floe_maintenance_free. */
floe_maintenance_t *floe_maintenance_new(const floe_config_t *config);
/** Starts the maintenance thread over the first worker's background door. FLOE_OK or FLOE_EFAIL (logged). */
int floe_maintenance_start(floe_maintenance_t *m, floe_background_t *bg);
/** Design note 3: stops the thread (closing `bg`, the door it uses) and joins it. Safe on a NULL
 * or never-started m (then it only stops bg). Call on the first worker's thread. */
void floe_maintenance_stop(floe_maintenance_t *m, floe_background_t *bg);
void floe_maintenance_free(floe_maintenance_t *m);

/** Lets worker `w` queue route requests and receive their answers (call on w's thread). */
void floe_maintenance_attach(floe_maintenance_t *m, floe_worker_t *w);
/** Design note 3: waits (turning w's loop) until w's waiting requests are answered, then detaches. */
void floe_maintenance_detach(floe_worker_t *w);

/**
 * Queues `request` (copied) for the maintenance thread; done(req, result) runs later on w's
 * thread with the result (which done must free with floe_maintenance_result_dispose), unless the
 * request was disposed meanwhile. For route.c.
 */
typedef void (*floe_maintenance_done_fn)(h2o_req_t *req, floe_maintenance_result_t *result);
void floe_maintenance_submit(floe_worker_t *w, h2o_req_t *req, const floe_maintenance_request_t *request,
                             floe_maintenance_done_fn done);

void floe_maintenance_result_dispose(floe_maintenance_result_t *result);

/* ---- runner.c: running one request to the end (on the maintenance thread) ---- */

/**
 * Resolves request->arn to its table(s), checks the job is enabled, runs it on each table (one
 * job at a time) and records each run's status. Always fills *out: 200 with the job's status,
 * 400 for an unknown ARN or a disabled job, 503 when the server is stopping. `stopping` is the
 * thread's stop flag. With is_scheduled, a disabled job is skipped without a status change.
 */
void floe_maintenance_run(floe_background_t *bg, const floe_config_t *config, const floe_maintenance_request_t *request,
                          bool is_scheduled, volatile int *stopping, floe_maintenance_result_t *out /* OUT */);

/** RFC 3339 text ("2026-12-03T10:00:00Z", fractions and offsets allowed) as ms since the epoch. */
int floe_maintenance_parse_time(const char *text, int64_t *ms /* OUT */);

#endif
