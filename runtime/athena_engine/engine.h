/*
 * Athena's engine: one thread, off the event loop, that takes the queued queries of every account
 * and region in submission order and runs each on Trino (run.h). The Trino is the one
 * --athena-trino-url names, or Floe's own, started on the first query (trino/trino_server.h) and
 * stopped with Floe, so an idle Floe pays for none of it.
 *
 * Design notes:
 *  1. Wake-up: a commit that adds a row to athena_query (StartQueryExecution) kicks the thread
 *     from the connection's WAL hook (db/state.h), as replication's queue does.
 *  2. While Floe's own Trino starts, the query stays QUEUED with a StateChangeReason that says so,
 *     and a StopQueryExecution meanwhile is honoured; when it cannot start, or is not installed,
 *     the query FAILs at once with a reason that says how to install it.
 *  3. Restart: a query RUNNING when Floe stopped is FAILED at the next start, with a reason; one
 *     still QUEUED runs then.
 */
#ifndef FLOE_ATHENA_ENGINE_ENGINE_H
#define FLOE_ATHENA_ENGINE_ENGINE_H

#include "background/background.h"
#include "base/config.h"
#include "db/state.h"

typedef struct floe_athena_engine floe_athena_engine_t;

/** Starts the engine's thread over the door `bg` (the first worker's); NULL (logged) when the
 * thread cannot start. One per process. */
floe_athena_engine_t *floe_athena_engine_start(floe_background_t *bg, const floe_config_t *config);

/** Stops it after floe_background_stop: joins the thread, stops Floe's Trino, frees it. NULL is ignored. */
void floe_athena_engine_stop(floe_athena_engine_t *e);

/** Makes queries submitted on connection `st` wake the engine (design note 1). */
void floe_athena_engine_watch(floe_state_t *st);

#endif
