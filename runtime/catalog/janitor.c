/*
 * The janitor of janitor.h: a timer on one worker's event loop that empties warehouse_deletion in
 * batches, between the loop's requests.
 *
 * Design notes:
 *  1. A batch is one transaction: the rows of its warehouses go with their queue rows, then their
 *     files after COMMIT. A crash before COMMIT changes nothing (every warehouse of the batch is
 *     still queued, whole); one after it leaves only files no row names, which the start-up sweep
 *     removes (store/recover.h). So a warehouse is queued with all its rows and files, or gone, and
 *     a removal is repeated, idempotently, until its COMMIT.
 *  2. A batch takes up to BATCH_MAX queued warehouses, as many as the queue holds, and stops adding
 *     to its transaction after BATCH_BUDGET_MS, so neither that transaction (other threads'
 *     writers wait for it) nor the loop turn it runs in is long, however large the warehouses.
 *  3. After a batch that removed something the next one runs BACKLOG_TICK_MS later, once the loop
 *     has served the requests ready by then, instead of a whole TICK_MS: a backlog drains as fast
 *     as serving leaves time for, whatever the rate of deletes. (At 4 warehouses per 200 ms tick a
 *     CI suite deleting 36 tables a second left 1,400 queued after 90 s.) An empty queue or a
 *     failure waits TICK_MS. Not 0 ms: h2o would run an entry re-linked to a 0 ms timeout again in
 *     the same turn, before any request.
 *  4. It runs on the worker that owns the database connection (with one serving thread the
 *     connection is the process's only one, see state.c), never on a thread of its own.
 *  5. A warehouse bucket exists without a table row only while a CreateTable is between writing
 *     the first metadata file and inserting the row (catalog/table.c, design note 2). At start-up
 *     none is, so floe_janitor_recover() queues every such bucket: what a crash in that window
 *     left behind (found by tests/e2e/robustness/70-crash-safety.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "catalog/janitor.h"
#include "db/sql.h"
#include "store/store.h"

#define TICK_MS 200        /* the queue was empty, or a removal failed */
#define BACKLOG_TICK_MS 1  /* the last batch removed something: more may wait (design note 3) */
#define BATCH_MAX 64
#define BATCH_BUDGET_MS 10
#define FLOE_JANITOR_RETIRED_MAX 128 /* the prefix and a 63-character bucket name */

FLOE_SQL(sql_enqueue, "INSERT OR IGNORE INTO warehouse_deletion (bucket, queued_at) VALUES (?1, ?2)");
FLOE_SQL(sql_next, "SELECT bucket FROM warehouse_deletion ORDER BY queued_at, bucket LIMIT ?1");
FLOE_SQL(sql_done, "DELETE FROM warehouse_deletion WHERE bucket = ?1");
FLOE_SQL(sql_queue_orphans,
    "INSERT OR IGNORE INTO warehouse_deletion (bucket, queued_at)"
    " SELECT name, ?1 FROM s3_bucket WHERE is_warehouse = 1 AND name NOT IN (SELECT warehouse_bucket FROM s3table)");

int floe_janitor_enqueue(floe_state_t *st, const char *bucket, int64_t now_ms)
{
    char retired[FLOE_JANITOR_RETIRED_MAX];
    int renamed;

    /* A name already retired (a retried removal) is queued as it is. */
    if (strncmp(bucket, FLOE_JANITOR_RETIRED_PREFIX, strlen(FLOE_JANITOR_RETIRED_PREFIX)) == 0) {
        snprintf(retired, sizeof(retired), "%s", bucket);
    } else {
        if ((size_t)snprintf(retired, sizeof(retired), "%s%s", FLOE_JANITOR_RETIRED_PREFIX, bucket) >= sizeof(retired))
            return FLOE_EFAIL;
        renamed = floe_store_bucket_rename(st, bucket, retired);
        if (renamed != FLOE_OK && renamed != FLOE_ENOTFOUND) /* never written: nothing to retire */
            return FLOE_EFAIL;
    }
    return floe_db_exec(st, sql_enqueue, "Ti", retired, now_ms);
}

/* Reads up to max queued bucket names into names (each strdup'ed; the caller frees *n of them).
 * FLOE_OK, or FLOE_EFAIL (logged) with nothing left allocated. */
