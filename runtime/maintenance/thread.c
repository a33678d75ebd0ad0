/*
 * The maintenance thread of maintenance.h: a queue of on-demand requests, the schedule, and the
 * per-worker doors through which answers go back to waiting route requests (design notes 1-3 in
 * maintenance.h).
 *
 * Design notes:
 *  1. The queue and the stop flag are guarded by m->mutex. The thread is a background loop
 *     (background/loop.h) on m->bell: it sleeps until a request rings it, the next sweep is due,
 *     or the server stops.
 *  2. A door belongs to one worker and is touched only on that worker's thread (its in_flight
 *     count included); the maintenance thread only sends it messages.
 *  3. A waiting request is tied to its pending entry by a token in the request's pool: when h2o
 *     disposes the request (the client went away), the token's dispose callback clears
 *     pending->req, so the answer is dropped instead of sent to freed memory. Both run on the
 *     worker's thread.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "background/loop.h"
#include "base/failure.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "catalog/maintenance_job.h"
#include "maintenance/maintenance.h"

#define SWEEP_BATCH 64   /* tables read per serving-thread step while sweeping */
#define DETACH_TURN_MS 10

struct floe_maintenance {
    const floe_config_t *config;
    floe_background_t *bg;
    floe_loop_t loop;
    floe_loop_bell_t bell;  /* rung by floe_maintenance_submit */
    int64_t next_due;       /* wall clock (ms) of the next sweep; the thread's own */
    bool is_started;
    pthread_mutex_t mutex;
    volatile int stopping;
    h2o_linklist_t queue; /* pending_t.link, oldest first */
};

typedef struct floe_maintenance_door {
    h2o_multithread_receiver_t receiver;
    floe_maintenance_t *m;
    floe_worker_t *w;
    int in_flight; /* design note 2 */
} door_t;

typedef struct req_token req_token_t;

typedef struct pending {
    h2o_multithread_message_t super; /* the answer, sent to the door */
    h2o_linklist_t link;             /* in m->queue */
    door_t *door;
    h2o_req_t *req;                  /* NULL once the request was disposed (design note 3) */
    req_token_t *token;
    floe_maintenance_request_t request;
    floe_maintenance_done_fn done;
    floe_maintenance_result_t result;
} pending_t;

struct req_token {
    pending_t *pending;
};

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void answer_stopping(floe_maintenance_result_t *out)
{
    out->http_status = 503;
    out->json = floe_xstrdup("{\"message\":\"The server is stopping: the job did not run.\"}");
}

/* ---- the thread ---- */

static void run_pending(floe_maintenance_t *m, pending_t *p)
{
    floe_maintenance_run(m->bg, m->config, &p->request, false, &m->stopping, &p->result);
    h2o_multithread_send_message(&p->door->receiver, &p->super);
}

/* Runs every queued request; called with m->mutex held, returns with it held. */
static void drain_queue(floe_maintenance_t *m)
{
    while (!h2o_linklist_is_empty(&m->queue) && !m->stopping) {
        pending_t *p = H2O_STRUCT_FROM_MEMBER(pending_t, link, m->queue.next);
        h2o_linklist_unlink(&p->link);
        pthread_mutex_unlock(&m->mutex);
        run_pending(m, p);
        pthread_mutex_lock(&m->mutex);
    }
}

typedef struct tables_step {
    int64_t after_id;
    floe_maintenance_table_t *rows; /* copies: malloc'ed */
    size_t n;
} tables_step_t;

static int do_tables_after(floe_call_t *call, void *arg)
{
    tables_step_t *s = arg;
    floe_maintenance_table_t *rows;

    if (floe_maintenance_tables_after(call, s->after_id, SWEEP_BATCH, &rows, &s->n))
        return FLOE_EFAIL;
    s->rows = floe_xcalloc(s->n > 0 ? s->n : 1, sizeof(*s->rows));
    for (size_t i = 0; i < s->n; i++) {
        s->rows[i].id = rows[i].id;
        s->rows[i].arn = floe_xstrdup(rows[i].arn);
    }
    return FLOE_OK;
}

