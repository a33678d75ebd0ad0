/*
 * The S3 Tables API front: route → parse → validate → handle → serialize, or one of the error
 * answers. It knows operations only through the generated table (floe_operations[]).
 */
#ifndef FLOE_DISPATCH_H
#define FLOE_DISPATCH_H

#include "http/sigv4.h"
#include "http/worker.h"

/** Compiles the S3 Tables route table once, before serving (the model's patterns compile on first use). FLOE_OK or FLOE_EFAIL. */
int floe_s3tables_init(void);

/** The S3 Tables model this build serves (`floe version`): its version date and its SHA-256. */
const char *floe_s3tables_model_version(void);
const char *floe_s3tables_model_sha256(void);

/** Answers one request signed for s3tables (not under /iceberg); `scope` is its credential
 * scope, as the front door read it (it decides the call's account and region). */
void floe_dispatch_s3tables(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope);

#endif
