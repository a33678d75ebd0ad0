/*
 * The replication queue, pair statuses and replica marks of replication_queue.h.
 */
#include <assert.h>

#include "call/call_sql.h"
#include "catalog/replication_queue.h"
#include "db/state.h"

FLOE_SQL(sql_source_read,
    "SELECT t.table_bucket_id, b.region, b.account_id, b.name, t.table_id, n.name, t.name, t.warehouse_bucket,"
    " t.metadata_location FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " JOIN table_bucket b ON b.id = t.table_bucket_id WHERE t.id = ?1");

FLOE_SQL(sql_queue_table,
    "INSERT INTO replication_queue (table_id, metadata_location, queued_at)"
    " SELECT id, metadata_location, ?2 FROM s3table WHERE id = ?1 AND metadata_location IS NOT NULL");

FLOE_SQL(sql_queue_bucket,
    "INSERT INTO replication_queue (table_id, metadata_location, queued_at)"
    " SELECT id, metadata_location, ?2 FROM s3table WHERE table_bucket_id = ?1 AND metadata_location IS NOT NULL"
    " AND id NOT IN (SELECT table_id FROM replica_table) ORDER BY id");

FLOE_SQL(sql_queue_next, "SELECT id, table_id, metadata_location FROM replication_queue ORDER BY id LIMIT 1");

FLOE_SQL(sql_queue_done, "DELETE FROM replication_queue WHERE id = ?1");

FLOE_SQL(sql_status_read,
    "SELECT is_failed, failure_message, replica_table_arn, last_metadata_location, last_replicated_at"
    " FROM replication_status WHERE table_id = ?1 AND destination_arn = ?2");

FLOE_SQL(sql_status_complete,
    "INSERT INTO replication_status (table_id, destination_arn, is_failed, failure_message, replica_table_arn,"
    " last_metadata_location, last_replicated_at) VALUES (?1, ?2, 0, NULL, ?3, ?4, ?5)"
    " ON CONFLICT (table_id, destination_arn) DO UPDATE SET is_failed = 0, failure_message = NULL,"
    " replica_table_arn = excluded.replica_table_arn, last_metadata_location = excluded.last_metadata_location,"
    " last_replicated_at = excluded.last_replicated_at");

FLOE_SQL(sql_status_fail,
    "INSERT INTO replication_status (table_id, destination_arn, is_failed, failure_message) VALUES (?1, ?2, 1, ?3)"
    " ON CONFLICT (table_id, destination_arn) DO UPDATE SET is_failed = 1, failure_message = excluded.failure_message");

FLOE_SQL(sql_replica_mark,
    "INSERT INTO replica_table (table_id, source_table_arn) VALUES (?1, ?2)"
    " ON CONFLICT (table_id) DO UPDATE SET source_table_arn = excluded.source_table_arn");

FLOE_SQL(sql_replica_source, "SELECT source_table_arn FROM replica_table WHERE table_id = ?1");

int floe_replication_source_read(floe_call_t *call, int64_t table_id, floe_replication_source_t *out, bool *found)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_source_read, "i", table_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    *found = rc == FLOE_DB_ROW;
    if (rc == FLOE_DB_ROW) {
        out->table_id = table_id;
        out->bucket_id = floe_db_column_int64(stmt, 0);
        out->arn = floe_call_printf(call, "arn:aws:s3tables:%s:%s:bucket/%s/table/%s", floe_db_column_text(stmt, 1),
                                    floe_db_column_text(stmt, 2), floe_db_column_text(stmt, 3),
                                    floe_db_column_text(stmt, 4));
        out->namespace_name = floe_sql_text(call, stmt, 5);
        out->name = floe_sql_text(call, stmt, 6);
        out->warehouse = floe_sql_text(call, stmt, 7);
        out->metadata_location = floe_sql_text(call, stmt, 8);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_replication_queue_table(floe_call_t *call, int64_t table_id)
{
    return floe_sql_exec(call, sql_queue_table, "ii", table_id, (int64_t)floe_call_now(call));
}

int floe_replication_queue_bucket(floe_call_t *call, int64_t bucket_id)
{
    return floe_sql_exec(call, sql_queue_bucket, "ii", bucket_id, (int64_t)floe_call_now(call));
}

int floe_replication_queue_next(floe_call_t *call, floe_replication_work_t *out, bool *found)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_queue_next, "");
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    *found = rc == FLOE_DB_ROW;
    if (rc == FLOE_DB_ROW) {
        out->id = floe_db_column_int64(stmt, 0);
        out->table_id = floe_db_column_int64(stmt, 1);
        out->metadata_location = floe_sql_text(call, stmt, 2);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_replication_queue_done(floe_call_t *call, int64_t work_id)
{
    return floe_sql_exec(call, sql_queue_done, "i", work_id);
}

int floe_replication_status_read(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                 floe_replication_status_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_status_read, "it", table_id, destination_arn);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    *out = (floe_replication_status_row_t){.is_known = rc == FLOE_DB_ROW};
    if (rc == FLOE_DB_ROW) {
        out->is_failed = floe_db_column_int(stmt, 0) != 0;
        out->failure_message = floe_sql_text(call, stmt, 1);
        out->replica_table_arn = floe_sql_text(call, stmt, 2);
        out->last_metadata_location = floe_sql_text(call, stmt, 3);
        out->last_replicated_at = floe_db_column_int64(stmt, 4);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_replication_status_complete(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                     const char *replica_arn, const char *metadata_location, floe_timestamp_t at)
{
    return floe_sql_exec(call, sql_status_complete, "ittti", table_id, destination_arn, replica_arn,
                         metadata_location, (int64_t)at);
}

int floe_replication_status_failed(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                 const char *message)
{
    return floe_sql_exec(call, sql_status_fail, "itt", table_id, destination_arn, message);
}

int floe_replication_mark_replica(floe_call_t *call, int64_t table_id, const char *source_arn)
{
    return floe_sql_exec(call, sql_replica_mark, "it", table_id, source_arn);
}

int floe_replication_source_of(floe_call_t *call, int64_t table_id, char **source_arn)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_replica_source, "i", table_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    *source_arn = rc == FLOE_DB_ROW ? floe_sql_text(call, stmt, 0) : NULL;
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

bool floe_replication_is_replica(floe_call_t *call, int64_t table_id)
{
    char *source_arn;

    if (floe_replication_source_of(call, table_id, &source_arn))
        return true; /* the call is failed; not writing is the safe answer */
    return source_arn != NULL;
}
