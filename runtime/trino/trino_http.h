/*
 * The HTTP exchanges Floe has with Trino (its client protocol and /v1/info), over libcurl, which
 * is opened with dlopen on the first exchange so an idle Floe, or one that never runs an Athena
 * query, never maps it or the libraries it brings (docs/benchmarks.md). Blocking: only the Athena
 * engine's workers call it (each exchange on its own curl handle), never a serving thread.
 */
#ifndef FLOE_TRINO_HTTP_H
#define FLOE_TRINO_HTTP_H

#include <stddef.h>

#define FLOE_TRINO_HTTP_ERROR_MAX 256

/** One answer: the status and the body (malloc'ed, NUL-terminated; the caller frees it). */
typedef struct floe_trino_http_answer {
    long status;
    char *body;
    size_t len;
    char error[FLOE_TRINO_HTTP_ERROR_MAX]; /* why no answer came (connection refused, timeout ...) */
} floe_trino_http_answer_t;

/**
 * Sends `method` ("GET", "POST", "DELETE") to `url` with `headers` (n "Name: value" lines) and, for
 * POST, `body`; waits at most timeout_s. FLOE_OK with *out filled (any status), or FLOE_EFAIL with
 * out->error saying why (libcurl missing, connection refused, ...).
 */
int floe_trino_http(const char *method, const char *url, const char *const *headers, size_t n, const char *body,
                    long timeout_s, floe_trino_http_answer_t *out /* OUT */);

/** Frees what an answer holds. */
void floe_trino_http_dispose(floe_trino_http_answer_t *a);

#endif
