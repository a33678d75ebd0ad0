/*
 * The object store of store.h: buckets, the contract functions the S3 Tables handlers call, and
 * the helpers shared by runtime/store/ (blob.c: object files; object.c: object rows and
 * listings; upload.c: multipart uploads; recover.c: the start-up sweep). Not for HTTP: the S3
 * data plane in runtime/s3/ maps requests onto these calls.
 *
 * Design notes:
 *  1. Bytes and metadata live apart: an object's bytes are one file objects/<id[0..1]>/<id>, its
 *     metadata one row of s3_object (bucket, key, file id, size, ETag, ...). File names are random
 *     ids, never keys, so no key ("../x", "a/../../b") can name a path outside objects/.
 *  2. A row only ever names a complete, durable file. A write goes
 *
 *       (nothing) ──floe_store_blob_open──▶ tmp/obj-<id> (partial, never named by a row)
 *                 ──floe_store_blob_write*─▶ tmp/obj-<id>
 *                 ──floe_store_blob_finish─▶ objects/xx/<id> (fsynced, renamed, dir fsynced;
 *                                                             still named by no row)
 *                 ──floe_store_object_commit──▶ row names objects/xx/<id>   [one transaction]
 *                 ──(after COMMIT)──▶ the replaced file is unlinked
 *
 *     A crash before the COMMIT leaves a file no row names; a crash after it leaves the old file
 *     unnamed. Neither is visible to clients, and floe_store_recover() removes both at start-up.
 *  3. A file is unlinked only after the transaction that removed the last row naming it has
 *     committed. A rollback therefore never finds its file gone.
 *  4. Published files are immutable. Overwrites replace the row atomically; readers that read the
 *     row and then open the file may find it unlinked by a concurrent overwrite (ENOENT) and then
 *     read the row again. A reader holding the file open keeps reading the old bytes: an unlinked
 *     file lives until its last descriptor closes.
 *  5. Multipart parts are files too (s3_part rows). CompleteMultipartUpload writes a new blob from
 *     the parts, then one transaction makes it the object and deletes the upload and part rows;
 *     the part files go after COMMIT (invariant 3).
 *  6. Listings read the (bucket_id, key) primary key in order, never the directory.
 *  7. Children go before parents (parts, uploads, objects, bucket) inside one transaction; the
 *     schema's foreign keys refuse anything else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "log.h"
#include "store/store.h"
#include "store/internal.h"
#include "xalloc.h"

FLOE_SQL(sql_bucket_insert,
    "INSERT INTO s3_bucket (name, is_warehouse, region, created_at) VALUES (?1, ?2, ?3, ?4)");
FLOE_SQL(sql_bucket_get, "SELECT id, is_warehouse, region, created_at FROM s3_bucket WHERE name = ?1");
FLOE_SQL(sql_bucket_list, "SELECT name, created_at FROM s3_bucket WHERE is_warehouse = 0 ORDER BY name");
FLOE_SQL(sql_bucket_has_object, "SELECT 1 FROM s3_object WHERE bucket_id = ?1 LIMIT 1");
FLOE_SQL(sql_bucket_object_files, "SELECT file_id FROM s3_object WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_part_files,
    "SELECT p.file_id FROM s3_part p JOIN s3_upload u ON u.id = p.upload_id WHERE u.bucket_id = ?1");
FLOE_SQL(sql_bucket_delete_parts,
    "DELETE FROM s3_part WHERE upload_id IN (SELECT id FROM s3_upload WHERE bucket_id = ?1)");
FLOE_SQL(sql_bucket_delete_uploads, "DELETE FROM s3_upload WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_delete_objects, "DELETE FROM s3_object WHERE bucket_id = ?1");
FLOE_SQL(sql_bucket_delete, "DELETE FROM s3_bucket WHERE id = ?1");

/* ---- shared helpers (store/internal.h) ---- */

void floe_store_ids_add(floe_store_ids_t *list, const char *id)
{
    if (list->n == list->cap) {
        list->cap = list->cap ? list->cap * 2 : 16;
        list->ids = floe_xrealloc(list->ids, list->cap * sizeof(*list->ids));
    }
    snprintf(list->ids[list->n++], FLOE_STORE_ID_LEN + 1, "%s", id);
}

