/*
 * Multipart uploads of upload.h: the rows of s3_upload and s3_part and their life cycle.
 *
 * Design notes (the store-wide invariants are in store.c):
 *  1. An upload's life:
 *
 *       floe_store_upload_create ──▶ open ──floe_store_part_commit*──▶ open (parts replace parts
 *                                     │                                  with the same number)
 *                                     ├──floe_store_upload_complete──▶ gone; its object committed
 *                                     └──floe_store_upload_abort─────▶ gone
 *
 *     Every transition re-checks inside its transaction that the upload row still exists, so of
 *     two racing Complete/Abort/UploadPart calls exactly one wins and the others see NOT_FOUND
 *     and discard their own blob.
 *  2. A part is a published blob plus a row; the blob is published before the row commits, and
 *     a replaced part's file is unlinked after COMMIT, as for objects.
 *  3. Complete writes the object's blob from the part files before its transaction (the parts
 *     stay untouched), so a failed or lost Complete leaves the upload as it was. An upload of one
 *     part needs no new blob: its part file, published and durable since UploadPart, becomes the
 *     object's file in Complete's transaction (files are immutable and a file named by any row is
 *     never removed, store.c notes 3 and 4), saving a copy and its fdatasync and fsyncs.
 */
#include <assert.h>
#include <string.h>

#include "base/failure.h"
#include "base/ids.h"
#include "store/row_ids.h"
#include "store/upload.h"

FLOE_SQL(sql_upload_insert,
    "INSERT INTO s3_upload (bucket_id, upload_id, key, content_type, headers, checksum_algorithm, initiated,"
    " checksum_type) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
FLOE_SQL(sql_upload_get,
    "SELECT id, upload_id, key, content_type, headers, checksum_algorithm, initiated, checksum_type FROM s3_upload"
    " WHERE bucket_id = ?1 AND key = ?2 AND upload_id = ?3");
FLOE_SQL(sql_upload_exists, "SELECT 1 FROM s3_upload WHERE id = ?1");
FLOE_SQL(sql_upload_delete, "DELETE FROM s3_upload WHERE id = ?1");
FLOE_SQL(sql_upload_row_id, "SELECT id FROM s3_upload WHERE bucket_id = ?1 AND upload_id = ?2");
FLOE_SQL(sql_upload_list,
    "SELECT id, upload_id, key, content_type, headers, checksum_algorithm, initiated, checksum_type FROM s3_upload"
    " WHERE bucket_id = ?1 AND key >= ?2 AND key < ?3 AND (key, id) > (?4, ?5) ORDER BY key, id LIMIT ?6");
FLOE_SQL(sql_part_file, "SELECT file_id FROM s3_part WHERE upload_id = ?1 AND part_number = ?2");
FLOE_SQL(sql_part_files, "SELECT file_id FROM s3_part WHERE upload_id = ?1");
FLOE_SQL(sql_part_upsert,
    "INSERT INTO s3_part (upload_id, part_number, file_id, size, etag, checksum, last_modified)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    " ON CONFLICT (upload_id, part_number) DO UPDATE SET file_id = excluded.file_id, size = excluded.size,"
    " etag = excluded.etag, checksum = excluded.checksum, last_modified = excluded.last_modified");
FLOE_SQL(sql_part_list,
    "SELECT part_number, file_id, size, etag, checksum, last_modified FROM s3_part"
    " WHERE upload_id = ?1 AND part_number > ?2 ORDER BY part_number LIMIT ?3");
FLOE_SQL(sql_parts_delete, "DELETE FROM s3_part WHERE upload_id = ?1");

#define KEY_UPPER_BYTE "\xff" /* as in object.c: above every UTF-8 key */

static void read_upload_row(h2o_mem_pool_t *pool, floe_db_stmt_t *stmt, floe_store_upload_t *out)
{
    out->id = floe_db_column_int64(stmt, 0);
    out->upload_id = floe_db_text(pool, stmt, 1);
    out->key = floe_db_text(pool, stmt, 2);
    out->content_type = floe_db_text(pool, stmt, 3);
    out->headers = floe_db_text(pool, stmt, 4);
    out->checksum_algorithm = floe_db_text(pool, stmt, 5);
    out->initiated_ms = floe_db_column_int64(stmt, 6);
    out->checksum_type = floe_db_text(pool, stmt, 7);
}

int floe_store_upload_create(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                             floe_store_upload_t *up, int64_t now_ms)
{
    char *id = h2o_mem_alloc_pool(pool, FLOE_STORE_UPLOAD_ID_LEN + 1);
    floe_db_stmt_t *stmt;
    int rc;

    assert(up->key != NULL);
    floe_random_alnum(id, FLOE_STORE_UPLOAD_ID_LEN);
    stmt = floe_db_bind(st, sql_upload_insert, "itttttit", bucket_id, id, up->key, up->content_type, up->headers,
                           up->checksum_algorithm, now_ms, up->checksum_type);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_FOREIGNKEY);
    floe_db_reset(stmt);
    if (rc == FLOE_EFOREIGNKEY)
        return FLOE_ENOTFOUND; /* the bucket's foreign key: it was deleted since the caller looked it up */
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    up->id = floe_db_last_insert_id(st);
    up->upload_id = id;
    up->initiated_ms = now_ms;
    return FLOE_OK;
}

