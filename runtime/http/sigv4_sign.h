/*
 * SigV4 signing, the half both sides share: the signature of a string to sign under a secret
 * key and a credential scope (sigv4_verify.c recomputes it to compare), and a whole request's
 * Authorization header for Floe's own client (`floe maintenance run`). Not a general AWS client:
 * the request it signs has no query string and is signed over host and x-amz-date only.
 */
#ifndef FLOE_HTTP_SIGV4_SIGN_H
#define FLOE_HTTP_SIGV4_SIGN_H

#include <stddef.h>
#include <time.h>

#include "http/sigv4.h"

#define FLOE_SIGV4_ALGORITHM "AWS4-HMAC-SHA256"
#define FLOE_SIGV4_AMZ_DATE_LEN 16 /* 20240101T000000Z */
#define FLOE_SIGV4_HEX_LEN 64

/** The hex signature of `string_to_sign` with the key SigV4 derives from `secret` and `scope`. */
void floe_sigv4_signature(const char *secret, const floe_sigv4_scope_t *scope, const char *string_to_sign,
                          char out[FLOE_SIGV4_HEX_LEN + 1] /* OUT */);

/** The lower-case hex SHA-256 of n bytes. */
void floe_sigv4_sha256_hex(const void *data, size_t n, char out[FLOE_SIGV4_HEX_LEN + 1] /* OUT */);

/** What a client signs with. */
typedef struct floe_sigv4_signer {
    const char *access_key;
    const char *secret_key;
    const char *region;
    const char *service; /* a service other than s3: the path is URI-encoded once more */
} floe_sigv4_signer_t;

/**
 * Signs `method` `path` (no query) to `host` with `body` at time `now`: writes the X-Amz-Date
 * value to amz_date and returns the Authorization header's value, malloc'ed (the caller frees).
 */
char *floe_sigv4_sign_request(const floe_sigv4_signer_t *signer, const char *method, const char *host,
                              const char *path, const char *body, size_t body_len, time_t now,
                              char amz_date[FLOE_SIGV4_AMZ_DATE_LEN + 1] /* OUT */);

#endif