static void free_rows(tables_step_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->rows[i].arn);
    free(s->rows);
    s->rows = NULL;
    s->n = 0;
}

/* The order a sweep runs a table's jobs in: expire first, so compaction reads fewer snapshots and
 * unreferenced file removal sees what expiration left. */
static const floe_job_type_t sweep_order[] = {
    FLOE_JOB_RECORD_EXPIRATION, FLOE_JOB_SNAPSHOT_MANAGEMENT, FLOE_JOB_COMPACTION, FLOE_JOB_UNREFERENCED_FILE_REMOVAL,
};

static void sweep_table(floe_maintenance_t *m, const char *arn)
{
    for (size_t t = 0; t < sizeof(sweep_order) / sizeof(sweep_order[0]) && !m->stopping; t++) {
        floe_maintenance_request_t r = {.arn = arn, .type = sweep_order[t]};
        floe_maintenance_result_t result;

        floe_maintenance_run(m->bg, m->config, &r, true, &m->stopping, &result);
        floe_maintenance_result_dispose(&result);
        pthread_mutex_lock(&m->mutex); /* on-demand requests go first (design note 1 in maintenance.h) */
        drain_queue(m);
        pthread_mutex_unlock(&m->mutex);
    }
}

/* One scheduled pass over every table of every account and region. */
static void sweep(floe_maintenance_t *m)
{
    tables_step_t s = {0};
    floe_background_error_t err;

    while (!m->stopping) {
        if (floe_background_call(m->bg, NULL, do_tables_after, &s, &err) != FLOE_OK) {
            if (!m->stopping)
                floe_log("maintenance: cannot list tables: %s", err.message);
            return;
        }
        if (s.n == 0) {
            free_rows(&s);
            return;
        }
        for (size_t i = 0; i < s.n && !m->stopping; i++)
            sweep_table(m, s.rows[i].arn);
        s.after_id = s.rows[s.n - 1].id;
        free_rows(&s);
    }
}

/* Answers every request still queued: the server is stopping (design note 3 in maintenance.h). */
static void answer_queued(floe_maintenance_t *m)
{
    pthread_mutex_lock(&m->mutex);
    while (!h2o_linklist_is_empty(&m->queue)) {
        pending_t *p = H2O_STRUCT_FROM_MEMBER(pending_t, link, m->queue.next);
        h2o_linklist_unlink(&p->link);
        answer_stopping(&p->result);
        h2o_multithread_send_message(&p->door->receiver, &p->super);
    }
    pthread_mutex_unlock(&m->mutex);
}

static int64_t interval_ms(const floe_maintenance_t *m)
{
    return (int64_t)m->config->maintenance_interval_s * 1000;
}

/* The loop's take (background/loop.h): the queued requests first, then a sweep when one is due;
 * otherwise a wait until the next sweep, or until a request without a schedule. */
static int64_t take(void *arg)
{
    floe_maintenance_t *m = arg;
    int64_t now;

    pthread_mutex_lock(&m->mutex);
    if (!h2o_linklist_is_empty(&m->queue)) {
        drain_queue(m);
        pthread_mutex_unlock(&m->mutex);
        return FLOE_LOOP_AGAIN;
    }
    pthread_mutex_unlock(&m->mutex);
    if (interval_ms(m) <= 0)
        return FLOE_LOOP_FOREVER;
    if ((now = wall_ms()) < m->next_due)
        return m->next_due - now;
    sweep(m);
    m->next_due = wall_ms() + interval_ms(m);
    return FLOE_LOOP_AGAIN;
}

/* ---- life cycle ---- */

floe_maintenance_t *floe_maintenance_new(const floe_config_t *config)
{
    floe_maintenance_t *m = floe_xcalloc(1, sizeof(*m));

    m->config = config;
    pthread_mutex_init(&m->mutex, NULL);
    floe_loop_bell_init(&m->bell);
    h2o_linklist_init_anchor(&m->queue);
    return m;
}

