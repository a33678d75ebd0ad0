/*
 * CopyObject: x-amz-copy-source names "bucket/key" (URL-encoded, optionally "?versionId=null"),
 * the x-amz-copy-source-if-* headers are its preconditions (412 when one fails), and
 * x-amz-metadata-directive chooses between the source's metadata (COPY, the default) and the
 * request's (REPLACE). Bytes are copied inside the kernel when the source's ETag is its MD5 (the
 * copy keeps it) and its whole-object checksum carries over; otherwise they are read and hashed:
 * a multipart source's copy gets a plain MD5 ETag, and a copy whose source has no whole-object
 * checksum (or that x-amz-checksum-algorithm asks for another) gets one computed, S3's default
 * CRC64NVME unless the request names an algorithm.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "http/uri.h"
#include "s3/checksum.h"
#include "s3/conditional.h"
#include "s3/error.h"
#include "s3/meta.h"
#include "s3/ops.h"
#include "s3/xml.h"

#define HASH_BUF ((size_t)1 << 20)

typedef struct copy_source {
    char *bucket;
    char *key;
} copy_source_t;

/* Parses x-amz-copy-source. 0, or -1 after answering InvalidArgument. */
static int parse_source(floe_s3_req_t *r, copy_source_t *src)
{
    char *raw = floe_s3_header(r, "x-amz-copy-source"), *q, *decoded, *slash;
    static const char version_param[] = "?versionId=";

    if ((q = strstr(raw, version_param)) != NULL) {
        if (strcmp(q + sizeof(version_param) - 1, "null") != 0)
            return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Invalid version id specified", NULL);
        *q = '\0';
    }
    decoded = floe_percent_decode(&r->req->pool, raw, strlen(raw), 0);
    if (decoded != NULL && *decoded == '/')
        decoded++;
    if (decoded == NULL || (slash = strchr(decoded, '/')) == NULL || slash == decoded || slash[1] == '\0')
        return floe_s3_fail(r, FLOE_S3_InvalidArgument,
                                 "Copy Source must mention the source bucket and key: sourcebucket/sourcekey",
                                 "ArgumentName", "x-amz-copy-source", NULL);
    *slash = '\0';
    src->bucket = decoded;
    src->key = slash + 1;
    return 0;
}

/* The x-amz-copy-source-if-* checks; a copy answers 412 for every failed one, 304 included. */
static int check_source_conditions(floe_s3_req_t *r, const floe_store_object_t *obj)
{
    floe_s3_cond_headers_t h = {
        floe_s3_header(r, "x-amz-copy-source-if-match"), floe_s3_header(r, "x-amz-copy-source-if-none-match"),
        floe_s3_header(r, "x-amz-copy-source-if-modified-since"),
        floe_s3_header(r, "x-amz-copy-source-if-unmodified-since")};
    const char *failed = "x-amz-copy-source-If-None-Match";

    if (floe_s3_conditional_evaluate(&h, obj->etag, obj->last_modified_ms, &failed) == FLOE_S3_COND_PASS)
        return 0;
    return floe_s3_fail(r, FLOE_S3_PreconditionFailed, NULL, "Condition", failed, NULL);
}

/* Copies len bytes of fd into the blob, with the MD5 in hex when md5_hex is not NULL and the
 * checksum ck computes (NONE: none). FLOE_OK or FLOE_EFAIL. */
