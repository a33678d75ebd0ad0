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
#include "log.h"
#include "store/store.h"
#include "xalloc.h"

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
    sqlite3_stmt *stmt;
    int renamed;

    /* A name already retired (a retried removal) is queued as it is. */
    if (strncmp(bucket, FLOE_JANITOR_RETIRED_PREFIX, strlen(FLOE_JANITOR_RETIRED_PREFIX)) == 0) {
        snprintf(retired, sizeof(retired), "%s", bucket);
    } else {
        if ((size_t)snprintf(retired, sizeof(retired), "%s%s", FLOE_JANITOR_RETIRED_PREFIX, bucket) >= sizeof(retired))
            return -1;
        renamed = floe_store_bucket_rename(st, bucket, retired);
        if (renamed != FLOE_OK && renamed != FLOE_ENOTFOUND) /* never written: nothing to retire */
            return -1;
    }
    if ((stmt = floe_state_stmt(st, sql_enqueue)) == NULL || sqlite3_bind_text(stmt, 1, retired, -1, SQLITE_TRANSIENT) ||
        sqlite3_bind_int64(stmt, 2, now_ms))
        return -1;
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Reads up to max queued bucket names into names (each strdup'ed; the caller frees). */
static int next_batch(floe_state_t *st, int max, char **names)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_next);
    int n = 0;
    if (stmt == NULL)
        return -1;
    sqlite3_bind_int(stmt, 1, max);
    while (n < max && sqlite3_step(stmt) == SQLITE_ROW)
        names[n++] = floe_xstrdup((const char *)sqlite3_column_text(stmt, 0));
    sqlite3_reset(stmt);
    return n;
}

static int mark_done(floe_state_t *st, const char *bucket)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_done);
    if (stmt == NULL)
        return -1;
    sqlite3_bind_text(stmt, 1, bucket, -1, SQLITE_STATIC);
    return sqlite3_step(stmt) == SQLITE_DONE ? 0 : -1;
}

int floe_janitor_run_once(floe_state_t *st, const char *data_dir, int max)
{
    char *names[BUCKETS_PER_TICK * 4];
    int n, removed = 0, rc = 0;

    if (max > (int)(sizeof(names) / sizeof(names[0])))
        max = (int)(sizeof(names) / sizeof(names[0]));
    if ((n = next_batch(st, max, names)) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (rc == 0 && floe_store_delete_bucket_recursive(st, data_dir, names[i]) == FLOE_OK &&
            mark_done(st, names[i]) == 0) {
            removed++;
        } else if (rc == 0) {
            floe_log("janitor: could not remove warehouse bucket %s yet: %s", names[i], floe_state_errmsg(st));
            rc = -1;
        }
        free(names[i]);
    }
    floe_state_end_call(st);
    return rc == 0 ? removed : -1;
}

int floe_janitor_recover(floe_state_t *st, int64_t now_ms)
{
    sqlite3_stmt *stmt;
    int queued = -1;

    if ((stmt = floe_state_stmt(st, sql_queue_orphans)) != NULL) {
        sqlite3_bind_int64(stmt, 1, now_ms);
        if (sqlite3_step(stmt) == SQLITE_DONE)
            queued = sqlite3_changes(floe_state_db(st));
        else
            floe_log("janitor: cannot queue orphaned warehouse buckets: %s", floe_state_errmsg(st));
    }
    floe_state_end_call(st);
    if (queued > 0)
        floe_log("recovered %d warehouse bucket%s that no table names; the janitor removes them", queued,
                 queued == 1 ? "" : "s");
    return queued;
}

static void on_tick(h2o_timeout_entry_t *entry)
{
    floe_worker_t *w = H2O_STRUCT_FROM_MEMBER(floe_worker_t, janitor_entry, entry);
    floe_janitor_run_once(w->state, w->config->data_dir, BUCKETS_PER_TICK);
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