int floe_maintenance_start(floe_maintenance_t *m, floe_background_t *bg)
{
    m->bg = bg;
    m->next_due = wall_ms() + interval_ms(m);
    if (floe_loop_start(&m->loop, "maintenance", &m->bell, take, m) != FLOE_OK)
        return FLOE_EFAIL;
    pthread_mutex_lock(&m->mutex);
    m->is_started = true;
    pthread_mutex_unlock(&m->mutex);
    return FLOE_OK;
}

void floe_maintenance_stop(floe_maintenance_t *m, floe_background_t *bg)
{
    if (m != NULL) {
        pthread_mutex_lock(&m->mutex);
        m->stopping = 1;
        pthread_mutex_unlock(&m->mutex);
        floe_loop_ask_stop(&m->loop);
    }
    if (bg != NULL)
        floe_background_stop(bg); /* the job's steps in flight finish; later ones fail at once */
    if (m != NULL && m->is_started) {
        floe_loop_join(&m->loop);
        m->is_started = false;
        answer_queued(m);
    }
}

void floe_maintenance_free(floe_maintenance_t *m)
{
    if (m == NULL)
        return;
    assert(h2o_linklist_is_empty(&m->queue));
    pthread_mutex_destroy(&m->mutex);
    floe_loop_bell_dispose(&m->bell);
    free(m);
}

/* ---- doors and waiting requests ---- */

static void on_answers(h2o_multithread_receiver_t *receiver, h2o_linklist_t *messages)
{
    door_t *door = H2O_STRUCT_FROM_MEMBER(door_t, receiver, receiver);

    while (!h2o_linklist_is_empty(messages)) {
        pending_t *p = H2O_STRUCT_FROM_MEMBER(pending_t, super.link, messages->next);
        h2o_linklist_unlink(&p->super.link);
        door->in_flight--;
        if (p->req != NULL) {
            p->token->pending = NULL;
            p->done(p->req, &p->result); /* done disposes the result */
        } else {
            floe_maintenance_result_dispose(&p->result);
        }
        free((char *)p->request.arn);
        free(p);
    }
}

static void on_token_dispose(void *arg)
{
    req_token_t *token = arg;
    if (token->pending != NULL)
        token->pending->req = NULL; /* design note 3 */
}

void floe_maintenance_attach(floe_maintenance_t *m, floe_worker_t *w)
{
    door_t *door = floe_xcalloc(1, sizeof(*door));

    door->m = m;
    door->w = w;
    h2o_multithread_register_receiver(w->super.queue, &door->receiver, on_answers);
    w->maintenance_door = door;
}

void floe_maintenance_detach(floe_worker_t *w)
{
    door_t *door = w->maintenance_door;

    if (door == NULL)
        return;
    while (door->in_flight > 0)
        h2o_evloop_run(w->super.loop, DETACH_TURN_MS);
    h2o_multithread_unregister_receiver(w->super.queue, &door->receiver);
    free(door);
    w->maintenance_door = NULL;
}

void floe_maintenance_submit(floe_worker_t *w, h2o_req_t *req, const floe_maintenance_request_t *request,
                             floe_maintenance_done_fn done)
{
    door_t *door = w->maintenance_door;
    floe_maintenance_t *m = door != NULL ? door->m : NULL;
    pending_t *p = floe_xcalloc(1, sizeof(*p));

    p->door = door;
    p->req = req;
    p->done = done;
    p->request = *request;
    p->request.arn = floe_xstrdup(request->arn);
    if (m != NULL)
        pthread_mutex_lock(&m->mutex);
    if (m == NULL || !m->is_started || m->stopping) { /* checked and queued under one lock */
        if (m != NULL)
            pthread_mutex_unlock(&m->mutex);
        answer_stopping(&p->result);
        done(req, &p->result);
        free((char *)p->request.arn);
        free(p);
        return;
    }
    p->token = h2o_mem_alloc_shared(&req->pool, sizeof(*p->token), on_token_dispose);
    p->token->pending = p;
    door->in_flight++;
    h2o_linklist_insert(&m->queue, &p->link);
    pthread_mutex_unlock(&m->mutex);
    floe_loop_kick(&m->bell);
}
