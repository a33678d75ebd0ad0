/*
 * The awsJson1_1 front of awsjson.h: the one path every Glue and Athena request (bar /iceberg) takes.
 *
 *   strict signatures and a signature that does not verify ──▶ 403 (400) in the JSON error shape
 *        ▼
 *   no X-Amz-Target and the service has a REST-JSON binding (awsjson_rest.h): method and path
 *        matched against its routes, labels and query folded into the input document
 *        ▼
 *   not POST, no X-Amz-Target "<Service>.<Operation>" (nor a route), an operation the model lacks
 *        ──▶ 400 UnknownOperationException
 *        ▼
 *   body over MAX_BODY_BYTES ──▶ 413 RequestEntityTooLarge
 *        ▼
 *   parse (awsjson_codec.c) ──not the input's JSON──▶ 400 SerializationException
 *                           ──an enum value the model lacks──▶ 400 ValidationException
 *   validate ──violation──▶ 400 ValidationException
 *        ▼
 *   op->handle == NULL ──▶ 501 NotImplementedException
 *        ▼
 *   op->handle ──floe_<prefix>_fail(e)──▶ e's `__type` and status, if e is one the operation may
 *        │                               answer; anything else is logged and answered as the
 *        ▼                               service's internal error (500)
 *   200 application/x-amz-json-1.1 (REST-JSON: application/json), the output serialized
 *
 * Every answer carries x-amzn-RequestId; errors are {"__type": ..., "<message>": ...} with the
 * message under the key the model's error spells (Glue's and Athena's `Message`) and the one other
 * member a handler may set (Athena's AthenaErrorCode), and an x-amzn-ErrorType header: botocore
 * reads `__type` in awsJson and the header first in REST-JSON, so one error document serves both. Invariant: when a handler returns, floe_state_end_call()
 * has reset its statements and rolled back any transaction it left open, before the answer.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "awsjson/awsjson.h"
#include "awsjson/awsjson_authorize.h"
#include "awsjson/awsjson_codec.h"
#include "awsjson/awsjson_rest.h"
#include "base/engine_key.h"
#include "base/log.h"
#include "db/state.h"
#include "http/response.h"
#include "http/sigv4_verify.h"

/* The largest body parsed. Glue's largest inputs (CreateTable with a wide schema, a batch of
 * partitions) are far below this. */
#define MAX_BODY_BYTES ((size_t)1 << 20)
#define CONTENT_TYPE "application/x-amz-json-1.1"
#define REST_CONTENT_TYPE "application/json"
#define TARGET_HEADER "x-amz-target"
#define MESSAGE_MAX 512
#define LOG_NAME_MAX 128
#define TARGET_MAX 128

#define FLOE_AWSJSON_SERVICE(table) extern const floe_awsjson_service_t table;
#include "awsjson_services.def"

static const floe_awsjson_service_t *const services[] = {
#define FLOE_AWSJSON_SERVICE(table) &table,
#include "awsjson_services.def"
};

#define N_SERVICES (sizeof(services) / sizeof(services[0]))

#define ACCESS_DENIED "AccessDeniedException"

typedef struct json_ctx {
    floe_worker_t *w;
    h2o_req_t *req;
    const floe_awsjson_service_t *svc;
    const floe_sigv4_scope_t *credential;
    uint64_t started_us;
    char operation[LOG_NAME_MAX]; /* "<Service>:<Operation>" for the log */
    const char *content_type;     /* of the answer: the binding's */
} json_ctx_t;

int floe_awsjson_init(void)
{
    return N_SERVICES > 0 ? FLOE_OK : FLOE_EFAIL; /* patterns compile on first use (awsjson_codec.c) */
}

const floe_awsjson_service_t *const *floe_awsjson_services(size_t *n)
{
    *n = N_SERVICES;
    return services;
}

const floe_awsjson_service_t *floe_awsjson_service_of(const floe_sigv4_scope_t *scope)
{
    for (size_t i = 0; i < N_SERVICES; i++) {
        if (floe_sigv4_scope_is_for(scope, services[i]->signing_name))
            return services[i];
    }
    return NULL;
}

/* The log line is written before the response so that it is on disk when the client has its
 * answer. `message_key` is the model's key for the message; `detail` goes under `detail_key`. */