void floe_store_ids_add_column(floe_store_ids_t *list, sqlite3_stmt *stmt, int col)
{
    char id[FLOE_STORE_ID_LEN + 1];
    floe_store_column_id(stmt, col, id);
    floe_store_ids_add(list, id);
}

void floe_store_ids_remove_files(floe_store_ids_t *list, const char *data_dir)
{
    for (size_t i = 0; i < list->n; i++)
        floe_store_file_remove(data_dir, list->ids[i]);
    floe_store_ids_dispose(list);
}

void floe_store_ids_dispose(floe_store_ids_t *list)
{
    free(list->ids);
    memset(list, 0, sizeof(*list));
}

char *floe_store_column_dup(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, int col)
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    size_t n;
    char *copy;

    if (text == NULL)
        return NULL;
    n = (size_t)sqlite3_column_bytes(stmt, col);
    copy = h2o_mem_alloc_pool(pool, n + 1);
    memcpy(copy, text, n);
    copy[n] = '\0';
    return copy;
}

void floe_store_column_id(sqlite3_stmt *stmt, int col, char out[FLOE_STORE_ID_LEN + 1])
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    size_t n = text != NULL ? (size_t)sqlite3_column_bytes(stmt, col) : 0;

    if (n > FLOE_STORE_ID_LEN)
        n = FLOE_STORE_ID_LEN;
    memcpy(out, text != NULL ? (const char *)text : "", n);
    out[n] = '\0';
}

void floe_store_bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
    if (s != NULL)
        sqlite3_bind_text(stmt, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(stmt, i);
}

int floe_store_exec_stmt(floe_state_t *st, sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return 0;
    floe_log("store: %s: %s", sqlite3_sql(stmt), floe_state_errmsg(st));
    return -1;
}

int floe_store_begin(floe_state_t *st, int *is_own)
{
    *is_own = sqlite3_get_autocommit(floe_state_db(st));
    return *is_own ? floe_state_begin(st) : 0;
}

int floe_store_commit(floe_state_t *st, int is_own)
{
    return is_own ? floe_state_commit(st) : 0;
}

void floe_store_rollback(floe_state_t *st, int is_own)
{
    if (is_own)
        floe_state_rollback(st);
}

/* ---- buckets ---- */

floe_store_rc_t floe_store_bucket_create(floe_state_t *st, const char *name, bool is_warehouse, const char *region,
                                         int64_t now_ms)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_bucket_insert);
    int rc;

    if (stmt == NULL)
        return FLOE_STORE_ERROR;
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, is_warehouse);
    sqlite3_bind_text(stmt, 3, region != NULL ? region : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 4, now_ms);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return FLOE_STORE_OK;
    if (rc == SQLITE_CONSTRAINT)
        return FLOE_STORE_EXISTS;
    floe_log("store: cannot create bucket %s: %s", name, floe_state_errmsg(st));
    return FLOE_STORE_ERROR;
}

floe_store_rc_t floe_store_create_bucket(floe_state_t *st, const char *name, bool is_warehouse, int64_t now_ms)
{
    /* One INSERT needs no transaction of its own, so inside the caller's it simply joins it. */
    return floe_store_bucket_create(st, name, is_warehouse, "", now_ms);
}

floe_store_rc_t floe_store_bucket_get(floe_state_t *st, h2o_mem_pool_t *pool, const char *name,
                                      floe_store_bucket_t *out)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_bucket_get);
    floe_store_rc_t result = FLOE_STORE_ERROR;
    int rc;

    if (stmt == NULL)
        return FLOE_STORE_ERROR;
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(stmt, 0);
        out->is_warehouse = sqlite3_column_int(stmt, 1) != 0;
        out->region = floe_store_column_dup(pool, stmt, 2);
        out->created_ms = sqlite3_column_int64(stmt, 3);
        result = FLOE_STORE_OK;
    } else if (rc == SQLITE_DONE) {
        result = FLOE_STORE_NOT_FOUND;
    }
    sqlite3_reset(stmt);
    return result;
}

