/*
 * The object rows of object.h: look-up, the commit that publishes a blob as an object, deletes,
 * and the ordered cursor that listings read. Each mutation is one transaction; files named by
 * rows it removed are unlinked after COMMIT (design notes 2-4 in store.c). Not for bytes (blob.c).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "store/object.h"
#include "store/row_ids.h"

/* The object-row columns every SELECT of s3_object lists, in this order (read_row, bind_row). */
#define OBJECT_COLUMNS "key, file_id, size, etag, content_type, headers, checksum_algorithm, checksum, last_modified"

FLOE_SQL(sql_object_get, "SELECT " OBJECT_COLUMNS " FROM s3_object WHERE bucket_id = ?1 AND key = ?2");
/* One read for bucket and object: the bucket row always, the object's columns NULL when absent. */
FLOE_SQL(sql_object_find,
    "SELECT o.key, o.file_id, o.size, o.etag, o.content_type, o.headers, o.checksum_algorithm, o.checksum,"
    " o.last_modified, b.id, b.is_warehouse, b.region, b.created_at"
    " FROM s3_bucket b LEFT JOIN s3_object o ON o.bucket_id = b.id AND o.key = ?2 WHERE b.name = ?1");
FLOE_SQL(sql_object_current, "SELECT file_id, etag FROM s3_object WHERE bucket_id = ?1 AND key = ?2");
FLOE_SQL(sql_object_upsert,
    "INSERT INTO s3_object (bucket_id, " OBJECT_COLUMNS ")"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    " ON CONFLICT (bucket_id, key) DO UPDATE SET file_id = excluded.file_id, size = excluded.size,"
    " etag = excluded.etag, content_type = excluded.content_type, headers = excluded.headers,"
    " checksum_algorithm = excluded.checksum_algorithm, checksum = excluded.checksum,"
    " last_modified = excluded.last_modified");
FLOE_SQL(sql_object_delete, "DELETE FROM s3_object WHERE bucket_id = ?1 AND key = ?2");
FLOE_SQL(sql_bucket_exists, "SELECT 1 FROM s3_bucket WHERE id = ?1");
/* Listing cursors: the primary key (bucket_id, key) serves both bounds and the order. */
FLOE_SQL(sql_cursor_after, "SELECT " OBJECT_COLUMNS " FROM s3_object"
                           " WHERE bucket_id = ?1 AND key > ?2 AND key < ?3 ORDER BY key");
FLOE_SQL(sql_cursor_from, "SELECT " OBJECT_COLUMNS " FROM s3_object"
                          " WHERE bucket_id = ?1 AND key >= ?2 AND key < ?3 ORDER BY key");

/* No key is valid UTF-8 with a 0xFF byte in it, so prefix + "\xff" bounds every key that starts
 * with prefix, and "\xff" alone bounds every key. */
#define KEY_UPPER_BYTE "\xff"

/* Reads one row of OBJECT_COLUMNS (starting at column 0) into out; strings in pool. */
static void read_row(h2o_mem_pool_t *pool, floe_db_stmt_t *stmt, floe_store_object_t *out)
{
    out->key = floe_db_text(pool, stmt, 0);
    floe_store_column_id(stmt, 1, out->file_id);
    out->size = floe_db_column_int64(stmt, 2);
    out->etag = floe_db_text(pool, stmt, 3);
    out->content_type = floe_db_text(pool, stmt, 4);
    out->headers = floe_db_text(pool, stmt, 5);
    out->checksum_algorithm = floe_db_text(pool, stmt, 6);
    out->checksum = floe_db_text(pool, stmt, 7);
    out->last_modified_ms = floe_db_column_int64(stmt, 8);
}

int floe_store_object_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                          floe_store_object_t *out)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_object_get, "it", bucket_id, key);
    int result;

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_db_step(st, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW: read_row(pool, stmt, out); result = FLOE_OK; break;
    case FLOE_DB_DONE: result = FLOE_ENOTFOUND; break;
    default: result = FLOE_EFAIL; break;
    }
    floe_db_reset(stmt);
    return result;
}

