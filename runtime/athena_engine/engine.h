/*
 * Athena's engine: a small fixed pool of workers (threads off the event loop) that take the queued
 * queries of every account and region in submission order and run each on Trino (run.h), up to
 * FLOE_ATHENA_WORKERS at once: a short query never waits behind a long one while a worker is free.
 * The Trino is the one --athena-trino-url names, or Floe's own, started on the first query
 * (trino/trino_server.h) and stopped with Floe, so an idle Floe pays for none of it.
 *
 * Design notes:
 *  1. Wake-up: a commit that adds a row to athena_query (StartQueryExecution) kicks the workers
 *     from the connection's WAL hook (db/state.h), as replication's queue does. An idle Floe runs
 *     worker 0 only; it starts the others when it claims the first query.
 *  2. Claim: a worker takes a query by moving it from QUEUED to RUNNING in one transaction
 *     (floe_athena_query_claim), so no two workers run one query; a worker that claimed one kicks
 *     the others, which look for the next.
 *  3. Floe's own Trino is started once, by the first worker that finds a query queued before it is
 *     up; meanwhile nothing is claimed and every queued query stays QUEUED with a StateChangeReason
 *     that says Trino is starting (a StopQueryExecution meanwhile is honoured); the starter kicks
 *     the others when it is ready. When it cannot start, or is not installed, the queued queries
 *     FAIL at once with a reason that says how to install it, and the next query tries again.
 *  4. Catalogs are made by one worker at a time (run.c), so queries naming one new table bucket at
 *     once make its Trino catalog once.
 *  5. Restart: a query RUNNING when Floe stopped is FAILED at the next start, with a reason, by
 *     worker 0 before its first claim; one still QUEUED runs then.
 *  6. Stop: each worker ends the query it runs (Trino's cancel; the next start records it as
 *     interrupted), all are joined, then Floe's Trino is stopped.
 */
#ifndef FLOE_ATHENA_ENGINE_ENGINE_H
#define FLOE_ATHENA_ENGINE_ENGINE_H

#include "background/background.h"
#include "base/config.h"
#include "db/state.h"

/* Queries that run at once; more wait QUEUED. Athena's own quota of active DML queries is 20 or more
 * per account, but each is a Trino query on one 2 GB JVM here, which a few keep busy. */
#define FLOE_ATHENA_WORKERS 4

typedef struct floe_athena_engine floe_athena_engine_t;

/** Starts the engine's worker 0 over the door `bg` (the first serving thread's); NULL (logged) when
 * its thread cannot start. One per process. */
floe_athena_engine_t *floe_athena_engine_start(floe_background_t *bg, const floe_config_t *config);

/** Stops it after floe_background_stop: joins every worker, stops Floe's Trino, frees it (design note
 * 6). NULL is ignored. */
void floe_athena_engine_stop(floe_athena_engine_t *e);

/** Makes queries submitted on connection `st` wake the workers (design note 1). */
void floe_athena_engine_watch(floe_state_t *st);

#endif
