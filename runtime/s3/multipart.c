/*
 * Multipart uploads: CreateMultipartUpload, UploadPart, CompleteMultipartUpload and
 * AbortMultipartUpload (the listings are in multipart_list.c). The upload's life cycle and its
 * crash safety are the store's (store/upload.c, design notes); this file speaks S3:
 *  - parts are 1..10,000; every part but the last is at least 5 MiB (EntityTooSmall);
 *  - Complete lists parts in ascending order (InvalidPartOrder), each with the ETag UploadPart
 *    returned (InvalidPart);
 *  - the object's ETag is the MD5 of the parts' binary MD5s, then "-" and the part count;
 *  - the checksum type (x-amz-checksum-type) says how the parts' checksums make the object's:
 *    COMPOSITE, a checksum of theirs ("<base64>-N"), or FULL_OBJECT, the CRC of the whole object
 *    combined from the parts' CRCs; CRC64NVME is FULL_OBJECT only, SHA-1 and SHA-256 COMPOSITE
 *    only, CRC32 and CRC32C either (COMPOSITE by default). An upload naming no algorithm gets S3's
 *    default, a FULL_OBJECT CRC64NVME.
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "base/failure.h"
#include "s3/body.h"
#include "s3/error.h"
#include "s3/meta.h"
#include "s3/ops.h"
#include "s3/xml.h"
#include "s3/xml_body.h"

#define MIN_PART_SIZE ((int64_t)5 << 20) /* every part but the last */

typedef struct complete_part {
    floe_s3_listed_part_t listed;
    const floe_store_part_t *stored;
} complete_part_t;

/* Looks up the upload r names (?uploadId=). -1 after answering NoSuchUpload or an error. */
static int upload_lookup(floe_s3_req_t *r, int64_t bucket_id, floe_store_upload_t *up)
{
    const char *id = floe_s3_query(r, "uploadId");

    switch (id != NULL ? floe_store_upload_get(r->st, &r->req->pool, bucket_id, r->key, id, up) : FLOE_ENOTFOUND) {
    case FLOE_OK: return 0;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchUpload, NULL, "UploadId", id, NULL);
    default: return floe_s3_fail_internal(r, "cannot look the upload up");
    }
}

#define FULL_OBJECT "FULL_OBJECT"
#define COMPOSITE "COMPOSITE"

/* The upload's checksum type from x-amz-checksum-type and the algorithm; NULL without an
 * algorithm. 0, or -1 after answering InvalidRequest. */
static int choose_checksum_type(floe_s3_req_t *r, floe_s3_checksum_alg_t alg, char **type)
{
    char *asked = floe_s3_header(r, "x-amz-checksum-type");
    const char *only = alg == FLOE_S3_CK_CRC64NVME ? FULL_OBJECT : floe_s3_checksum_is_crc(alg) ? NULL : COMPOSITE;

    *type = NULL;
    if (asked != NULL && strcmp(asked, FULL_OBJECT) != 0 && strcmp(asked, COMPOSITE) != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidRequest, "Value for x-amz-checksum-type header is invalid.", NULL);
    if (alg == FLOE_S3_CK_NONE)
        return asked == NULL ? 0
                             : floe_s3_fail(r, FLOE_S3_InvalidRequest, "The x-amz-checksum-type header can only be "
                                                                       "used with the x-amz-checksum-algorithm header.",
                                            NULL);
    if (asked != NULL && only != NULL && strcmp(asked, only) != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidRequest,
                            floe_s3_printf(r, "The %s checksum type cannot be used with the %s checksum algorithm.",
                                           asked, floe_s3_checksum_header(alg) + sizeof("x-amz-checksum-") - 1),
                            NULL);
    *type = asked != NULL ? asked : (char *)(only != NULL ? only : COMPOSITE);
    return 0;
}

