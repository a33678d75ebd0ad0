/*
 * The dispatcher of dispatch.h: the one path every S3 Tables API request takes.
 *
 *   floe_router_match ──no path──▶ 404 UnknownOperationException
 *        │            ──no method─▶ 405 MethodNotAllowedException
 *        ▼
 *   body over MAX_BODY_BYTES ──▶ 413 RequestEntityTooLargeException
 *        ▼
 *   route->parse ──violation──▶ 400 BadRequestException
 *        ▼
 *   info->validate ──violation──▶ 400 BadRequestException
 *        ▼
 *   info->handle == NULL ──▶ 501 NotImplementedException
 *        ▼
 *   info->handle ──floe_fail(code)──▶ the modeled error of the house code (modeled_error), with its
 *        │                            status, if the model lists it for the operation; anything
 *        │                            else is logged and answered 500
 *        ▼
 *   info->serialize ──▶ success code from @http (204: empty body; Unit output: {})
 *
 * Invariant: when a handler returns, floe_state_end_call() has reset its statements and rolled
 * back any transaction it left open, before the response is written.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/log.h"
#include "call/call.h"
#include "db/state.h"
#include "http/peer.h"
#include "http/response.h"
#include "http/sigv4.h"
#include "http/uri.h"
#include "s3tables/authorize.h"
#include "s3tables/dispatch.h"
#include "s3tables/router.h"

/* The largest S3 Tables request body parsed. AWS documents no limit beyond 20 KB for a policy; the
 * largest real bodies are CreateTable's Iceberg schemas, far below this. cJSON spends about 40
 * bytes of memory per byte of a dense body (a 10 MB array of zeros took a server from 10 MB to
 * 430 MB resident), so without a bound one request could exhaust the machine's memory. */
#define MAX_BODY_BYTES ((size_t)1 << 20)
#define S3TABLES_ARN_PREFIX "arn:aws:s3tables:"
#define JSON_MEDIA_TYPE "application/json"

typedef struct dispatch_ctx {
    floe_worker_t *w;
    h2o_req_t *req;
    const floe_sigv4_scope_t *credential; /* the request's SigV4 credential scope */
    uint64_t started_us;
    const char *operation;
} dispatch_ctx_t;

/* The log line is written before the response so that it is on disk when the client has its answer. */
static void answer_error(dispatch_ctx_t *d, int status, const char *name, const char *message)
{
    floe_log_request(d->w->config, d->req, d->operation, status, d->started_us);
    floe_response_aws_error(d->req, status, name, message);
}

/* AccessDeniedException is what AWS's authorization answers before any operation runs, whether or
 * not the model lists it for the operation: AWS's own smoke tests expect it from ListTables, which
 * does not list it. */
static bool may_answer(const floe_operation_info_t *info, floe_error_t e)
{
    return (info->errors & FLOE_ERROR_BIT(e)) || e == FLOE_ERR_AccessDeniedException;
}

/* S3 Tables' modeled error for a recorded house code: its API names the kind, never the subject.
 * FLOE_ERR_NONE for a failure inside (and any code S3 Tables has no error for): a 500. */
static floe_error_t modeled_error(int code)
{
    switch (code) {
    case FLOE_EINVAL: return FLOE_ERR_BadRequestException;
    case FLOE_ENOTFOUND: return FLOE_ERR_NotFoundException;
    case FLOE_EEXISTS:
    case FLOE_EINUSE:
    case FLOE_ECHANGED:
    case FLOE_ESTATE: return FLOE_ERR_ConflictException;
    case FLOE_EDENIED: return FLOE_ERR_AccessDeniedException;
    case FLOE_EREADONLY: return FLOE_ERR_ForbiddenException;
    default: return FLOE_ERR_NONE;
    }
}

static void answer_modeled_error(dispatch_ctx_t *d, const floe_operation_info_t *info, floe_call_t *call)
{
    floe_error_t e = modeled_error(call->failure.code);
    const char *message = call->failure.message;

    if (e == FLOE_ERR_NONE || !may_answer(info, e)) {
        floe_log("%s failed with %s, which the model does not list for it: %s", info->name,
                 e != FLOE_ERR_NONE ? floe_error_info[e].name : "no error", message ? message : "(no message)");
        answer_error(d, 500, "InternalServerErrorException", "The server encountered an internal error.");
        return;
    }
    answer_error(d, floe_error_info[e].status, floe_error_info[e].name, message ? message : floe_error_info[e].name);
}

static void answer_success(dispatch_ctx_t *d, const floe_operation_info_t *info, const void *out)
{
    floe_json_t *json = &d->w->json;

    floe_log_request(d->w->config, d->req, d->operation, info->success_code, d->started_us);
    if (info->success_code == 204) {
        floe_response_send(d->req, 204, NULL, NULL, 0);
    } else {
        floe_json_reset(json);
        if (info->serialize != NULL) {
            info->serialize(out, json);
        } else {
            floe_json_object_begin(json);
            floe_json_object_end(json);
        }
        floe_response_send(d->req, info->success_code, "application/json", json->buf, json->len);
    }
}

/* --enforce-iam: the signed caller's permission for this call (authorize.h). */
static int authorize(dispatch_ctx_t *d, const floe_route_match_t *match, const floe_http_input_t *http,
                     floe_call_t *call)
{
    char *access_key = h2o_mem_alloc_pool(&d->req->pool, d->credential->access_key.len + 1);

    memcpy(access_key, d->credential->access_key.base, d->credential->access_key.len);
    access_key[d->credential->access_key.len] = '\0';
    return floe_s3tables_authorize(call, match, http, access_key, floe_http_peer_address(d->req));
}

