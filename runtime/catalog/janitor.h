/*
 * The janitor: removes the warehouse buckets of deleted tables in the background, so DeleteTable
 * answers at once however many objects the table had. The queue is the SQLite table
 * warehouse_deletion, so a restart resumes where the last run stopped.
 */
#ifndef FLOE_CATALOG_JANITOR_H
#define FLOE_CATALOG_JANITOR_H

#include <stdint.h>

#include "call/worker.h"
#include "db/state.h"

/**
 * Retires warehouse bucket `bucket` and queues it for removal. Retiring renames it to
 * FLOE_JANITOR_RETIRED_PREFIX + name, which no S3 request can address (a bucket name has no '/'),
 * so the warehouse answers NoSuchBucket as soon as the table is gone, as on AWS, while its bytes
 * wait for the janitor. Call it inside the transaction that deletes the table (or gives up on a
 * new one), so both commit exactly when that does. FLOE_OK or FLOE_EFAIL (logged).
 */
int floe_janitor_enqueue(floe_state_t *st, const char *bucket, int64_t now_ms);

#define FLOE_JANITOR_RETIRED_PREFIX "retired/"

/**
 * Start-up, before any request is served: queues every warehouse bucket that no table names and
 * that is not queued yet. A crash inside CreateTable after the warehouse and its first metadata
 * file were written but before the table row committed leaves such a bucket, which no client can
 * see and nothing else would ever remove. Runs on the caller's connection `st`. FLOE_OK (how
 * many were queued is logged), or FLOE_EFAIL (logged).
 */
int floe_janitor_recover(floe_state_t *st, int64_t now_ms);

/** Starts the janitor on `w`'s event loop (one worker runs it). */
void floe_janitor_start(floe_worker_t *w);
/** Stops it; call before disposing the worker's context. */
void floe_janitor_stop(floe_worker_t *w);

/** Removes a batch of up to `max` queued buckets now, in one transaction that stops taking more
 * after about 10 ms, *removed of them: FLOE_OK, or FLOE_EFAIL (logged) when one could not be
 * removed yet (the whole batch stays queued, whole). The caller holds no transaction. */
int floe_janitor_run_once(floe_state_t *st, const char *data_dir, int max, int *removed /* OUT */);

#endif