int floe_s3_create_multipart_upload(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t up = {0};
    floe_s3_checksum_alg_t alg;
    floe_s3_meta_t meta;
    floe_s3_xml_t x;

    if (floe_s3_bucket_lookup(r, &b) != 0 || floe_s3_meta_from_request(r, &meta) != 0 ||
        floe_s3_body_requested_checksum(r, &alg) != 0 || choose_checksum_type(r, alg, &up.checksum_type) != 0)
        return FLOE_EFAIL;
    up.key = r->key;
    up.content_type = meta.content_type;
    up.headers = meta.headers;
    up.checksum_algorithm = (char *)floe_s3_checksum_name(alg);
    switch (floe_store_upload_create(r->st, &r->req->pool, b.id, &up, r->now_ms)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL); /* deleted meanwhile */
    default: return floe_s3_fail_internal(r, "cannot start the upload");
    }
    if (alg != FLOE_S3_CK_NONE) {
        floe_s3_add_header(r, "x-amz-checksum-algorithm", floe_s3_checksum_name(alg));
        floe_s3_add_header(r, "x-amz-checksum-type", up.checksum_type);
    }
    floe_s3_xml_begin(&x, "InitiateMultipartUploadResult");
    floe_s3_xml_elem(&x, "Bucket", r->bucket);
    floe_s3_xml_elem(&x, "Key", r->key);
    floe_s3_xml_elem(&x, "UploadId", up.upload_id);
    floe_s3_xml_close(&x, "InitiateMultipartUploadResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_OK;
}

/* The algorithm of the upload's parts' stored checksums: its own, or S3's default CRC64NVME. */
static floe_s3_checksum_alg_t upload_checksum_alg(const floe_store_upload_t *up)
{
    return up->checksum_algorithm != NULL ? floe_s3_checksum_from_name(up->checksum_algorithm) : FLOE_S3_CK_CRC64NVME;
}

int floe_s3_upload_part(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t up;
    floe_store_blob_t blob;
    floe_s3_body_digest_t d;
    floe_store_part_t part = {0};
    int number = floe_s3_part_number_parse(floe_s3_query(r, "partNumber"));

    if (number == 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Part number must be an integer between 1 and 10000, "
                                 "inclusive", "ArgumentName", "partNumber", NULL);
    if (floe_s3_bucket_lookup(r, &b) != 0 || upload_lookup(r, b.id, &up) != 0 ||
        floe_s3_body_store(r, upload_checksum_alg(&up), &blob, &d) != 0)
        return FLOE_EFAIL;
    part.part_number = number;
    memcpy(part.file_id, blob.id, sizeof(part.file_id));
    part.size = (int64_t)d.size;
    part.etag = d.md5_hex;
    if (up.checksum_algorithm == NULL) /* the default: the part keeps its CRC64NVME for the object's */
        part.checksum = d.default_checksum;
    else
        part.checksum = d.checksum_alg != FLOE_S3_CK_NONE ? d.checksum : NULL;
    part.last_modified_ms = r->now_ms;
    switch (floe_store_part_commit(r->st, r->data_dir, up.id, &part)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: floe_store_blob_discard(&blob); return floe_s3_fail(r, FLOE_S3_NoSuchUpload, NULL, NULL);
    default: floe_store_blob_discard(&blob); return floe_s3_fail_internal(r, "cannot record the part");
    }
    floe_s3_add_header(r, "ETag", floe_s3_quoted_etag(r, d.md5_hex));
    if (d.checksum_alg != FLOE_S3_CK_NONE)
        floe_s3_add_header(r, floe_s3_checksum_header(d.checksum_alg), d.checksum);
    floe_s3_reply(r, 200, NULL, 0);
    return FLOE_OK;
}

int floe_s3_abort_multipart_upload(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t up;

    if (floe_s3_bucket_lookup(r, &b) != 0 || upload_lookup(r, b.id, &up) != 0)
        return FLOE_EFAIL;
    switch (floe_store_upload_abort(r->st, r->data_dir, up.id)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchUpload, NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot abort the upload");
    }
    floe_s3_reply(r, 204, NULL, 0);
    return FLOE_OK;
}

/* ---- CompleteMultipartUpload ---- */

