/*
 * Request bodies of PutObject and UploadPart: from h2o's buffered entity into a published blob,
 * with every integrity check S3 makes on the way: the aws-chunked framing decoded (chunked.h),
 * Content-MD5, one x-amz-checksum-* (as a header or an aws-chunked trailer) and a hex
 * x-amz-content-sha256. Each byte is read once, hashed, and written once; bodies h2o spilled to
 * a file are released from memory as they are written (spill.h). Not for deciding what the
 * object is called or which metadata it keeps (object.c, multipart.c).
 */
#ifndef FLOE_S3_BODY_H
#define FLOE_S3_BODY_H

#include "s3/checksum.h"
#include "s3/request.h"
#include "store/store.h"

typedef struct floe_s3_body_digest {
    uint64_t size;                                  /* decoded payload bytes */
    unsigned char md5[16];
    char md5_hex[33];                               /* the ETag, unquoted */
    floe_s3_checksum_alg_t checksum_alg;            /* NONE when none was asked for */
    unsigned char checksum_raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    char checksum[FLOE_S3_CHECKSUM_MAX_B64];        /* base64 of checksum_raw */
    char default_checksum[FLOE_S3_CHECKSUM_MAX_B64]; /* the CRC64NVME when it is the default, else "" */
} floe_s3_body_digest_t;

/**
 * Writes the request body into a new blob and publishes it. `default_alg` is the checksum to
 * compute when the request names none (a multipart upload's algorithm, or CRC64NVME, S3's default).
 * With CRC64NVME, digest->default_checksum holds the body's CRC64NVME whichever one the request
 * named, so a part of an upload without an algorithm still adds to the object's default checksum.
 * Returns 0 with *blob published (the caller commits or discards it) and *digest filled, or -1
 * after answering the S3 error; nothing is left on disk then.
 */
int floe_s3_body_store(floe_s3_req_t *r, floe_s3_checksum_alg_t default_alg, floe_store_blob_t *blob /* OUT */,
                       floe_s3_body_digest_t *digest /* OUT */);

/**
 * Checks Content-MD5 and an x-amz-checksum-* header against a small body that stays in memory
 * (the XML of DeleteObjects, CompleteMultipartUpload). With `checksum_is_the_objects` the
 * checksum header is the object's (CompleteMultipartUpload's ChecksumCRC64NVME, ...), for the
 * caller to check, and only its shape is checked here. 0, or -1 after answering the error.
 */
int floe_s3_body_verify_small(floe_s3_req_t *r, bool checksum_is_the_objects);

/**
 * The checksum algorithm a request names (an x-amz-checksum-<alg> header, x-amz-trailer, or
 * x-amz-sdk-checksum-algorithm / x-amz-checksum-algorithm), or NONE. Returns -1 after answering
 * InvalidRequest when it names several or an unknown one.
 */
int floe_s3_body_requested_checksum(floe_s3_req_t *r, floe_s3_checksum_alg_t *alg /* OUT */);

/** Content-Encoding without its "aws-chunked" token (pool copy), or NULL when nothing remains. */
char *floe_s3_body_content_encoding(floe_s3_req_t *r);

#endif
