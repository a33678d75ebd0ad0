/*
 * The awsQuery front of query.h: the one path every CloudFormation and STS request takes.
 *
 *   method other than GET/POST ──▶ 405 MethodNotAllowed
 *        ▼
 *   body over MAX_BODY_BYTES ──▶ 413 RequestEntityTooLarge
 *        ▼
 *   decode the form (URL query + form body) ──malformed──▶ 404 MalformedQueryString
 *        ▼
 *   Action ──absent──▶ 400 MissingAction;  ──not in the table──▶ 400 InvalidAction
 *        ▼
 *   op->parse, op->validate ──violation──▶ 400 ValidationError
 *        ▼
 *   --enforce-iam: the caller's permission for op (query_authorize.h) ──refused──▶ 403 AccessDenied
 *        ▼
 *   op->handle == NULL ──▶ 501 NotImplemented
 *        ▼
 *   op->handle ──floe_<prefix>_fail(e)──▶ e's code and status, if e is one the operation may
 *        │                               answer; anything else is logged and answered 500
 *        ▼                               InternalFailure
 *   held (floe_query_call_hold)? ──▶ the same 200, sent once its work has settled (query_hold.c)
 *        ▼
 *   200 <OpResponse><OpResult>op->serialize</OpResult>...
 *
 * The status codes of MalformedQueryString, MissingAction and InvalidAction are those of AWS's
 * common errors (https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/CommonErrors.html).
 * Invariant: when a handler returns, floe_state_end_call() has reset its statements and rolled
 * back any transaction it left open, before the response is written.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/failure.h"
#include "base/log.h"
#include "db/state.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "query/query.h"
#include "query/query_answer.h"
#include "query/query_authorize.h"
#include "query/query_hold.h"

/* The largest form parsed. CloudFormation's largest input is an inline template (51,200 bytes,
 * up to three times that once form-encoded) with its parameters; far below this. */
#define MAX_BODY_BYTES ((size_t)1 << 20)
#define FORM_CONTENT_TYPE "application/x-www-form-urlencoded"
#define MESSAGE_MAX 256

#define FLOE_QUERY_SERVICE(table) extern const floe_query_service_t table;
#include "query_services.def"

static const floe_query_service_t *const services[] = {
#define FLOE_QUERY_SERVICE(table) &table,
#include "query_services.def"
};

#define N_SERVICES (sizeof(services) / sizeof(services[0]))

typedef struct query_ctx {
    floe_worker_t *w;
    h2o_req_t *req;
    const floe_query_service_t *svc;
    const floe_sigv4_scope_t *credential; /* the request's SigV4 credential scope */
    uint64_t started_us;
    const char *operation; /* "<Service>:<Action>" for the log, in the pool */
} query_ctx_t;

