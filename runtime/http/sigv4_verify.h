/*
 * SigV4 signature verification for --strict-signatures: recomputes the signature of a request
 * (Authorization header or presigned URL) with the configured secret key of its access key and
 * compares it with the one the client sent. Only called in strict mode; by default any
 * credentials are accepted and nothing here runs.
 */
#ifndef FLOE_HTTP_SIGV4_VERIFY_H
#define FLOE_HTTP_SIGV4_VERIFY_H

#include <h2o.h>

#include "base/config.h"
#include "http/sigv4.h"

typedef enum floe_sigv4_result {
    FLOE_SIGV4_OK = 0,
    FLOE_SIGV4_MISSING,          /* no Authorization header and no presigned query */
    FLOE_SIGV4_MALFORMED,        /* a SigV4 field is missing or unreadable */
    FLOE_SIGV4_UNKNOWN_KEY,      /* the access key is not configured */
    FLOE_SIGV4_MISMATCH,         /* the signature differs from ours */
    FLOE_SIGV4_EXPIRED,          /* a presigned URL past X-Amz-Expires */
    FLOE_SIGV4_PAYLOAD_MISMATCH, /* x-amz-content-sha256 is not the body's hash */
    FLOE_SIGV4_SKEWED,           /* X-Amz-Date over 15 minutes from now (presigned: in the future) */
} floe_sigv4_result_t;

/**
 * Verifies the request's signature. `is_s3` selects S3's canonical-URI rule (the path as sent)
 * over every other service's (the path URI-encoded once more, so "%3A" is signed as "%253A"),
 * and S3's payload hash (x-amz-content-sha256 as sent) over every other service's (the body's).
 * `now_s` is the current time in seconds since the epoch. Scratch memory comes from the request pool.
 */
floe_sigv4_result_t floe_sigv4_verify(h2o_req_t *req, const floe_config_t *config, int is_s3, int64_t now_s);

/** The secret key of `access_key`: configured, or known to the key source (sigv4.h; a session's key
 * only when `req` carries its session token). NULL when the key is no one's. */
const char *floe_sigv4_secret_for(h2o_req_t *req, const floe_config_t *config, h2o_iovec_t access_key);

/** A one-sentence description of a result, for error messages. */
const char *floe_sigv4_result_message(floe_sigv4_result_t r);

#endif
