/*
 * The response writers of response.h. Every response carries a request id (x-amzn-RequestId and
 * x-amz-request-id, which the AWS SDKs read into ResponseMetadata) and an explicit
 * content-length, so HTTP/1.1 never falls back to chunked encoding for a complete body.
 */
#include <stdio.h>
#include <string.h>

#include "base/ids.h"
#include "base/json.h"
#include "http/response.h"

/* A complete body is sent in one final h2o_send, so the generator needs no callbacks. */
static h2o_generator_t generator = {NULL, NULL};

void floe_response_header(h2o_req_t *req, const char *name, const char *value, size_t value_len)
{
    h2o_add_header_by_str(&req->pool, &req->res.headers, name, strlen(name), 0, name, value, value_len);
}

static void add_request_id(h2o_req_t *req, const char *id)
{
    size_t len = strlen(id);
    char *copy = h2o_mem_alloc_pool(&req->pool, len + 1);

    memcpy(copy, id, len + 1);
    floe_response_header(req, "x-amzn-RequestId", copy, len);
    floe_response_header(req, "x-amz-request-id", copy, len);
}

const char *floe_response_reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 416: return "Range Not Satisfiable";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "";
    }
}

void floe_response_send(h2o_req_t *req, int status, const char *content_type, const char *body, size_t body_len)
{
    char id[FLOE_REQUEST_ID_LEN + 1];

    floe_request_id(id);
    floe_response_send_with_id(req, status, id, content_type, body, body_len);
}

void floe_response_send_with_id(h2o_req_t *req, int status, const char *request_id, const char *content_type,
                                const char *body, size_t body_len)
{
    h2o_iovec_t buf = h2o_iovec_init(NULL, 0);

    req->res.status = status;
    req->res.reason = floe_response_reason(status);
    add_request_id(req, request_id);
    if (content_type != NULL)
        h2o_add_header(&req->pool, &req->res.headers, H2O_TOKEN_CONTENT_TYPE, NULL, content_type, strlen(content_type));
    if (body != NULL && body_len > 0) {
        buf.base = h2o_mem_alloc_pool(&req->pool, body_len);
        memcpy(buf.base, body, body_len);
        buf.len = body_len;
    }
    req->res.content_length = buf.len;
    h2o_start_response(req, &generator);
    h2o_send(req, &buf, buf.len ? 1 : 0, H2O_SEND_STATE_FINAL);
}

void floe_response_aws_error(h2o_req_t *req, int status, const char *name, const char *message)
{
    floe_json_t json;

    floe_json_init(&json);
    floe_json_object_begin(&json);
    floe_json_key(&json, "message");
    floe_json_string(&json, message);
    floe_json_object_end(&json);
    floe_response_header(req, "x-amzn-ErrorType", name, strlen(name));
    floe_response_send(req, status, "application/json", json.buf, json.len); /* copies the body */
    floe_json_dispose(&json);
}
