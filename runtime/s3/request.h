/*
 * One S3 request as the S3 operations see it: who asked (worker, h2o request), what it addresses
 * (bucket, key and query parameters, filled in by address.c), and readers for headers and
 * parameters. Also the reply writers every answer ends with, errors included. Not for addressing
 * (address.c), routing (route.c) or error bodies (error.c): this file is below all three.
 */
#ifndef FLOE_S3_REQUEST_H
#define FLOE_S3_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ids.h"
#include "base/scope.h"
#include "call/worker.h"
#include "http/codec.h"
#include "store/store.h"

#define FLOE_S3_XMLNS "http://s3.amazonaws.com/doc/2006-03-01/"
#define FLOE_S3_MAX_KEY_BYTES 1024 /* S3: "The name for a key ... up to 1,024 bytes long" */

typedef struct floe_s3_req {
    floe_worker_t *w;
    h2o_req_t *req;
    floe_state_t *st;
    const char *data_dir;
    uint64_t started_us;
    int64_t now_ms;
    const char *op;      /* S3 operation name, for the log and NotImplemented messages */
    int status;          /* the status answered, for the log */
    char *bucket;        /* decoded bucket name; NULL when the request addresses the service (address.c) */
    char *key;           /* decoded key; NULL when the request addresses a bucket (address.c) */
    floe_query_param_t *query; /* decoded query parameters (address.c) */
    size_t n_query;
    bool is_virtual_host;
    floe_scope_t scope;  /* the requester's account and region (scope.h) */
    char request_id[FLOE_REQUEST_ID_LEN + 1];
} floe_s3_req_t;

/**
 * Sets r up for req: worker, state, clock, request id; nothing addressed yet (floe_s3_address
 * does that). Cannot fail. r lives in the request pool.
 */
void floe_s3_request_init(floe_s3_req_t *r, floe_worker_t *w, h2o_req_t *req);

/** The decoded value of query parameter `name` ("" for a bare "?name"), or NULL if absent. */
const char *floe_s3_query(const floe_s3_req_t *r, const char *name);
/** The value of header `name` (lower-case) as a NUL-terminated copy in the pool, or NULL. */
char *floe_s3_header(const floe_s3_req_t *r, const char *name);
/** True when the method is `method`. */
bool floe_s3_method_is(const floe_s3_req_t *r, const char *method);
/** A NUL-terminated copy of n bytes in the request pool. */
char *floe_s3_strndup(const floe_s3_req_t *r, const char *s, size_t n);
/** printf into the request pool. */
char *floe_s3_printf(const floe_s3_req_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Adds a response header; name and value are copied into the pool. */
void floe_s3_add_header(floe_s3_req_t *r, const char *name, const char *value);
/** Answers status with an XML body (copied; may be NULL for none). HEAD requests get no body. */
void floe_s3_reply(floe_s3_req_t *r, int status, const char *xml, size_t xml_len);

/** Sets the status and the request-id headers of a reply whose body the caller streams (GetObject). */
void floe_s3_begin_reply(floe_s3_req_t *r, int status);

/** Formats ms since the epoch as an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT") into buf (>= 30). */
void floe_s3_http_date(int64_t ms, char *buf, size_t size);
/** "\"<etag>\"" in the pool: an ETag as the ETag header and XML carry it. */
char *floe_s3_quoted_etag(const floe_s3_req_t *r, const char *etag);

#endif
