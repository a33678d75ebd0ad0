/*
 * The Apache Iceberg REST catalog front: the path every REST catalog request takes, under
 * /iceberg (signed for s3tables, as AWS serves it at https://s3tables.{region}.amazonaws.com/iceberg;
 * signed for glue, AWS Glue's endpoint https://glue.{region}.amazonaws.com/iceberg, whose paths put
 * the prefix under /v1/catalogs/{catalog}: iceberg_rest_glue.h) or /_floe/iceberg (the same routes
 * for clients that cannot sign). It knows operations only
 * through the generated route table (iceberg_rest_router.h).
 */
#ifndef FLOE_ICEBERG_REST_H
#define FLOE_ICEBERG_REST_H

#include <stddef.h>

#include "call/worker.h"

/** The base path of the signed routes (requests signed for s3tables or glue). */
#define FLOE_ICEBERG_REST_BASE "/iceberg"
/** The base path of the unsigned alias. */
#define FLOE_ICEBERG_REST_UNSIGNED_BASE "/_floe/iceberg"

/** Builds the route table; call once before serving. FLOE_OK or FLOE_EFAIL. */
int floe_iceberg_rest_init(void);

/** Answers one request whose path starts with a base path `base_len` bytes long. */
void floe_iceberg_rest_handle(floe_worker_t *w, h2o_req_t *req, size_t base_len);

/** Refuses a request (a signature that does not verify) with `status` (400 or 403) in the spec's error
 * shape; the caller logs it. */
void floe_iceberg_rest_refuse(h2o_req_t *req, int status, const char *message);

#endif
