/*
 * Held answers of query_hold.h.
 *
 * Design notes:
 *  1. Nothing blocks: a held answer is a timeout entry on the worker's h2o context (its 100 ms
 *     timeout, which the context owns and disposes), re-linked after every check until the answer
 *     goes. The checks run on the serving thread, between requests, as ordinary short calls.
 *  2. The held state lives in the request's pool, allocated with a dispose callback: when h2o
 *     disposes the request (the client went away, or the server is stopping and closes its
 *     connections), the entry is unlinked, so no tick ever reaches freed memory.
 *  3. The answer sent is the one the operation built when it ran; only its timing changes.
 */
#include "base/log.h"
#include "db/state.h"
#include "query/query_answer.h"
#include "query/query_call.h"
#include "query/query_hold.h"

typedef struct held {
    h2o_timeout_entry_t entry;
    floe_query_held_t what;
    uint64_t deadline_ms; /* on the loop's clock */
} held_t;

/* Design note 2. */
static void on_dispose(void *p)
{
    held_t *h = p;

    if (h2o_timeout_is_linked(&h->entry))
        h2o_timeout_unlink(&h->entry);
}

static bool is_settled(held_t *h)
{
    floe_query_call_t call;
    bool is_done;

    floe_query_call_init(&call, &h->what.req->pool, h->what.w->state, h->what.w->config);
    floe_call_set_scope(&call.super, &h->what.scope);
    is_done = h->what.until(&call, h->what.arg);
    if (floe_state_end_call(h->what.w->state))
        floe_log("%s: a held answer's check left a transaction open; it was rolled back", h->what.operation);
    return is_done;
}

static void answer(held_t *h)
{
    floe_log_request(h->what.w->config, h->what.req, h->what.operation, 200, h->what.started_us);
    floe_query_answer_result(h->what.req, h->what.svc, h->what.op, h->what.out);
}

static void on_tick(h2o_timeout_entry_t *entry)
{
    held_t *h = H2O_STRUCT_FROM_MEMBER(held_t, entry, entry);
    h2o_context_t *ctx = &h->what.w->super;

    if (is_settled(h) || h2o_now(ctx->loop) >= h->deadline_ms) {
        answer(h);
        return;
    }
    h2o_timeout_link(ctx->loop, &ctx->hundred_ms_timeout, &h->entry);
}

void floe_query_hold(const floe_query_held_t *what)
{
    h2o_context_t *ctx = &what->w->super;
    held_t *h = h2o_mem_alloc_shared(&what->req->pool, sizeof(*h), on_dispose);

    *h = (held_t){.entry = {.cb = on_tick}, .what = *what, .deadline_ms = h2o_now(ctx->loop) + FLOE_QUERY_HOLD_MAX_MS};
    if (is_settled(h)) {
        answer(h);
        return;
    }
    h2o_timeout_link(ctx->loop, &ctx->hundred_ms_timeout, &h->entry);
}
