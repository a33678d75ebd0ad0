/*
 * The console's dispatch (route.h):
 *
 *   /_floe/ui                 ──▶ 301 to /_floe/ui/
 *   /_floe/ui/                ──▶ index.html
 *   /_floe/ui/api/<route>     ──no route─▶ 404; ──not GET──▶ 405; ──strict, bad signature──▶ 403
 *        │                    ──bad query encoding──▶ 400
 *        ▼
 *   the API route (api_routes.h) answers JSON, or {"message"} with 400/403/404/500
 *   /_floe/ui/server.json     ──not GET/HEAD──▶ 405; else {"strictSignatures": bool}
 *   /_floe/ui/<file>          ──not GET/HEAD──▶ 405; ──no such file──▶ 404; else the embedded file
 *
 * server.json tells the page, before it sends any API request, whether those must be signed: with
 * strict signatures on, the page asks for keys first instead of opening on a refused request.
 * Like the page's other files it holds no state, so it loads without a signature (the refusal of
 * any unsigned API request says as much).
 *
 * Files are sent with a Content-Security-Policy that lets the page reach only this server, so the
 * console makes no request anywhere else even if a vendored library tried to.
 */
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "authz/table_access.h"
#include "base/json.h"
#include "base/log.h"
#include "console/api_routes.h"
#include "console/assets.h"
#include "console/route.h"
#include "db/state.h"
#include "http/peer.h"
#include "http/response.h"
#include "http/sigv4.h"
#include "http/sigv4_verify.h"
#include "http/uri.h"

#define API_PREFIX FLOE_CONSOLE_BASE "/api/"
#define INDEX_FILE "index.html"
#define SERVER_FILE "server.json"
#define CSP "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " \
            "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"

typedef struct api_route {
    const char *name;
    int (*serve)(floe_console_req_t *r);
    /* Under --enforce-iam, the S3 Tables action the route's answer corresponds to, decided on what
       its ?arn= names (NULL: nothing to authorize: the session, the scopes, the caller's stacks). */
    const char *action;
} api_route_t;

static const api_route_t api_routes[] = {
    {"session", floe_console_session, NULL},
    {"scopes", floe_console_scopes, NULL},
    {"buckets", floe_console_buckets, "s3tables:ListTableBuckets"},
    {"bucket", floe_console_bucket, "s3tables:GetTableBucket"},
    {"namespaces", floe_console_namespaces, "s3tables:ListNamespaces"},
    {"tables", floe_console_tables, "s3tables:ListTables"},
    {"table", floe_console_table, "s3tables:GetTable"},
    {"object", floe_console_object, "s3tables:GetTableData"},
    {"stacks", floe_console_stacks, NULL},
    {"stack", floe_console_stack, NULL},
};

static size_t path_len(h2o_req_t *req)
{
    return req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
}

static void send_text(floe_worker_t *w, h2o_req_t *req, int status, const char *operation, const char *text)
{
    floe_log_request(w->config, req, operation, status, floe_log_now_us());
    floe_response_send(req, status, "text/plain; charset=utf-8", text, strlen(text));
}

static bool is_read(h2o_req_t *req)
{
    return h2o_memis(req->method.base, req->method.len, H2O_STRLIT("GET")) ||
           h2o_memis(req->method.base, req->method.len, H2O_STRLIT("HEAD"));
}

static void send_server_file(floe_worker_t *w, h2o_req_t *req)
{
    floe_json_t *json = &w->json;

    if (!is_read(req)) {
        send_text(w, req, 405, "Console:File", "The console's files are read with GET.\n");
        return;
    }
    floe_json_reset(json);
    floe_json_object_begin(json);
    floe_json_key(json, "strictSignatures");
    floe_json_bool(json, w->config->strict_signatures);
    floe_json_object_end(json);
    floe_response_header(req, "Cache-Control", "no-cache", strlen("no-cache"));
    floe_response_header(req, "X-Content-Type-Options", "nosniff", strlen("nosniff"));
    floe_log_request(w->config, req, "Console:File", 200, floe_log_now_us());
    floe_response_send(req, 200, "application/json", json->buf, json->len);
}

static void send_asset(floe_worker_t *w, h2o_req_t *req, const char *path, size_t n)
{
    const floe_console_asset_t *a;

    if (!is_read(req)) {
        send_text(w, req, 405, "Console:File", "The console's files are read with GET.\n");
        return;
    }
    if ((a = floe_console_asset_find(path, n)) == NULL) {
        send_text(w, req, 404, "Console:File", "No such file in the console.\n");
        return;
    }
    floe_response_header(req, "Content-Security-Policy", CSP, strlen(CSP));
    floe_response_header(req, "Cache-Control", "no-cache", strlen("no-cache"));
    floe_response_header(req, "X-Content-Type-Options", "nosniff", strlen("nosniff"));
    floe_log_request(w->config, req, "Console:File", 200, floe_log_now_us());
    floe_response_send(req, 200, a->content_type, (const char *)a->data, a->len);
}