int floe_store_object_find(floe_state_t *st, h2o_mem_pool_t *pool, const char *bucket_name, const char *key,
                           floe_store_bucket_t *bucket, floe_store_object_t *obj)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_object_find, "tt", bucket_name, key);
    int result;

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_db_step(st, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW:
        read_row(pool, stmt, obj); /* obj->key is NULL when the LEFT JOIN found no object */
        bucket->id = floe_db_column_int64(stmt, 9);
        bucket->is_warehouse = floe_db_column_int(stmt, 10) != 0;
        bucket->region = floe_db_text(pool, stmt, 11);
        bucket->created_ms = floe_db_column_int64(stmt, 12);
        result = FLOE_OK;
        break;
    case FLOE_DB_DONE: result = FLOE_ENOTFOUND; break;
    default: result = FLOE_EFAIL; break;
    }
    floe_db_reset(stmt);
    return result;
}

int floe_store_object_current(floe_state_t *st, int64_t bucket_id, const char *key, char file_id[FLOE_STORE_ID_LEN + 1],
                              char **etag)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_object_current, "it", bucket_id, key);
    const char *text;
    int found;

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_db_step(st, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW:
        floe_store_column_id(stmt, 0, file_id);
        found = FLOE_OK;
        if (etag != NULL && (text = floe_db_column_text(stmt, 1)) == NULL) {
            floe_log("store: cannot read an ETag: %s", floe_state_errmsg(st)); /* NOT NULL column: out of memory */
            found = FLOE_EFAIL;
        } else if (etag != NULL) {
            *etag = floe_xstrdup(text);
        }
        break;
    case FLOE_DB_DONE: found = FLOE_ENOTFOUND; break;
    default: found = FLOE_EFAIL; break;
    }
    floe_db_reset(stmt);
    return found;
}

int floe_store_object_upsert(floe_state_t *st, int64_t bucket_id, const floe_store_object_t *obj)
{
    assert(obj->key != NULL && strlen(obj->file_id) == FLOE_STORE_ID_LEN && obj->etag != NULL);
    return floe_db_exec(st, sql_object_upsert, "ittittttti", bucket_id, obj->key, obj->file_id, obj->size,
                           obj->etag, obj->content_type, obj->headers, obj->checksum_algorithm, obj->checksum,
                           obj->last_modified_ms);
}

/* Whether a write may replace what is there now (found: 1 if an object exists with `etag`). */
static bool precondition_holds(const floe_store_precondition_t *pre, int found, const char *etag)
{
    if (pre == NULL)
        return true;
    if (pre->must_not_exist && found)
        return false;
    if (pre->etag != NULL && (!found || strcmp(pre->etag, etag) != 0))
        return false;
    return true;
}

int floe_store_object_commit(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                             const floe_store_object_t *obj, const floe_store_precondition_t *pre)
{
    char old_file[FLOE_STORE_ID_LEN + 1] = "";
    char *old_etag = NULL;
    int result;
    int found;

    if (floe_db_begin_own(st))
        return FLOE_EFAIL;
    if ((result = floe_db_probe(st, sql_bucket_exists, "i", bucket_id)) != FLOE_OK)
        goto Exit;
    result = FLOE_EFAIL;
    if ((found = floe_store_object_current(st, bucket_id, obj->key, old_file, &old_etag)) == FLOE_EFAIL)
        goto Exit;
    found = found == FLOE_OK; /* from here: whether a row was replaced */
    if (!precondition_holds(pre, found, old_etag)) {
        result = FLOE_EEXISTS;
        goto Exit;
    }
    if (floe_store_object_upsert(st, bucket_id, obj) ||
        (found && (found = floe_store_file_lookup_name(st, old_file)) == FLOE_EFAIL) || /* kept while a replica names it */
        floe_state_commit(st))
        goto Exit;
    result = FLOE_OK;
    if (found == FLOE_ENOTFOUND)
        floe_store_file_remove(data_dir, old_file);
Exit:
    if (result != FLOE_OK)
        floe_state_rollback(st);
    free(old_etag);
    return result;
}