int floe_query_init(void)
{
    for (size_t i = 0; i < N_SERVICES; i++) {
        if (services[i]->init() != 0)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

const floe_query_service_t *const *floe_query_services(size_t *n)
{
    *n = N_SERVICES;
    return services;
}

/* Every signed request that is not S3 Tables' asks, S3's included. */
const floe_query_service_t *floe_query_service_of(const floe_sigv4_scope_t *scope)
{
    for (size_t i = 0; i < N_SERVICES; i++) {
        if (floe_sigv4_scope_is_for(scope, services[i]->signing_name))
            return services[i];
    }
    return NULL;
}

void floe_query_refuse(h2o_req_t *req, const floe_query_service_t *svc, int status, const char *code,
                       const char *message)
{
    floe_query_answer_error(req, svc, status, code, status >= 500, message);
}

/* The log line is written before the response so that it is on disk when the client has its answer. */
static void answer_error(query_ctx_t *q, int status, const char *code, const char *message)
{
    floe_log_request(q->w->config, q->req, q->operation, status, q->started_us);
    floe_query_answer_error(q->req, q->svc, status, code, status >= 500, message);
}

static void answer_service_error(query_ctx_t *q, int error, const char *message)
{
    const floe_query_error_info_t *e = &q->svc->errors[error];

    floe_log_request(q->w->config, q->req, q->operation, e->status, q->started_us);
    floe_query_answer_error(q->req, q->svc, e->status, e->code, e->is_server_fault, message);
}

static void answer_handler_error(query_ctx_t *q, const floe_query_operation_t *op, floe_query_call_t *call)
{
    int e = call->error;

    if (e <= 0 || (size_t)e >= q->svc->n_errors || !(op->errors & FLOE_QUERY_ERROR_BIT(e))) {
        floe_log("%s %s failed with %s, which it may not answer: %s", q->svc->name, op->name,
                 e > 0 && (size_t)e < q->svc->n_errors ? q->svc->errors[e].code : "no error",
                 call->error_message ? call->error_message : "(no message)");
        answer_service_error(q, q->svc->internal_error, "The server encountered an internal error.");
        return;
    }
    answer_service_error(q, e, call->error_message ? call->error_message : q->svc->errors[e].code);
}

/* "<Service>:<Action>" in the request pool, the operation's name in the request log. */
static const char *log_name(h2o_req_t *req, const floe_query_service_t *svc, const floe_query_operation_t *op)
{
    size_t n = strlen(svc->name) + strlen(op->name) + 2;
    char *name = h2o_mem_alloc_pool(&req->pool, n);
    snprintf(name, n, "%s:%s", svc->name, op->name);
    return name;
}

static const floe_query_operation_t *find_operation(const floe_query_service_t *svc, const char *action)
{
    for (size_t i = 0; i < svc->n_operations; i++) {
        if (strcmp(svc->operations[i].name, action) == 0)
            return &svc->operations[i];
    }
    return NULL;
}

/* --enforce-iam: whether the caller may run `op`; false after answering AccessDenied (403, Sender,
 * AWS's sentence) or InternalFailure when the decision failed. */
static bool authorized(query_ctx_t *q, const floe_query_operation_t *op, const floe_query_form_t *form,
                       floe_query_call_t *call)
{
    floe_authz_decision_t decision;
    bool needed;
    int rc = floe_query_authorize(call, q->svc, op, form, floe_http_peer_address(q->req), &needed, &decision);

    if (floe_state_end_call(q->w->state))
        floe_log("%s %s left a transaction open while authorizing; it was rolled back", q->svc->name, op->name);
    if (rc != FLOE_OK) {
        answer_service_error(q, q->svc->internal_error, "The server could not authorize the request.");
        return false;
    }
    if (!needed || decision.is_allowed)
        return true;
    answer_service_error(q, q->svc->denied_error, floe_authz_message(&call->super, &decision));
    return false;
}

static void run_operation(query_ctx_t *q, const floe_query_operation_t *op, const floe_query_form_t *form)
{
    floe_violation_t violation;
    floe_scope_t scope;
    floe_query_call_t call;
    void *in, *out;
    int rc;

    floe_query_call_init(&call, &q->req->pool, q->w->state, q->w->config);
    floe_sigv4_account_scope(q->req, q->w->config, q->credential, &scope);
    floe_call_set_scope(&call.super, &scope);
    call.access_key = floe_call_strndup(&call.super, q->credential->access_key.base, q->credential->access_key.len);
    call.action = floe_call_printf(&call.super, "%s:%s", q->svc->signing_name, op->name);
    in = floe_call_alloc(&call.super, op->request_size);
    if (op->parse(&call.super, form, in, &violation) != 0 || op->validate(in, &violation) != 0) {
        answer_service_error(q, q->svc->validation_error, violation.message);
        return;
    }
    if (q->w->config->enforce_iam && !authorized(q, op, form, &call))
        return;
    if (op->handle == NULL) {
        char message[MESSAGE_MAX];
        snprintf(message, sizeof(message), "Floe does not implement %s %s yet; see %s.", q->svc->name, op->name,
                 q->svc->docs);
        answer_error(q, 501, "NotImplemented", message);
        return;
    }
    out = floe_call_alloc(&call.super, op->response_size);
    rc = op->handle(&call, in, out);
    if (floe_state_end_call(q->w->state))
        floe_log("%s %s left a transaction open; it was rolled back", q->svc->name, op->name);
    if (rc != FLOE_OK) {
        answer_handler_error(q, op, &call);
        return;
    }
    if (call.hold_until != NULL) {
        floe_query_held_t held = {q->w, q->req, q->svc, op, out, q->operation, q->started_us, scope,
                                  call.hold_until, call.hold_arg};
        floe_query_hold(&held);
        return;
    }
    floe_log_request(q->w->config, q->req, q->operation, 200, q->started_us);
    floe_query_answer_result(q->req, q->svc, op, out);
}

/* True when the body is a form: a POST whose Content-Type is form encoding, or has none. */
static int body_is_form(h2o_req_t *req)
{
    ssize_t i = h2o_find_header(&req->headers, H2O_TOKEN_CONTENT_TYPE, -1);
    const h2o_iovec_t *ct;

    if (!h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("POST")))
        return 0;
    if (i < 0)
        return 1;
    ct = &req->headers.entries[i].value;
    return ct->len >= strlen(FORM_CONTENT_TYPE) &&
           strncasecmp(ct->base, FORM_CONTENT_TYPE, strlen(FORM_CONTENT_TYPE)) == 0;
}

/* Decodes the URL query and the form body into *form: 0, or -1 when either is malformed. */
static int read_form(h2o_req_t *req, floe_query_form_t *form)
{
    const char *query = NULL, *body = NULL;
    size_t query_len = 0, body_len = 0;

    if (req->input.query_at != SIZE_MAX) {
        query = req->input.path.base + req->input.query_at + 1;
        query_len = req->input.path.len - req->input.query_at - 1;
    }
    if (body_is_form(req) && req->entity.base != NULL) {
        body = req->entity.base;
        body_len = req->entity.len;
    }
    return floe_query_form_decode(&req->pool, query, query_len, body, body_len, form);
}

/* read_form; answers and returns -1 when the form is malformed. */
static int decode_form(query_ctx_t *q, floe_query_form_t *form)
{
    if (read_form(q->req, form) != 0) {
        answer_error(q, 404, "MalformedQueryString", "The query string contains a syntax error.");
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

const floe_query_service_t *floe_query_service_of_form(h2o_req_t *req)
{
    floe_query_form_t form;
    const char *version;

    if (!body_is_form(req) && req->input.query_at == SIZE_MAX)
        return NULL;
    if (read_form(req, &form) != 0 || floe_query_form_get(&form, "Action") == NULL ||
        (version = floe_query_form_get(&form, "Version")) == NULL)
        return NULL;
    for (size_t i = 0; i < N_SERVICES; i++) {
        if (strcmp(version, services[i]->version) == 0)
            return services[i];
    }
    return NULL;
}

void floe_query_handle(floe_worker_t *w, h2o_req_t *req, const floe_query_service_t *svc,
                       const floe_sigv4_scope_t *scope)
{
    query_ctx_t q = {w, req, svc, scope, floe_log_now_us(), svc->name};
    const floe_query_operation_t *op;
    floe_query_form_t form;
    const char *action, *version;
    char message[MESSAGE_MAX];

    if (!h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("POST")) &&
        !h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("GET"))) {
        answer_error(&q, 405, "MethodNotAllowed", "Requests to this service are GET or POST.");
        return;
    }
    if (req->entity.len > MAX_BODY_BYTES) {
        answer_error(&q, 413, "RequestEntityTooLarge", "The request body is larger than the 1 MiB Floe accepts.");
        return;
    }
    if (decode_form(&q, &form) != 0)
        return;
    if ((action = floe_query_form_get(&form, "Action")) == NULL || action[0] == '\0') {
        answer_error(&q, 400, "MissingAction", "The request must contain the parameter Action.");
        return;
    }
    if ((op = find_operation(svc, action)) == NULL) {
        version = floe_query_form_get(&form, "Version");
        snprintf(message, sizeof(message), "Could not find operation %.64s for version %.32s", action,
                 version != NULL ? version : svc->version);
        answer_error(&q, 400, "InvalidAction", message);
        return;
    }
    q.operation = log_name(req, svc, op);
    run_operation(&q, op, &form);
}
