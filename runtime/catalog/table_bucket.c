/*
 * The table buckets of table_bucket.h: rows of table_bucket. A bucket's ARN is derived from its
 * name (catalog/arn.h), never stored. Its settings and tags reference it with ON DELETE CASCADE
 * and go with it; its namespaces reference it without, so the foreign key refuses to delete a
 * bucket that still has one, atomically with the delete.
 */
#include <assert.h>
#include <stdio.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "catalog/arn.h"
#include "catalog/page_token.h"
#include "catalog/table_bucket.h"

FLOE_SQL(sql_insert_bucket,
    "INSERT INTO table_bucket (name, bucket_id, type, created_at, account_id, region)"
    " VALUES (?1, ?2, 'customer', ?3, ?4, ?5)");

FLOE_SQL(sql_adopt_buckets, "UPDATE table_bucket SET account_id = ?1, region = ?2 WHERE account_id = ''");
FLOE_SQL(sql_adopt_s3_buckets, "UPDATE s3_bucket SET owner = ?1 WHERE owner = '' AND is_warehouse = 0");

FLOE_SQL(sql_delete_bucket, "DELETE FROM table_bucket WHERE id = ?1");

FLOE_SQL(sql_list_buckets,
    "SELECT id, name, bucket_id, type, created_at FROM table_bucket"
    " WHERE account_id = ?5 AND region = ?6 AND name > ?1 AND (?2 IS NULL OR substr(name, 1, length(?2)) = ?2)"
    " AND (?3 IS NULL OR type = ?3) ORDER BY name LIMIT ?4");

FLOE_SQL(sql_bucket_scopes,
    "SELECT DISTINCT account_id, region FROM table_bucket WHERE account_id <> ''"
    " AND (?1 IS NULL OR account_id = ?1) ORDER BY account_id, region");

/* Steps a write that returns no rows: FLOE_DB_DONE, the code of a constraint kind in `expect` (the
 * call not failed), or FLOE_EFAIL with the call failed. Leaves the statement reset. */
static int step_write(floe_call_t *call, floe_db_stmt_t *stmt, unsigned expect)
{
    int rc = floe_sql_step(call, stmt, expect);

    floe_db_reset(stmt);
    if (rc == FLOE_DB_ROW)
        return floe_fail_internal(call, "a table bucket write returned a row");
    return rc;
}

int floe_table_bucket_create(floe_call_t *call, const char *name, int64_t *id)
{
    char bucket_id[FLOE_UUID_LEN + 1];
    floe_db_stmt_t *stmt;

    floe_uuid_v4(bucket_id);
    stmt = floe_sql_bind(call, sql_insert_bucket, "ttitt", name, bucket_id, (int64_t)floe_call_now(call),
                         floe_call_account(call), floe_call_region(call));
    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (step_write(call, stmt, FLOE_DB_UNIQUE)) {
    case FLOE_DB_DONE:
        *id = floe_db_last_insert_id(floe_call_state(call));
        return FLOE_OK;
    case FLOE_EUNIQUE: /* the UNIQUE name; the UUID is fresh */
        return FLOE_EEXISTS;
    default:
        return FLOE_EFAIL;
    }
}

int floe_table_bucket_delete(floe_call_t *call, int64_t id)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_delete_bucket, "i", id);

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (step_write(call, stmt, FLOE_DB_FOREIGNKEY)) {
    case FLOE_DB_DONE:
        return FLOE_OK;
    case FLOE_EFOREIGNKEY: /* a namespace's foreign key */
        return FLOE_EINUSE;
    default:
        return FLOE_EFAIL;
    }
}

/* Reads one row of sql_list_buckets. */
static void read_bucket_row(floe_call_t *call, floe_db_stmt_t *stmt, floe_bucket_row_t *b)
{
    b->id = floe_db_column_int64(stmt, 0);
    b->name = floe_sql_text(call, stmt, 1);
    b->bucket_id = floe_sql_text(call, stmt, 2);
    b->type = floe_sql_text(call, stmt, 3);
    b->created_at = floe_db_column_int64(stmt, 4);
    b->arn = floe_arn_table_bucket(call, b->name);
}

/* Steps sql_list_buckets (bound for one page_size + 1 rows) into out: the extra row, when there
 * is one, only says that another page follows. */
static int read_page(floe_call_t *call, floe_db_stmt_t *stmt, const char *listing, int page_size,
                     floe_table_bucket_page_t *out)
{
    int rc;

    out->items = floe_call_alloc(call, (size_t)page_size * sizeof(*out->items));
    out->n = 0;
    out->continuation_token = NULL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        if (out->n == (size_t)page_size) {
            out->continuation_token = floe_page_token_encode(call, listing, out->items[out->n - 1].name);
            break;
        }
        read_bucket_row(call, stmt, &out->items[out->n++]);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_table_bucket_list(floe_call_t *call, const char *prefix, const char *type, const char *continuation_token,
                           int page_size, floe_table_bucket_page_t *out)
{
    const char *listing = floe_call_printf(call, "ListTableBuckets|%s|%s", prefix ? prefix : "", type ? type : "");
    const char *after = "";
    floe_db_stmt_t *stmt;

    assert(page_size >= 1);
    if (continuation_token != NULL && (after = floe_page_token_decode(call, listing, continuation_token)) == NULL)
        return FLOE_EINVAL;
    /* One row more than the page tells whether another page follows. */
    if ((stmt = floe_sql_bind(call, sql_list_buckets, "tttntt", after, prefix, type, page_size + 1,
                              floe_call_account(call), floe_call_region(call))) == NULL)
        return FLOE_EFAIL;
    return read_page(call, stmt, listing, page_size, out);
}

int floe_table_bucket_scopes(floe_call_t *call, const char *account_id, floe_scope_t **scopes, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_bucket_scopes, "t", account_id);
    floe_scope_t *found = NULL;
    size_t count = 0, cap = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        found = floe_call_grow(call, found, count, &cap, sizeof(*found));
        snprintf(found[count].account_id, sizeof(found[count].account_id), "%s",
                 floe_db_column_text(stmt, 0));
        snprintf(found[count].region, sizeof(found[count].region), "%s", floe_db_column_text(stmt, 1));
        count++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *scopes = found;
    *n = count;
    return FLOE_OK;
}

int floe_table_bucket_adopt_unscoped(floe_state_t *st, const char *account_id, const char *region)
{
    /* Outside any call (there is no request at start-up): the connection's own checked statements. */
    int rc = floe_state_begin(st);

    if (rc == FLOE_OK)
        rc = floe_db_exec(st, sql_adopt_buckets, "tt", account_id, region);
    if (rc == FLOE_OK)
        rc = floe_db_exec(st, sql_adopt_s3_buckets, "t", account_id);
    if (rc == FLOE_OK)
        rc = floe_state_commit(st);
    if (rc != FLOE_OK)
        fprintf(stderr, "floe: cannot give existing buckets the default account and region: %s\n",
                floe_state_errmsg(st));
    floe_state_end_call(st);
    return rc;
}
