/*
 * The lookups of lookup.h. Messages are AWS's (as seen from the service and mirrored by moto):
 * "The specified bucket does not exist.", "The specified namespace does not exist." and
 * "The specified table does not exist."
 */
#include <sqlite3.h>

#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "catalog/state.h"

FLOE_SQL(sql_bucket_by_name,
    "SELECT id, name, bucket_id, type, created_at FROM table_bucket WHERE name = ?1");

FLOE_SQL(sql_namespace_by_name,
    "SELECT id, name, namespace_id, created_by, created_at FROM namespace WHERE table_bucket_id = ?1 AND name = ?2");

char *floe_column_text(floe_call_t *call, sqlite3_stmt *stmt, int col)
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    return text == NULL ? NULL : floe_call_strndup(call, (const char *)text, (size_t)sqlite3_column_bytes(stmt, col));
}

int floe_lookup_bucket(floe_call_t *call, const char *arn, floe_bucket_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    char *name = floe_arn_parse_table_bucket(call, arn);
    sqlite3_stmt *stmt;
    int rc;

    if (name == NULL)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified bucket does not exist.");
    if ((stmt = floe_state_stmt(st, sql_bucket_by_name)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified bucket does not exist.");
    if (rc != SQLITE_ROW)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->id = sqlite3_column_int64(stmt, 0);
    out->name = floe_column_text(call, stmt, 1);
    out->bucket_id = floe_column_text(call, stmt, 2);
    out->type = floe_column_text(call, stmt, 3);
    out->created_at = sqlite3_column_int64(stmt, 4);
    out->arn = floe_arn_table_bucket(call, out->name);
    sqlite3_reset(stmt);
    return FLOE_OK;
}

int floe_lookup_namespace(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_namespace_by_name);
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket->id);
    sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified namespace does not exist.");
    if (rc != SQLITE_ROW)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->id = sqlite3_column_int64(stmt, 0);
    out->name = floe_column_text(call, stmt, 1);
    out->namespace_id = floe_column_text(call, stmt, 2);
    out->created_by = floe_column_text(call, stmt, 3);
    out->created_at = sqlite3_column_int64(stmt, 4);
    sqlite3_reset(stmt);
    return FLOE_OK;
}

#define TABLE_COLUMNS                                                                                          \
    "t.id, t.table_id, t.name, t.type, t.format, t.version_token, t.metadata_location, t.warehouse_bucket,"   \
    " t.created_at, t.created_by, t.modified_at, t.modified_by, n.id, n.name, n.namespace_id, n.created_by,"  \
    " n.created_at"

FLOE_SQL(sql_table_by_name,
    "SELECT " TABLE_COLUMNS " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.namespace_id = ?1 AND t.name = ?2");

FLOE_SQL(sql_table_by_id,
    "SELECT " TABLE_COLUMNS " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.table_bucket_id = ?1 AND t.table_id = ?2");

static void read_table_row(floe_call_t *call, sqlite3_stmt *stmt, floe_table_row_t *t)
{
    t->id = sqlite3_column_int64(stmt, 0);
    t->table_id = floe_column_text(call, stmt, 1);
    t->name = floe_column_text(call, stmt, 2);
    t->type = floe_column_text(call, stmt, 3);
    t->format = floe_column_text(call, stmt, 4);
    t->version_token = floe_column_text(call, stmt, 5);
    t->metadata_location = floe_column_text(call, stmt, 6);
    t->warehouse_bucket = floe_column_text(call, stmt, 7);
    t->created_at = sqlite3_column_int64(stmt, 8);
    t->created_by = floe_column_text(call, stmt, 9);
    t->modified_at = sqlite3_column_int64(stmt, 10);
    t->modified_by = floe_column_text(call, stmt, 11);
    t->ns.id = sqlite3_column_int64(stmt, 12);
    t->ns.name = floe_column_text(call, stmt, 13);
    t->ns.namespace_id = floe_column_text(call, stmt, 14);
    t->ns.created_by = floe_column_text(call, stmt, 15);
    t->ns.created_at = sqlite3_column_int64(stmt, 16);
    t->arn = floe_arn_table(call, t->bucket.name, t->table_id);
}

/* Steps a table query bound by the caller: fills *out, or fails NotFound. */
static int step_table(floe_call_t *call, sqlite3_stmt *stmt, floe_table_row_t *out)
{
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table does not exist.");
    if (rc != SQLITE_ROW)
        return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    read_table_row(call, stmt, out);
    sqlite3_reset(stmt);
    return FLOE_OK;
}

