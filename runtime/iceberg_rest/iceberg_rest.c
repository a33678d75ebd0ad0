/*
 * The dispatcher of iceberg_rest.h: the one path every REST catalog request takes.
 *
 *   signed for glue: /v1/catalogs/{catalog}/... routed as /v1/{catalog}/... (any other prefixed
 *        │           path: 404); after the checks below, {catalog} or ?warehouse= becomes the table
 *        │           bucket ARN (iceberg_rest_glue.h): 400, 403 or 501 when it names none of ours
 *        ▼
 *   floe_iceberg_rest_route ──no path──▶ 404 NotFoundException
 *        │                  ──no method─▶ 405 MethodNotAllowedException
 *        ▼
 *   route->is_served == false ──▶ 501 UnsupportedOperationException
 *        ▼
 *   body: floe_iceberg_json_parse ──not JSON──▶ 400 BadRequestException
 *        ▼
 *   {namespace} with the 0x1F separator ──▶ 404 NoSuchTable/NoSuchNamespace for a read whose route
 *        │                                   documents 404, else 400 (S3 Tables has one level)
 *        ▼
 *   --enforce-iam (signed for s3tables): the operation's IAM actions refused ──▶ 403
 *        │   ForbiddenException (iceberg_rest_authorize.h); without it, the warehouse (prefix or
 *        │   ?warehouse=) of another account than the request's ──▶ 403 NotAuthorizedException, on
 *        │   both endpoints (refuse_other_account)
 *        ▼
 *   route->parse ──▶ 400 BadRequestException
 *        ▼
 *   route->handle ──floe_iceberg_call_fail(e), or floe_fail(code, subject) on the shared call,
 *        │          mapped to e by floe_iceberg_rest_error_of──▶ e's status, if the spec documents
 *        │          that status for the route (NoSuchWarehouseException is always allowed: every
 *        │          route has a prefix); anything else is logged and answered 500
 *        ▼
 *   route->serialize ──▶ the spec's success code (204: no body), with the ETag the handler set
 *
 * Invariants: when a handler returns, floe_state_end_call() has reset its statements and rolled
 * back any transaction it left open; the request body's JSON tree and the buffers the call kept are
 * freed only after the response has been written (the response copies what it sends).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/engine_key.h"
#include "base/failure.h"
#include "base/log.h"
#include "catalog/arn.h"
#include "db/state.h"
#include "http/response.h"
#include "http/sigv4.h"
#include "http/uri.h"
#include "iceberg/iceberg_json.h"
#include "iceberg_rest/iceberg_rest.h"
#include "iceberg_rest/iceberg_rest_authorize.h"
#include "iceberg_rest/iceberg_rest_call.h"
#include "iceberg_rest/iceberg_rest_error.h"
#include "iceberg_rest/iceberg_rest_glue.h"
#include "iceberg_rest/iceberg_rest_router.h"

#define NAMESPACE_SEPARATOR '\x1f' /* the spec's default namespace-separator, %1F */
#define MESSAGE_MAX 200
#define HTTP_SCHEME "http://"
#define HTTP_NOT_FOUND 404
#define MESSAGE_MULTI_LEVEL "S3 Tables namespaces have a single level; a multi-level namespace is not supported."
#define MESSAGE_NO_TABLE "The specified table does not exist."
#define MESSAGE_NO_NAMESPACE "The specified namespace does not exist."
#define GLUE_SIGNING_NAME "glue"
#define GLUE_PATH_PREFIX "/v1/" FLOE_GLUE_CATALOGS_SEGMENT "/" /* /v1/catalogs/{catalog}/... */
#define WAREHOUSE_MESSAGE_MAX 600
#define MESSAGE_NO_ROUTE "No Iceberg REST catalog route matches this method and path."

typedef struct rest_ctx {
    floe_worker_t *w;
    h2o_req_t *req;
    uint64_t started_us;
    const char *operation; /* "Iceberg:<operationId>" once routed, for the log */
    bool is_glue;          /* signed for glue: AWS Glue's Iceberg REST endpoint (iceberg_rest_glue.h) */
} rest_ctx_t;

int floe_iceberg_rest_init(void)
{
    return floe_iceberg_rest_router_init();
}

/* The log line is written before the response so that it is on disk when the client has its answer. */
static void answer_error(rest_ctx_t *d, floe_iceberg_err_t e, const char *message)
{
    floe_log_request(d->w->config, d->req, d->operation, floe_iceberg_rest_error_status(e), d->started_us);
    floe_iceberg_rest_send_error(d->req, e, message != NULL ? message : floe_iceberg_rest_error_type(e));
}