floe_store_rc_t floe_store_bucket_list(floe_state_t *st, h2o_mem_pool_t *pool, floe_store_bucket_entry_t **out,
                                       size_t *n_out)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_bucket_list);
    floe_store_bucket_entry_t *items = NULL;
    size_t n = 0, cap = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_STORE_ERROR;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (n == cap) {
            floe_store_bucket_entry_t *bigger = h2o_mem_alloc_pool(pool, (cap = cap ? cap * 2 : 16) * sizeof(*items));
            if (n > 0)
                memcpy(bigger, items, n * sizeof(*items));
            items = bigger;
        }
        items[n].name = floe_store_column_dup(pool, stmt, 0);
        items[n].created_ms = sqlite3_column_int64(stmt, 1);
        n++;
    }
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
        return FLOE_STORE_ERROR;
    *out = items;
    *n_out = n;
    return FLOE_STORE_OK;
}

/* Collects the file ids a query over ?1 = bucket_id returns. 0 or -1. */
static int collect_files(floe_state_t *st, const char *sql, int64_t bucket_id, floe_store_ids_t *files)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);
    int rc;

    if (stmt == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, bucket_id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        floe_store_ids_add_column(files, stmt, 0);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Runs a DELETE over ?1 = bucket_id. 0 or -1. */
static int delete_where_bucket(floe_state_t *st, const char *sql, int64_t bucket_id)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);
    if (stmt == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, bucket_id);
    return floe_store_exec_stmt(st, stmt);
}

/* Deletes the bucket's rows, children first (design note 7), gathering the files they named. */
static int delete_bucket_rows(floe_state_t *st, int64_t bucket_id, bool with_objects, floe_store_ids_t *files)
{
    if (collect_files(st, sql_bucket_part_files, bucket_id, files) ||
        (with_objects && collect_files(st, sql_bucket_object_files, bucket_id, files)))
        return -1;
    if (delete_where_bucket(st, sql_bucket_delete_parts, bucket_id) ||
        delete_where_bucket(st, sql_bucket_delete_uploads, bucket_id) ||
        (with_objects && delete_where_bucket(st, sql_bucket_delete_objects, bucket_id)) ||
        delete_where_bucket(st, sql_bucket_delete, bucket_id))
        return -1;
    return 0;
}

static int bucket_has_objects(floe_state_t *st, int64_t bucket_id)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_bucket_has_object);
    int rc;

    if (stmt == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, bucket_id);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

floe_store_rc_t floe_store_bucket_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id)
{
    floe_store_ids_t files = {0};
    floe_store_rc_t result = FLOE_STORE_ERROR;
    int is_own, has;

    if (floe_store_begin(st, &is_own))
        return FLOE_STORE_ERROR;
    if ((has = bucket_has_objects(st, bucket_id)) != 0) {
        result = has > 0 ? FLOE_STORE_EXISTS : FLOE_STORE_ERROR;
        goto Exit;
    }
    /* S3 deletes a bucket whose only content is unfinished multipart uploads; so do we. */
    if (delete_bucket_rows(st, bucket_id, false, &files) || floe_store_commit(st, is_own))
        goto Exit;
    result = FLOE_STORE_OK;
Exit:
    if (result != FLOE_STORE_OK) {
        floe_store_rollback(st, is_own);
        floe_store_ids_dispose(&files);
    } else if (is_own) {
        floe_store_ids_remove_files(&files, data_dir);
    } else {
        floe_store_ids_dispose(&files); /* the start-up sweep removes them (invariant 3) */
    }
    return result;
}

floe_store_rc_t floe_store_delete_bucket_recursive(floe_state_t *st, const char *data_dir, const char *bucket)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_ids_t files = {0};
    floe_store_rc_t result = FLOE_STORE_ERROR;
    int is_own = 0, began = 0;

    h2o_mem_init_pool(&pool);
    switch (floe_store_bucket_get(st, &pool, bucket, &b)) {
    case FLOE_STORE_OK:
        break;
    case FLOE_STORE_NOT_FOUND:
        result = FLOE_STORE_OK;
        goto Exit;
    default:
        goto Exit;
    }
    if (floe_store_begin(st, &is_own))
        goto Exit;
    began = 1;
    if (delete_bucket_rows(st, b.id, true, &files) || floe_store_commit(st, is_own))
        goto Exit;
    result = FLOE_STORE_OK;
