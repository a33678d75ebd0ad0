/*
 * One request to the console's JSON routes (/_floe/ui/api/<route>), as the routes see it: its query
 * parameters, a catalog call set to the account and region the request may look at, and the one
 * way to answer: JSON with 200, or {"message"} with 400/403/404/500 (the AWS JSON error shape the
 * rest of Floe uses for S3 Tables).
 *
 * Who may look at what (docs/console.md, "Safety"): without --strict-signatures every account and
 * region is visible, as everything in a local emulator is. With it, route.c has verified the
 * request's SigV4 signature against the configured keys, and a request may only look at the
 * account of its access key (any region of it): floe_console_scope_* refuse any other with 403.
 */
#ifndef FLOE_CONSOLE_REQUEST_H
#define FLOE_CONSOLE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/scope.h"
#include "call/call.h"
#include "call/worker.h"
#include "http/codec.h"

#define FLOE_CONSOLE_DEFAULT_PAGE 100
#define FLOE_CONSOLE_MAX_PAGE 1000

typedef struct floe_console_req {
    floe_worker_t *w;
    h2o_req_t *req;
    floe_call_t call;
    floe_query_param_t *query;
    size_t n_query;
    const char *operation; /* "Console:<route>", for the log */
    uint64_t started_us;
    bool is_signed_account; /* strict signatures: only `account` may be looked at */
    char account[FLOE_ACCOUNT_ID_LEN + 1];
} floe_console_req_t;

/** The decoded value of query parameter `key` (in the request pool), or NULL when it is absent. */
const char *floe_console_param(floe_console_req_t *r, const char *key);

/** As floe_console_param; a missing or empty one answers 400 and returns NULL. */
const char *floe_console_required(floe_console_req_t *r, const char *key);

/** Answers `status` with {"message": the printf message}; returns FLOE_EFAIL for `return`. */
int floe_console_fail(floe_console_req_t *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Answers the error the catalog call recorded (NotFound 404, BadRequest 400, else 500); FLOE_EFAIL. */
int floe_console_fail_call(floe_console_req_t *r);

/**
 * Sets the call's scope to the ?account= and ?region= parameters (each defaults to the server's;
 * with strict signatures the account defaults to the signer's). 400 for a malformed one, 403 for an
 * account the request may not look at. FLOE_OK, or FLOE_EFAIL after answering.
 */
int floe_console_scope_from_params(floe_console_req_t *r);

/**
 * Sets the call's scope to the one an S3 Tables ARN names. 400 when `arn` is not an S3 Tables ARN
 * with a 12-digit account and a region, 403 for an account the request may not look at.
 */
int floe_console_scope_from_arn(floe_console_req_t *r, const char *arn);

/** May the request look at `account_id`? (Always, without strict signatures.) */
bool floe_console_may_see(const floe_console_req_t *r, const char *account_id);

/** The ?limit= page size: FLOE_CONSOLE_DEFAULT_PAGE when absent, 400 unless 1..FLOE_CONSOLE_MAX_PAGE. */
int floe_console_page_size(floe_console_req_t *r, int *out /* OUT */);

/** The worker's JSON writer, emptied, for the route to write its answer into. */
floe_json_t *floe_console_json(floe_console_req_t *r);

/** Answers 200 with what the route wrote into floe_console_json; returns FLOE_OK. */
int floe_console_send_json(floe_console_req_t *r);

/** Answers 200 with `len` bytes of `content_type` (copied); returns FLOE_OK. */
int floe_console_send_bytes(floe_console_req_t *r, const char *content_type, const char *data, size_t len);

#endif