static int next_batch(floe_state_t *st, int max, char **names, int *n_names)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_next, "n", max);
    int n = 0, rc = FLOE_DB_DONE;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while (n < max && (rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW)
        names[n++] = floe_xstrdup(floe_db_column_text(stmt, 0));
    floe_db_reset(stmt);
    if (rc == FLOE_EFAIL) {
        while (n > 0)
            free(names[--n]);
        return FLOE_EFAIL;
    }
    *n_names = n;
    return FLOE_OK;
}

/* Inside the batch's transaction: deletes the rows of names[0..n) and their queue rows until
 * BATCH_BUDGET_MS have passed (at least one), gathering the files to remove after COMMIT.
 * FLOE_OK with *done of them, or FLOE_EFAIL (logged). */
static int purge_rows(floe_state_t *st, char **names, int n, floe_store_ids_t *files, int *done)
{
    uint64_t deadline_us = floe_log_now_us() + BATCH_BUDGET_MS * 1000;

    *done = 0;
    while (*done < n && (*done == 0 || floe_log_now_us() < deadline_us)) {
        const char *name = names[*done];
        if (floe_store_delete_bucket_rows(st, name, files) != FLOE_OK ||
            floe_db_exec(st, sql_done, "t", name) != FLOE_OK) {
            floe_log("janitor: could not remove warehouse bucket %s yet: %s", name, floe_state_errmsg(st));
            return FLOE_EFAIL;
        }
        (*done)++;
    }
    return FLOE_OK;
}

int floe_janitor_run_once(floe_state_t *st, const char *data_dir, int max, int *removed)
{
    char **names = floe_xmalloc((size_t)(max > 0 ? max : 1) * sizeof(*names));
    floe_store_ids_t files = {0};
    int n = 0, done = 0, rc;

    *removed = 0;
    rc = next_batch(st, max, names, &n);
    if (rc == FLOE_OK && n > 0) {
        rc = floe_db_begin_own(st);
        if (rc == FLOE_OK && (rc = purge_rows(st, names, n, &files, &done)) == FLOE_OK)
            rc = floe_db_commit(st, 1); /* rolls back itself when it fails */
        else
            floe_db_rollback(st, 1);
        if (rc == FLOE_OK) {
            floe_store_ids_remove_files(&files, data_dir); /* design note 1 */
            *removed = done;
        }
        floe_store_ids_dispose(&files);
    }
    while (n > 0)
        free(names[--n]);
    free(names);
    floe_state_end_call(st);
    return rc;
}

int floe_janitor_recover(floe_state_t *st, int64_t now_ms)
{
    int rc = floe_db_exec(st, sql_queue_orphans, "i", now_ms);
    int queued = rc == FLOE_OK ? floe_db_changes(st) : 0;

    floe_state_end_call(st);
    if (rc != FLOE_OK)
        floe_log("janitor: cannot queue orphaned warehouse buckets: %s", floe_state_errmsg(st));
    else if (queued > 0)
        floe_log("recovered %d warehouse bucket%s that no table names; the janitor removes them", queued,
                 queued == 1 ? "" : "s");
    return rc;
}

static void on_tick(h2o_timeout_entry_t *entry)
{
    floe_worker_t *w = H2O_STRUCT_FROM_MEMBER(floe_worker_t, janitor_entry, entry);
    int removed = 0;

    floe_janitor_run_once(w->state, w->config->data_dir, BATCH_MAX, &removed); /* logged; retried next tick */
    h2o_timeout_link(w->super.loop, removed > 0 ? &w->janitor_backlog_timeout : &w->janitor_timeout,
                     &w->janitor_entry);
}

void floe_janitor_start(floe_worker_t *w)
{
    h2o_timeout_init(w->super.loop, &w->janitor_timeout, TICK_MS);
    h2o_timeout_init(w->super.loop, &w->janitor_backlog_timeout, BACKLOG_TICK_MS);
    w->janitor_entry.cb = on_tick;
    h2o_timeout_link(w->super.loop, &w->janitor_timeout, &w->janitor_entry);
    w->janitor_running = 1;
}

void floe_janitor_stop(floe_worker_t *w)
{
    if (!w->janitor_running)
        return;
    if (h2o_timeout_is_linked(&w->janitor_entry))
        h2o_timeout_unlink(&w->janitor_entry);
    h2o_timeout_dispose(w->super.loop, &w->janitor_timeout);
    h2o_timeout_dispose(w->super.loop, &w->janitor_backlog_timeout);
    w->janitor_running = 0;
}