/* Reads the body's part list (xml_body.h). The count, or -1 after answering MalformedXML or
 * InvalidPartOrder. */
static long read_parts(floe_s3_req_t *r, complete_part_t **out)
{
    floe_s3_listed_part_t *listed;
    complete_part_t *parts;
    size_t n;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_complete(&r->req->pool, r->req->entity.base, r->req->entity.len,
                                                         &listed, &n);

    if (!rc.is_ok)
        return floe_s3_fail(r, rc.error, NULL, NULL);
    parts = h2o_mem_alloc_pool(&r->req->pool, n * sizeof(*parts));
    for (size_t i = 0; i < n; i++)
        parts[i] = (complete_part_t){listed[i], NULL};
    *out = parts;
    return (long)n;
}

/* Matches the listed parts with the stored ones and checks sizes. 0, or -1 after answering. */
static int match_parts(floe_s3_req_t *r, const floe_store_upload_t *up, complete_part_t *parts, long n)
{
    size_t by_number_size = (FLOE_S3_MAX_PART_NUMBER + 1) * sizeof(floe_store_part_t *);
    const floe_store_part_t **by_number = h2o_mem_alloc_pool(&r->req->pool, by_number_size);
    floe_store_part_t *stored;
    size_t n_stored;

    memset(by_number, 0, by_number_size);
    if (floe_store_part_list(r->st, &r->req->pool, up->id, 0, FLOE_S3_MAX_PART_NUMBER, &stored, &n_stored) !=
        FLOE_OK)
        return floe_s3_fail_internal(r, "cannot list the parts");
    for (size_t i = 0; i < n_stored; i++)
        by_number[stored[i].part_number] = &stored[i];
    for (long i = 0; i < n; i++) {
        const floe_s3_listed_part_t *listed = &parts[i].listed;
        const floe_store_part_t *p = by_number[listed->number];
        if (p == NULL || strcmp(p->etag, listed->etag) != 0)
            return floe_s3_fail(r, FLOE_S3_InvalidPart, NULL, "UploadId", up->upload_id, "PartNumber",
                                     floe_s3_printf(r, "%d", listed->number), "ETag", listed->etag, NULL);
        if (i < n - 1 && p->size < MIN_PART_SIZE)
            return floe_s3_fail(r, FLOE_S3_EntityTooSmall, NULL, "ProposedSize",
                                     floe_s3_printf(r, "%" PRId64, p->size), "MinSizeAllowed",
                                     floe_s3_printf(r, "%" PRId64, MIN_PART_SIZE), "PartNumber",
                                     floe_s3_printf(r, "%d", listed->number), "ETag", listed->etag, NULL);
        parts[i].stored = p;
    }
    return 0;
}

static int hex_nibble(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "<md5 of the parts' binary MD5s>-N" into the pool. */
static char *multipart_etag(floe_s3_req_t *r, const complete_part_t *parts, long n)
{
    EVP_MD_CTX *md5 = EVP_MD_CTX_new();
    unsigned char raw[16], digest[16];
    unsigned int n_digest;
    char hex[33];

    EVP_DigestInit_ex(md5, EVP_md5(), NULL);
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 16; k++)
            raw[k] = (unsigned char)(hex_nibble(parts[i].stored->etag[2 * k]) << 4 |
                                     hex_nibble(parts[i].stored->etag[2 * k + 1]));
        EVP_DigestUpdate(md5, raw, sizeof(raw));
    }
    EVP_DigestFinal_ex(md5, digest, &n_digest);
    EVP_MD_CTX_free(md5);
    for (int k = 0; k < 16; k++)
        snprintf(hex + 2 * k, 3, "%02x", digest[k]);
    return floe_s3_printf(r, "%s-%ld", hex, n);
}

/* The composite checksum "<base64 of the checksum of the parts' raw checksums>-N", or NULL when
 * the upload has no algorithm or a part lacks its checksum. */
