/*
 * GET /_floe/health: 200 with {"status":"ok","version":...,"services":{...}} once the server
 * serves; "services" names each API on the port (s3tables, s3, and the awsQuery services under
 * their signing names: cloudformation, sts) with its status. No S3 bucket name starts with '_', so the path cannot collide with S3.
 */
#ifndef FLOE_HEALTH_H
#define FLOE_HEALTH_H

#include "call/worker.h"

#define FLOE_HEALTH_PATH "/_floe/health"

void floe_health_send(floe_worker_t *w, h2o_req_t *req);

#endif