static void answer_document(json_ctx_t *q, int status, const char *type, const char *message_key,
                            const char *message, const char *detail_key, const char *detail)
{
    floe_json_t *json = &q->w->json;

    floe_log_request(q->w->config, q->req, q->operation, status, q->started_us);
    floe_json_reset(json);
    floe_json_object_begin(json);
    floe_json_key(json, "__type");
    floe_json_string(json, type);
    if (detail_key != NULL && detail != NULL) {
        floe_json_key(json, detail_key);
        floe_json_string(json, detail);
    }
    floe_json_key(json, message_key);
    floe_json_string(json, message);
    floe_json_object_end(json);
    floe_response_header(q->req, "x-amzn-ErrorType", type, strlen(type));
    floe_response_send(q->req, status, q->content_type, json->buf, json->len);
}

/* An error no model lists (UnknownOperationException, NotImplementedException, ...). */
static void answer_error(json_ctx_t *q, int status, const char *type, const char *message)
{
    answer_document(q, status, type, "message", message, NULL, NULL);
}

static void answer_service_error(json_ctx_t *q, int error, const char *message, const char *detail)
{
    const floe_awsjson_error_info_t *e = &q->svc->errors[error];
    answer_document(q, e->status, e->name, e->message_key, message, e->detail_key, detail);
}

/* The service's error for a failure recorded on the shared call (a house code: its subject does
 * not change the error's name); internal_error for a failure inside. */
static int error_of_failure(const floe_awsjson_service_t *svc, const floe_failure_t *failure)
{
    int e;

    switch (failure->code) {
    case FLOE_ENOTFOUND: e = svc->not_found_error; break;
    case FLOE_EEXISTS:
    case FLOE_EINUSE:
    case FLOE_ECHANGED:
    case FLOE_ESTATE: e = svc->exists_error; break;
    case FLOE_EINVAL: e = svc->invalid_error; break;
    case FLOE_EDENIED:
    case FLOE_EREADONLY: e = svc->denied_error; break;
    default: e = -1;
    }
    return e >= 0 ? e : svc->internal_error;
}

/* The message of a failure recorded on the shared call: the service's wording of a named miss when
 * it has one (the not-found message with the name for "{name}"), else the failure's own. */
static const char *message_of_failure(const floe_awsjson_service_t *svc, floe_awsjson_call_t *call)
{
    const floe_failure_t *f = &call->super.failure;
    const char *wording = f->code == FLOE_ENOTFOUND && f->name != NULL && f->subject < FLOE_SUBJECT__COUNT
                              ? svc->not_found_messages[f->subject]
                              : NULL;
    const char *hole = wording != NULL ? strstr(wording, "{name}") : NULL;

    if (hole == NULL)
        return f->message;
    return floe_call_printf(&call->super, "%.*s%s%s", (int)(hole - wording), wording, f->name,
                            hole + strlen("{name}"));
}

static void answer_handler_error(json_ctx_t *q, const floe_awsjson_operation_t *op, floe_awsjson_call_t *call)
{
    int e = call->error;
    const char *message = call->error_message;

    if (e <= 0 && call->super.failure.code != FLOE_OK) { /* recorded on the shared call by the catalog */
        e = error_of_failure(q->svc, &call->super.failure);
        message = e == q->svc->internal_error ? "Internal service error." : message_of_failure(q->svc, call);
    }
    if (e <= 0 || (size_t)e >= q->svc->n_errors || !(op->errors & FLOE_AWSJSON_ERROR_BIT(e))) {
        floe_log("%s %s failed with %s, which it may not answer: %s", q->svc->name, floe_awsjson_name(q->svc, op->name),
                 e > 0 && (size_t)e < q->svc->n_errors ? q->svc->errors[e].name : "no error",
                 message ? message : "(no message)");
        answer_service_error(q, q->svc->internal_error, "Internal service error.", NULL);
        return;
    }
    answer_service_error(q, e, message ? message : q->svc->errors[e].name, call->error_detail);
}

/* In strict mode, answers and returns 0 when the signature does not verify (the codes the S3
 * Tables API answers with, which are AWS's JSON services' own); else returns 1. */
static int signature_accepted(json_ctx_t *q)
{
    floe_sigv4_result_t r;
    const char *type;

    if (!q->w->config->strict_signatures)
        return 1;
    if ((r = floe_sigv4_verify(q->req, q->w->config, 0, (int64_t)time(NULL))) == FLOE_SIGV4_OK)
        return 1;
    type = r == FLOE_SIGV4_MISSING       ? "MissingAuthenticationTokenException"
           : r == FLOE_SIGV4_UNKNOWN_KEY ? "UnrecognizedClientException"
                                         : "InvalidSignatureException";
    snprintf(q->operation, sizeof(q->operation), "%s:Unauthorized", q->svc->name);
    answer_error(q, r == FLOE_SIGV4_PAYLOAD_MISMATCH ? 400 : 403, type, floe_sigv4_result_message(r));
    return 0;
}