static char *composite_checksum(floe_s3_req_t *r, floe_s3_checksum_alg_t alg, const complete_part_t *parts, long n)
{
    floe_s3_checksum_t c;
    unsigned char raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    char b64[FLOE_S3_CHECKSUM_MAX_B64];
    long len;

    if (alg == FLOE_S3_CK_NONE)
        return NULL;
    floe_s3_checksum_init(&c, alg);
    for (long i = 0; i < n; i++) {
        const char *part = parts[i].stored->checksum;
        if (part == NULL || (len = floe_s3_base64_decode(part, strlen(part), raw, sizeof(raw))) < 0) {
            floe_s3_checksum_dispose(&c);
            return NULL;
        }
        floe_s3_checksum_update(&c, raw, (size_t)len);
    }
    floe_s3_base64_encode(raw, floe_s3_checksum_final(&c, raw), b64);
    floe_s3_checksum_dispose(&c);
    return floe_s3_printf(r, "%s-%ld", b64, n);
}

/* The FULL_OBJECT checksum: the CRC of the whole object, combined from the parts' CRCs and sizes
 * (checksum.h), or NULL when a part lacks its checksum. */
static char *full_object_checksum(floe_s3_req_t *r, floe_s3_checksum_alg_t alg, const complete_part_t *parts, long n)
{
    unsigned char raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    char b64[FLOE_S3_CHECKSUM_MAX_B64];
    size_t size = floe_s3_checksum_size(alg);
    uint64_t crc = 0;

    for (long i = 0; i < n; i++) {
        const char *part = parts[i].stored->checksum;
        uint64_t part_crc = 0;
        if (part == NULL || floe_s3_base64_decode(part, strlen(part), raw, sizeof(raw)) != (long)size)
            return NULL;
        for (size_t k = 0; k < size; k++) /* big-endian, as S3 writes CRCs */
            part_crc = part_crc << 8 | raw[k];
        crc = i == 0 ? part_crc : floe_s3_checksum_combine(alg, crc, part_crc, (uint64_t)parts[i].stored->size);
    }
    for (size_t k = 0; k < size; k++)
        raw[k] = (unsigned char)(crc >> (8 * (size - 1 - k)));
    floe_s3_base64_encode(raw, size, b64);
    return floe_s3_strndup(r, b64, strlen(b64));
}

/* Concatenates the part files into a published blob. 0, or -1 after answering. */
static int assemble(floe_s3_req_t *r, const complete_part_t *parts, long n, floe_store_blob_t *blob)
{
    if (floe_store_blob_open(r->data_dir, blob) != 0)
        return floe_s3_fail_internal(r, "cannot create an object file");
    for (long i = 0; i < n; i++) {
        uint64_t off = 0;
        int fd = floe_store_file_open(r->data_dir, parts[i].stored->file_id), rc;
        if (fd < 0) { /* replaced by a concurrent UploadPart */
            floe_store_blob_discard(blob);
            return floe_s3_fail(r, FLOE_S3_InvalidPart, NULL, NULL);
        }
        rc = floe_store_blob_copy_fd(blob, fd, &off, (uint64_t)parts[i].stored->size);
        close(fd);
        if (rc != 0) {
            floe_store_blob_discard(blob);
            return floe_s3_fail_internal(r, "cannot assemble the parts");
        }
    }
    if (floe_store_blob_finish(blob) != 0) {
        floe_store_blob_discard(blob);
        return floe_s3_fail_internal(r, "cannot make the object durable");
    }
    return 0;
}

/* A FULL_OBJECT checksum the client sends with CompleteMultipartUpload (x-amz-checksum-<alg>)
 * must be the one the parts make. 0, or -1 after answering BadDigest. */
static int check_announced(floe_s3_req_t *r, floe_s3_checksum_alg_t alg, const char *checksum)
{
    const char *announced = floe_s3_header(r, floe_s3_checksum_header(alg));

    if (announced == NULL || checksum == NULL || strchr(checksum, '-') != NULL || strcmp(announced, checksum) == 0)
        return 0;
    return floe_s3_fail(r, FLOE_S3_BadDigest,
                        floe_s3_printf(r, "The %s you specified did not match the calculated checksum.",
                                       floe_s3_checksum_name(alg)), NULL);
}

