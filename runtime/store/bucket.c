/*
 * The bucket rows of bucket.h. A bucket's deletion takes its children first (parts, uploads, then
 * objects when asked) inside one transaction, and removes the files they named only after that
 * transaction commits, and only when it was the store's own (design notes 3 and 7 in store.c).
 */
#include <assert.h>
#include <string.h>

#include "base/failure.h"
#include "store/bucket.h"
#include "store/row_ids.h"

FLOE_SQL(sql_bucket_insert,
    "INSERT INTO s3_bucket (name, is_warehouse, region, created_at, owner) VALUES (?1, ?2, ?3, ?4, ?5)");
FLOE_SQL(sql_bucket_get, "SELECT id, is_warehouse, region, created_at, owner FROM s3_bucket WHERE name = ?1");
FLOE_SQL(sql_bucket_list,
    "SELECT name, created_at FROM s3_bucket WHERE is_warehouse = 0 AND owner = ?1 ORDER BY name");
FLOE_SQL(sql_bucket_rename, "UPDATE s3_bucket SET name = ?2 WHERE name = ?1");
FLOE_SQL(sql_bucket_has_object, "SELECT 1 FROM s3_object WHERE bucket_id = ?1 LIMIT 1");
FLOE_SQL(sql_bucket_object_files, "SELECT file_id FROM s3_object WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_part_files,
    "SELECT p.file_id FROM s3_part p JOIN s3_upload u ON u.id = p.upload_id WHERE u.bucket_id = ?1");
FLOE_SQL(sql_bucket_delete_parts,
    "DELETE FROM s3_part WHERE upload_id IN (SELECT id FROM s3_upload WHERE bucket_id = ?1)");
FLOE_SQL(sql_bucket_delete_uploads, "DELETE FROM s3_upload WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_delete_objects, "DELETE FROM s3_object WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_delete, "DELETE FROM s3_bucket WHERE id = ?1");

#define BUCKET_LIST_FIRST_CAP 16

int floe_store_bucket_create(floe_state_t *st, const char *name, bool is_warehouse, const char *region,
                             const char *owner, int64_t now_ms)
{
    floe_db_stmt_t *stmt;
    int rc;

    assert(name != NULL);
    stmt = floe_db_bind(st, sql_bucket_insert, "tntit", name, (int)is_warehouse, region != NULL ? region : "",
                           now_ms, owner != NULL ? owner : "");
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_UNIQUE);
    floe_db_reset(stmt);
    switch (rc) {
    case FLOE_DB_DONE: return FLOE_OK;
    case FLOE_EUNIQUE: return FLOE_EEXISTS; /* the UNIQUE name */
    default: return FLOE_EFAIL;
    }
}

int floe_store_bucket_rename(floe_state_t *st, const char *from, const char *to)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_bucket_rename, "tt", from, to);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_NONE);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    return floe_db_changes(st) > 0 ? FLOE_OK : FLOE_ENOTFOUND;
}

int floe_store_bucket_get(floe_state_t *st, h2o_mem_pool_t *pool, const char *name,
                          floe_store_bucket_t *out)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_bucket_get, "t", name);
    int result;

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_db_step(st, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW:
        out->id = floe_db_column_int64(stmt, 0);
        out->is_warehouse = floe_db_column_int(stmt, 1) != 0;
        out->region = floe_db_text(pool, stmt, 2);
        out->created_ms = floe_db_column_int64(stmt, 3);
        out->owner = floe_db_text(pool, stmt, 4);
        result = FLOE_OK;
        break;
    case FLOE_DB_DONE: result = FLOE_ENOTFOUND; break;
    default: result = FLOE_EFAIL; break;
    }
    floe_db_reset(stmt);
    return result;
}

