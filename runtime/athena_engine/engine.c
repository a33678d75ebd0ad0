/* Athena's engine thread (engine.h). */
#include <limits.h>
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
#define IDLE_WAIT_MS 2000      /* a look for queued work no commit announced (a restart's) */
#define START_POLL_MS 500
#define START_TIMEOUT_S 600    /* a cold JVM on a busy 2-core machine */
#define ERROR_CATEGORY_SYSTEM 1
#define ERROR_TYPE_NOT_SUBMITTED 240 /* "Failed to submit query" */
#define STARTING_REASON "Starting Trino, Athena's engine, for the first query (about 15-30 s)."
#define INTERRUPTED_REASON "Floe stopped while the query was running; it did not finish. Run it again."

struct floe_athena_engine {
    floe_loop_t loop;
    floe_engine_trino_t trino;
    floe_trino_server_t *server; /* Floe's own, once started */
    bool is_ready, has_swept;
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

static int step_next(floe_call_t *call, void *arg)
{
    next_step_t *s = arg;
    floe_athena_query_row_t row;

    if (floe_athena_query_next_queued(call, &s->found, &row) != FLOE_OK || !s->found)
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
    return floe_athena_query_fail_interrupted(call, INTERRUPTED_REASON);
}

/* Floe's own Trino, started and waited for while q stays QUEUED (design note 2). FLOE_OK when
 * ready; FLOE_ESTATE when q was stopped meanwhile; FLOE_EFAIL with q failed. */
static int start_trino(floe_athena_engine_t *e, const floe_engine_query_t *q)
{
    struct timespec pause = {0, START_POLL_MS * 1000 * 1000};
    char why[FLOE_TRINO_WHY_MAX], work[PATH_MAX], access_uri[FLOE_ENGINE_URL_MAX + 128];
    floe_trino_place_t place;
    time_t deadline;

    if (e->server == NULL) {
        if (floe_trino_find(e->trino.config, &place, why, sizeof(why)) != FLOE_OK)
            goto Failed;
        snprintf(work, sizeof(work), "%s/trino", e->trino.config->data_dir);
        if (e->trino.config->enforce_iam) { /* Trino asks Floe before each access (authorize.h) */
            char floe_url[FLOE_ENGINE_URL_MAX];
            floe_engine_floe_url(e->trino.config, floe_url);
            snprintf(access_uri, sizeof(access_uri), "%s%s/%s", floe_url, FLOE_ENGINE_AUTHORIZE_BASE,
                     e->trino.config->engine_secret);
        }
        if (floe_trino_server_start(&place, work, e->trino.config->enforce_iam ? access_uri : NULL, &e->server, why,
                                    sizeof(why)) != FLOE_OK)
            goto Failed;
        snprintf(e->trino.url, sizeof(e->trino.url), "%s", floe_trino_server_url(e->server));
        floe_log("athena: starting Trino %s at %s (%s)", FLOE_TRINO_VERSION, e->trino.url, place.home);
    }
    floe_engine_progress(e->trino.bg, q, "QUEUED", STARTING_REASON);
    for (deadline = time(NULL) + START_TIMEOUT_S; time(NULL) < deadline;) {
        switch (floe_trino_server_ready(e->server, why, sizeof(why))) {
        case FLOE_OK: e->is_ready = true; return FLOE_OK;
        case FLOE_ESTATE: break;
        default: goto Stopped;
        }
        if (floe_background_is_stopping(e->trino.bg) || floe_engine_is_cancelled(e->trino.bg, q))
            return FLOE_ESTATE;
        nanosleep(&pause, NULL);
    }
    snprintf(why, sizeof(why), "Trino did not start within %d s", START_TIMEOUT_S);
Stopped:
    floe_trino_server_stop(e->server);
    e->server = NULL;
    floe_bucket_names_dispose(&e->trino.catalogs);
Failed:
    floe_engine_fail(e->trino.bg, q, ERROR_CATEGORY_SYSTEM, ERROR_TYPE_NOT_SUBMITTED, why);
    return FLOE_EFAIL;
}

/* The loop's take: one queued query run to its end, then at once again; else wait. */
static int64_t take(void *arg)
{
    floe_athena_engine_t *e = arg;
    next_step_t next = {0};

    if (!e->has_swept)
        e->has_swept = floe_background_call(e->trino.bg, NULL, step_sweep, NULL, NULL) == FLOE_OK;
    if (floe_background_call(e->trino.bg, NULL, step_next, &next, NULL) != FLOE_OK || !next.found)
        return IDLE_WAIT_MS;
    if (e->is_ready || e->trino.config->athena_trino_url != NULL || start_trino(e, &next.q) == FLOE_OK)
        floe_engine_run(&e->trino, &next.q);
    query_dispose(&next.q);
    return FLOE_LOOP_AGAIN;
}

floe_athena_engine_t *floe_athena_engine_start(floe_background_t *bg, const floe_config_t *config)
{
    floe_athena_engine_t *e = floe_xcalloc(1, sizeof(*e));

    e->trino.bg = bg;
    e->trino.config = config;
    if (config->athena_trino_url != NULL)
        snprintf(e->trino.url, sizeof(e->trino.url), "%s", config->athena_trino_url);
    if (floe_loop_start(&e->loop, "athena", &bell, take, e) != FLOE_OK) {
        free(e);
        return NULL;
    }
    return e;
}

void floe_athena_engine_stop(floe_athena_engine_t *e)
{
    if (e == NULL)
        return;
    floe_loop_stop(&e->loop);
    floe_trino_server_stop(e->server);
    floe_bucket_names_dispose(&e->trino.catalogs);
    free(e);
}