Exit:
    if (result != FLOE_STORE_OK && began)
        floe_store_rollback(st, is_own);
    if (result == FLOE_STORE_OK && is_own)
        floe_store_ids_remove_files(&files, data_dir);
    else
        floe_store_ids_dispose(&files);
    h2o_mem_clear_pool(&pool);
    return result;
}

/* ---- whole objects from memory (the contract functions) ---- */

static void md5_hex(const void *data, size_t len, char out[33])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_Digest(data, len, digest, &n, EVP_md5(), NULL);
    for (unsigned int i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

floe_store_rc_t floe_store_put_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                      const void *data, size_t len, const char *content_type, int64_t now_ms,
                                      char etag[33])
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_blob_t blob;
    floe_store_object_t obj = {0};
    char hex[33];
    floe_store_rc_t result;

    if (!sqlite3_get_autocommit(floe_state_db(st))) {
        floe_log("store: floe_store_put_object called inside a transaction (it fsyncs); refused");
        return FLOE_STORE_ERROR;
    }
    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) != FLOE_STORE_OK)
        goto Exit;
    result = FLOE_STORE_ERROR;
    if (floe_store_blob_open(data_dir, &blob))
        goto Exit;
    if (floe_store_blob_write(&blob, data, len) || floe_store_blob_finish(&blob)) {
        floe_store_blob_discard(&blob);
        goto Exit;
    }
    md5_hex(data, len, hex);
    obj.key = (char *)key;
    memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
    obj.size = (int64_t)len;
    obj.etag = hex;
    obj.content_type = (char *)content_type;
    obj.last_modified_ms = now_ms;
    if ((result = floe_store_object_commit(st, data_dir, b.id, &obj, NULL)) != FLOE_STORE_OK) {
        floe_store_blob_discard(&blob);
        goto Exit;
    }
    memcpy(etag, hex, 33);
Exit:
    h2o_mem_clear_pool(&pool);
    return result;
}

/* Reads a whole open file of `size` bytes into a malloc'ed buffer. 0 or -1. */
static int read_whole(int fd, size_t size, char **data)
{
    char *buf = floe_xmalloc(size + 1);
    size_t got = 0;

    while (got < size) {
        ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(buf);
            return -1;
        }
        got += (size_t)n;
    }
    buf[size] = '\0';
    *data = buf;
    return 0;
}

#define READ_RETRIES 3 /* a concurrent overwrite can unlink the file between the row and open() */

floe_store_rc_t floe_store_read_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                       char **data, size_t *len)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    floe_store_rc_t result;
    int fd = -1;

    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) != FLOE_STORE_OK)
        goto Exit;
    for (int attempt = 0; attempt < READ_RETRIES && fd < 0; attempt++) {
        if ((result = floe_store_object_get(st, &pool, b.id, key, &obj)) != FLOE_STORE_OK)
            goto Exit;
        fd = floe_store_file_open(data_dir, obj.file_id);
    }
    result = FLOE_STORE_ERROR;
    if (fd < 0) {
        floe_log("store: cannot open the file of %s/%s: %s", bucket, key, strerror(errno));
        goto Exit;
    }
    if (read_whole(fd, (size_t)obj.size, data) == 0) {
        *len = (size_t)obj.size;
        result = FLOE_STORE_OK;
    }
    close(fd);
Exit:
    h2o_mem_clear_pool(&pool);
    return result;
}

floe_store_rc_t floe_store_head_object(floe_state_t *st, const char *bucket, const char *key, size_t *len)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    floe_store_rc_t result;

    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) == FLOE_STORE_OK &&
        (result = floe_store_object_get(st, &pool, b.id, key, &obj)) == FLOE_STORE_OK && len != NULL)
        *len = (size_t)obj.size;
    h2o_mem_clear_pool(&pool);
    return result;
}
