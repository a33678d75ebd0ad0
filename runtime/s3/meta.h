/*
 * Object metadata that travels with the bytes: Content-Type, the other representation headers
 * S3 stores (Cache-Control, Content-Disposition, Content-Encoding, Content-Language, Expires,
 * x-amz-website-redirect-location) and user metadata (x-amz-meta-*). Read from a PutObject,
 * CreateMultipartUpload or CopyObject (REPLACE) request, stored as one JSON object, written back
 * as response headers by GetObject and HeadObject. Not for system metadata (ETag, size, dates).
 */
#ifndef FLOE_S3_META_H
#define FLOE_S3_META_H

#include "s3/request.h"

/** S3 answers this Content-Type for objects stored without one. */
#define FLOE_S3_DEFAULT_CONTENT_TYPE "binary/octet-stream"
/** S3: "the user-defined metadata is limited to 2 KB in size" (names and values, UTF-8). */
#define FLOE_S3_MAX_USER_METADATA 2048

typedef struct floe_s3_meta {
    char *content_type; /* pool */
    char *headers;      /* JSON object in pool, or NULL when there is nothing to keep */
} floe_s3_meta_t;

/** Collects the request's metadata headers. Returns 0, or -1 after answering MetadataTooLarge. */
int floe_s3_meta_from_request(floe_s3_req_t *r, floe_s3_meta_t *out /* OUT */);

/** Adds the stored headers (JSON from floe_s3_meta_from_request) to the response. */
void floe_s3_meta_add_headers(floe_s3_req_t *r, const char *headers_json);

#endif