int floe_lookup_table_in(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                         const char *name, floe_table_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;

    out->bucket = *bucket;
    if ((stmt = floe_state_stmt(st, sql_table_by_name)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, ns->id);
    sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
    return step_table(call, stmt, out);
}

/* One query for bucket, namespace and table together: the path every table operation takes. */
FLOE_SQL(sql_table_by_names,
    "SELECT " TABLE_COLUMNS ", b.id, b.bucket_id, b.type, b.created_at"
    " FROM table_bucket b JOIN namespace n ON n.table_bucket_id = b.id JOIN s3table t ON t.namespace_id = n.id"
    " WHERE b.name = ?1 AND n.name = ?2 AND t.name = ?3");

/* Fills *out when bucket, namespace and table all exist: 1; 0 when one of them does not; -1 when
 * the call failed. */
static int lookup_table_at_once(floe_call_t *call, const char *bucket_name, const char *ns, const char *name,
                                floe_table_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_table_by_names);
    int rc;

    if (stmt == NULL) {
        floe_fail_internal(call, floe_state_errmsg(st));
        return -1;
    }
    sqlite3_bind_text(stmt, 1, bucket_name, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, ns, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) {
        if (rc == SQLITE_DONE)
            return 0;
        floe_fail_internal(call, floe_state_errmsg(st));
        return -1;
    }
    out->bucket.name = floe_call_strdup(call, bucket_name);
    out->bucket.arn = floe_arn_table_bucket(call, bucket_name);
    out->bucket.id = sqlite3_column_int64(stmt, 17);
    out->bucket.bucket_id = floe_column_text(call, stmt, 18);
    out->bucket.type = floe_column_text(call, stmt, 19);
    out->bucket.created_at = sqlite3_column_int64(stmt, 20);
    read_table_row(call, stmt, out);
    sqlite3_reset(stmt);
    return 1;
}

int floe_lookup_table(floe_call_t *call, const char *bucket_arn, const char *ns, const char *name,
                      floe_table_row_t *out)
{
    char *bucket_name = floe_arn_parse_table_bucket(call, bucket_arn);
    floe_bucket_row_t bucket;
    floe_namespace_row_t namespace;
    int found = bucket_name != NULL ? lookup_table_at_once(call, bucket_name, ns, name, out) : 0;

    if (found != 0)
        return found > 0 ? FLOE_OK : FLOE_EFAIL;
    /* Something is missing: the step-by-step lookups say which, with AWS's message for it. */
    if (floe_lookup_bucket(call, bucket_arn, &bucket) || floe_lookup_namespace(call, &bucket, ns, &namespace))
        return FLOE_EFAIL;
    return floe_lookup_table_in(call, &bucket, &namespace, name, out);
}

int floe_lookup_table_by_arn(floe_call_t *call, const char *table_arn, floe_table_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    char *bucket_name, *table_id;
    sqlite3_stmt *stmt;

    if (floe_arn_parse_table(call, table_arn, &bucket_name, &table_id) != 0)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table does not exist.");
    if (floe_lookup_bucket(call, floe_arn_table_bucket(call, bucket_name), &out->bucket))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_table_by_id)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, out->bucket.id);
    sqlite3_bind_text(stmt, 2, table_id, -1, SQLITE_STATIC);
    return step_table(call, stmt, out);
}

/* A table ARN names a table of a bucket of this account and region. */
static int lookup_table_resource(floe_call_t *call, const char *arn, floe_resource_t *out)
{
    floe_table_row_t table;
    if (floe_lookup_table_by_arn(call, arn, &table))
        return FLOE_EFAIL;
    out->kind = FLOE_RESOURCE_TABLE;
    out->id = table.id;
    return FLOE_OK;
}

int floe_lookup_resource(floe_call_t *call, const char *arn, floe_resource_t *out)
{
    floe_bucket_row_t bucket;
    char *bucket_name, *table_id;

    if (floe_arn_parse_table(call, arn, &bucket_name, &table_id) == 0)
        return lookup_table_resource(call, arn, out);
    if (floe_lookup_bucket(call, arn, &bucket))
        return FLOE_EFAIL;
    out->kind = FLOE_RESOURCE_TABLE_BUCKET;
    out->id = bucket.id;
    return FLOE_OK;
}
