/*
 * The aws-chunked body framing (Content-Encoding: aws-chunked), which SigV4 streaming uploads
 * use: the JS SDK v3 sends every stream this way, the aws CLI and boto3 may too.
 *
 *   <hex size>[;chunk-signature=<64 hex>]\r\n<size bytes>\r\n ... 0[;chunk-signature=...]\r\n
 *   [x-amz-checksum-crc32:<base64>\r\n ...]\r\n
 *
 * ("STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER" and the signed
 * "...-PAYLOAD-TRAILER"; https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html).
 * The decoder works over the whole body in memory (h2o buffers it) and hands out slices of the
 * payload that point into it: nothing is copied. Chunk signatures are read past, not checked.
 */
#ifndef FLOE_S3_CHUNKED_H
#define FLOE_S3_CHUNKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>

#define FLOE_S3_CHUNKED_MAX_TRAILER_VALUE 128

typedef enum floe_s3_chunked_state {
    FLOE_S3_CHUNKED_HEADER,  /* at a chunk-size line */
    FLOE_S3_CHUNKED_DATA,    /* inside a chunk's data */
    FLOE_S3_CHUNKED_TRAILER, /* after the last (zero) chunk, at a trailer line */
    FLOE_S3_CHUNKED_DONE,
    FLOE_S3_CHUNKED_ERROR
} floe_s3_chunked_state_t;

typedef struct floe_s3_chunked {
    const char *p;   /* next unread byte */
    const char *end;
    floe_s3_chunked_state_t state;
    uint64_t chunk_left; /* data bytes of the current chunk not yet handed out */
    uint64_t decoded;    /* payload bytes handed out so far */
    const char *error;   /* why the body was refused, when state is ERROR */
    /* the x-amz-checksum-* trailer, if the body carried one */
    char checksum_name[32];
    char checksum_value[FLOE_S3_CHUNKED_MAX_TRAILER_VALUE];
} floe_s3_chunked_t;

/** Starts decoding `len` bytes at `body` (which must outlive the decoder). */
void floe_s3_chunked_init(floe_s3_chunked_t *d, const char *body, size_t len);

/**
 * The next slice of payload, at most `max` bytes, pointing into the body. Returns 1 with *out
 * filled, 0 when the payload and its trailers are complete, -1 when the framing is malformed or
 * cut short (d->error says how).
 */
int floe_s3_chunked_next(floe_s3_chunked_t *d, h2o_iovec_t *out /* OUT */, size_t max);

#endif
