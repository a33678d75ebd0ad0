/*
 * The S3 data plane, for now only its error shape: every S3 request answers 501 NotImplemented
 * in S3's XML error format, so clients fail clearly. TODO(#3): buckets, objects, multipart.
 */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "response.h"
#include "s3.h"

void floe_s3_send_error(h2o_req_t *req, int status, const char *code, const char *message)
{
    char *body = h2o_mem_alloc_pool(&req->pool, 256 + strlen(code) + strlen(message));
    int n = sprintf(body, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message></Error>",
                    code, message);
    floe_response_send(req, status, "application/xml", body, (size_t)n);
}

void floe_s3_handle(floe_worker_t *w, h2o_req_t *req)
{
    floe_log_request(w, req, "S3", 501, floe_log_now_us());
    floe_s3_send_error(req, 501, "NotImplemented", "Floe does not serve the S3 API yet.");
}

const char *floe_s3_status(void)
{
    return "not implemented";
}
