/*
 * The S3 data plane on the same port: every request not signed for s3tables. Errors use S3's XML
 * shape (<Error><Code>...</Code>...).
 */
#ifndef FLOE_S3_H
#define FLOE_S3_H

#include "worker.h"

/** Answers one S3 request. */
void floe_s3_handle(floe_worker_t *w, h2o_req_t *req);
/** Sends an S3 error in S3's XML shape (<Error><Code>...); HEAD requests get no body. */
void floe_s3_send_error(h2o_req_t *req, int status, const char *code, const char *message);
/** "available" or "not implemented", for the health route. */
const char *floe_s3_status(void);

#endif
