/*
 * AWS Signature Version 4, the parts Floe reads: the credential scope of a request
 * (access key / date / region / service / aws4_request), from the Authorization header or a
 * presigned URL's X-Amz-Credential. The service name decides which API a request is for.
 * Signature verification (--strict-signatures) builds on this and lives here too once it exists.
 */
#ifndef FLOE_HTTP_SIGV4_H
#define FLOE_HTTP_SIGV4_H

#include <stdbool.h>
#include <stddef.h>

#include <h2o.h>

#include "base/config.h"
#include "base/scope.h"

typedef struct floe_sigv4_scope {
    h2o_iovec_t access_key;
    h2o_iovec_t date;
    h2o_iovec_t region;
    h2o_iovec_t service;
} floe_sigv4_scope_t;

/**
 * Parses "AK/20240101/us-east-1/s3tables/aws4_request" (n bytes, not decoded). Returns 0 and
 * fills *out with slices of `credential`, or -1 if it is not a SigV4 scope.
 */
int floe_sigv4_parse_credential(const char *credential, size_t n, floe_sigv4_scope_t *out /* OUT */);

/**
 * The credential scope of a request: from "Authorization: AWS4-HMAC-SHA256 Credential=...", or
 * from the X-Amz-Credential query parameter of a presigned URL (decoded into the pool).
 * Returns 0 and fills *out, or -1 for an unsigned (or non-SigV4) request.
 */
int floe_sigv4_request_scope(h2o_req_t *req, floe_sigv4_scope_t *out /* OUT */);

/** What the server knows of an access key that --credentials does not name: one IAM or STS issued. */
typedef struct floe_sigv4_key {
    const char *secret;
    const char *session_token; /* a temporary key's: the request must carry it; NULL for a long-term key */
    char account_id[FLOE_ACCOUNT_ID_LEN + 1]; /* the account the key belongs to */
} floe_sigv4_key_t;

/** Finds `access_key` on the serving thread of `req` (strings in its pool): true when it is someone's. */
typedef bool (*floe_sigv4_key_source_fn)(h2o_req_t *req, h2o_iovec_t access_key, floe_sigv4_key_t *out);

/** Installs where keys beyond --credentials are found (the front door's: IAM's, in the database).
 * Called once, before any request is served. */
void floe_sigv4_set_key_source(floe_sigv4_key_source_fn source);

/** `access_key` as the key source knows it: false when there is no source or it knows no such key. */
bool floe_sigv4_issued_key(h2o_req_t *req, h2o_iovec_t access_key, floe_sigv4_key_t *out /* OUT */);

/** The account and region the request acts in (scope.h): its credential's (a key IAM or STS
 * issued acts in its owner's account), else the defaults. */
void floe_sigv4_request_account_scope(h2o_req_t *req, const floe_config_t *config, floe_scope_t *out /* OUT */);

/** The account and region of a credential scope already read (floe_sigv4_request_scope), so that
 * a request whose scope the front door has read is not parsed again. `req` (NULL in tests) lets an
 * issued key name its owner's account. */
void floe_sigv4_account_scope(h2o_req_t *req, const floe_config_t *config, const floe_sigv4_scope_t *scope,
                              floe_scope_t *out /* OUT */);

/** True when `scope` is for `service` (e.g. "s3tables"). */
int floe_sigv4_scope_is_for(const floe_sigv4_scope_t *scope, const char *service);

#endif
