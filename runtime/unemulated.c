/*
 * The 501 of unemulated.h. The protocol is read from the request, as a client of the service
 * sends it: awsJson clients send X-Amz-Target and an application/x-amz-json body; awsQuery
 * clients a form with Action=; REST-JSON clients (lambda, ...) often no body at all, so a REST
 * request is answered in JSON unless its service is one of the few REST-XML ones.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/ids.h"
#include "base/log.h"
#include "http/response.h"
#include "http/xml_writer.h"
#include "unemulated.h"

#define S3_FAMILY_PREFIX "s3"
#define ERROR_CODE "NotImplemented"
#define JSON_ERROR_TYPE "NotImplementedException"
#define MESSAGE_MAX 512
#define SERVICE_NAME_MAX 64

/* Signing names of the REST services whose errors are XML (botocore's "rest-xml" protocol, bar S3). */
static const char *const rest_xml_services[] = {"route53", "cloudfront"};

bool floe_unemulated_is(const floe_sigv4_scope_t *scope)
{
    return !(scope->service.len >= strlen(S3_FAMILY_PREFIX) &&
             memcmp(scope->service.base, S3_FAMILY_PREFIX, strlen(S3_FAMILY_PREFIX)) == 0);
}

static h2o_iovec_t header(h2o_req_t *req, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < req->headers.size; i++) {
        h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len == n && strncasecmp(h->name->base, name, n) == 0)
            return h->value;
    }
    return h2o_iovec_init(NULL, 0);
}

static bool starts_with(h2o_iovec_t v, const char *prefix)
{
    size_t n = strlen(prefix);
    return v.base != NULL && v.len >= n && strncasecmp(v.base, prefix, n) == 0;
}

/* An awsQuery request: a form body, or Action= in the query string. */
static bool is_query_protocol(h2o_req_t *req)
{
    const char *q;
    size_t n;

    if (starts_with(header(req, "content-type"), "application/x-www-form-urlencoded"))
        return true;
    if (req->input.query_at == SIZE_MAX)
        return false;
    q = req->input.path.base + req->input.query_at;
    n = req->input.path.len - req->input.query_at;
    for (size_t i = 0; i + strlen("Action=") < n; i++) {
        if ((q[i] == '?' || q[i] == '&') && memcmp(q + i + 1, "Action=", strlen("Action=")) == 0)
            return true;
    }
    return false;
}

static bool is_json_protocol(h2o_req_t *req, const floe_sigv4_scope_t *scope)
{
    h2o_iovec_t type = header(req, "content-type");

    if (header(req, "x-amz-target").base != NULL || starts_with(type, "application/x-amz-json") ||
        starts_with(type, "application/json"))
        return true;
    if (is_query_protocol(req))
        return false;
    for (size_t i = 0; i < sizeof(rest_xml_services) / sizeof(rest_xml_services[0]); i++) {
        if (h2o_memis(scope->service.base, scope->service.len, rest_xml_services[i], strlen(rest_xml_services[i])))
            return false;
    }
    return true;
}

static void send_json(floe_worker_t *w, h2o_req_t *req, const char *message)
{
    floe_json_reset(&w->json);
    floe_json_object_begin(&w->json);
    floe_json_key(&w->json, "__type");
    floe_json_string(&w->json, JSON_ERROR_TYPE);
    floe_json_key(&w->json, "message");
    floe_json_string(&w->json, message);
    floe_json_object_end(&w->json);
    floe_response_header(req, "x-amzn-ErrorType", JSON_ERROR_TYPE, strlen(JSON_ERROR_TYPE));
    floe_response_send(req, 501, "application/json", w->json.buf, w->json.len);
}

/* AWS's XML error document, which both awsQuery and REST-XML clients read. */
static void send_xml(h2o_req_t *req, const char *message)
{
    char id[FLOE_REQUEST_ID_LEN + 1];
    floe_xml_t x;

    floe_request_id(id);
    floe_xml_begin(&x);
    floe_xml_open(&x, "ErrorResponse");
    floe_xml_open(&x, "Error");
    floe_xml_elem(&x, "Type", "Receiver");
    floe_xml_elem(&x, "Code", ERROR_CODE);
    floe_xml_elem(&x, "Message", message);
    floe_xml_close(&x, "Error");
    floe_xml_elem(&x, "RequestId", id);
    floe_xml_close(&x, "ErrorResponse");
    floe_response_send_with_id(req, 501, id, "text/xml", x.buf, x.len);
    floe_xml_dispose(&x);
}

void floe_unemulated_refuse(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope)
{
    uint64_t started_us = floe_log_now_us();
    char message[MESSAGE_MAX];
    int n = (int)(scope->service.len < SERVICE_NAME_MAX ? scope->service.len : SERVICE_NAME_MAX);

    snprintf(message, sizeof(message),
             "Floe does not emulate the service '%.*s' that this request is signed for: Floe emulates S3 Tables, "
             "S3, CloudFormation, STS, IAM, Glue and Athena.",
             n, scope->service.base);
    floe_log_request(w->config, req, "NotEmulated", 501, started_us);
    if (is_json_protocol(req, scope))
        send_json(w, req, message);
    else
        send_xml(req, message);
}
