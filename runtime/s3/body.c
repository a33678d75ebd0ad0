/*
 * The body writer of body.h:
 *
 *   check headers (Content-MD5 shape, checksum names and shape) ──▶ open blob
 *     ──▶ for each payload slice: MD5, checksum, SHA-256 (if asked), write, release pages
 *     ──▶ framing complete? decoded length as announced? ──▶ digests match? ──▶ publish
 *
 * Any failure discards the blob and answers the error, so a bad upload never leaves a file.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "base/failure.h"
#include "s3/body.h"
#include "s3/chunked.h"
#include "s3/error.h"
#include "s3/spill.h"

#define SLICE_SPILLED ((size_t)4 << 20) /* write + release step for file-backed bodies */
#define SLICE_MEMORY SIZE_MAX            /* in memory: one write per chunk */
#define SHA256_HEX_LEN 64
#define MD5_LEN 16
#define STREAMING_PREFIX "STREAMING-"
#define AWS_CHUNKED "aws-chunked"

typedef struct body_job {
    floe_s3_req_t *r;
    bool is_chunked;
    bool is_spilled;
    floe_s3_checksum_alg_t alg;
    floe_s3_checksum_alg_t default_alg; /* computed besides alg: CRC64NVME, when default and not alg */
    const char *expected_checksum; /* header value; NULL: from the trailer, or none */
    bool has_declared_trailer;     /* x-amz-trailer named the checksum: the body must carry it */
    bool has_md5;
    unsigned char expected_md5[MD5_LEN];
    bool has_sha256;
    unsigned char expected_sha256[32];
    bool has_decoded_length;
    uint64_t decoded_length;
    EVP_MD_CTX *md5;
    EVP_MD_CTX *sha256;
    floe_s3_checksum_t checksum;
    floe_s3_checksum_t default_checksum; /* S3's default CRC64NVME when the request named another; else NONE */
    floe_s3_chunked_t chunked;
} body_job_t;

/* True when the comma-separated header value list contains token (case-insensitive). */
static bool list_has_token(const char *list, const char *token)
{
    size_t n = strlen(token);
    for (const char *p = list; p != NULL && *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        const char *trim = end;
        while (trim > p && trim[-1] == ' ')
            trim--;
        if ((size_t)(trim - p) == n && strncasecmp(p, token, n) == 0)
            return true;
        p = end;
    }
    return false;
}

