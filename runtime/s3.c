/*
 * The S3 data plane, for now only its error shape: every S3 request answers 501 NotImplemented
 * in S3's XML error format, so clients fail clearly. TODO(#3): buckets, objects, multipart.
 */
#include <string.h>

#include "log.h"
#include "response.h"
#include "s3.h"

static const char not_implemented_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Error><Code>NotImplemented</Code><Message>Floe does not serve the S3 API yet.</Message></Error>";

void floe_s3_handle(floe_worker_t *w, h2o_req_t *req)
{
    uint64_t started = floe_log_now_us();
    floe_response_send(req, 501, "application/xml", not_implemented_xml, sizeof(not_implemented_xml) - 1);
    floe_log_request(w, req, "S3", 501, started);
}

const char *floe_s3_status(void)
{
    return "not implemented";
}