static void reply_completed(floe_s3_req_t *r, const floe_store_object_t *obj, floe_s3_checksum_alg_t alg)
{
    floe_s3_xml_t x;
    char *location = floe_s3_printf(r, "http://%.*s/%s/%s", (int)r->req->input.authority.len,
                                    r->req->input.authority.base, r->bucket, floe_s3_url_encode(&r->req->pool, r->key));

    floe_s3_xml_begin(&x, "CompleteMultipartUploadResult");
    floe_s3_xml_elem(&x, "Location", location);
    floe_s3_xml_elem(&x, "Bucket", r->bucket);
    floe_s3_xml_elem(&x, "Key", r->key);
    floe_s3_xml_elem_etag(&x, "ETag", obj->etag);
    if (obj->checksum != NULL) {
        floe_s3_xml_elem(&x, floe_s3_printf(r, "Checksum%s", floe_s3_checksum_name(alg)), obj->checksum);
        floe_s3_xml_elem(&x, "ChecksumType", floe_s3_checksum_type(obj->checksum));
    }
    floe_s3_xml_close(&x, "CompleteMultipartUploadResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
}

int floe_s3_complete_multipart_upload(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t up;
    floe_store_blob_t blob;
    floe_store_object_t obj = {0};
    complete_part_t *parts = NULL;
    floe_s3_checksum_alg_t alg;
    bool is_adopted;
    long n;

    if (floe_s3_bucket_lookup(r, &b) != 0 || upload_lookup(r, b.id, &up) != 0 || floe_s3_body_verify_small(r, true) != 0 ||
        (n = read_parts(r, &parts)) < 0 || match_parts(r, &up, parts, n) != 0)
        return FLOE_EFAIL;
    /* One part is the object as it stands: its file, durable since UploadPart, is adopted rather
     * than copied and synced again (floe_store_upload_complete checks it is still the part's). */
    if ((is_adopted = n == 1)) {
        memcpy(obj.file_id, parts[0].stored->file_id, sizeof(obj.file_id));
        obj.size = parts[0].stored->size;
    } else if (assemble(r, parts, n, &blob) != 0) {
        return FLOE_EFAIL;
    } else {
        memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
        obj.size = (int64_t)blob.size;
    }
    alg = upload_checksum_alg(&up);
    obj.key = r->key;
    obj.etag = multipart_etag(r, parts, n);
    obj.content_type = up.content_type;
    obj.headers = up.headers;
    /* no algorithm: S3's default FULL_OBJECT CRC64NVME; no type: an upload from before types, composite */
    if (up.checksum_algorithm == NULL || (up.checksum_type != NULL && strcmp(up.checksum_type, FULL_OBJECT) == 0))
        obj.checksum = full_object_checksum(r, alg, parts, n);
    else
        obj.checksum = composite_checksum(r, alg, parts, n);
    if (obj.checksum != NULL)
        obj.checksum_algorithm = (char *)floe_s3_checksum_name(alg);
    if (check_announced(r, alg, obj.checksum) != 0) {
        if (!is_adopted)
            floe_store_blob_discard(&blob);
        return FLOE_EFAIL;
    }
    obj.last_modified_ms = r->now_ms;
    switch (floe_store_upload_complete(r->st, r->data_dir, b.id, up.id, &obj, is_adopted)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND:
        if (!is_adopted) /* an adopted part file stays the upload's (or the winner's) */
            floe_store_blob_discard(&blob);
        return floe_s3_fail(r, FLOE_S3_NoSuchUpload, NULL, NULL);
    case FLOE_ECHANGED: return floe_s3_fail(r, FLOE_S3_InvalidPart, NULL, NULL); /* as when assemble finds it gone */
    default:
        if (!is_adopted)
            floe_store_blob_discard(&blob);
        return floe_s3_fail_internal(r, "cannot complete the upload");
    }
    reply_completed(r, &obj, alg);
    return FLOE_OK;
}
