/*
 * S3's Signature Version 2 query authentication (presigned URLs with AWSAccessKeyId, Signature
 * and Expires), for --strict-signatures: boto3 1.26 (Debian 12's) and the aws CLI v1 presign
 * S3 URLs this way by default, and S3 still verifies them. Header-signed SigV2 ("Authorization:
 * AWS AK:sig") is not accepted. Only called in strict mode, for requests that are S3's.
 */
#ifndef FLOE_S3_SIGV2_H
#define FLOE_S3_SIGV2_H

#include <stdbool.h>
#include <stdint.h>

#include "base/config.h"
#include "call/worker.h"
#include "http/sigv4_verify.h"

/**
 * Verifies a SigV2 presigned URL as S3 does: HMAC-SHA1 over the method, Content-MD5,
 * Content-Type, Expires, the x-amz-* headers and the canonical resource (the bucket, the path as
 * sent, the sub-resources). FLOE_SIGV4_OK, or why not (MALFORMED, UNKNOWN_KEY, EXPIRED, MISMATCH);
 * FLOE_SIGV4_MISSING when the query carries no SigV2 signature (AWSAccessKeyId, Signature, Expires).
 * `now_s` is the current time in seconds since the epoch; scratch memory from the request pool.
 */
floe_sigv4_result_t floe_s3_sigv2_verify(h2o_req_t *req, const floe_config_t *config, int64_t now_s);

#endif
