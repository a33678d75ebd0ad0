/*
 * The door of background.h: a message queue into the serving thread's event loop (h2o's
 * multithread receiver), one message per step, each answered through a condition variable.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background/background.h"
#include "base/xalloc.h"
#include "db/state.h"

#define STOP_TURN_MS 10

struct floe_background {
    floe_worker_t *w;
    pthread_t serving_thread;
    h2o_multithread_queue_t *queue;
    h2o_multithread_receiver_t receiver;
    pthread_mutex_t mutex;
    pthread_cond_t done_cond;
    int is_stopping;
    int in_flight; /* messages sent and not yet run */
};

typedef struct step_message {
    h2o_multithread_message_t super;
    const floe_scope_t *scope;
    floe_background_fn fn;
    void *arg;
    int rc;
    int is_done;
    floe_background_error_t err;
} step_message_t;

static void record_error(step_message_t *m, floe_call_t *call)
{
    m->err.code = call->failure.code;
    m->err.subject = call->failure.subject;
    snprintf(m->err.message, sizeof(m->err.message), "%s",
             call->failure.message != NULL ? call->failure.message : "the step failed without a message");
}

static void run_step(floe_background_t *bg, step_message_t *m)
{
    h2o_mem_pool_t pool;
    floe_call_t call;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, bg->w->state, bg->w->config);
    if (m->scope != NULL)
        floe_call_set_scope(&call, m->scope);
    m->rc = m->fn(&call, m->arg);
    if (m->rc != FLOE_OK)
        record_error(m, &call);
    if (floe_state_end_call(bg->w->state))
        fprintf(stderr, "floe: a background step left a transaction open; it was rolled back\n");
    h2o_mem_clear_pool(&pool);
}

static void on_messages(h2o_multithread_receiver_t *receiver, h2o_linklist_t *messages)
{
    floe_background_t *bg = H2O_STRUCT_FROM_MEMBER(floe_background_t, receiver, receiver);

    while (!h2o_linklist_is_empty(messages)) {
        step_message_t *m = H2O_STRUCT_FROM_MEMBER(step_message_t, super.link, messages->next);
        h2o_linklist_unlink(&m->super.link);
        run_step(bg, m);
        pthread_mutex_lock(&bg->mutex);
        m->is_done = 1;
        bg->in_flight--;
        pthread_cond_broadcast(&bg->done_cond);
        pthread_mutex_unlock(&bg->mutex);
    }
}

floe_background_t *floe_background_new(floe_worker_t *w)
{
    floe_background_t *bg = floe_xcalloc(1, sizeof(*bg));

    bg->w = w;
    bg->serving_thread = pthread_self();
    bg->queue = h2o_multithread_create_queue(w->super.loop);
    h2o_multithread_register_receiver(bg->queue, &bg->receiver, on_messages);
    pthread_mutex_init(&bg->mutex, NULL);
    pthread_cond_init(&bg->done_cond, NULL);
    return bg;
}

int floe_background_call(floe_background_t *bg, const floe_scope_t *scope, floe_background_fn fn, void *arg,
                         floe_background_error_t *err)
{
    step_message_t m = {.scope = scope, .fn = fn, .arg = arg};

    assert(!pthread_equal(pthread_self(), bg->serving_thread)); /* design note 1 */
    pthread_mutex_lock(&bg->mutex);
    if (bg->is_stopping) {
        pthread_mutex_unlock(&bg->mutex);
        if (err != NULL) {
            err->code = FLOE_EFAIL;
            err->subject = FLOE_SUBJECT_REQUEST;
            snprintf(err->message, sizeof(err->message), "the server is stopping");
        }
        return FLOE_EFAIL;
    }
    bg->in_flight++;
    pthread_mutex_unlock(&bg->mutex);
    h2o_multithread_send_message(&bg->receiver, &m.super);
    pthread_mutex_lock(&bg->mutex);
    while (!m.is_done)
        pthread_cond_wait(&bg->done_cond, &bg->mutex);
    pthread_mutex_unlock(&bg->mutex);
    if (m.rc != FLOE_OK && err != NULL)
        *err = m.err;
    return m.rc;
}

int floe_background_is_stopping(floe_background_t *bg)
{
    pthread_mutex_lock(&bg->mutex);
    int is_stopping = bg->is_stopping;
    pthread_mutex_unlock(&bg->mutex);
    return is_stopping;
}

void floe_background_stop(floe_background_t *bg)
{
    assert(pthread_equal(pthread_self(), bg->serving_thread));
    pthread_mutex_lock(&bg->mutex);
    bg->is_stopping = 1;
    while (bg->in_flight > 0) { /* design note 2 */
        pthread_mutex_unlock(&bg->mutex);
        h2o_evloop_run(bg->w->super.loop, STOP_TURN_MS);
        pthread_mutex_lock(&bg->mutex);
    }
    pthread_mutex_unlock(&bg->mutex);
}

void floe_background_free(floe_background_t *bg)
{
    if (bg == NULL)
        return;
    h2o_multithread_unregister_receiver(bg->queue, &bg->receiver);
    h2o_multithread_destroy_queue(bg->queue);
    pthread_mutex_destroy(&bg->mutex);
    pthread_cond_destroy(&bg->done_cond);
    free(bg);
}
