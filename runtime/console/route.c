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
#include <stdio.h>
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
#include "iam/principal.h"

#define API_PREFIX FLOE_CONSOLE_BASE "/api/"
#define ACTION_MAX 64
#define ARN_ACCOUNT_FIELD 4 /* colons before an ARN's account */
#define INDEX_FILE "index.html"
#define SERVER_FILE "server.json"
#define CSP "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " \
            "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"

/* What a route's actions are decided on under --enforce-iam. */
typedef enum api_resource {
    RESOURCE_TABLES, /* the S3 Tables bucket or table its ?arn= names (else the caller's buckets) */
    RESOURCE_ANY,    /* "*": the actions name no resource type (cloudformation:ListStacks) */
    RESOURCE_STACK,  /* the stack its ?id= names (a stack ARN, or a name) */
} api_resource_t;

typedef struct api_route {
    const char *name;
    int (*serve)(floe_console_req_t *r);
    /* Under --enforce-iam, the actions (comma-separated) of the API calls whose answers the route
       shows, each decided on `resource` (NULL: nothing to authorize: the session, the scopes). */
    const char *actions;
    api_resource_t resource;
} api_route_t;

static const api_route_t api_routes[] = {
    {"session", floe_console_session, NULL, RESOURCE_ANY},
    {"scopes", floe_console_scopes, NULL, RESOURCE_ANY},
    {"buckets", floe_console_buckets, "s3tables:ListTableBuckets", RESOURCE_TABLES},
    {"bucket", floe_console_bucket, "s3tables:GetTableBucket", RESOURCE_TABLES},
    {"namespaces", floe_console_namespaces, "s3tables:ListNamespaces", RESOURCE_TABLES},
    {"tables", floe_console_tables, "s3tables:ListTables", RESOURCE_TABLES},
    {"table", floe_console_table, "s3tables:GetTable", RESOURCE_TABLES},
    {"object", floe_console_object, "s3tables:GetTableData", RESOURCE_TABLES},
    {"stacks", floe_console_stacks, "cloudformation:ListStacks", RESOURCE_ANY},
    {"stack", floe_console_stack,
     "cloudformation:DescribeStacks,cloudformation:DescribeStackResources,cloudformation:DescribeStackEvents,"
     "cloudformation:GetTemplate",
     RESOURCE_STACK},
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

/* The access key that signed the request, in its pool (NULL: unsigned). */
static const char *access_key_of(h2o_req_t *req)
{
    floe_sigv4_scope_t signature;

    if (floe_sigv4_request_scope(req, &signature) != 0)
        return NULL;
    return h2o_strdup(&req->pool, signature.access_key.base, signature.access_key.len).base;
}

/* The resource a stack route's actions are decided on, and its account: the stack ARN ?id= names,
 * else (a name) every stack of that name in the signer's account and the page's region, as the stack ARN's pattern
 * arn:aws:cloudformation:<region>:<account>:stack/<name>/<id> reads with a star for the id. */
static const char *stack_resource(floe_console_req_t *r, const floe_scope_t *signer, floe_authz_request_t *q)
{
    const char *id = floe_console_param(r, "id"), *region = floe_console_param(r, "region"), *account = id;

    /* arn:aws:cloudformation:<region>:<account>:stack/...: the account is the fifth field */
    for (int field = 0; account != NULL && field < ARN_ACCOUNT_FIELD; field++)
        account = (account = strchr(account, ':')) != NULL ? account + 1 : NULL;
    if (id != NULL && strncmp(id, "arn:", strlen("arn:")) == 0 && account != NULL &&
        floe_scope_is_account_id(account, strcspn(account, ":"))) {
        q->owner = floe_call_strndup(&r->call, account, FLOE_ACCOUNT_ID_LEN);
        return id;
    }
    return floe_call_printf(&r->call, "arn:aws:cloudformation:%s:%s:stack/%s/*", region != NULL ? region : signer->region,
                            signer->account_id, id != NULL ? id : "");
}

/* One action of a route that names no S3 Tables resource, decided for the signed caller on "*" or
 * on the stack: CloudFormation holds no resource policies, so only the caller's own apply. */
static int decide_other(floe_console_req_t *r, const api_route_t *route, const char *action, const floe_scope_t *signer,
                        floe_authz_decision_t *out)
{
    floe_authz_request_t q = {0};
    floe_principal_t *principal;

    if (floe_principal_of_key(&r->call, access_key_of(r->req), &principal))
        return FLOE_EFAIL;
    q.action = action;
    q.owner = signer->account_id;
    q.source_ip = floe_http_peer_address(r->req);
    q.resource = route->resource == RESOURCE_STACK ? stack_resource(r, signer, &q) : "*";
    return floe_authz_decide(&r->call, principal, &q, out);
}

/* --enforce-iam: the signed caller's permission for each action of the route, on the bucket or
 * table its ?arn= names (else the caller's buckets), on its stack, or on "*". 0, or -1 after
 * answering 403 with AWS's sentence for the first refused action (or 500). */
static int authorize(floe_console_req_t *r, const api_route_t *route)
{
    floe_authz_target_t target = {floe_console_param(r, "arn"), NULL, NULL};
    floe_authz_decision_t decision;
    floe_scope_t signer;
    const char *next = route->actions;
    char action[ACTION_MAX];

    floe_sigv4_request_account_scope(r->req, r->w->config, &signer);
    while (*next != '\0') {
        size_t len = strcspn(next, ",");
        snprintf(action, sizeof(action), "%.*s", (int)len, next);
        next += len + (next[len] == ',');
        floe_call_set_scope(&r->call, &signer);
        if (route->resource == RESOURCE_TABLES
                ? floe_authz_table_access(&r->call, access_key_of(r->req), floe_http_peer_address(r->req), action,
                                          &target, &decision)
                : decide_other(r, route, action, &signer, &decision))
            return floe_console_fail(r, 500, "The console could not authorize the request.");
        if (!decision.is_allowed)
            return floe_console_fail(r, 403, "%s", floe_authz_message(&r->call, &decision));
    }
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
    if (w->config->enforce_iam && route->actions != NULL && authorize(&r, route) != 0)
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
