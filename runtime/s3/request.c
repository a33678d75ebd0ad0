/*
 * The S3 request context of request.h: addressing (which bucket and key a URL names), parameter
 * and header readers, and the reply helpers.
 *
 * Addressing works on the raw path (req->input.path), never h2o's normalized one: a key may hold
 * "%2F", "..", "//" or a trailing "/", and all of it is part of the key. Virtual-hosted requests
 * carry the bucket in the Host header and the whole path is the key; path-style requests carry
 * the bucket in the first path segment.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "response.h"
#include "router.h"
#include "s3/error.h"
#include "s3/request.h"

#define BUCKET_MIN_LEN 3
#define BUCKET_MAX_LEN 63
#define IP_TEXT_MAX 64

/* A complete body goes out in one h2o_send, so this generator needs no callbacks. */
static h2o_generator_t complete_generator = {NULL, NULL};

static bool is_lower_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_ip_literal(const char *s, size_t n)
{
    char text[IP_TEXT_MAX];
    unsigned char addr[16];

    if (n == 0 || n >= sizeof(text))
        return false;
    memcpy(text, s, n);
    text[n] = '\0';
    return inet_pton(AF_INET, text, addr) == 1 || inet_pton(AF_INET6, text, addr) == 1;
}

/* A label that could be a bucket name on its own (no dots: it is one DNS label). */
static bool is_bucket_label(const char *s, size_t n)
{
    if (n < BUCKET_MIN_LEN || n > BUCKET_MAX_LEN || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!is_lower_alnum(s[i]) && s[i] != '-')
            return false;
    }
    return true;
}

size_t floe_s3_virtual_host_bucket(const char *host, size_t host_len)
{
    const char *colon, *dot;
    size_t label_len;

    if (host_len == 0 || host[0] == '[') /* an IPv6 literal */
        return 0;
    if ((colon = memchr(host, ':', host_len)) != NULL)
        host_len = (size_t)(colon - host);
    if (is_ip_literal(host, host_len) || (dot = memchr(host, '.', host_len)) == NULL)
        return 0;
    label_len = (size_t)(dot - host);
    /* "s3.localhost", "s3.us-east-1.localhost": the service endpoint itself, as s3.amazonaws.com. */
    if (h2o_memis(host, label_len, H2O_STRLIT("s3")) || !is_bucket_label(host, label_len) ||
        is_ip_literal(dot + 1, host_len - label_len - 1))
        return 0;
    return label_len;
}

/* Decodes the raw path into bucket and key. 0, or -1 for bad percent-encoding. */
static int split_path(floe_s3_req_t *r, const char *path, size_t n)
{
    h2o_mem_pool_t *pool = &r->req->pool;
    const char *slash;

    if (n == 0 || path[0] != '/')
        return -1;
    path++;
    n--;
    if (!r->is_virtual_host) {
        if (n == 0)
            return 0; /* the service: ListBuckets */
        slash = memchr(path, '/', n);
        size_t bucket_len = slash != NULL ? (size_t)(slash - path) : n;
        if ((r->bucket = floe_percent_decode(pool, path, bucket_len, 0)) == NULL)
            return -1;
        path += bucket_len;
        n -= bucket_len;
        if (n > 0) { /* skip the '/' after the bucket */
            path++;
            n--;
        }
    }
    if (n > 0 && (r->key = floe_percent_decode(pool, path, n, 0)) == NULL)
        return -1;
    return 0;
}

static int parse_query(floe_s3_req_t *r)
{
    h2o_req_t *req = r->req;
    long n;

    if (req->input.query_at == SIZE_MAX)
        return 0;
    n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                         req->input.path.len - req->input.query_at - 1, &r->query);
    if (n < 0)
        return -1;
    r->n_query = (size_t)n;
    return 0;
}

int floe_s3_request_init(floe_s3_req_t *r, floe_worker_t *w, h2o_req_t *req)
{
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    size_t vhost_len = floe_s3_virtual_host_bucket(req->input.authority.base, req->input.authority.len);

    r->w = w;
    r->req = req;
    r->st = w->state;
    r->data_dir = w->config->data_dir;
    r->op = "S3";
    r->now_ms = (int64_t)time(NULL) * 1000;
    floe_request_id(r->request_id);
    if (vhost_len > 0) {
        r->is_virtual_host = true;
        r->bucket = floe_s3_strndup(r, req->input.authority.base, vhost_len);
    }
    if (split_path(r, req->input.path.base, path_len) != 0 || parse_query(r) != 0) {
        floe_s3_fail(r, FLOE_S3_InvalidURI, NULL);
        return -1;
    }
    if (r->key != NULL && !floe_codec_utf8_valid(r->key, strlen(r->key))) {
        floe_s3_fail(r, FLOE_S3_InvalidURI, "Object keys must be valid UTF-8.");
        return -1;
    }
    if (r->key != NULL && strlen(r->key) > FLOE_S3_MAX_KEY_BYTES) {
        floe_s3_fail(r, FLOE_S3_KeyTooLongError, NULL);
        return -1;
    }
    return 0;
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
