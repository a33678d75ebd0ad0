/*
 * The S3 Tables API front: route → parse → validate → handle → serialize, or one of the error
 * answers. It knows operations only through the generated table (floe_operations[]).
 */
#ifndef FLOE_DISPATCH_H
#define FLOE_DISPATCH_H

#include "http/sigv4.h"
#include "http/worker.h"

/** Answers one request signed for s3tables (not under /iceberg); `scope` is its credential
 * scope, as the front door read it (it decides the call's account and region). */
void floe_dispatch_s3tables(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope);

#endif