static void answer_handler_error(rest_ctx_t *d, const floe_iceberg_route_t *route, const floe_iceberg_call_t *call)
{
    bool is_commit = strcmp(route->operation, "updateTable") == 0 || strcmp(route->operation, "commitTransaction") == 0;
    floe_iceberg_err_t e = call->error;
    const char *message = call->error_message;

    if (e == FLOE_ICEBERG_ERR_NONE && call->super.failure.code != FLOE_OK) { /* recorded on the shared call */
        e = floe_iceberg_rest_error_of(&call->super.failure, call->names_table, is_commit);
        message = call->super.failure.message;
    }
    if (message == NULL)
        message = floe_iceberg_rest_error_type(e);

    if (e <= FLOE_ICEBERG_ERR_NONE || e >= FLOE_ICEBERG_ERR__COUNT ||
        (e != FLOE_ICEBERG_ERR_NoSuchWarehouseException &&
         !floe_iceberg_route_documents(route, floe_iceberg_rest_error_status(e)))) {
        floe_log("%s failed with %s, whose status the spec does not document for it: %s", route->operation,
                 floe_iceberg_rest_error_type(e), message);
        e = FLOE_ICEBERG_ERR_InternalServerError;
        message = "The server encountered an internal error.";
    }
    answer_error(d, e, message);
}

static void answer_success(rest_ctx_t *d, const floe_iceberg_route_t *route, const void *out)
{
    floe_json_t *json = &d->w->json;

    floe_log_request(d->w->config, d->req, d->operation, route->success_code, d->started_us);
    if (route->success_code == 204) {
        floe_response_send(d->req, 204, NULL, NULL, 0);
        return;
    }
    floe_json_reset(json);
    route->serialize(out, json);
    floe_response_send(d->req, route->success_code, "application/json", json->buf, json->len);
}

/* Where clients reach Floe's S3: the scheme and authority this request came to. */
static const char *s3_endpoint(h2o_req_t *req)
{
    h2o_iovec_t host = req->input.authority;
    size_t scheme_len = strlen(HTTP_SCHEME);
    char *s = h2o_mem_alloc_pool(&req->pool, scheme_len + host.len + 1);
    memcpy(s, HTTP_SCHEME, scheme_len);
    memcpy(s + scheme_len, host.base, host.len);
    s[scheme_len + host.len] = '\0';
    return s;
}

/* A request header's value (NUL-terminated, in the pool), or NULL when absent. */
static const char *header_value(h2o_req_t *req, const h2o_token_t *token)
{
    ssize_t i = h2o_find_header(&req->headers, token, -1);
    char *value;

    if (i < 0)
        return NULL;
    value = h2o_mem_alloc_pool(&req->pool, req->headers.entries[i].value.len + 1);
    memcpy(value, req->headers.entries[i].value.base, req->headers.entries[i].value.len);
    value[req->headers.entries[i].value.len] = '\0';
    return value;
}