/* With strict signatures, the request must carry a good SigV4 signature; it may then look at its
 * access key's account only. 0, or -1 after answering 403. */
static int check_signature(floe_console_req_t *r)
{
    floe_sigv4_result_t rc;
    floe_scope_t signer;

    if (!r->w->config->strict_signatures)
        return 0;
    if ((rc = floe_sigv4_verify(r->req, r->w->config, 0, (int64_t)time(NULL))) != FLOE_SIGV4_OK)
        return floe_console_fail(r, rc == FLOE_SIGV4_PAYLOAD_MISMATCH ? 400 : 403,
                                 "The console's API needs requests signed with a configured key (strict signatures "
                                 "are on): %s",
                                 floe_sigv4_result_message(rc));
    floe_sigv4_request_account_scope(r->req, r->w->config, &signer);
    memcpy(r->account, signer.account_id, sizeof(r->account));
    r->is_signed_account = true;
    return 0;
}

static const api_route_t *find_api_route(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof(api_routes) / sizeof(api_routes[0]); i++) {
        if (h2o_memis(name, n, api_routes[i].name, strlen(api_routes[i].name)))
            return &api_routes[i];
    }
    return NULL;
}

/* --enforce-iam: the signed caller's permission for the S3 Tables action the route stands for, on
 * the bucket or table its ?arn= names (else the caller's buckets). 0, or -1 after answering 403
 * with AWS's sentence (or 500). */
static int authorize(floe_console_req_t *r, const char *action)
{
    floe_authz_target_t target = {floe_console_param(r, "arn"), NULL, NULL};
    floe_authz_decision_t decision;
    floe_sigv4_scope_t signature;
    floe_scope_t signer;
    const char *key = NULL;

    if (floe_sigv4_request_scope(r->req, &signature) == 0)
        key = h2o_strdup(&r->req->pool, signature.access_key.base, signature.access_key.len).base;
    floe_sigv4_request_account_scope(r->req, r->w->config, &signer);
    floe_call_set_scope(&r->call, &signer);
    if (floe_authz_table_access(&r->call, key, floe_http_peer_address(r->req), action, &target, &decision))
        return floe_console_fail(r, 500, "The console could not authorize the request.");
    if (!decision.is_allowed)
        return floe_console_fail(r, 403, "%s", floe_authz_message(&r->call, &decision));
    floe_call_set_scope(&r->call, &signer); /* the route enters the ARN's scope itself, as without the flag */
    return 0;
}

static void serve_api(floe_worker_t *w, h2o_req_t *req, const char *name, size_t n)
{
    const api_route_t *route = find_api_route(name, n);
    floe_console_req_t r = {.w = w, .req = req, .started_us = floe_log_now_us()};
    long n_query = 0;

    r.operation = route != NULL ? h2o_concat(&req->pool, h2o_iovec_init(H2O_STRLIT("Console:")),
                                             h2o_iovec_init(route->name, strlen(route->name)))
                                      .base
                                : "Console:Unknown";
    floe_call_init(&r.call, &req->pool, w->state, w->config);
    if (route == NULL) {
        floe_console_fail(&r, 404, "The console has no API route '%.*s'.", (int)(n > 100 ? 100 : n), name);
        return;
    }
    if (!h2o_memis(req->method.base, req->method.len, H2O_STRLIT("GET"))) {
        floe_console_fail(&r, 405, "The console's API is read-only: use GET.");
        return;
    }
    if (check_signature(&r) != 0)
        return;
    if (req->input.query_at != SIZE_MAX &&
        (n_query = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                    req->input.path.len - req->input.query_at - 1, &r.query)) < 0) {
        floe_console_fail(&r, 400, "The query string is not validly percent-encoded.");
        return;
    }
    r.n_query = (size_t)n_query;
    if (w->config->enforce_iam && route->action != NULL && authorize(&r, route->action) != 0)
        return;
    route->serve(&r);
    if (floe_state_end_call(w->state))
        floe_log("%s left a transaction open; it was rolled back", r.operation);
}

void floe_console_handle(floe_worker_t *w, h2o_req_t *req)
{
    const char *path = req->input.path.base;
    size_t len = path_len(req), base = strlen(FLOE_CONSOLE_BASE), api = strlen(API_PREFIX);

    if (len == base) {
        floe_log_request(w->config, req, "Console:File", 301, floe_log_now_us());
        h2o_send_redirect(req, 301, "Moved Permanently", H2O_STRLIT(FLOE_CONSOLE_BASE "/"));
        return;
    }
    if (len >= api && memcmp(path, API_PREFIX, api) == 0) {
        serve_api(w, req, path + api, len - api);
        return;
    }
    if (len == base + 1)
        send_asset(w, req, INDEX_FILE, strlen(INDEX_FILE));
    else if (h2o_memis(path + base + 1, len - base - 1, H2O_STRLIT(SERVER_FILE)))
        send_server_file(w, req);
    else
        send_asset(w, req, path + base + 1, len - base - 1);
}