static int copy_hashing(int fd, uint64_t len, floe_store_blob_t *blob, char *md5_hex, floe_s3_checksum_t *ck)
{
    /* on the heap for this call only: a thread-local array would be resident in every thread
     * from the start, used or not */
    char *buf = floe_xmalloc(HASH_BUF);
    EVP_MD_CTX *md5 = EVP_MD_CTX_new();
    unsigned char digest[16];
    unsigned int n_digest;
    uint64_t off = 0;
    int rc = -1;

    EVP_DigestInit_ex(md5, EVP_md5(), NULL);
    while (off < len) {
        ssize_t n = pread(fd, buf, len - off < HASH_BUF ? (size_t)(len - off) : HASH_BUF, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || floe_store_blob_write(blob, buf, (size_t)n) != 0)
            goto Exit;
        if (md5_hex != NULL)
            EVP_DigestUpdate(md5, buf, (size_t)n);
        floe_s3_checksum_update(ck, buf, (size_t)n);
        off += (uint64_t)n;
    }
    EVP_DigestFinal_ex(md5, digest, &n_digest);
    for (int i = 0; md5_hex != NULL && i < 16; i++)
        snprintf(md5_hex + 2 * i, 3, "%02x", digest[i]);
    rc = 0;
Exit:
    EVP_MD_CTX_free(md5);
    free(buf);
    return rc;
}

/* Writes the source's bytes into a published blob and sets the copy's ETag, and its checksum when
 * alg is not NONE. FLOE_OK or FLOE_EFAIL (answered). */
static int copy_bytes(floe_s3_req_t *r, int fd, const floe_store_object_t *src, floe_s3_checksum_alg_t alg,
                      floe_store_blob_t *blob, floe_store_object_t *dst)
{
    bool is_plain_md5 = strchr(src->etag, '-') == NULL;
    floe_s3_checksum_t ck;
    unsigned char raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    char b64[FLOE_S3_CHECKSUM_MAX_B64];
    uint64_t off = 0;
    int rc;

    if (floe_store_blob_open(r->data_dir, blob) != 0)
        return floe_s3_fail_internal(r, "cannot create an object file");
    floe_s3_checksum_init(&ck, alg);
    dst->etag = is_plain_md5 ? src->etag : h2o_mem_alloc_pool(&r->req->pool, 33);
    if (is_plain_md5 && alg == FLOE_S3_CK_NONE)
        rc = floe_store_blob_copy_fd(blob, fd, &off, (uint64_t)src->size);
    else
        rc = copy_hashing(fd, (uint64_t)src->size, blob, is_plain_md5 ? NULL : dst->etag, &ck);
    if (rc == 0 && alg != FLOE_S3_CK_NONE) {
        floe_s3_base64_encode(raw, floe_s3_checksum_final(&ck, raw), b64);
        dst->checksum_algorithm = (char *)floe_s3_checksum_name(alg);
        dst->checksum = floe_s3_strndup(r, b64, strlen(b64));
    }
    floe_s3_checksum_dispose(&ck);
    if (rc != 0 || floe_store_blob_finish(blob) != 0) {
        floe_store_blob_discard(blob);
        return floe_s3_fail_internal(r, "cannot copy the object's bytes");
    }
    return 0;
}

/* The checksum the copy must compute: NONE when the source's whole-object checksum carries over
 * (set in dst), else the one x-amz-checksum-algorithm names, or S3's default CRC64NVME. 0, or -1
 * after answering InvalidRequest. */
static int choose_checksum(floe_s3_req_t *r, const floe_store_object_t *src, floe_store_object_t *dst,
                           floe_s3_checksum_alg_t *alg)
{
    const char *named = floe_s3_header(r, "x-amz-checksum-algorithm");
    bool is_whole = src->checksum != NULL && src->checksum_algorithm != NULL && strchr(src->checksum, '-') == NULL;

    *alg = named != NULL ? floe_s3_checksum_from_name(named) : FLOE_S3_CK_NONE;
    if (named != NULL && *alg == FLOE_S3_CK_NONE)
        return floe_s3_fail(r, FLOE_S3_InvalidRequest, "Checksum algorithm provided is unsupported. Please try again "
                                                       "with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, "
                                                       "SHA256]", NULL);
    if (is_whole && (*alg == FLOE_S3_CK_NONE || *alg == floe_s3_checksum_from_name(src->checksum_algorithm))) {
        dst->checksum_algorithm = src->checksum_algorithm;
        dst->checksum = src->checksum;
        *alg = FLOE_S3_CK_NONE;
    } else if (*alg == FLOE_S3_CK_NONE) {
        *alg = FLOE_S3_CK_CRC64NVME;
    }
    return 0;
}