/* Parses the body (if any) with exact 64-bit integers; 0, or -1 after answering 400. */
static int parse_body(rest_ctx_t *d, cJSON **body)
{
    floe_iceberg_error_t err;

    *body = NULL;
    if (d->req->entity.base == NULL || d->req->entity.len == 0)
        return FLOE_OK;
    if ((*body = floe_iceberg_json_parse(d->req->entity.base, d->req->entity.len, &err)) == NULL) {
        answer_error(d, FLOE_ICEBERG_ERR_BadRequestException, "The request body is not valid JSON.");
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static void run_handler(rest_ctx_t *d, const floe_iceberg_route_t *route, floe_iceberg_call_t *call,
                        const floe_iceberg_input_t *http)
{
    void *in = floe_call_alloc(&call->super, route->in_size);
    void *out;
    int rc;

    if (route->parse(call, http, in) != FLOE_OK) {
        answer_error(d, call->error, call->error_message);
        return;
    }
    out = floe_call_alloc(&call->super, route->out_size);
    call->names_table = strstr(route->path, "{table}") != NULL || strcmp(route->operation, "renameTable") == 0;
    rc = route->handle(call, in, out);
    if (floe_state_end_call(d->w->state))
        floe_log("%s left a transaction open; it was rolled back", route->operation);
    if (call->etag != NULL) /* on 200 and on 304 alike (RFC 9110 15.4.5) */
        floe_response_header(d->req, "ETag", call->etag, strlen(call->etag));
    if (rc != FLOE_OK)
        answer_handler_error(d, route, call);
    else
        answer_success(d, route, out);
}

/* The warehouse a request names: its path prefix, else ?warehouse= (GET /v1/config), an ARN
 * decoded once more when a client encoded it twice; NULL when it names none. */
static const char *named_warehouse(rest_ctx_t *d, const floe_iceberg_route_match_t *match,
                                   const floe_query_param_t *query, size_t n_query)
{
    const char *warehouse = match->prefix;

    for (size_t i = 0; warehouse == NULL && i < n_query; i++) {
        if (strcmp(query[i].key, "warehouse") == 0)
            warehouse = query[i].value;
    }
    if (warehouse != NULL && strncasecmp(warehouse, "arn%3A", strlen("arn%3A")) == 0)
        warehouse = floe_percent_decode(&d->req->pool, warehouse, strlen(warehouse), 0);
    return warehouse;
}

/* The account and region of the call: the signature's on a signed request (/iceberg, as AWS serves
 * it); on an unsigned one (/_floe/iceberg), the warehouse ARN's, from the prefix or ?warehouse=. */
static void set_scope(rest_ctx_t *d, floe_iceberg_call_t *call, const floe_iceberg_route_match_t *match,
                      const floe_query_param_t *query, size_t n_query)
{
    floe_scope_t scope;
    floe_sigv4_scope_t signature;

    if (floe_sigv4_request_scope(d->req, &signature) == 0) {
        floe_sigv4_request_account_scope(d->req, d->w->config, &scope);
        /* the front door verified an engine key's signature (front.c) */
        call->super.by_engine = floe_engine_key_account(signature.access_key.base, signature.access_key.len, NULL);
    } else
        floe_scope_from_arn(d->w->config, named_warehouse(d, match, query, n_query), &scope);
    floe_call_set_scope(&call->super, &scope);
}

/*
 * A warehouse of another account than the request's, on either endpoint (a table bucket ARN, or a
 * Glue catalog id): 403 in the spec's ForbiddenResponse shape (its type NotAuthorizedException),
 * before any route runs, as the S3 Tables API answers such an ARN 403 AccessDeniedException
 * (catalog/lookup.h). Floe models no grant across accounts, so none ever allows it.
 */
static void refuse_other_account(rest_ctx_t *d, const floe_iceberg_call_t *call, const char *warehouse)
{
    char message[WAREHOUSE_MESSAGE_MAX];

    snprintf(message, sizeof(message),
             "The warehouse '%.200s' belongs to another account than the request's (%s); Floe models no grants "
             "across accounts (table bucket policies, Glue or Lake Formation permissions).",
             warehouse, call->super.scope.account_id);
    answer_error(d, FLOE_ICEBERG_ERR_NotAuthorizedException, message);
}

/*
 * A path naming a multi-level namespace, which S3 Tables never has. A read (GET or HEAD) on a
 * route whose spec documents 404 answers that the table or namespace does not exist: Iceberg's
 * Java client reads `ns.t.snapshots` first as table `snapshots` in namespace `ns.t` and turns to
 * the metadata table of `ns.t` only on NoSuchTableException (Spark's and Trino's metadata tables).
 * Anything else (a create, a commit, a drop) is refused as a bad request.
 */
static void answer_multi_level(rest_ctx_t *d, const floe_iceberg_route_match_t *match)
{
    const floe_iceberg_route_t *route = match->route;
    bool is_read = strcmp(route->method, "GET") == 0 || strcmp(route->method, "HEAD") == 0;

    if (is_read && floe_iceberg_route_documents(route, HTTP_NOT_FOUND)) {
        if (match->table != NULL)
            answer_error(d, FLOE_ICEBERG_ERR_NoSuchTableException, MESSAGE_NO_TABLE);
        else
            answer_error(d, FLOE_ICEBERG_ERR_NoSuchNamespaceException, MESSAGE_NO_NAMESPACE);
        return;
    }
    answer_error(d, FLOE_ICEBERG_ERR_BadRequestException, MESSAGE_MULTI_LEVEL);
}

/*
 * On Glue's endpoint, turns the catalog a request names (the path's {catalog}, or ?warehouse= on
 * /v1/config) into the table bucket ARN the handlers take, as the S3 Tables endpoint names it, so
 * both endpoints reach the same rows. FLOE_OK, or FLOE_EFAIL after answering.
 */
static int glue_warehouse(rest_ctx_t *d, floe_iceberg_call_t *call, const char *catalog, const char **arn)
{
    floe_glue_warehouse_t wh;
    char message[WAREHOUSE_MESSAGE_MAX];

    switch (floe_glue_warehouse_of(catalog, &call->super.scope, &wh)) {
    case FLOE_GLUE_WAREHOUSE_OK:
        *arn = h2o_strdup(&d->req->pool, wh.arn, SIZE_MAX).base;
        call->glue_prefix = h2o_strdup(&d->req->pool, wh.prefix, SIZE_MAX).base;
        return FLOE_OK;
    case FLOE_GLUE_WAREHOUSE_MALFORMED:
        snprintf(message, sizeof(message),
                 "Invalid catalog id '%.200s': an S3 table bucket's catalog on the AWS Glue Iceberg REST endpoint is "
                 "<account>:s3tablescatalog/<bucket>.", catalog);
        answer_error(d, FLOE_ICEBERG_ERR_BadRequestException, message);
        return FLOE_EFAIL;
    case FLOE_GLUE_WAREHOUSE_NOT_EMULATED:
        snprintf(message, sizeof(message),
                 "Floe's AWS Glue Iceberg REST endpoint serves the catalogs of S3 table buckets only "
                 "(<account>:s3tablescatalog/<bucket>); the catalog '%.200s' is not emulated.", catalog);
        answer_error(d, FLOE_ICEBERG_ERR_UnsupportedOperationException, message);
        return FLOE_EFAIL;
    case FLOE_GLUE_WAREHOUSE_OTHER_ACCOUNT:
    default:
        refuse_other_account(d, call, catalog);
        return FLOE_EFAIL;
    }
}

/* glue_warehouse for the routes without a prefix (/v1/config): the ?warehouse= catalog id, replaced
 * by its ARN in a copy of the query. FLOE_OK, or FLOE_EFAIL after answering. */
static int glue_query_warehouse(rest_ctx_t *d, floe_iceberg_call_t *call, floe_iceberg_input_t *http)
{
    floe_query_param_t *copy;

    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, "warehouse") != 0)
            continue;
        copy = h2o_mem_alloc_pool(&d->req->pool, sizeof(*copy) * http->n_query);
        memcpy(copy, http->query, sizeof(*copy) * http->n_query);
        if (glue_warehouse(d, call, http->query[i].value, &copy[i].value) != FLOE_OK)
            return FLOE_EFAIL;
        http->query = copy;
        return FLOE_OK;
    }
    return FLOE_OK;
}

