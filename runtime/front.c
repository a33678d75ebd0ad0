/*
 * The front door of front.h. Deciding the service is cheap (a prefix compare and a header scan),
 * so it happens on every request before anything is parsed.
 */
#include <string.h>

#include "dispatch.h"
#include "front.h"
#include "health.h"
#include "s3.h"
#include "sigv4.h"

#define SIGNING_NAME_S3TABLES "s3tables"

typedef struct front_handler {
    h2o_handler_t super;
} front_handler_t;

static int path_is(h2o_req_t *req, const char *literal)
{
    size_t len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    return h2o_memis(req->input.path.base, len, literal, strlen(literal));
}

static int on_req(h2o_handler_t *self, h2o_req_t *req)
{
    floe_worker_t *w = floe_worker_of(req);
    (void)self;

    if (path_is(req, FLOE_HEALTH_PATH)) {
        floe_health_send(w, req);
    } else if (floe_sigv4_is_for(req, SIGNING_NAME_S3TABLES)) {
        floe_dispatch_s3tables(w, req);
    } else {
        floe_s3_handle(w, req);
    }
    return 0;
}

void floe_front_register(h2o_pathconf_t *pathconf)
{
    front_handler_t *h = (front_handler_t *)h2o_create_handler(pathconf, sizeof(*h));
    h->super.on_req = on_req;
}
