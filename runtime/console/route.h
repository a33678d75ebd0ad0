/*
 * The console at /_floe/ui/ (docs/console.md): the page and its files, compiled into the binary
 * (assets.h), and the read-only JSON routes under /_floe/ui/api/ (api_routes.h) that it reads through.
 * The front door (front.c) sends every request under /_floe/ui here before it checks signatures:
 * the files hold no state, and the JSON routes check signatures themselves (request.h, "Safety").
 */
#ifndef FLOE_CONSOLE_ROUTE_H
#define FLOE_CONSOLE_ROUTE_H

#include "call/worker.h"

#define FLOE_CONSOLE_BASE "/_floe/ui"

/** Answers a request whose path is FLOE_CONSOLE_BASE or lies below it. */
void floe_console_handle(floe_worker_t *w, h2o_req_t *req);

#endif