int floe_store_bucket_list(floe_state_t *st, h2o_mem_pool_t *pool, const char *owner,
                           floe_store_bucket_entry_t **out, size_t *n_out)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_bucket_list, "t", owner);
    floe_store_bucket_entry_t *items = NULL;
    size_t n = 0, cap = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : BUCKET_LIST_FIRST_CAP;
            floe_store_bucket_entry_t *bigger = h2o_mem_alloc_pool(pool, cap * sizeof(*items));
            if (n > 0)
                memcpy(bigger, items, n * sizeof(*items));
            items = bigger;
        }
        items[n].name = floe_db_text(pool, stmt, 0);
        items[n].created_ms = floe_db_column_int64(stmt, 1);
        n++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *out = items;
    *n_out = n;
    return FLOE_OK;
}

/* Collects the file ids a query over ?1 = bucket_id returns. FLOE_OK or FLOE_EFAIL. */
static int collect_files(floe_state_t *st, const char *sql, int64_t bucket_id, floe_store_ids_t *files)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql, "i", bucket_id);
    return stmt != NULL ? floe_store_collect_ids(st, stmt, files) : -1;
}

/* Deletes the bucket's rows, children first (design note 7), gathering the files they named. */
static int delete_bucket_rows(floe_state_t *st, int64_t bucket_id, bool with_objects, floe_store_ids_t *files)
{
    if (collect_files(st, sql_bucket_part_files, bucket_id, files) ||
        (with_objects && collect_files(st, sql_bucket_object_files, bucket_id, files)))
        return FLOE_EFAIL;
    if (floe_db_exec(st, sql_bucket_delete_parts, "i", bucket_id) ||
        floe_db_exec(st, sql_bucket_delete_uploads, "i", bucket_id) ||
        (with_objects && floe_db_exec(st, sql_bucket_delete_objects, "i", bucket_id)) ||
        floe_db_exec(st, sql_bucket_delete, "i", bucket_id))
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* Deletes the bucket, with its objects or only when it has none (FLOE_EEXISTS otherwise). */
static int delete_bucket(floe_state_t *st, const char *data_dir, int64_t bucket_id, bool with_objects)
{
    floe_store_ids_t files = {0};
    int result;
    int is_own;

    if (floe_db_begin(st, &is_own))
        return FLOE_EFAIL;
    if (!with_objects && (result = floe_db_probe(st, sql_bucket_has_object, "i", bucket_id)) != FLOE_ENOTFOUND) {
        if (result == FLOE_OK)
            result = FLOE_EEXISTS;
        goto Exit;
    }
    /* S3 deletes a bucket whose only content is unfinished multipart uploads; so do we. */
    result = FLOE_EFAIL;
    if (delete_bucket_rows(st, bucket_id, with_objects, &files) || floe_store_ids_drop_named(st, &files) ||
        floe_db_commit(st, is_own))
        goto Exit;
    result = FLOE_OK;
Exit:
    if (result != FLOE_OK)
        floe_db_rollback(st, is_own);
    if (result == FLOE_OK && is_own)
        floe_store_ids_remove_files(&files, data_dir);
    else
        floe_store_ids_dispose(&files); /* a joined transaction may still roll back: the start-up sweep removes them */
    return result;
}

int floe_store_bucket_purge_rows(floe_state_t *st, int64_t bucket_id, floe_store_ids_t *files)
{
    floe_store_ids_t own = {0}; /* apart, so files the caller gathered before are not looked up again */
    int result = FLOE_EFAIL;

    if (delete_bucket_rows(st, bucket_id, true, &own) == FLOE_OK && floe_store_ids_drop_named(st, &own) == FLOE_OK) {
        for (size_t i = 0; i < own.n; i++)
            floe_store_ids_add(files, own.ids[i]);
        result = FLOE_OK;
    }
    floe_store_ids_dispose(&own);
    return result;
}

int floe_store_bucket_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id)
{
    return delete_bucket(st, data_dir, bucket_id, false);
}

int floe_store_bucket_purge(floe_state_t *st, const char *data_dir, int64_t bucket_id)
{
    return delete_bucket(st, data_dir, bucket_id, true);
}
