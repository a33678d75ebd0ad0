/*
 * The S3 request context of request.h: its set-up, parameter and header readers, and the reply
 * writers every answer (success or error) goes out through. Which bucket and key the URL names is
 * address.c's business; error documents are error.c's, on top of floe_s3_reply.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "http/response.h"
#include "http/sigv4.h"
#include "s3/request.h"

/* A complete body goes out in one h2o_send, so this generator needs no callbacks. */
static h2o_generator_t complete_generator = {NULL, NULL};

void floe_s3_request_init(floe_s3_req_t *r, floe_worker_t *w, h2o_req_t *req)
{
    memset(r, 0, sizeof(*r));
    r->w = w;
    r->req = req;
    r->st = w->state;
    r->data_dir = w->config->data_dir;
    r->op = "S3";
    r->now_ms = (int64_t)time(NULL) * 1000;
    floe_request_id(r->request_id);
    floe_sigv4_request_account_scope(req, w->config, &r->scope);
}

const char *floe_s3_query(const floe_s3_req_t *r, const char *name)
{
    for (size_t i = 0; i < r->n_query; i++) {
        if (strcmp(r->query[i].key, name) == 0)
            return r->query[i].value;
    }
    return NULL;
}

char *floe_s3_header(const floe_s3_req_t *r, const char *name)
{
    ssize_t i = h2o_find_header_by_str(&r->req->headers, name, strlen(name), -1);
    if (i < 0)
        return NULL;
    return floe_s3_strndup(r, r->req->headers.entries[i].value.base, r->req->headers.entries[i].value.len);
}

bool floe_s3_method_is(const floe_s3_req_t *r, const char *method)
{
    return h2o_memis(r->req->input.method.base, r->req->input.method.len, method, strlen(method));
}

char *floe_s3_strndup(const floe_s3_req_t *r, const char *s, size_t n)
{
    char *copy = h2o_mem_alloc_pool(&r->req->pool, n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

char *floe_s3_printf(const floe_s3_req_t *r, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *out;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    out = h2o_mem_alloc_pool(&r->req->pool, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(out, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return out;
}

void floe_s3_add_header(floe_s3_req_t *r, const char *name, const char *value)
{
    size_t name_len = strlen(name), value_len = strlen(value);
    char *n = floe_s3_strndup(r, name, name_len), *v = floe_s3_strndup(r, value, value_len);
    h2o_add_header_by_str(&r->req->pool, &r->req->res.headers, n, name_len, 0, n, v, value_len);
}

/* Status line and the headers every S3 answer carries (the SDKs read the request id). */
static void start_reply(floe_s3_req_t *r, int status)
{
    r->status = status;
    r->req->res.status = status;
    r->req->res.reason = floe_response_reason(status);
    floe_response_header(r->req, "x-amz-request-id", r->request_id, FLOE_REQUEST_ID_LEN);
    floe_response_header(r->req, "x-amz-id-2", r->request_id, FLOE_REQUEST_ID_LEN);
}

void floe_s3_reply(floe_s3_req_t *r, int status, const char *xml, size_t xml_len)
{
    h2o_iovec_t body = h2o_iovec_init(NULL, 0);

    start_reply(r, status);
    if (xml != NULL && xml_len > 0 && !floe_s3_method_is(r, "HEAD")) {
        h2o_add_header(&r->req->pool, &r->req->res.headers, H2O_TOKEN_CONTENT_TYPE, NULL, H2O_STRLIT("application/xml"));
        body.base = floe_s3_strndup(r, xml, xml_len);
        body.len = xml_len;
    }
    r->req->res.content_length = body.len;
    h2o_start_response(r->req, &complete_generator);
    h2o_send(r->req, &body, body.len ? 1 : 0, H2O_SEND_STATE_FINAL);
}

void floe_s3_begin_reply(floe_s3_req_t *r, int status)
{
    start_reply(r, status);
}

void floe_s3_http_date(int64_t ms, char *buf, size_t size)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;

    assert(size > H2O_TIMESTR_RFC1123_LEN);
    gmtime_r(&secs, &tm);
    h2o_time2str_rfc1123(buf, &tm); /* h2o's own formatter: no locale, no printf */
}

char *floe_s3_quoted_etag(const floe_s3_req_t *r, const char *etag)
{
    size_t n = strlen(etag);
    char *out = h2o_mem_alloc_pool(&r->req->pool, n + 3);

    out[0] = '"';
    memcpy(out + 1, etag, n);
    out[n + 1] = '"';
    out[n + 2] = '\0';
    return out;
}