/* The copy's metadata: the source's, or the request's with REPLACE. 0, or -1 after an error. */
static int choose_metadata(floe_s3_req_t *r, const copy_source_t *s, const floe_store_object_t *src,
                           floe_store_object_t *dst)
{
    const char *directive = floe_s3_header(r, "x-amz-metadata-directive");
    floe_s3_meta_t meta;

    if (directive != NULL && strcmp(directive, "COPY") != 0 && strcmp(directive, "REPLACE") != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Unknown metadata directive.", NULL);
    if (directive == NULL || strcmp(directive, "COPY") == 0) {
        if (strcmp(s->bucket, r->bucket) == 0 && strcmp(s->key, r->key) == 0)
            return floe_s3_fail(r, FLOE_S3_InvalidRequest,
                                "This copy request is illegal because it is trying to copy an object to itself "
                                "without changing the object's metadata, storage class, website redirect location "
                                "or encryption attributes.", NULL);
        dst->content_type = src->content_type;
        dst->headers = src->headers;
        return FLOE_OK;
    }
    if (floe_s3_meta_from_request(r, &meta) != 0)
        return FLOE_EFAIL;
    dst->content_type = meta.content_type;
    dst->headers = meta.headers;
    return FLOE_OK;
}

/* Opens the source object; errors name the source, as S3's do. -1 after answering. */
static int open_source(floe_s3_req_t *r, const copy_source_t *s, floe_store_object_t *src)
{
    char *dst_bucket = r->bucket, *dst_key = r->key;
    int fd;

    r->bucket = s->bucket;
    r->key = s->key;
    fd = floe_s3_object_open(r, s->bucket, s->key, src);
    r->bucket = dst_bucket;
    r->key = dst_key;
    return fd;
}

static void reply_copied(floe_s3_req_t *r, const floe_store_object_t *dst)
{
    floe_s3_xml_t x;

    floe_s3_xml_begin(&x, "CopyObjectResult");
    floe_s3_xml_elem_time(&x, "LastModified", dst->last_modified_ms);
    floe_s3_xml_elem_etag(&x, "ETag", dst->etag);
    if (dst->checksum != NULL) {
        floe_s3_xml_elem(&x, "ChecksumType", floe_s3_checksum_type(dst->checksum));
        floe_s3_xml_elem(&x, floe_s3_printf(r, "Checksum%s", dst->checksum_algorithm), dst->checksum);
    }
    floe_s3_xml_close(&x, "CopyObjectResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
}

int floe_s3_copy_object(floe_s3_req_t *r)
{
    copy_source_t s = {0};
    floe_store_bucket_t db;
    floe_store_object_t src, dst = {0};
    floe_store_blob_t blob;
    floe_s3_checksum_alg_t alg;
    int fd, rc;

    if (parse_source(r, &s) != 0 || floe_s3_bucket_lookup(r, &db) != 0 || (fd = open_source(r, &s, &src)) < 0)
        return FLOE_EFAIL;
    rc = check_source_conditions(r, &src) || choose_metadata(r, &s, &src, &dst) ||
                 choose_checksum(r, &src, &dst, &alg) || copy_bytes(r, fd, &src, alg, &blob, &dst)
             ? -1
             : 0;
    close(fd);
    if (rc != 0)
        return FLOE_EFAIL;
    dst.key = r->key;
    memcpy(dst.file_id, blob.id, sizeof(dst.file_id));
    dst.size = src.size;
    dst.last_modified_ms = r->now_ms;
    switch (floe_store_object_commit(r->st, r->data_dir, db.id, &dst, NULL)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: floe_store_blob_discard(&blob); return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL);
    default: floe_store_blob_discard(&blob); return floe_s3_fail_internal(r, "cannot commit the copy");
    }
    reply_copied(r, &dst);
    return FLOE_OK;
}