/* On Glue's endpoint, the table bucket ARN its catalog id named (glue_warehouse put it in the
 * prefix, or in ?warehouse= on /v1/config); NULL when it names none. */
static const char *glue_arn(const floe_iceberg_input_t *http)
{
    for (size_t i = 0; http->prefix == NULL && i < http->n_query; i++) {
        if (strcmp(http->query[i].key, "warehouse") == 0)
            return http->query[i].value;
    }
    return http->prefix;
}

static void run_operation(rest_ctx_t *d, const floe_iceberg_route_match_t *match, const floe_query_param_t *query,
                          size_t n_query)
{
    const floe_iceberg_route_t *route = match->route;
    floe_iceberg_input_t http = {match->prefix, match->namespace, match->table, query, n_query, NULL,
                                 header_value(d->req, H2O_TOKEN_IF_NONE_MATCH)};
    floe_iceberg_call_t call;
    const char *warehouse;
    cJSON *body;

    d->operation = h2o_mem_alloc_pool(&d->req->pool, strlen(route->operation) + sizeof("Iceberg:"));
    sprintf((char *)d->operation, "Iceberg:%s", route->operation);
    if (!route->is_served) {
        char message[MESSAGE_MAX];
        snprintf(message, sizeof(message), "Floe does not implement %s; see generated/docs/iceberg.md.",
                 route->operation);
        answer_error(d, FLOE_ICEBERG_ERR_UnsupportedOperationException, message);
        return;
    }
    if (match->namespace != NULL && strchr(match->namespace, NAMESPACE_SEPARATOR) != NULL) {
        answer_multi_level(d, match);
        return;
    }
    if (parse_body(d, &body))
        return;
    http.body = body;
    floe_iceberg_rest_call_init(&call, &d->req->pool, d->w->state, d->w->config, s3_endpoint(d->req));
    set_scope(d, &call, match, query, n_query);
    call.is_glue = d->is_glue;
    if (d->is_glue && (match->prefix != NULL ? glue_warehouse(d, &call, match->prefix, &http.prefix)
                                             : glue_query_warehouse(d, &call, &http))) {
        cJSON_Delete(body);
        return;
    }
    warehouse = d->is_glue ? glue_arn(&http) : named_warehouse(d, match, query, n_query);
    if (d->w->config->enforce_iam) {
        if ((d->is_glue ? floe_iceberg_rest_authorize_glue(&call, d->req, match, warehouse)
                        : floe_iceberg_rest_authorize(&call, d->req, match, warehouse)) != FLOE_OK) {
            answer_error(d, call.error, call.error_message);
            cJSON_Delete(body);
            return;
        }
    } else if (warehouse != NULL && floe_arn_is_other_account(&call.super, warehouse)) {
        refuse_other_account(d, &call, warehouse);
        cJSON_Delete(body);
        return;
    }
    run_handler(d, route, &call, &http);
    cJSON_Delete(body);
}

