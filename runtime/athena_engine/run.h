/*
 * One Athena query on Trino, from RUNNING to its end: its table buckets made Trino catalogs, its
 * SQL sent with its context (catalog, namespace, a prepared statement for EXECUTE), its rows
 * written as Athena's result file into the output location in Floe's own S3, and its end recorded
 * with Trino's statistics, or Trino's error in Athena's words. Runs on one of the engine's workers,
 * several at once; every state change is a step on the serving thread (background.h).
 */
#ifndef FLOE_ATHENA_ENGINE_RUN_H
#define FLOE_ATHENA_ENGINE_RUN_H

#include <pthread.h>

#include "athena_engine/catalogs.h"
#include "background/background.h"
#include "base/config.h"

/** The Trino queries go to, and the catalogs made there so far; one, shared by the engine's workers. */
typedef struct floe_engine_trino {
    const floe_config_t *config;
    floe_background_t *bg;
    char url[512];                 /* set before any worker runs a query, then only read */
    pthread_mutex_t catalogs_lock; /* guards catalogs, and is held while one is made */
    floe_bucket_names_t catalogs;  /* Trino catalog names already created */
} floe_engine_trino_t;

/** A queued query, copied off the serving thread (malloc'ed strings; NULL where the row has none). */
typedef struct floe_engine_query {
    char *id, *account, *region, *workgroup, *query_string, *catalog, *database, *output_location;
    char *parameters; /* the ExecutionParameters as a USING list ("1, 'a'"), NULL when none */
} floe_engine_query_t;

#define FLOE_ENGINE_URL_MAX 300

/** Floe's own address as its Trino reaches it: http://<--host, or 127.0.0.1 for a wildcard>:<--port>. */
void floe_engine_floe_url(const floe_config_t *config, char out[FLOE_ENGINE_URL_MAX]);

/** Ends query q FAILED with Athena's category (1 system, 2 user) and error type, and `reason`. */
void floe_engine_fail(floe_background_t *bg, const floe_engine_query_t *q, int category, int type, const char *reason);

/** True when query q was stopped (StopQueryExecution) or is gone, or Floe is stopping. */
bool floe_engine_is_cancelled(floe_background_t *bg, const floe_engine_query_t *q);

/** Runs q, claimed (RUNNING), on t to its end. */
void floe_engine_run(floe_engine_trino_t *t, const floe_engine_query_t *q);

#endif
