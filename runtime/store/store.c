/*
 * The object store's front (store.h): the contract functions the S3 Tables handlers call, built on
 * the wing's other files (blob.c: object files; sql.c: checked statements; bucket.c: bucket rows;
 * object.c: object rows and listings; upload.c: multipart uploads; recover.c: the start-up sweep),
 * and the design notes they all keep. Nothing in the wing calls back into this file. Not for HTTP:
 * the S3 data plane in runtime/s3/ maps requests onto the wing's calls.
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

#include "base/failure.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "store/store.h"

int floe_store_create_bucket(floe_state_t *st, const char *name, bool is_warehouse, int64_t now_ms)
{
    /* One INSERT needs no transaction of its own, so inside the caller's it simply joins it. */
    return floe_store_bucket_create(st, name, is_warehouse, "", NULL, now_ms);
}

/* The id of bucket `name`: FLOE_OK, FLOE_ENOTFOUND or FLOE_EFAIL. */
static int bucket_id(floe_state_t *st, const char *name, int64_t *id)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    int result;

    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, name, &b)) == FLOE_OK)
        *id = b.id;
    h2o_mem_clear_pool(&pool);
    return result;
}

int floe_store_delete_bucket_recursive(floe_state_t *st, const char *data_dir, const char *bucket)
{
    int64_t id;
    int result = bucket_id(st, bucket, &id);

    if (result == FLOE_OK)
        return floe_store_bucket_purge(st, data_dir, id);
    return result == FLOE_ENOTFOUND ? FLOE_OK : result; /* already gone: idempotent */
}

int floe_store_delete_bucket_rows(floe_state_t *st, const char *bucket, floe_store_ids_t *files)
{
    int64_t id;
    int result = bucket_id(st, bucket, &id);

    if (result == FLOE_OK)
        return floe_store_bucket_purge_rows(st, id, files);
    return result == FLOE_ENOTFOUND ? FLOE_OK : result; /* already gone: idempotent */
}

/* ---- whole objects from memory (the contract functions) ---- */

int floe_store_put_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                          const void *data, size_t len, const char *content_type, int64_t now_ms,
                          char etag[33])
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_blob_t blob;
    floe_store_object_t obj = {0};
    char hex[33];
    int result;

    if (floe_db_in_transaction(st)) {
        floe_log("store: floe_store_put_object called inside a transaction (it fsyncs); refused");
        return FLOE_EFAIL;
    }
    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) != FLOE_OK)
        goto Exit;
    result = FLOE_EFAIL;
    if (floe_store_blob_put(data_dir, data, len, &blob, hex))
        goto Exit;
    obj.key = (char *)key;
    memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
    obj.size = (int64_t)len;
    obj.etag = hex;
    obj.content_type = (char *)content_type;
    obj.last_modified_ms = now_ms;
    if ((result = floe_store_object_commit(st, data_dir, b.id, &obj, NULL)) != FLOE_OK) {
        floe_store_blob_discard(&blob);
        goto Exit;
    }
    memcpy(etag, hex, 33);
Exit:
    h2o_mem_clear_pool(&pool);
    return result;
}

/* Reads a whole open file of `size` bytes into a malloc'ed buffer. FLOE_OK or FLOE_EFAIL. */
/* Reads len bytes from offset of fd into a malloc'ed buffer, NUL-terminated for text readers. */
static int read_span(int fd, uint64_t offset, size_t len, char **data)
{
    char *buf = floe_xmalloc(len + 1);
    size_t got = 0;

    while (got < len) {
        ssize_t n = pread(fd, buf + got, len - got, (off_t)(offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(buf);
            return FLOE_EFAIL;
        }
        got += (size_t)n;
    }
    buf[len] = '\0';
    *data = buf;
    return FLOE_OK;
}

#define READ_RETRIES 3 /* a concurrent overwrite can unlink the file between the row and open() */

int floe_store_read_object_range(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                 uint64_t offset, size_t max, char **data, size_t *len, uint64_t *size)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    int result;
    int fd = -1;

    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) != FLOE_OK)
        goto Exit;
    for (int attempt = 0; attempt < READ_RETRIES && fd < 0; attempt++) {
        if ((result = floe_store_object_get(st, &pool, b.id, key, &obj)) != FLOE_OK)
            goto Exit;
        fd = floe_store_file_open(data_dir, obj.file_id);
    }
    result = FLOE_EFAIL;
    if (fd < 0) {
        floe_log("store: cannot open the file of %s/%s: %s", bucket, key, strerror(errno));
        goto Exit;
    }
    *size = (uint64_t)obj.size;
    *len = offset >= *size ? 0 : (size_t)(*size - offset) < max ? (size_t)(*size - offset) : max;
    result = read_span(fd, offset, *len, data);
    close(fd);
Exit:
    h2o_mem_clear_pool(&pool);
    return result;
}

int floe_store_read_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                           char **data, size_t *len)
{
    uint64_t size;

    return floe_store_read_object_range(st, data_dir, bucket, key, 0, SIZE_MAX, data, len, &size);
}

int floe_store_head_object(floe_state_t *st, const char *bucket, const char *key, size_t *len)
{
    h2o_mem_pool_t pool;
    floe_store_bucket_t b;
    floe_store_object_t obj;
    int result;

    h2o_mem_init_pool(&pool);
    if ((result = floe_store_bucket_get(st, &pool, bucket, &b)) == FLOE_OK &&
        (result = floe_store_object_get(st, &pool, b.id, key, &obj)) == FLOE_OK && len != NULL)
        *len = (size_t)obj.size;
    h2o_mem_clear_pool(&pool);
    return result;
}
