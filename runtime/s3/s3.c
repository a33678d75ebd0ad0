/*
 * The S3 data plane's front (s3.h): every request not signed for s3tables lands here, is
 * addressed (s3/address.c), routed to one operation (s3/route.c) and logged. The operations live
 * in runtime/s3/, one concern per file; the bytes and rows behind them in the store (store.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "db/state.h"
#include "http/response.h"
#include "s3/address.h"
#include "s3/authorize.h"
#include "s3/request.h"
#include "s3/route.h"
#include "s3/s3.h"

int floe_s3_init(void)
{
    /* Nothing to set up: the XML reader (expat) keeps no global state. */
    return 0;
}

/* For answers given before a request is addressed (the signature check in front.c): `code` and
 * `message` are Floe's own constants, so they need no escaping. */
void floe_s3_send_error(h2o_req_t *req, int status, const char *code, const char *message)
{
    char *body = h2o_mem_alloc_pool(&req->pool, 256 + strlen(code) + strlen(message));
    int n = sprintf(body, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message></Error>",
                    code, message);
    if (h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("HEAD")))
        n = 0; /* HEAD answers carry no body */
    floe_response_send(req, status, "application/xml", body, (size_t)n);
}

void floe_s3_handle(floe_worker_t *w, h2o_req_t *req)
{
    uint64_t started_us = floe_log_now_us();
    floe_s3_req_t *r = h2o_mem_alloc_pool(&req->pool, sizeof(*r));

    floe_s3_request_init(r, w, req);
    r->started_us = started_us;
    if (floe_s3_address(r) == 0) {
        floe_s3_route_t route = floe_s3_route(r);
        r->op = route.op;
        if (!w->config->enforce_iam || floe_s3_authorize(r) == FLOE_OK)
            route.handle(r);
    }
    if (floe_state_end_call(w->state))
        floe_log("%s left a transaction open; it was rolled back", r->op);
    floe_log_request(w->config, req, r->op, r->status, r->started_us);
}

const char *floe_s3_status(void)
{
    return "available";
}