/* Glue's paths put the prefix under /v1/catalogs/{catalog}: routes the rest as /v1/{catalog}/...,
 * the spec's template with {catalog} as its prefix. Returns true when the path had that form. */
static bool glue_route_path(rest_ctx_t *d, const char **path, size_t *len)
{
    size_t skip = strlen(GLUE_PATH_PREFIX) - strlen("/v1/");
    char *rewritten;

    if (*len <= strlen(GLUE_PATH_PREFIX) || memcmp(*path, GLUE_PATH_PREFIX, strlen(GLUE_PATH_PREFIX)) != 0)
        return false;
    rewritten = h2o_mem_alloc_pool(&d->req->pool, *len - skip);
    memcpy(rewritten, "/v1/", strlen("/v1/"));
    memcpy(rewritten + strlen("/v1/"), *path + strlen(GLUE_PATH_PREFIX), *len - strlen(GLUE_PATH_PREFIX));
    *path = rewritten;
    *len -= skip;
    return true;
}

static void route_request(rest_ctx_t *d, size_t base_len, const floe_query_param_t *query, size_t n_query)
{
    h2o_req_t *req = d->req;
    size_t path_end = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    const char *path = req->input.path.base + base_len;
    size_t path_len = path_end - base_len;
    bool is_glue_path = d->is_glue && glue_route_path(d, &path, &path_len);
    floe_iceberg_route_match_t match;

    switch (floe_iceberg_rest_route(&req->pool, req->input.method.base, req->input.method.len, path, path_len,
                                    &match)) {
    case FLOE_ICEBERG_ROUTE_FOUND:
        if (d->is_glue && (match.prefix != NULL) != is_glue_path) { /* Glue has no prefix outside /catalogs/ */
            answer_error(d, FLOE_ICEBERG_ERR_NotFoundException, MESSAGE_NO_ROUTE);
            return;
        }
        run_operation(d, &match, query, n_query);
        return;
    case FLOE_ICEBERG_ROUTE_NO_METHOD:
        answer_error(d, FLOE_ICEBERG_ERR_MethodNotAllowedException, "The HTTP method is not allowed on this resource.");
        return;
    case FLOE_ICEBERG_ROUTE_BAD_ENCODING:
        answer_error(d, FLOE_ICEBERG_ERR_BadRequestException, "The request path is not valid percent-encoding.");
        return;
    case FLOE_ICEBERG_ROUTE_NO_PATH:
    default:
        answer_error(d, FLOE_ICEBERG_ERR_NotFoundException, MESSAGE_NO_ROUTE);
        return;
    }
}

void floe_iceberg_rest_handle(floe_worker_t *w, h2o_req_t *req, size_t base_len)
{
    rest_ctx_t d = {w, req, floe_log_now_us(), NULL, false};
    floe_query_param_t *query = NULL;
    floe_sigv4_scope_t signature;
    long n_query = 0;

    d.is_glue = floe_sigv4_request_scope(req, &signature) == 0 && floe_sigv4_scope_is_for(&signature, GLUE_SIGNING_NAME);

    if (req->input.query_at != SIZE_MAX) {
        n_query = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                   req->input.path.len - req->input.query_at - 1, &query);
        if (n_query < 0) {
            answer_error(&d, FLOE_ICEBERG_ERR_BadRequestException, "The query string is not valid percent-encoding.");
            return;
        }
    }
    route_request(&d, base_len, query, (size_t)n_query);
}

void floe_iceberg_rest_refuse(h2o_req_t *req, int status, const char *message)
{
    floe_iceberg_rest_send_error(
        req, status == 400 ? FLOE_ICEBERG_ERR_BadRequestException : FLOE_ICEBERG_ERR_NotAuthorizedException, message);
}