static void run_operation(dispatch_ctx_t *d, const floe_route_match_t *match, const floe_http_input_t *http)
{
    const floe_operation_info_t *info = &floe_operations[match->route->op];
    floe_violation_t violation;
    floe_scope_t scope;
    floe_call_t call;
    void *in, *out;
    int rc;

    d->operation = info->name;
    if (http->body_len > MAX_BODY_BYTES) {
        answer_error(d, 413, "RequestEntityTooLargeException",
                     "The request body is larger than the 1 MiB Floe accepts.");
        return;
    }
    floe_call_init(&call, &d->req->pool, d->w->state, d->w->config);
    floe_sigv4_account_scope(d->req, d->w->config, d->credential, &scope);
    floe_call_set_scope(&call, &scope);
    call.operation = info->name;
    in = floe_call_alloc(&call, info->request_size);
    if (match->route->parse(&call, http, in, &violation) != 0 || info->validate(in, &violation) != 0) {
        answer_error(d, 400, "BadRequestException", violation.message);
        return;
    }
    if (d->w->config->enforce_iam && authorize(d, match, http, &call) != FLOE_OK) {
        answer_modeled_error(d, info, &call);
        return;
    }
    if (info->handle == NULL) {
        char message[160];
        snprintf(message, sizeof(message), "Floe does not implement %s yet; see docs/operations.md.", info->name);
        answer_error(d, 501, "NotImplementedException", message);
        return;
    }
    out = floe_call_alloc(&call, info->response_size);
    rc = info->handle(&call, in, out);
    if (floe_state_end_call(d->w->state))
        floe_log("%s left a transaction open; it was rolled back", info->name);
    if (rc != FLOE_OK)
        answer_modeled_error(d, info, &call);
    else
        answer_success(d, info, out);
}

void floe_dispatch_s3tables(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope)
{
    dispatch_ctx_t d = {w, req, scope, floe_log_now_us(), NULL};
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    floe_query_param_t *query = NULL;
    long n_query = 0;
    floe_route_match_t match;
    floe_http_input_t http;

    if (req->input.query_at != SIZE_MAX) {
        n_query = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                   req->input.path.len - req->input.query_at - 1, &query);
        if (n_query < 0) {
            answer_error(&d, 400, "BadRequestException", "The query string is not valid percent-encoding.");
            return;
        }
    }
    switch (floe_router_match(&req->pool, req->input.method.base, req->input.method.len, req->input.path.base,
                              path_len, query, (size_t)n_query, &match)) {
    case FLOE_ROUTE_FOUND:
        break;
    case FLOE_ROUTE_NO_METHOD:
        answer_error(&d, 405, "MethodNotAllowedException", "The HTTP method is not allowed on this resource.");
        return;
    case FLOE_ROUTE_BAD_ENCODING:
        answer_error(&d, 400, "BadRequestException", "The request path is not valid percent-encoding.");
        return;
    case FLOE_ROUTE_NO_PATH:
    default:
        answer_error(&d, 404, "UnknownOperationException", "No S3 Tables operation matches this method and path.");
        return;
    }
    http.labels = match.labels;
    http.n_labels = match.n_labels;
    http.query = query;
    http.n_query = (size_t)n_query;
    http.body = req->entity.base;
    http.body_len = req->entity.len;
    run_operation(&d, &match, &http);
}

static bool names_s3tables_arn(const char *s)
{
    return s != NULL && strncmp(s, S3TABLES_ARN_PREFIX, strlen(S3TABLES_ARN_PREFIX)) == 0;
}

static bool has_json_body(h2o_req_t *req)
{
    ssize_t i = h2o_find_header(&req->headers, H2O_TOKEN_CONTENT_TYPE, -1);

    return i >= 0 && req->headers.entries[i].value.len >= strlen(JSON_MEDIA_TYPE) &&
           strncasecmp(req->headers.entries[i].value.base, JSON_MEDIA_TYPE, strlen(JSON_MEDIA_TYPE)) == 0;
}

/* A route without an ARN (ListTableBuckets, CreateTableBucket) is S3 Tables' when it carries a
 * JSON body, or is a GET whose query keys are camelCase as S3 Tables' are, where the listings of
 * an S3 bucket of the same name ("buckets") carry kebab-case ones (list-type, encoding-type). */
static bool is_arnless_call(h2o_req_t *req, const floe_query_param_t *query, size_t n_query)
{
    if (has_json_body(req))
        return true;
    if (!h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("GET")))
        return false;
    for (size_t i = 0; i < n_query; i++) {
        if (strchr(query[i].key, '-') != NULL)
            return false;
    }
    return true;
}

bool floe_s3tables_is_unsigned_call(h2o_req_t *req)
{
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    floe_query_param_t *query = NULL;
    long n_query = 0;
    floe_route_match_t match;

    if (req->input.query_at != SIZE_MAX &&
        (n_query = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                    req->input.path.len - req->input.query_at - 1, &query)) < 0)
        return false;
    if (floe_router_match(&req->pool, req->input.method.base, req->input.method.len, req->input.path.base, path_len,
                          query, (size_t)n_query, &match) != FLOE_ROUTE_FOUND)
        return false;
    for (size_t i = 0; i < match.n_labels; i++) {
        if (names_s3tables_arn(match.labels[i]))
            return true;
    }
    for (long i = 0; i < n_query; i++) {
        if (names_s3tables_arn(query[i].value))
            return true;
    }
    return match.n_labels == 0 && is_arnless_call(req, query, (size_t)n_query);
}

int floe_s3tables_init(void)
{
    return floe_router_init() != 0 ? FLOE_EFAIL : FLOE_OK;
}

const char *floe_s3tables_model_version(void)
{
    return FLOE_MODEL_VERSION;
}

const char *floe_s3tables_model_sha256(void)
{
    return FLOE_MODEL_SHA256;
}