char *floe_s3_body_content_encoding(floe_s3_req_t *r)
{
    char *value = floe_s3_header(r, "content-encoding"), *out, *o, *save = NULL;

    if (value == NULL)
        return NULL;
    o = out = h2o_mem_alloc_pool(&r->req->pool, strlen(value) + 1);
    for (char *tok = strtok_r(value, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t n = strlen(tok);
        while (n > 0 && tok[n - 1] == ' ')
            n--;
        if (n == 0 || (n == sizeof(AWS_CHUNKED) - 1 && strncasecmp(tok, AWS_CHUNKED, n) == 0))
            continue;
        if (o != out)
            *o++ = ',';
        memcpy(o, tok, n);
        o += n;
    }
    *o = '\0';
    return o != out ? out : NULL;
}

static int invalid_request(floe_s3_req_t *r, const char *message)
{
    return floe_s3_fail(r, FLOE_S3_InvalidRequest, message, NULL);
}

/* The algorithm an x-amz-trailer header names, or NONE / -1. */
static int trailer_checksum(floe_s3_req_t *r, floe_s3_checksum_alg_t *alg)
{
    char *trailer = floe_s3_header(r, "x-amz-trailer");
    static const char prefix[] = "x-amz-checksum-";

    *alg = FLOE_S3_CK_NONE;
    if (trailer == NULL)
        return 0;
    if (strncasecmp(trailer, prefix, sizeof(prefix) - 1) != 0 ||
        (*alg = floe_s3_checksum_from_name(trailer + sizeof(prefix) - 1)) == FLOE_S3_CK_NONE)
        return invalid_request(r, "The value specified in the x-amz-trailer header is not supported");
    return 0;
}

int floe_s3_body_requested_checksum(floe_s3_req_t *r, floe_s3_checksum_alg_t *alg)
{
    floe_s3_checksum_alg_t found = FLOE_S3_CK_NONE, trailer;
    const char *named;

    for (int a = FLOE_S3_CK_CRC32; a < FLOE_S3_CK__COUNT; a++) {
        if (floe_s3_header(r, floe_s3_checksum_header((floe_s3_checksum_alg_t)a)) == NULL)
            continue;
        if (found != FLOE_S3_CK_NONE)
            return invalid_request(r, "Expecting a single x-amz-checksum- header. Multiple checksum Types are not "
                                      "allowed.");
        found = (floe_s3_checksum_alg_t)a;
    }
    if (trailer_checksum(r, &trailer) != 0)
        return FLOE_EFAIL;
    if (found == FLOE_S3_CK_NONE)
        found = trailer;
    if (found == FLOE_S3_CK_NONE && ((named = floe_s3_header(r, "x-amz-sdk-checksum-algorithm")) != NULL ||
                                     (named = floe_s3_header(r, "x-amz-checksum-algorithm")) != NULL)) {
        if ((found = floe_s3_checksum_from_name(named)) == FLOE_S3_CK_NONE)
            return invalid_request(r, "Checksum algorithm provided is unsupported. Please try again with any of the "
                                      "valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]");
    }
    *alg = found;
    return FLOE_OK;
}

/* Checks a base64 checksum value has the algorithm's digest length. */
static bool checksum_value_is_valid(floe_s3_checksum_alg_t alg, const char *value)
{
    unsigned char raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    return floe_s3_base64_decode(value, strlen(value), raw, sizeof(raw)) == (long)floe_s3_checksum_size(alg);
}

static int hex_nibble(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A 64-hex x-amz-content-sha256 into raw bytes; false for UNSIGNED-PAYLOAD, STREAMING-... etc. */
static bool parse_sha256_hex(const char *hex, unsigned char out[32])
{
    if (hex == NULL || strlen(hex) != SHA256_HEX_LEN)
        return false;
    for (int i = 0; i < 32; i++) {
        int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return true;
}

/* Reads the framing and the expected digests from the headers. 0, or -1 after an error reply. */
static int read_expectations(body_job_t *j, floe_s3_checksum_alg_t default_alg)
{
    floe_s3_req_t *r = j->r;
    char *encoding = floe_s3_header(r, "content-encoding"), *sha = floe_s3_header(r, "x-amz-content-sha256");
    char *md5 = floe_s3_header(r, "content-md5"), *decoded = floe_s3_header(r, "x-amz-decoded-content-length");

    j->is_chunked = list_has_token(encoding, AWS_CHUNKED) ||
                    (sha != NULL && strncmp(sha, STREAMING_PREFIX, sizeof(STREAMING_PREFIX) - 1) == 0);
    j->is_spilled = floe_s3_spill_is_spilled(r->req->entity.len);
    if (md5 != NULL &&
        !(j->has_md5 = floe_s3_base64_decode(md5, strlen(md5), j->expected_md5, MD5_LEN) == MD5_LEN))
        return floe_s3_fail(r, FLOE_S3_InvalidDigest, NULL, NULL);
    j->has_sha256 = !j->is_chunked && parse_sha256_hex(sha, j->expected_sha256);
    if (decoded != NULL) {
        char *end;
        j->decoded_length = strtoull(decoded, &end, 10);
        if (*decoded == '\0' || *end != '\0')
            return invalid_request(r, "x-amz-decoded-content-length is not a number.");
        j->has_decoded_length = true;
    }
    if (floe_s3_body_requested_checksum(r, &j->alg) != 0)
        return FLOE_EFAIL;
    j->has_declared_trailer = j->is_chunked && floe_s3_header(r, "x-amz-trailer") != NULL;
    if (j->alg == FLOE_S3_CK_NONE)
        j->alg = default_alg;
    j->default_alg = default_alg == FLOE_S3_CK_CRC64NVME && j->alg != default_alg ? default_alg : FLOE_S3_CK_NONE;
    if (j->alg != FLOE_S3_CK_NONE && (j->expected_checksum = floe_s3_header(r, floe_s3_checksum_header(j->alg))) &&
        !checksum_value_is_valid(j->alg, j->expected_checksum))
        return invalid_request(r, floe_s3_printf(r, "Value for %s header is invalid.", floe_s3_checksum_header(j->alg)));
    return FLOE_OK;
}

static void job_start(body_job_t *j)
{
    j->md5 = EVP_MD_CTX_new();
    j->sha256 = EVP_MD_CTX_new();
    EVP_DigestInit_ex(j->md5, EVP_md5(), NULL);
    EVP_DigestInit_ex(j->sha256, EVP_sha256(), NULL);
    floe_s3_checksum_init(&j->checksum, j->alg);
    floe_s3_checksum_init(&j->default_checksum, j->default_alg);
}

static void job_end(body_job_t *j)
{
    EVP_MD_CTX_free(j->md5);
    EVP_MD_CTX_free(j->sha256);
    floe_s3_checksum_dispose(&j->checksum);
    floe_s3_checksum_dispose(&j->default_checksum);
}

static void digest_slice(body_job_t *j, const char *p, size_t n)
{
    EVP_DigestUpdate(j->md5, p, n);
    floe_s3_checksum_update(&j->checksum, p, n);
    floe_s3_checksum_update(&j->default_checksum, p, n);
    if (j->has_sha256)
        EVP_DigestUpdate(j->sha256, p, n);
}

/* The next slice of payload: 1, 0 at the end, -1 on bad framing. */
static int next_slice(body_job_t *j, const char **pos, const char *end, h2o_iovec_t *out)
{
    size_t max = j->is_spilled ? SLICE_SPILLED : SLICE_MEMORY;

    if (j->is_chunked)
        return floe_s3_chunked_next(&j->chunked, out, max);
    if (*pos == end)
        return 0;
    out->base = (char *)*pos;
    out->len = (size_t)(end - *pos) < max ? (size_t)(end - *pos) : max;
    *pos += out->len;
    return 1;
}

/* Streams the payload into the blob. 0, or -1 after an error reply. */
static int copy_payload(body_job_t *j, floe_store_blob_t *blob)
{
    const char *pos = j->r->req->entity.base, *end = pos + j->r->req->entity.len;
    h2o_iovec_t slice;
    int rc;

    if (pos == NULL)
        pos = end = "";
    if (j->is_chunked)
        floe_s3_chunked_init(&j->chunked, pos, (size_t)(end - pos));
    while ((rc = next_slice(j, &pos, end, &slice)) > 0) {
        digest_slice(j, slice.base, slice.len);
        if (floe_store_blob_write(blob, slice.base, slice.len) != 0)
            return floe_s3_fail_internal(j->r, "cannot write the object file");
        if (j->is_spilled)
            floe_s3_spill_release(slice.base, slice.len);
    }
    if (rc < 0)
        return floe_s3_fail(j->r, FLOE_S3_IncompleteBody,
                            floe_s3_printf(j->r, "The aws-chunked body is malformed: %s.", j->chunked.error), NULL);
    if (j->is_chunked && j->has_decoded_length && j->decoded_length != j->chunked.decoded)
        return floe_s3_fail(j->r, FLOE_S3_IncompleteBody, NULL, NULL);
    return 0;
}

/* The checksum the client announced: the header, or the aws-chunked trailer. */
static const char *announced_checksum(body_job_t *j)
{
    if (j->expected_checksum != NULL)
        return j->expected_checksum;
    if (j->is_chunked && strcmp(j->chunked.checksum_name, floe_s3_checksum_header(j->alg)) == 0)
        return j->chunked.checksum_value;
    return NULL;
}

/* Finishes the digests and compares them with what was announced. 0, or -1 after an error reply. */
static int verify(body_job_t *j, floe_s3_body_digest_t *d)
{
    static const char hexdigits[] = "0123456789abcdef";
    unsigned char sha[32], crc64[FLOE_S3_CHECKSUM_MAX_BYTES];
    unsigned int n;
    const char *announced;

    EVP_DigestFinal_ex(j->md5, d->md5, &n);
    for (int i = 0; i < MD5_LEN; i++) {
        d->md5_hex[2 * i] = hexdigits[d->md5[i] >> 4];
        d->md5_hex[2 * i + 1] = hexdigits[d->md5[i] & 15];
    }
    d->md5_hex[32] = '\0';
    if (j->has_md5 && memcmp(j->expected_md5, d->md5, MD5_LEN) != 0)
        return floe_s3_fail(j->r, FLOE_S3_BadDigest, NULL, NULL);
    if (j->has_sha256 && (EVP_DigestFinal_ex(j->sha256, sha, &n), memcmp(sha, j->expected_sha256, 32) != 0))
        return floe_s3_fail(j->r, FLOE_S3_XAmzContentSHA256Mismatch, NULL, NULL);
    d->checksum_alg = j->alg;
    if (j->default_alg != FLOE_S3_CK_NONE)
        floe_s3_base64_encode(crc64, floe_s3_checksum_final(&j->default_checksum, crc64), d->default_checksum);
    if (j->alg == FLOE_S3_CK_NONE)
        return 0;
    floe_s3_base64_encode(d->checksum_raw, floe_s3_checksum_final(&j->checksum, d->checksum_raw), d->checksum);
    if (j->alg == FLOE_S3_CK_CRC64NVME)
        memcpy(d->default_checksum, d->checksum, sizeof(d->checksum));
    if ((announced = announced_checksum(j)) == NULL && j->has_declared_trailer)
        return invalid_request(j->r, floe_s3_printf(j->r, "The body ended without the %s trailer that x-amz-trailer "
                                                          "declared.", floe_s3_checksum_header(j->alg)));
    if (announced == NULL)
        return 0; /* only an algorithm was named: S3 computes and keeps the value */
    if (strcmp(announced, d->checksum) != 0)
        return floe_s3_fail(j->r, FLOE_S3_BadDigest,
                            floe_s3_printf(j->r, "The %s you specified did not match the calculated checksum.",
                                           floe_s3_checksum_name(j->alg)), NULL);
    return 0;
}

int floe_s3_body_store(floe_s3_req_t *r, floe_s3_checksum_alg_t default_alg, floe_store_blob_t *blob,
                       floe_s3_body_digest_t *digest)
{
    body_job_t j = {.r = r};
    int rc = -1;

    memset(digest, 0, sizeof(*digest));
    blob->id[0] = '\0';
    if (read_expectations(&j, default_alg) != 0)
        return FLOE_EFAIL;
    if (floe_store_blob_open(r->data_dir, blob) != 0)
        return floe_s3_fail_internal(r, "cannot create an object file");
    job_start(&j);
    if (copy_payload(&j, blob) != 0 || verify(&j, digest) != 0)
        goto Exit;
    digest->size = blob->size;
    if (floe_store_blob_finish(blob) != 0) {
        floe_s3_fail_internal(r, "cannot make the object file durable");
        goto Exit;
    }
    rc = 0;
Exit:
    if (rc != 0)
        floe_store_blob_discard(blob);
    job_end(&j);
    return rc;
}

int floe_s3_body_verify_small(floe_s3_req_t *r, bool checksum_is_the_objects)
{
    body_job_t j = {.r = r};
    floe_s3_body_digest_t digest;
    const char *body = r->req->entity.base != NULL ? r->req->entity.base : "";
    int rc;

    if (read_expectations(&j, FLOE_S3_CK_NONE) != 0)
        return FLOE_EFAIL;
    if (checksum_is_the_objects)
        j.alg = FLOE_S3_CK_NONE;
    j.is_chunked = false; /* XML bodies come whole */
    job_start(&j);
    digest_slice(&j, body, r->req->entity.len);
    memset(&digest, 0, sizeof(digest));
    rc = verify(&j, &digest);
    job_end(&j);
    return rc;
}
