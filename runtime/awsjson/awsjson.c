/*
 * The awsJson1_1 front of awsjson.h: the one path every Glue request (bar /iceberg) takes.
 *
 *   strict signatures and a signature that does not verify ──▶ 403 (400) in the JSON error shape
 *        ▼
 *   not POST, no X-Amz-Target "<Service>.<Operation>", an operation the model lacks
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
 *   200 application/x-amz-json-1.1, the output serialized
 *
 * Every answer carries x-amzn-RequestId; errors are {"__type": ..., "message": ...} (AWS's JSON
 * protocols; botocore reads `__type`). Invariant: when a handler returns, floe_state_end_call()
 * has reset its statements and rolled back any transaction it left open, before the answer.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "awsjson/awsjson.h"
#include "awsjson/awsjson_codec.h"
#include "db/state.h"
#include "base/log.h"
#include "http/response.h"
#include "http/sigv4_verify.h"

/* The largest body parsed. Glue's largest inputs (CreateTable with a wide schema, a batch of
 * partitions) are far below this. */
#define MAX_BODY_BYTES ((size_t)1 << 20)
#define CONTENT_TYPE "application/x-amz-json-1.1"
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

typedef struct json_ctx {
    floe_worker_t *w;
    h2o_req_t *req;
    const floe_awsjson_service_t *svc;
    const floe_sigv4_scope_t *credential;
    uint64_t started_us;
    char operation[LOG_NAME_MAX]; /* "<Service>:<Operation>" for the log */
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

/* The log line is written before the response so that it is on disk when the client has its answer. */
static void answer_error(json_ctx_t *q, int status, const char *type, const char *message)
{
    floe_json_t *json = &q->w->json;

    floe_log_request(q->w->config, q->req, q->operation, status, q->started_us);
    floe_json_reset(json);
    floe_json_object_begin(json);
    floe_json_key(json, "__type");
    floe_json_string(json, type);
    floe_json_key(json, "message");
    floe_json_string(json, message);
    floe_json_object_end(json);
    floe_response_header(q->req, "x-amzn-ErrorType", type, strlen(type));
    floe_response_send(q->req, status, CONTENT_TYPE, json->buf, json->len);
}

static void answer_service_error(json_ctx_t *q, int error, const char *message)
{
    const floe_awsjson_error_info_t *e = &q->svc->errors[error];
    answer_error(q, e->status, e->name, message);
}

static void answer_handler_error(json_ctx_t *q, const floe_awsjson_operation_t *op, const floe_awsjson_call_t *call)
{
    int e = call->error;

    if (e <= 0 || (size_t)e >= q->svc->n_errors || !(op->errors & FLOE_AWSJSON_ERROR_BIT(e))) {
        floe_log("%s %s failed with %s, which it may not answer: %s", q->svc->name, floe_awsjson_name(q->svc, op->name),
                 e > 0 && (size_t)e < q->svc->n_errors ? q->svc->errors[e].name : "no error",
                 call->error_message ? call->error_message : "(no message)");
        answer_service_error(q, q->svc->internal_error, "Internal service error.");
        return;
    }
    answer_service_error(q, e, call->error_message ? call->error_message : q->svc->errors[e].name);
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

static void run_operation(json_ctx_t *q, const floe_awsjson_operation_t *op)
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
    in = floe_call_alloc(&call.super, input->size);
    parsed = floe_awsjson_parse(&call.super, q->svc, input, q->req->entity.base, q->req->entity.len, in, &violation);
    if (parsed != FLOE_AWSJSON_PARSED) {
        answer_service_error(q, parsed == FLOE_AWSJSON_INVALID ? q->svc->validation_error : q->svc->serialization_error,
                             violation.message);
        return;
    }
    if (floe_awsjson_validate(q->svc, input, in, &violation) != 0) {
        answer_service_error(q, q->svc->validation_error, violation.message);
        return;
    }
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
    floe_response_send(q->req, 200, CONTENT_TYPE, q->w->json.buf, q->w->json.len);
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

void floe_awsjson_handle(floe_worker_t *w, h2o_req_t *req, const floe_awsjson_service_t *svc,
                         const floe_sigv4_scope_t *scope)
{
    json_ctx_t q = {w, req, svc, scope, floe_log_now_us(), ""};
    const floe_awsjson_operation_t *op = NULL;
    char target[TARGET_MAX], message[MESSAGE_MAX];
    const char *name;

    snprintf(q.operation, sizeof(q.operation), "%s", svc->name);
    if (!signature_accepted(&q))
        return;
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
    run_operation(&q, op);
}
