/*
 * Conditional requests (RFC 7232) as S3 evaluates them for GetObject, HeadObject and the
 * x-amz-copy-source-if-* headers of CopyObject, plus the Range header (RFC 7233) of GetObject.
 * Pure functions over header values and object facts, so they are tested without a server.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html ("Request Syntax").
 */
#ifndef FLOE_S3_CONDITIONAL_H
#define FLOE_S3_CONDITIONAL_H

#include <stdbool.h>
#include <stdint.h>

/** Seconds since the epoch of an HTTP date (IMF-fixdate, RFC 850 or asctime); -1 if not one. */
int64_t floe_s3_parse_http_date(const char *s);

/** True when an If-Match/If-None-Match value ("*", or a comma list of quoted ETags) names etag (unquoted). */
bool floe_s3_etag_list_matches(const char *list, const char *etag);

typedef enum floe_s3_cond {
    FLOE_S3_COND_PASS,         /* serve the object */
    FLOE_S3_COND_NOT_MODIFIED, /* 304 */
    FLOE_S3_COND_FAILED,       /* 412 PreconditionFailed */
} floe_s3_cond_t;

typedef struct floe_s3_cond_headers {
    const char *if_match;
    const char *if_none_match;
    const char *if_modified_since;
    const char *if_unmodified_since;
} floe_s3_cond_headers_t;

/**
 * Evaluates the conditions, in RFC 7232 order, against an object. S3's documented pairs hold:
 * If-Match true makes a false If-Unmodified-Since irrelevant (200), If-None-Match false makes a
 * true If-Modified-Since irrelevant (304). On FAILED, *failed names the header that failed.
 * Unparseable dates are ignored, as S3 does.
 */
floe_s3_cond_t floe_s3_conditional_evaluate(const floe_s3_cond_headers_t *h, const char *etag, int64_t last_modified_ms,
                                            const char **failed /* OUT */);

typedef enum floe_s3_range {
    FLOE_S3_RANGE_NONE,          /* no usable Range header: send the whole object (200) */
    FLOE_S3_RANGE_PARTIAL,       /* 206 with bytes first..last */
    FLOE_S3_RANGE_UNSATISFIABLE, /* 416 InvalidRange */
} floe_s3_range_t;

/** Parses "bytes=a-b", "bytes=a-" or "bytes=-n" against an object of `size` bytes. A malformed or
 * multi-range header is ignored (NONE), as S3 does. */
floe_s3_range_t floe_s3_range_parse(const char *header, uint64_t size, uint64_t *first /* OUT */,
                                    uint64_t *last /* OUT */);

#endif