int floe_store_upload_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                          const char *upload_id, floe_store_upload_t *out)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_upload_get, "itt", bucket_id, key, upload_id);
    int result;

    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_db_step(st, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW: read_upload_row(pool, stmt, out); result = FLOE_OK; break;
    case FLOE_DB_DONE: result = FLOE_ENOTFOUND; break;
    default: result = FLOE_EFAIL; break;
    }
    floe_db_reset(stmt);
    return result;
}

/* Collects the file of part `part_number` (0: every part) of an upload. FLOE_OK or FLOE_EFAIL. */
static int collect_part_files(floe_state_t *st, int64_t upload_row_id, int part_number, floe_store_ids_t *files)
{
    floe_db_stmt_t *stmt = part_number > 0 ? floe_db_bind(st, sql_part_file, "in", upload_row_id, part_number)
                                         : floe_db_bind(st, sql_part_files, "i", upload_row_id);
    return stmt != NULL ? floe_store_collect_ids(st, stmt, files) : -1;
}

static int upsert_part(floe_state_t *st, int64_t upload_row_id, const floe_store_part_t *part)
{
    return floe_db_exec(st, sql_part_upsert, "intitti", upload_row_id, part->part_number, part->file_id,
                           part->size, part->etag, part->checksum, part->last_modified_ms);
}

/* Ends a transaction: on success commits and then removes `files`; otherwise rolls back. */
static int finish(floe_state_t *st, const char *data_dir, int result, floe_store_ids_t *files)
{
    if (result == FLOE_OK && (floe_store_ids_drop_named(st, files) || floe_state_commit(st) != 0))
        result = FLOE_EFAIL;
    if (result == FLOE_OK) {
        floe_store_ids_remove_files(files, data_dir);
    } else {
        floe_state_rollback(st);
        floe_store_ids_dispose(files);
    }
    return result;
}

int floe_store_part_commit(floe_state_t *st, const char *data_dir, int64_t upload_row_id,
                           const floe_store_part_t *part)
{
    floe_store_ids_t replaced = {0};
    int result;

    assert(part->part_number >= 1 && strlen(part->file_id) == FLOE_STORE_ID_LEN && part->etag != NULL);
    if (floe_db_begin_own(st))
        return FLOE_EFAIL;
    if ((result = floe_db_probe(st, sql_upload_exists, "i", upload_row_id)) == FLOE_OK &&
        (collect_part_files(st, upload_row_id, part->part_number, &replaced) || upsert_part(st, upload_row_id, part)))
        result = FLOE_EFAIL;
    return finish(st, data_dir, result, &replaced);
}

int floe_store_part_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t upload_row_id, int after, size_t max,
                         floe_store_part_t **out, size_t *n_out)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_part_list, "ini", upload_row_id, after, (int64_t)max);
    floe_store_part_t *parts = h2o_mem_alloc_pool(pool, (max ? max : 1) * sizeof(*parts));
    size_t n = 0;
    int rc = FLOE_DB_DONE;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while (n < max && (rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        floe_store_part_t *p = &parts[n++];
        p->part_number = floe_db_column_int(stmt, 0);
        floe_store_column_id(stmt, 1, p->file_id);
        p->size = floe_db_column_int64(stmt, 2);
        p->etag = floe_db_text(pool, stmt, 3);
        p->checksum = floe_db_text(pool, stmt, 4);
        p->last_modified_ms = floe_db_column_int64(stmt, 5);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE && rc != FLOE_DB_ROW)
        return FLOE_EFAIL;
    *out = parts;
    *n_out = n;
    return FLOE_OK;
}

/* Deletes the upload and its parts inside the caller's transaction, collecting the part files. */
static int delete_upload_rows(floe_state_t *st, int64_t upload_row_id, floe_store_ids_t *files)
{
    if (collect_part_files(st, upload_row_id, 0, files) || floe_db_exec(st, sql_parts_delete, "i", upload_row_id) ||
        floe_db_exec(st, sql_upload_delete, "i", upload_row_id))
        return FLOE_EFAIL;
    return FLOE_OK;
}

