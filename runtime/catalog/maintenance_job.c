/*
 * The job runs, noncurrent marks and table walk of maintenance_job.h.
 *
 * Design notes:
 *  1. One maintenance_job_run row per (table, type): a run replaces the row of the run before
 *     (an upsert), so the status always shows the last run. Rows go with their table (ON DELETE
 *     CASCADE, migration 9).
 *  2. A noncurrent mark is written once and never moved: a second run that finds the object still
 *     unreferenced keeps the first mark, so non_current_days count from the first time the object
 *     was found unreferenced past unreferenced_days.
 */
#include <string.h>

#include "call/call_sql.h"
#include "catalog/maintenance_job.h"
#include "db/state.h"

FLOE_SQL(sql_put_run,
    "INSERT INTO maintenance_job_run (table_id, type, status, last_run, failure_message, files_read, bytes_read,"
    " files_written, bytes_written, files_deleted, bytes_deleted, snapshots_expired, records_removed, files_marked)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
    " ON CONFLICT (table_id, type) DO UPDATE SET status = excluded.status, last_run = excluded.last_run,"
    " failure_message = excluded.failure_message, files_read = excluded.files_read, bytes_read = excluded.bytes_read,"
    " files_written = excluded.files_written, bytes_written = excluded.bytes_written,"
    " files_deleted = excluded.files_deleted, bytes_deleted = excluded.bytes_deleted,"
    " snapshots_expired = excluded.snapshots_expired, records_removed = excluded.records_removed,"
    " files_marked = excluded.files_marked");

FLOE_SQL(sql_get_run,
    "SELECT status, last_run, failure_message, files_read, bytes_read, files_written, bytes_written, files_deleted,"
    " bytes_deleted, snapshots_expired, records_removed, files_marked"
    " FROM maintenance_job_run WHERE table_id = ?1 AND type = ?2");

FLOE_SQL(sql_list_noncurrent,
    "SELECT object_key, marked_at FROM maintenance_noncurrent WHERE table_id = ?1 ORDER BY object_key");

FLOE_SQL(sql_mark_noncurrent,
    "INSERT INTO maintenance_noncurrent (table_id, object_key, marked_at) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id, object_key) DO NOTHING"); /* design note 2 */

FLOE_SQL(sql_clear_noncurrent, "DELETE FROM maintenance_noncurrent WHERE table_id = ?1 AND object_key = ?2");

FLOE_SQL(sql_tables_after,
    "SELECT t.id, 'arn:aws:s3tables:' || b.region || ':' || b.account_id || ':bucket/' || b.name || '/table/' ||"
    " t.table_id, b.account_id, b.region"
    " FROM s3table t JOIN table_bucket b ON b.id = t.table_bucket_id WHERE t.id > ?1 ORDER BY t.id LIMIT ?2");

FLOE_SQL(sql_tables_of_bucket,
    "SELECT 'arn:aws:s3tables:' || b.region || ':' || b.account_id || ':bucket/' || b.name || '/table/' || t.table_id"
    " FROM s3table t JOIN table_bucket b ON b.id = t.table_bucket_id WHERE b.id = ?1 ORDER BY t.id");

int floe_maintenance_run_put(floe_call_t *call, int64_t table_id, const floe_maintenance_run_t *run)
{
    return floe_sql_exec(call, sql_put_run, "ittitiiiiiiiii", table_id, run->type, run->status, run->last_run_ms,
                         run->failure_message, run->files_read, run->bytes_read, run->files_written,
                         run->bytes_written, run->files_deleted, run->bytes_deleted, run->snapshots_expired,
                         run->records_removed, run->files_marked);
}

int floe_maintenance_run_get(floe_call_t *call, int64_t table_id, const char *type, floe_maintenance_run_t *out,
                             bool *found)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_get_run, "it", table_id, type);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    memset(out, 0, sizeof(*out));
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    *found = rc == FLOE_DB_ROW;
    if (rc == FLOE_DB_ROW) {
        out->type = floe_call_strdup(call, type);
        out->status = floe_sql_text(call, stmt, 0);
        out->last_run_ms = floe_db_column_int64(stmt, 1);
        out->failure_message = floe_sql_text(call, stmt, 2);
        out->files_read = floe_db_column_int64(stmt, 3);
        out->bytes_read = floe_db_column_int64(stmt, 4);
        out->files_written = floe_db_column_int64(stmt, 5);
        out->bytes_written = floe_db_column_int64(stmt, 6);
        out->files_deleted = floe_db_column_int64(stmt, 7);
        out->bytes_deleted = floe_db_column_int64(stmt, 8);
        out->snapshots_expired = floe_db_column_int64(stmt, 9);
        out->records_removed = floe_db_column_int64(stmt, 10);
        out->files_marked = floe_db_column_int64(stmt, 11);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_maintenance_noncurrent_list(floe_call_t *call, int64_t table_id, char ***keys, int64_t **marked_at, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_list_noncurrent, "i", table_id);
    size_t cap_keys = 0, cap_marks = 0, count = 0;
    char **k = NULL;
    int64_t *m = NULL;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        k = floe_call_grow(call, k, count, &cap_keys, sizeof(*k));
        m = floe_call_grow(call, m, count, &cap_marks, sizeof(*m));
        k[count] = floe_sql_text(call, stmt, 0);
        m[count] = floe_db_column_int64(stmt, 1);
        count++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *keys = k;
    *marked_at = m;
    *n = count;
    return FLOE_OK;
}

int floe_maintenance_noncurrent_mark(floe_call_t *call, int64_t table_id, const char *key, int64_t marked_at)
{
    return floe_sql_exec(call, sql_mark_noncurrent, "iti", table_id, key, marked_at);
}

int floe_maintenance_noncurrent_clear(floe_call_t *call, int64_t table_id, const char *key)
{
    return floe_sql_exec(call, sql_clear_noncurrent, "it", table_id, key);
}

int floe_maintenance_tables_after(floe_call_t *call, int64_t after_id, int limit, floe_maintenance_table_t **rows,
                                  size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_tables_after, "in", after_id, limit);
    floe_maintenance_table_t *r = NULL;
    size_t cap = 0, count = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        r = floe_call_grow(call, r, count, &cap, sizeof(*r));
        r[count].id = floe_db_column_int64(stmt, 0);
        r[count].arn = floe_sql_text(call, stmt, 1);
        r[count].account_id = floe_sql_text(call, stmt, 2);
        r[count].region = floe_sql_text(call, stmt, 3);
        count++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *rows = r;
    *n = count;
    return FLOE_OK;
}

int floe_maintenance_tables_of_bucket(floe_call_t *call, int64_t bucket_id, char ***arns, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_tables_of_bucket, "i", bucket_id);
    size_t cap = 0, count = 0;
    char **a = NULL;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        a = floe_call_grow(call, a, count, &cap, sizeof(*a));
        a[count++] = floe_sql_text(call, stmt, 0);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *arns = a;
    *n = count;
    return FLOE_OK;
}
