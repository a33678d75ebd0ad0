/*
 * The S3 Tables API front: route → parse → validate → handle → serialize, or one of the error
 * answers. It knows operations only through the generated table (floe_operations[]).
 */
#ifndef FLOE_DISPATCH_H
#define FLOE_DISPATCH_H

#include "worker.h"

/** Answers one request signed for s3tables (not under /iceberg). */
void floe_dispatch_s3tables(floe_worker_t *w, h2o_req_t *req);

#endif