static const floe_awsjson_operation_t *find_operation(const floe_awsjson_service_t *svc, const char *name)
{
    size_t lo = 0, hi = svc->n_operations;

    while (lo < hi) { /* the table is sorted by name */
        size_t mid = (lo + hi) / 2;
        int cmp = strcmp(floe_awsjson_name(svc, svc->operations[mid].name), name);
        if (cmp == 0)
            return &svc->operations[mid];
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The operation X-Amz-Target names ("AWSGlue.GetTable"), copied into `buf`, or NULL. */
static const char *target_operation(h2o_req_t *req, const floe_awsjson_service_t *svc, char *buf, size_t size)
{
    size_t prefix = strlen(svc->target_prefix);

    for (size_t i = 0; i < req->headers.size; i++) {
        const h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len != strlen(TARGET_HEADER) || strncasecmp(h->name->base, TARGET_HEADER, h->name->len) != 0)
            continue;
        if (h->value.len <= prefix + 1 || h->value.len - prefix - 1 >= size ||
            memcmp(h->value.base, svc->target_prefix, prefix) != 0 || h->value.base[prefix] != '.')
            return NULL;
        memcpy(buf, h->value.base + prefix + 1, h->value.len - prefix - 1);
        buf[h->value.len - prefix - 1] = '\0';
        return buf;
    }
    return NULL;
}

/* --enforce-iam: whether the caller may run `op`; false after answering the service's denial (Glue's
 * AccessDeniedException, 400; Athena's, 400 too) or a 500 when the decision failed. */
static bool authorized(json_ctx_t *q, const floe_awsjson_operation_t *op, floe_awsjson_call_t *call, const void *in)
{
    floe_authz_decision_t decision;
    bool needed;

    if (floe_awsjson_authorize(call, q->req, q->svc, op, in, &needed, &decision)) {
        answer_service_error(q, q->svc->internal_error, "The server could not authorize the request.", NULL);
        return false;
    }
    if (!needed || decision.is_allowed)
        return true;
    /* the service's own denial (its overlay's "failures"), else the common AccessDeniedException with the
     * service's status for it (its model has no such error) */
    if (q->svc->denied_error >= 0) {
        answer_service_error(q, q->svc->denied_error, floe_authz_message(&call->super, &decision), NULL);
        return false;
    }
    answer_error(q, q->svc->denied_status, ACCESS_DENIED, floe_authz_message(&call->super, &decision));
    return false;
}

static void run_operation(json_ctx_t *q, const floe_awsjson_operation_t *op, const char *body, size_t body_len)
{
    floe_violation_t violation;
    floe_awsjson_parse_rc_t parsed;
    floe_scope_t scope;
    floe_awsjson_call_t call;
    const floe_awsjson_shape_t *input = floe_awsjson_shape(q->svc, op->input);
    const floe_awsjson_shape_t *output = floe_awsjson_shape(q->svc, op->output);
    void *in, *out;
    int rc;

    floe_awsjson_call_init(&call, &q->req->pool, q->w->state, q->w->config);
    floe_sigv4_account_scope(q->req, q->w->config, q->credential, &scope);
    floe_call_set_scope(&call.super, &scope);
    if (q->credential != NULL) {
        call.super.access_key = h2o_strdup(&q->req->pool, q->credential->access_key.base, q->credential->access_key.len).base;
        /* the front door verified an engine key's signature (front.c) */
        call.super.by_engine = floe_engine_key_account(q->credential->access_key.base, q->credential->access_key.len, NULL);
    }
    in = floe_call_alloc(&call.super, input->size);
    parsed = floe_awsjson_parse(&call.super, q->svc, input, body, body_len, in, &violation);
    if (parsed != FLOE_AWSJSON_PARSED) {
        if (parsed == FLOE_AWSJSON_INVALID)
            answer_service_error(q, q->svc->validation_error, violation.message, q->svc->validation_detail);
        else
            answer_service_error(q, q->svc->serialization_error, violation.message, NULL);
        return;
    }
    if (floe_awsjson_validate(q->svc, input, in, &violation) != 0) {
        answer_service_error(q, q->svc->validation_error, violation.message, q->svc->validation_detail);
        return;
    }
    if (q->w->config->enforce_iam && !authorized(q, op, &call, in))
        return;
    if (op->handle == NULL) {
        char message[MESSAGE_MAX];
        snprintf(message, sizeof(message), "Floe does not implement %s %s yet; see %s.", q->svc->name,
                 floe_awsjson_name(q->svc, op->name), q->svc->docs);
        answer_error(q, 501, "NotImplementedException", message);
        return;
    }
    out = floe_call_alloc(&call.super, output->size);
    rc = op->handle(&call, in, out);
    if (floe_state_end_call(q->w->state))
        floe_log("%s %s left a transaction open; it was rolled back", q->svc->name,
                 floe_awsjson_name(q->svc, op->name));
    if (rc != FLOE_OK) {
        answer_handler_error(q, op, &call);
        return;
    }
    floe_log_request(q->w->config, q->req, q->operation, 200, q->started_us);
    floe_json_reset(&q->w->json);
    floe_awsjson_serialize(q->svc, output, out, &q->w->json);
    floe_response_send(q->req, 200, q->content_type, q->w->json.buf, q->w->json.len);
}

const floe_awsjson_service_t *floe_awsjson_service_of_target(h2o_req_t *req)
{
    char target[TARGET_MAX];

    for (size_t i = 0; i < N_SERVICES; i++) {
        if (target_operation(req, services[i], target, sizeof(target)) != NULL)
            return services[i];
    }
    return NULL;
}

static bool has_target(h2o_req_t *req)
{
    return h2o_find_header_by_str(&req->headers, H2O_STRLIT(TARGET_HEADER), -1) != -1;
}

/* A request of the REST-JSON binding: its route's operation, its input folded into one document. */
static void handle_rest(json_ctx_t *q)
{
    const floe_awsjson_operation_t *op = floe_awsjson_rest_find(q->svc, q->req);
    char message[MESSAGE_MAX];
    const char *body;
    size_t n;

    q->content_type = REST_CONTENT_TYPE;
    if (op == NULL) {
        snprintf(message, sizeof(message), "%s has no operation at %.*s %.*s: requests are REST-JSON routes of its "
                 "model, or POST / with X-Amz-Target: %s.<Operation>.", q->svc->name, (int)q->req->input.method.len,
                 q->req->input.method.base, (int)q->req->input.path.len, q->req->input.path.base,
                 q->svc->target_prefix);
        answer_error(q, 404, "UnknownOperationException", message);
        return;
    }
    snprintf(q->operation, sizeof(q->operation), "%s:%s", q->svc->name, floe_awsjson_name(q->svc, op->name));
    if (q->req->entity.len > MAX_BODY_BYTES) {
        answer_error(q, 413, "RequestEntityTooLarge", "The request body is larger than the 1 MiB Floe accepts.");
        return;
    }
    if (floe_awsjson_rest_input(&q->req->pool, q->svc, op, q->req, &body, &n) != FLOE_OK) {
        answer_service_error(q, q->svc->serialization_error, "The request URI is not well percent-encoded.", NULL);
        return;
    }
    run_operation(q, op, body, n);
}

void floe_awsjson_handle(floe_worker_t *w, h2o_req_t *req, const floe_awsjson_service_t *svc,
                         const floe_sigv4_scope_t *scope)
{
    json_ctx_t q = {w, req, svc, scope, floe_log_now_us(), "", CONTENT_TYPE};
    const floe_awsjson_operation_t *op = NULL;
    char target[TARGET_MAX], message[MESSAGE_MAX];
    const char *name;

    snprintf(q.operation, sizeof(q.operation), "%s", svc->name);
    if (!signature_accepted(&q))
        return;
    if (floe_awsjson_has_rest(svc) && !has_target(req)) {
        handle_rest(&q);
        return;
    }
    name = target_operation(req, svc, target, sizeof(target));
    if (name != NULL)
        op = find_operation(svc, name);
    if (op == NULL || !h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("POST"))) {
        snprintf(message, sizeof(message), "%s requests are POST / with X-Amz-Target: %s.<Operation>, "
                 "an operation of its model.", svc->name, svc->target_prefix);
        answer_error(&q, 400, "UnknownOperationException", message);
        return;
    }
    snprintf(q.operation, sizeof(q.operation), "%s:%s", svc->name, floe_awsjson_name(svc, op->name));
    if (req->entity.len > MAX_BODY_BYTES) {
        answer_error(&q, 413, "RequestEntityTooLarge", "The request body is larger than the 1 MiB Floe accepts.");
        return;
    }
    run_operation(&q, op, req->entity.base, req->entity.len);
}
