/*
 * Single-object writes and deletes: PutObject and DeleteObject, and the object opener GetObject
 * and CopyObject share. The bytes go through body.c into a blob; the store publishes it
 * (store.c, design note 2), so an interrupted or refused PutObject never shows a partial object.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/failure.h"
#include "s3/body.h"
#include "s3/error.h"
#include "s3/meta.h"
#include "s3/ops.h"

#define OPEN_RETRIES 3 /* see floe_s3_object_open */

int floe_s3_object_lookup(floe_s3_req_t *r, const char *bucket, const char *key, floe_store_object_t *obj)
{
    floe_store_bucket_t b;

    switch (floe_store_object_find(r->st, &r->req->pool, bucket, key, &b, obj)) {
    case FLOE_OK: return obj->key != NULL ? 0 : floe_s3_fail(r, FLOE_S3_NoSuchKey, NULL, NULL);
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot look the object up");
    }
}

int floe_s3_object_open(floe_s3_req_t *r, const char *bucket, const char *key, floe_store_object_t *obj)
{
    for (int attempt = 0; attempt < OPEN_RETRIES; attempt++) {
        int fd;
        if (floe_s3_object_lookup(r, bucket, key, obj) != 0)
            return FLOE_EFAIL;
        if ((fd = floe_store_file_open(r->data_dir, obj->file_id)) >= 0)
            return fd;
        if (errno != ENOENT)
            break;
    }
    return floe_s3_fail_internal(r, "cannot open the object's file");
}

/* PutObject's conditional writes: If-None-Match: * (only if absent), If-Match: "etag". */
static void write_precondition(floe_s3_req_t *r, floe_store_precondition_t *pre)
{
    char *none_match = floe_s3_header(r, "if-none-match"), *match = floe_s3_header(r, "if-match");
    size_t n;

    memset(pre, 0, sizeof(*pre));
    pre->must_not_exist = none_match != NULL && strcmp(none_match, "*") == 0;
    if (match != NULL && (n = strlen(match)) >= 2 && match[0] == '"' && match[n - 1] == '"')
        pre->etag = floe_s3_strndup(r, match + 1, n - 2);
    else
        pre->etag = match;
}

/* ETag and checksum headers of a successful write. AWS: "For PutObject uploads, the checksum type
 * is always FULL_OBJECT" (PutObject, x-amz-checksum-type). */
static void add_write_headers(floe_s3_req_t *r, const char *etag, floe_s3_checksum_alg_t alg, const char *checksum)
{
    floe_s3_add_header(r, "ETag", floe_s3_quoted_etag(r, etag));
    if (alg != FLOE_S3_CK_NONE) {
        floe_s3_add_header(r, floe_s3_checksum_header(alg), checksum);
        floe_s3_add_header(r, "x-amz-checksum-type", floe_s3_checksum_type(checksum));
    }
}

/* Commits the blob as the object; answers the error (and discards the blob) when that fails. */
static int commit(floe_s3_req_t *r, int64_t bucket_id, floe_store_blob_t *blob, floe_store_object_t *obj,
                  const floe_store_precondition_t *pre)
{
    int rc = floe_store_object_commit(r->st, r->data_dir, bucket_id, obj, pre);

    if (rc == FLOE_OK)
        return 0;
    floe_store_blob_discard(blob);
    if (rc == FLOE_EEXISTS)
        return floe_s3_fail(r, FLOE_S3_PreconditionFailed, NULL, "Condition",
                                 pre->must_not_exist ? "If-None-Match" : "If-Match", NULL);
    if (rc == FLOE_ENOTFOUND)
        return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL);
    return floe_s3_fail_internal(r, "cannot commit the object");
}

int floe_s3_put_object(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_precondition_t pre;
    floe_s3_meta_t meta;
    floe_store_blob_t blob;
    floe_s3_body_digest_t digest;
    floe_store_object_t obj = {0};

    if (floe_s3_bucket_lookup(r, &b) != 0 || floe_s3_meta_from_request(r, &meta) != 0)
        return FLOE_EFAIL;
    write_precondition(r, &pre);
    /* S3 adds a CRC64NVME to an upload that names no checksum (Checking object integrity) */
    if (floe_s3_body_store(r, FLOE_S3_CK_CRC64NVME, &blob, &digest) != 0)
        return FLOE_EFAIL;
    obj.key = r->key;
    memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
    obj.size = (int64_t)digest.size;
    obj.etag = digest.md5_hex;
    obj.content_type = meta.content_type;
    obj.headers = meta.headers;
    obj.checksum_algorithm = (char *)floe_s3_checksum_name(digest.checksum_alg);
    obj.checksum = digest.checksum_alg != FLOE_S3_CK_NONE ? digest.checksum : NULL;
    obj.last_modified_ms = r->now_ms;
    if (commit(r, b.id, &blob, &obj, &pre) != 0)
        return FLOE_EFAIL;
    add_write_headers(r, digest.md5_hex, digest.checksum_alg, digest.checksum);
    floe_s3_reply(r, 200, NULL, 0);
    return FLOE_OK;
}

int floe_s3_delete_object(floe_s3_req_t *r)
{
    floe_store_bucket_t b;

    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    if (floe_store_object_delete(r->st, r->data_dir, b.id, r->key) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot delete the object");
    floe_s3_reply(r, 204, NULL, 0); /* also for a key that was not there: S3's DeleteObject is idempotent */
    return FLOE_OK;
}