static bool ids_contain(const floe_store_ids_t *list, const char *id)
{
    for (size_t i = 0; i < list->n; i++)
        if (strcmp(list->ids[i], id) == 0)
            return true;
    return false;
}

int floe_store_upload_complete(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                               int64_t upload_row_id, const floe_store_object_t *obj, bool is_part_file)
{
    floe_store_ids_t files = {0};
    char old_file[FLOE_STORE_ID_LEN + 1];
    int result;
    int found = 0;

    if (floe_db_begin_own(st))
        return FLOE_EFAIL;
    if ((result = floe_db_probe(st, sql_upload_exists, "i", upload_row_id)) != FLOE_OK)
        return finish(st, data_dir, result, &files);
    if (delete_upload_rows(st, upload_row_id, &files))
        return finish(st, data_dir, FLOE_EFAIL, &files);
    /* an adopted part file must still be the part's: a replaced one is gone or about to go */
    if (is_part_file && !ids_contain(&files, obj->file_id))
        return finish(st, data_dir, FLOE_ECHANGED, &files);
    /* the adopted file stays in `files`: finish() keeps every file a row (now the object's) names */
    if ((found = floe_store_object_current(st, bucket_id, obj->key, old_file, NULL)) == FLOE_EFAIL ||
        floe_store_object_upsert(st, bucket_id, obj))
        return finish(st, data_dir, FLOE_EFAIL, &files);
    if (found == FLOE_OK && !ids_contain(&files, old_file))
        floe_store_ids_add(&files, old_file);
    return finish(st, data_dir, FLOE_OK, &files);
}

int floe_store_upload_abort(floe_state_t *st, const char *data_dir, int64_t upload_row_id)
{
    floe_store_ids_t files = {0};
    int result;

    if (floe_db_begin_own(st))
        return FLOE_EFAIL;
    if ((result = floe_db_probe(st, sql_upload_exists, "i", upload_row_id)) == FLOE_OK &&
        delete_upload_rows(st, upload_row_id, &files))
        result = FLOE_EFAIL;
    return finish(st, data_dir, result, &files);
}

/* The row id of `upload_id` into *id, or INT64_MAX when it is unknown (resume after the whole
 * key). FLOE_OK or FLOE_EFAIL (logged). */
static int upload_row_id_of(floe_state_t *st, int64_t bucket_id, const char *upload_id, int64_t *id)
{
    floe_db_stmt_t *stmt = floe_db_bind(st, sql_upload_row_id, "it", bucket_id, upload_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_NONE);
    *id = rc == FLOE_DB_ROW ? floe_db_column_int64(stmt, 0) : INT64_MAX;
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* Where a listing resumes: S3 resumes after every upload of key-marker alone, and after the
 * upload upload-id-marker of it when both are given. (key, id) > ("", -1) is the start. */
static int resume_point(floe_state_t *st, int64_t bucket_id, const char *key_marker, const char *upload_id_marker,
                        int64_t *after_id)
{
    *after_id = key_marker == NULL ? -1 : INT64_MAX;
    if (key_marker != NULL && upload_id_marker != NULL)
        return upload_row_id_of(st, bucket_id, upload_id_marker, after_id);
    return 0;
}

int floe_store_upload_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *prefix,
                           const char *key_marker, const char *upload_id_marker, size_t max,
                           floe_store_upload_t **out, size_t *n_out)
{
    floe_store_upload_t *items = h2o_mem_alloc_pool(pool, (max ? max : 1) * sizeof(*items));
    size_t prefix_len = prefix != NULL ? strlen(prefix) : 0, n = 0;
    char *upper = h2o_mem_alloc_pool(pool, prefix_len + sizeof(KEY_UPPER_BYTE));
    floe_db_stmt_t *stmt;
    int64_t after_id;
    int rc = FLOE_DB_DONE;

    if (resume_point(st, bucket_id, key_marker, upload_id_marker, &after_id))
        return FLOE_EFAIL;
    memcpy(upper, prefix != NULL ? prefix : "", prefix_len);
    memcpy(upper + prefix_len, KEY_UPPER_BYTE, sizeof(KEY_UPPER_BYTE));
    stmt = floe_db_bind(st, sql_upload_list, "itttii", bucket_id, prefix != NULL ? prefix : "", upper,
                           key_marker != NULL ? key_marker : "", after_id, (int64_t)max);
    if (stmt == NULL)
        return FLOE_EFAIL;
    while (n < max && (rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW)
        read_upload_row(pool, stmt, &items[n++]);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE && rc != FLOE_DB_ROW)
        return FLOE_EFAIL;
    *out = items;
    *n_out = n;
    return FLOE_OK;
}
