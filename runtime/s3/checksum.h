/*
 * The integrity checks S3 offers: the additional checksums (x-amz-checksum-crc32, -crc32c,
 * -crc64nvme, -sha1, -sha256: base64 of the big-endian digest) computed incrementally over a
 * body, and base64 itself. MD5 (Content-MD5, ETags) is computed by body.c with OpenSSL. Not for
 * deciding which checksum a request asks for (body.c).
 */
#ifndef FLOE_S3_CHECKSUM_H
#define FLOE_S3_CHECKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

typedef enum floe_s3_checksum_alg {
    FLOE_S3_CK_NONE = 0,
    FLOE_S3_CK_CRC32,
    FLOE_S3_CK_CRC32C,
    FLOE_S3_CK_CRC64NVME,
    FLOE_S3_CK_SHA1,
    FLOE_S3_CK_SHA256,
    FLOE_S3_CK__COUNT
} floe_s3_checksum_alg_t;

#define FLOE_S3_CHECKSUM_MAX_BYTES 32 /* SHA-256 */
#define FLOE_S3_CHECKSUM_MAX_B64 45   /* base64 of 32 bytes, and a NUL */

/** "CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256" (NULL for NONE). */
const char *floe_s3_checksum_name(floe_s3_checksum_alg_t alg);
/** The header carrying the value: "x-amz-checksum-crc32", ... (NULL for NONE). */
const char *floe_s3_checksum_header(floe_s3_checksum_alg_t alg);
/** The algorithm named s, case-insensitively ("crc32", "CRC32"); NONE if unknown. */
floe_s3_checksum_alg_t floe_s3_checksum_from_name(const char *s);
/** Bytes in the algorithm's digest. */
size_t floe_s3_checksum_size(floe_s3_checksum_alg_t alg);
/** S3's checksum type (x-amz-checksum-type, <ChecksumType>) of a stored checksum value:
 *  "COMPOSITE" for a multipart upload's checksum of its parts' checksums ("<base64>-N"), else
 *  "FULL_OBJECT", a checksum of the whole body, which every PutObject checksum is. Static string. */
const char *floe_s3_checksum_type(const char *value);

typedef struct floe_s3_checksum {
    floe_s3_checksum_alg_t alg;
    uint64_t crc;    /* CRC32, CRC32C, CRC64NVME */
    EVP_MD_CTX *md;  /* SHA1, SHA256 */
} floe_s3_checksum_t;

/** Starts a checksum (NONE is allowed and computes nothing); release with floe_s3_checksum_dispose. */
void floe_s3_checksum_init(floe_s3_checksum_t *c, floe_s3_checksum_alg_t alg);
void floe_s3_checksum_update(floe_s3_checksum_t *c, const void *data, size_t n);
/** Writes the digest (big-endian for CRCs) into out; returns its size. */
size_t floe_s3_checksum_final(floe_s3_checksum_t *c, unsigned char out[FLOE_S3_CHECKSUM_MAX_BYTES]);
void floe_s3_checksum_dispose(floe_s3_checksum_t *c);

/** The whole-buffer functions; pass 0 as crc to start, the previous result to continue. */
uint32_t floe_s3_crc32(uint32_t crc, const void *data, size_t n);
uint32_t floe_s3_crc32c(uint32_t crc, const void *data, size_t n);
uint64_t floe_s3_crc64nvme(uint64_t crc, const void *data, size_t n);
/** The CRC (CRC32, CRC32C or CRC64NVME) of A then B from crc1 of A, crc2 of B and B's length: how a
 *  multipart upload's FULL_OBJECT checksum comes from its parts' without reading them again. */
uint64_t floe_s3_checksum_combine(floe_s3_checksum_alg_t alg, uint64_t crc1, uint64_t crc2, uint64_t len2);
/** True for the CRCs, whose multipart checksum can be FULL_OBJECT. */
bool floe_s3_checksum_is_crc(floe_s3_checksum_alg_t alg);

/** Standard base64 with padding into out (4 * ceil(n / 3) + 1 bytes); returns the length. */
size_t floe_s3_base64_encode(const unsigned char *src, size_t n, char *out);
/** Decodes standard, padded base64; returns the decoded length, or -1 if malformed or longer than cap. */
long floe_s3_base64_decode(const char *src, size_t n, unsigned char *out, size_t cap);

#endif
