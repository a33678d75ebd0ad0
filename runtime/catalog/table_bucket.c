/*
 * The table buckets of table_bucket.h: rows of table_bucket. A bucket's ARN is derived from its
 * name (catalog/arn.h), never stored. Its settings and tags reference it with ON DELETE CASCADE
 * and go with it; its namespaces reference it without, so the foreign key refuses to delete a
 * bucket that still has one, atomically with the delete.
 */
#include <assert.h>

#include "catalog/arn.h"
#include "catalog/page_token.h"
#include "catalog/sql.h"
#include "catalog/table_bucket.h"
#include "ids.h"

FLOE_SQL(sql_insert_bucket,
    "INSERT INTO table_bucket (name, bucket_id, type, created_at) VALUES (?1, ?2, 'customer', ?3)");

FLOE_SQL(sql_delete_bucket, "DELETE FROM table_bucket WHERE id = ?1");

FLOE_SQL(sql_list_buckets,
    "SELECT id, name, bucket_id, type, created_at FROM table_bucket"
    " WHERE name > ?1 AND (?2 IS NULL OR substr(name, 1, length(?2)) = ?2) AND (?3 IS NULL OR type = ?3)"
    " ORDER BY name LIMIT ?4");

/* Steps a write that returns no rows: SQLITE_DONE, SQLITE_CONSTRAINT (the call not failed), or
 * FLOE_EFAIL with the call failed. Leaves the statement reset. */
static int step_write(floe_call_t *call, sqlite3_stmt *stmt)
{
    int rc = floe_sql_step(call, stmt);

    sqlite3_reset(stmt);
    if (rc == SQLITE_ROW)
        return floe_fail_internal(call, "a table bucket write returned a row");
    return rc;
}

int floe_table_bucket_create(floe_call_t *call, const char *name, int64_t *id)
{
    char bucket_id[FLOE_UUID_LEN + 1];
    sqlite3_stmt *stmt;

    floe_uuid_v4(bucket_id);
    stmt = floe_sql_bind(call, sql_insert_bucket, "tti", name, bucket_id, (int64_t)floe_call_now(call));
    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (step_write(call, stmt)) {
    case SQLITE_DONE:
        *id = sqlite3_last_insert_rowid(floe_state_db(floe_call_state(call)));
        return FLOE_OK;
    case SQLITE_CONSTRAINT: /* the UNIQUE name; the UUID is fresh */
        return FLOE_TABLE_BUCKET_NAME_TAKEN;
    default:
        return FLOE_EFAIL;
    }
}

int floe_table_bucket_delete(floe_call_t *call, int64_t id)
{
    sqlite3_stmt *stmt = floe_sql_bind(call, sql_delete_bucket, "i", id);

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (step_write(call, stmt)) {
    case SQLITE_DONE:
        return FLOE_OK;
    case SQLITE_CONSTRAINT: /* a namespace's foreign key */
        return FLOE_TABLE_BUCKET_NOT_EMPTY;
    default:
        return FLOE_EFAIL;
    }
}

/* Reads one row of sql_list_buckets. */
static void read_bucket_row(floe_call_t *call, sqlite3_stmt *stmt, floe_bucket_row_t *b)
{
    b->id = sqlite3_column_int64(stmt, 0);
    b->name = floe_sql_text(call, stmt, 1);
    b->bucket_id = floe_sql_text(call, stmt, 2);
    b->type = floe_sql_text(call, stmt, 3);
    b->created_at = sqlite3_column_int64(stmt, 4);
    b->arn = floe_arn_table_bucket(call, b->name);
}

/* Steps sql_list_buckets (bound for one page_size + 1 rows) into out: the extra row, when there
 * is one, only says that another page follows. */
static int read_page(floe_call_t *call, sqlite3_stmt *stmt, const char *listing, int page_size,
                     floe_table_bucket_page_t *out)
{
    int rc;

    out->items = floe_call_alloc(call, (size_t)page_size * sizeof(*out->items));
    out->n = 0;
    out->continuation_token = NULL;
    while ((rc = floe_sql_step(call, stmt)) == SQLITE_ROW) {
        if (out->n == (size_t)page_size) {
            out->continuation_token = floe_page_token_encode(call, listing, out->items[out->n - 1].name);
            break;
        }
        read_bucket_row(call, stmt, &out->items[out->n++]);
    }
    sqlite3_reset(stmt);
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail_internal(call, "listing table buckets reported a constraint failure");
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_table_bucket_list(floe_call_t *call, const char *prefix, const char *type, const char *continuation_token,
                           int page_size, floe_table_bucket_page_t *out)
{
    const char *listing = floe_call_printf(call, "ListTableBuckets|%s|%s", prefix ? prefix : "", type ? type : "");
    const char *after = "";
    sqlite3_stmt *stmt;

    assert(page_size >= 1);
    if (continuation_token != NULL && (after = floe_page_token_decode(call, listing, continuation_token)) == NULL)
        return FLOE_TABLE_BUCKET_TOKEN_INVALID;
    /* One row more than the page tells whether another page follows. */
    if ((stmt = floe_sql_bind(call, sql_list_buckets, "tttn", after, prefix, type, page_size + 1)) == NULL)
        return FLOE_EFAIL;
    return read_page(call, stmt, listing, page_size, out);
}
