/*
 * The S3 Tables API front: route → parse → validate → handle → serialize, or one of the error
 * answers. It knows operations only through the generated table (floe_operations[]).
 */
#ifndef FLOE_S3TABLES_DISPATCH_H
#define FLOE_S3TABLES_DISPATCH_H

#include <stdbool.h>

#include "call/worker.h"
#include "http/sigv4.h"

/** Compiles the S3 Tables route table once, before serving (the model's patterns compile on first use). FLOE_OK or FLOE_EFAIL. */
int floe_s3tables_init(void);

/** The S3 Tables model this build serves (`floe version`): its version date and its SHA-256. */
const char *floe_s3tables_model_version(void);
const char *floe_s3tables_model_sha256(void);

/**
 * True when an unsigned request is an S3 Tables API call (AWS tells them apart by host name; on
 * Floe's one port, by shape): it matches an S3 Tables route and names an S3 Tables ARN in its
 * path or query, or it is ListTableBuckets or CreateTableBucket as an SDK sends them. So strict
 * mode refuses it in S3 Tables' shape; anything else unsigned is S3's.
 */
bool floe_s3tables_is_unsigned_call(h2o_req_t *req);

/** Answers one request signed for s3tables (not under /iceberg); `scope` is its credential
 * scope, as the front door read it (it decides the call's account and region). */
void floe_dispatch_s3tables(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope);

#endif
