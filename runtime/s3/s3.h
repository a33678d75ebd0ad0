/*
 * The S3 data plane on the same port: every request not signed for s3tables (path-style and
 * virtual-hosted addressing). Buckets, objects, multipart uploads; errors in S3's XML shape
 * (<Error><Code>...</Code>...). The operations are in runtime/s3/, the storage in store.h.
 */
#ifndef FLOE_S3_H
#define FLOE_S3_H

#include "call/worker.h"
#include "s3/sigv2.h" /* floe_s3_sigv2_verify, for the front door's strict mode */

/** Process-wide set-up (the XML parser); call once before threads start. FLOE_OK or FLOE_EFAIL. */
int floe_s3_init(void);
/** Answers one S3 request. */
void floe_s3_handle(floe_worker_t *w, h2o_req_t *req);
/** Sends an S3 error in S3's XML shape (<Error><Code>...); HEAD requests get no body. */
void floe_s3_send_error(h2o_req_t *req, int status, const char *code, const char *message);
/** "available" or "not implemented", for the health route. */
const char *floe_s3_status(void);

#endif
