/* Athena's engine: its pool of workers and the Trino they share (engine.h). */
#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "athena/athena_store.h"
#include "athena_engine/authorize.h"
#include "athena_engine/engine.h"
#include "athena_engine/run.h"
#include "background/loop.h"
#include "base/failure.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "trino/trino_server.h"

#define QUERY_TABLE "athena_query"
#define IDLE_WAIT_MS 2000      /* worker 0's look for queued work no commit announced (a restart's) */
#define START_POLL_MS 500
#define START_TIMEOUT_S 600    /* a cold JVM on a busy 2-core machine */
#define ERROR_CATEGORY_SYSTEM 1
#define ERROR_TYPE_INTERNAL 401      /* "Internal service error" */
#define ERROR_TYPE_NOT_SUBMITTED 240 /* "Failed to submit query" */
#define STARTING_REASON "Starting Trino, Athena's engine, for the first query (about 15-30 s)."
#define INTERRUPTED_REASON "Floe stopped while the query was running; it did not finish. Run it again."

typedef enum trino_state { TRINO_DOWN, TRINO_STARTING, TRINO_READY } trino_state_t;

typedef struct worker {
    floe_athena_engine_t *e;
    size_t index; /* 0 starts with Floe, the others with the first query */
    floe_loop_t loop;
} worker_t;

struct floe_athena_engine {
    worker_t workers[FLOE_ATHENA_WORKERS];
    size_t n_started;            /* workers started; only worker 0 starts the others */
    bool has_swept;              /* worker 0's, before its first claim */
    floe_engine_trino_t trino;
    pthread_mutex_t mutex;       /* guards trino_state */
    trino_state_t trino_state;   /* Floe's own; READY at once with --athena-trino-url */
    floe_trino_server_t *server; /* Floe's own, once started: only the starter touches it, and stop */
};

static floe_loop_bell_t bell = FLOE_LOOP_BELL_INIT;

static void on_queued(void *arg)
{
    (void)arg;
    floe_loop_kick(&bell);
}

void floe_athena_engine_watch(floe_state_t *st)
{
    floe_state_watch_inserts(st, QUERY_TABLE, on_queued, NULL);
}

static char *dup_or_null(const char *s)
{
    return s != NULL ? floe_xstrdup(s) : NULL;
}

typedef struct next_step {
    bool found;
    floe_engine_query_t q;
} next_step_t;

/* The query's ExecutionParameters joined as EXECUTE's USING list (malloc'ed), NULL when none. */
static char *using_list(const floe_athena_query_row_t *row)
{
    size_t size = 1;
    char *out;

    if (row->n_execution_parameters == 0)
        return NULL;
    for (size_t i = 0; i < row->n_execution_parameters; i++)
        size += strlen(row->execution_parameters[i]) + 2;
    out = floe_xmalloc(size);
    out[0] = '\0';
    for (size_t i = 0; i < row->n_execution_parameters; i++) {
        strcat(out, i > 0 ? ", " : "");
        strcat(out, row->execution_parameters[i]);
    }
    return out;
}

static int step_claim(floe_call_t *call, void *arg)
{
    next_step_t *s = arg;
    floe_athena_query_row_t row;

    if (floe_athena_query_claim(call, &s->found, &row) != FLOE_OK || !s->found)
        return call->failure.code != FLOE_OK ? FLOE_EFAIL : FLOE_OK;
    s->q.id = floe_xstrdup(row.id);
    s->q.account = floe_xstrdup(row.account);
    s->q.region = floe_xstrdup(row.region);
    s->q.workgroup = floe_xstrdup(row.workgroup);
    s->q.query_string = floe_xstrdup(row.query_string);
    s->q.catalog = dup_or_null(row.catalog);
    s->q.database = dup_or_null(row.database);
    s->q.output_location = dup_or_null(row.output_location);
    s->q.parameters = using_list(&row);
    return FLOE_OK;
}

static void query_dispose(floe_engine_query_t *q)
{
    free(q->id), free(q->account), free(q->region), free(q->workgroup), free(q->query_string);
    free(q->catalog), free(q->database), free(q->output_location), free(q->parameters);
}

