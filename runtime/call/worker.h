/*
 * Per-thread context: each serving thread has one h2o context (embedded as `super`, so h2o's
 * callbacks can be cast back), its own SQLite connection and a reusable JSON buffer. Nothing in
 * here is shared between threads.
 */
#ifndef FLOE_CALL_WORKER_H
#define FLOE_CALL_WORKER_H

#define H2O_USE_LIBUV 0
#include <h2o.h>

#include "base/config.h"
#include "base/json.h"

struct floe_state;

typedef struct floe_worker {
    h2o_context_t super;
    const floe_config_t *config;
    struct floe_state *state; /* db/state.h: the thread's SQLite connection */
    floe_json_t json; /* serializer scratch, reset for every response */
    int index;
    h2o_linklist_t conns; /* open client sockets (server.c), so shutdown can close them */
    h2o_timeout_t janitor_timeout; /* janitor.c, on the first worker only: its idle tick */
    h2o_timeout_t janitor_backlog_timeout; /* ... and its tick while a backlog drains */
    h2o_timeout_entry_t janitor_entry;
    int janitor_running;
    struct floe_background *background; /* background.h: on the first worker only, else NULL */
    struct floe_maintenance_door *maintenance_door; /* maintenance/thread.c: answers to waiting route requests */
} floe_worker_t;

/** The worker that serves `req`. */
static inline floe_worker_t *floe_worker_of(h2o_req_t *req)
{
    return (floe_worker_t *)req->conn->ctx;
}

#endif
