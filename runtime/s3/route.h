/*
 * S3 request routing: which operation a request is, from its method, whether it names a bucket
 * and a key, its sub-resource query parameters (?uploads, ?uploadId=, ?delete, ?location,
 * ?list-type=2, ...) and x-amz-copy-source. Sub-resources of operations Floe does not serve
 * (?acl, ?versioning, ?lifecycle, ...) route to an honest 501 NotImplemented that names the
 * operation.
 */
#ifndef FLOE_S3_ROUTE_H
#define FLOE_S3_ROUTE_H

#include "s3/request.h"

typedef int (*floe_s3_handler_fn)(floe_s3_req_t *r);

typedef struct floe_s3_route {
    const char *op; /* S3's operation name, e.g. "PutObject" or "PutBucketVersioning" */
    floe_s3_handler_fn handle;
} floe_s3_route_t;

/** The operation for r. The name of an unknown sub-resource operation lives in r's pool. */
floe_s3_route_t floe_s3_route(floe_s3_req_t *r);

#endif