static int step_sweep(floe_call_t *call, void *arg)
{
    (void)arg;
    return floe_athena_query_fail_every(call, "RUNNING", ERROR_CATEGORY_SYSTEM, ERROR_TYPE_INTERNAL,
                                        INTERRUPTED_REASON);
}

typedef struct hold_step {
    const char *reason;
    bool any;
} hold_step_t;

static int step_hold(floe_call_t *call, void *arg)
{
    hold_step_t *s = arg;
    return floe_athena_query_hold_queued(call, s->reason, &s->any);
}

static int step_fail_queued(floe_call_t *call, void *arg)
{
    return floe_athena_query_fail_every(call, "QUEUED", ERROR_CATEGORY_SYSTEM, ERROR_TYPE_NOT_SUBMITTED, arg);
}

/* Whether a query is QUEUED, each now saying that Trino starts (design note 3). */
static bool hold_queued(floe_athena_engine_t *e)
{
    hold_step_t s = {STARTING_REASON, false};
    return floe_background_call(e->trino.bg, NULL, step_hold, &s, NULL) == FLOE_OK && s.any;
}

/* Launches Floe's own Trino: FLOE_OK, else why[]. */
static int launch_trino(floe_athena_engine_t *e, char *why, size_t n)
{
    char work[PATH_MAX], access_uri[FLOE_ENGINE_URL_MAX + 128];
    floe_trino_place_t place;

    if (floe_trino_find(e->trino.config, &place, why, n) != FLOE_OK)
        return FLOE_ENOTFOUND;
    snprintf(work, sizeof(work), "%s/trino", e->trino.config->data_dir);
    if (e->trino.config->enforce_iam) { /* Trino asks Floe before each access (authorize.h) */
        char floe_url[FLOE_ENGINE_URL_MAX];
        floe_engine_floe_url(e->trino.config, floe_url);
        snprintf(access_uri, sizeof(access_uri), "%s%s/%s", floe_url, FLOE_ENGINE_AUTHORIZE_BASE,
                 e->trino.config->engine_secret);
    }
    if (floe_trino_server_start(&place, work, e->trino.config->enforce_iam ? access_uri : NULL, &e->server, why, n) !=
        FLOE_OK)
        return FLOE_EFAIL;
    snprintf(e->trino.url, sizeof(e->trino.url), "%s", floe_trino_server_url(e->server));
    floe_log("athena: starting Trino %s at %s (%s)", FLOE_TRINO_VERSION, e->trino.url, place.home);
    return FLOE_OK;
}

/* Floe's own Trino, started and waited for by the one worker that moved it to STARTING, while every
 * queued query stays QUEUED saying so (design note 3). FLOE_OK when ready; FLOE_ESTATE when Floe
 * stops meanwhile; FLOE_EFAIL with the queued queries failed. */
static int start_trino(floe_athena_engine_t *e)
{
    struct timespec pause = {0, START_POLL_MS * 1000 * 1000};
    char why[FLOE_TRINO_WHY_MAX];
    time_t deadline;

    if (e->server == NULL && launch_trino(e, why, sizeof(why)) != FLOE_OK)
        goto Failed;
    for (deadline = time(NULL) + START_TIMEOUT_S; time(NULL) < deadline;) {
        hold_queued(e); /* the queries submitted meanwhile too */
        switch (floe_trino_server_ready(e->server, why, sizeof(why))) {
        case FLOE_OK: return FLOE_OK;
        case FLOE_ESTATE: break;
        default: goto Stopped;
        }
        if (floe_background_is_stopping(e->trino.bg))
            return FLOE_ESTATE;
        nanosleep(&pause, NULL);
    }
    snprintf(why, sizeof(why), "Trino did not start within %d s", START_TIMEOUT_S);
Stopped:
    floe_trino_server_stop(e->server);
    e->server = NULL;
Failed:
    floe_background_call(e->trino.bg, NULL, step_fail_queued, why, NULL);
    return FLOE_EFAIL;
}

/* Whether queries may be claimed: FLOE_OK once Trino takes them. Otherwise, when one waits, the first
 * worker to see it starts Trino and the others wait for its kick (FLOE_ESTATE). */
