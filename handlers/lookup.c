/*
 * The lookups of lookup.h. Messages are AWS's (as seen from the service and mirrored by moto):
 * "The specified bucket does not exist.", "The specified namespace does not exist." and
 * "The specified table does not exist."
 */
#include <sqlite3.h>

#include "arn.h"
#include "lookup.h"
#include "state.h"

static const char sql_bucket_by_name[] =
    "SELECT id, name, bucket_id, type, created_at FROM table_bucket WHERE name = ?1";

static const char sql_namespace_by_name[] =
    "SELECT id, name, namespace_id, created_by, created_at FROM namespace WHERE table_bucket_id = ?1 AND name = ?2";

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

/* Tables are not stored yet (#3): a table ARN whose bucket exists still names nothing. When
 * tables land, this resolves (bucket, table id) to the table's row and returns kind TABLE. */
static int lookup_table_resource(floe_call_t *call, const char *bucket_name, const char *table_id,
                                 floe_resource_t *out)
{
    floe_bucket_row_t bucket;
    (void)table_id;
    (void)out;

    if (floe_lookup_bucket(call, floe_arn_table_bucket(call, bucket_name), &bucket))
        return FLOE_EFAIL;
    return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table does not exist.");
}

int floe_lookup_resource(floe_call_t *call, const char *arn, floe_resource_t *out)
{
    floe_bucket_row_t bucket;
    char *bucket_name, *table_id;

    if (floe_arn_parse_table(call, arn, &bucket_name, &table_id) == 0)
        return lookup_table_resource(call, bucket_name, table_id, out);
    if (floe_lookup_bucket(call, arn, &bucket))
        return FLOE_EFAIL;
    out->kind = FLOE_RESOURCE_TABLE_BUCKET;
    out->id = bucket.id;
    return FLOE_OK;
}
