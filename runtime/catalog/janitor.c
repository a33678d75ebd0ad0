/*
 * The janitor of janitor.h: a timer on one worker's event loop that empties warehouse_deletion a
 * few buckets at a time, so a large deletion never stalls the loop for long.
 *
 * Design notes:
 *  1. A queue row is deleted only after floe_store_delete_bucket_recursive() succeeded, so a crash
 *     in between repeats the removal on the next run; the removal is idempotent.
 *  2. It runs on the worker that owns the database connection (with one serving thread the
 *     connection is the process's only one, see state.c), never on a thread of its own.
 *  3. A warehouse bucket exists without a table row only while a CreateTable is between writing
 *     the first metadata file and inserting the row (catalog/table.c, design note 2). At start-up
 *     none is, so floe_janitor_recover() queues every such bucket: what a crash in that window
 *     left behind (found by tests/e2e/70-crash-safety.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/janitor.h"
#include "http/log.h"
#include "db/sql.h"
#include "store/store.h"
#include "base/xalloc.h"

#define TICK_MS 200
#define BUCKETS_PER_TICK 4
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
    sqlite3_stmt *stmt = floe_db_bind(st, sql_next, "n", max);
    int n = 0, rc = SQLITE_DONE;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while (n < max && (rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == SQLITE_ROW)
        names[n++] = floe_xstrdup((const char *)sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    if (rc == FLOE_EFAIL) {
        while (n > 0)
            free(names[--n]);
        return FLOE_EFAIL;
    }
    *n_names = n;
    return FLOE_OK;
}

int floe_janitor_run_once(floe_state_t *st, const char *data_dir, int max, int *removed)
{
    char *names[BUCKETS_PER_TICK * 4];
    int n = 0, rc;

    *removed = 0;
    if (max > (int)(sizeof(names) / sizeof(names[0])))
        max = (int)(sizeof(names) / sizeof(names[0]));
    rc = next_batch(st, max, names, &n);
    for (int i = 0; i < n; i++) {
        if (rc == FLOE_OK && floe_store_delete_bucket_recursive(st, data_dir, names[i]) == FLOE_OK &&
            floe_db_exec(st, sql_done, "t", names[i]) == FLOE_OK) {
            (*removed)++;
        } else if (rc == FLOE_OK) {
            floe_log("janitor: could not remove warehouse bucket %s yet: %s", names[i], floe_state_errmsg(st));
            rc = FLOE_EFAIL;
        }
        free(names[i]);
    }
    floe_state_end_call(st);
    return rc;
}

int floe_janitor_recover(floe_state_t *st, int64_t now_ms)
{
    int rc = floe_db_exec(st, sql_queue_orphans, "i", now_ms);
    int queued = rc == FLOE_OK ? sqlite3_changes(floe_state_db(st)) : 0;

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
    int removed;

    floe_janitor_run_once(w->state, w->config->data_dir, BUCKETS_PER_TICK, &removed); /* logged; retried next tick */
    h2o_timeout_link(w->super.loop, &w->janitor_timeout, &w->janitor_entry);
}

void floe_janitor_start(floe_worker_t *w)
{
    h2o_timeout_init(w->super.loop, &w->janitor_timeout, TICK_MS);
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
    w->janitor_running = 0;
}