/* Deletes one row, if there is one, inside the caller's transaction, remembering its file.
 * FLOE_OK or FLOE_EFAIL. */
static int delete_row(floe_state_t *st, int64_t bucket_id, const char *key, floe_store_ids_t *files)
{
    char file_id[FLOE_STORE_ID_LEN + 1];
    int found = floe_store_object_current(st, bucket_id, key, file_id, NULL);

    if (found != FLOE_OK)
        return found == FLOE_ENOTFOUND ? FLOE_OK : FLOE_EFAIL;
    if (floe_db_exec(st, sql_object_delete, "it", bucket_id, key))
        return FLOE_EFAIL;
    floe_store_ids_add(files, file_id);
    return FLOE_OK;
}

int floe_store_object_delete_many(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                                  const char *const *keys, size_t n_keys)
{
    floe_store_ids_t files = {0};

    if (floe_db_begin_own(st))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n_keys; i++) {
        if (delete_row(st, bucket_id, keys[i], &files))
            goto Error;
    }
    if (floe_store_ids_drop_named(st, &files) || floe_state_commit(st))
        goto Error;
    floe_store_ids_remove_files(&files, data_dir);
    return FLOE_OK;
Error:
    floe_state_rollback(st);
    floe_store_ids_dispose(&files);
    return FLOE_EFAIL;
}

int floe_store_object_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id, const char *key)
{
    return floe_store_object_delete_many(st, data_dir, bucket_id, &key, 1);
}

/* ---- listing cursor ---- */

/* Binds the cursor's statement from `lower` (copied: the caller's string may not outlive it). */
static int cursor_start(floe_store_cursor_t *c, const char *sql, const char *lower)
{
    c->stmt = floe_db_bind(c->st, sql, "iTt", c->bucket_id, lower, c->upper);
    return c->stmt != NULL ? FLOE_OK : FLOE_EFAIL;
}

int floe_store_cursor_open(floe_store_cursor_t *c, floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                           const char *prefix, const char *after)
{
    size_t n = prefix != NULL ? strlen(prefix) : 0;

    c->st = st;
    c->stmt = NULL;
    c->bucket_id = bucket_id;
    c->upper = h2o_mem_alloc_pool(pool, n + sizeof(KEY_UPPER_BYTE));
    memcpy(c->upper, prefix != NULL ? prefix : "", n);
    memcpy(c->upper + n, KEY_UPPER_BYTE, sizeof(KEY_UPPER_BYTE));
    /* Start from whichever lower bound is tighter, so the index seek skips everything before it. */
    if (after != NULL && (prefix == NULL || strcmp(after, prefix) >= 0))
        return cursor_start(c, sql_cursor_after, after);
    return cursor_start(c, sql_cursor_from, prefix != NULL ? prefix : "");
}

int floe_store_cursor_seek(floe_store_cursor_t *c, const char *from)
{
    floe_store_cursor_close(c);
    return cursor_start(c, sql_cursor_from, from);
}

int floe_store_cursor_next(floe_store_cursor_t *c, h2o_mem_pool_t *pool, floe_store_object_t *out)
{
    assert(c->stmt != NULL); /* opened (or re-seeked) successfully */
    switch (floe_db_step(c->st, c->stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW: read_row(pool, c->stmt, out); return FLOE_OK;
    case FLOE_DB_DONE: return FLOE_ENOTFOUND;
    default: return FLOE_EFAIL;
    }
}

void floe_store_cursor_close(floe_store_cursor_t *c)
{
    if (c->stmt != NULL)
        floe_db_reset(c->stmt);
    c->stmt = NULL;
}