static int trino_up(floe_athena_engine_t *e)
{
    trino_state_t was;
    int rc;

    pthread_mutex_lock(&e->mutex);
    if ((was = e->trino_state) == TRINO_DOWN)
        e->trino_state = TRINO_STARTING;
    pthread_mutex_unlock(&e->mutex);
    if (was != TRINO_DOWN)
        return was == TRINO_READY ? FLOE_OK : FLOE_ESTATE;
    rc = hold_queued(e) ? start_trino(e) : FLOE_ESTATE; /* nothing waits: no Trino yet */
    pthread_mutex_lock(&e->mutex);
    e->trino_state = rc == FLOE_OK ? TRINO_READY : TRINO_DOWN;
    pthread_mutex_unlock(&e->mutex);
    if (rc == FLOE_OK)
        floe_loop_kick(&bell); /* the other workers claim too */
    return rc == FLOE_OK ? FLOE_OK : FLOE_ESTATE;
}

static int64_t take(void *arg);

/* The rest of the pool, with the first query: an idle Floe runs worker 0 only (docs/benchmarks.md). */
static void start_pool(floe_athena_engine_t *e)
{
    while (e->n_started < FLOE_ATHENA_WORKERS) {
        worker_t *w = &e->workers[e->n_started];

        if (floe_loop_start(&w->loop, "athena worker", &bell, take, w) != FLOE_OK)
            break;
        e->n_started++;
    }
}

/* A worker's take: claim the oldest queued query and run it to its end, then at once again; else wait
 * (worker 0 with a deadline, for a restart's queue no commit announced; the others for a kick). */
static int64_t take(void *arg)
{
    worker_t *w = arg;
    floe_athena_engine_t *e = w->e;
    int64_t idle = w->index == 0 ? IDLE_WAIT_MS : FLOE_LOOP_FOREVER;
    next_step_t next = {0};

    if (w->index == 0 && !e->has_swept) /* before any claim: a claimed query is RUNNING */
        e->has_swept = floe_background_call(e->trino.bg, NULL, step_sweep, NULL, NULL) == FLOE_OK;
    assert(e->has_swept || w->index == 0);
    if (!e->has_swept || trino_up(e) != FLOE_OK)
        return idle;
    if (floe_background_call(e->trino.bg, NULL, step_claim, &next, NULL) != FLOE_OK || !next.found)
        return idle;
    if (w->index == 0)
        start_pool(e);
    floe_loop_kick(&bell); /* an idle worker looks for the next queued query */
    floe_engine_run(&e->trino, &next.q);
    query_dispose(&next.q);
    return FLOE_LOOP_AGAIN;
}

floe_athena_engine_t *floe_athena_engine_start(floe_background_t *bg, const floe_config_t *config)
{
    floe_athena_engine_t *e = floe_xcalloc(1, sizeof(*e));

    for (size_t i = 0; i < FLOE_ATHENA_WORKERS; i++)
        e->workers[i] = (worker_t){.e = e, .index = i};
    e->trino.bg = bg;
    e->trino.config = config;
    pthread_mutex_init(&e->trino.catalogs_lock, NULL);
    pthread_mutex_init(&e->mutex, NULL);
    if (config->athena_trino_url != NULL) {
        snprintf(e->trino.url, sizeof(e->trino.url), "%s", config->athena_trino_url);
        e->trino_state = TRINO_READY;
    }
    if (floe_loop_start(&e->workers[0].loop, "athena", &bell, take, &e->workers[0]) != FLOE_OK) {
        pthread_mutex_destroy(&e->trino.catalogs_lock);
        pthread_mutex_destroy(&e->mutex);
        free(e);
        return NULL;
    }
    e->n_started = 1;
    return e;
}

void floe_athena_engine_stop(floe_athena_engine_t *e)
{
    if (e == NULL)
        return;
    floe_loop_stop(&e->workers[0].loop); /* first: it starts the others */
    for (size_t i = 1; i < e->n_started; i++)
        floe_loop_ask_stop(&e->workers[i].loop);
    for (size_t i = 1; i < e->n_started; i++)
        floe_loop_join(&e->workers[i].loop);
    floe_trino_server_stop(e->server);
    floe_bucket_names_dispose(&e->trino.catalogs);
    pthread_mutex_destroy(&e->trino.catalogs_lock);
    pthread_mutex_destroy(&e->mutex);
    free(e);
}
