/*
 * S3 addressing (address.h): which bucket and key a URL names, and its query parameters.
 *
 * Addressing works on the raw path (req->input.path), never h2o's normalized one: a key may hold
 * "%2F", "..", "//" or a trailing "/", and all of it is part of the key. Virtual-hosted requests
 * carry the bucket in the Host header and the whole path is the key; path-style requests carry
 * the bucket in the first path segment.
 */
#include <arpa/inet.h>
#include <string.h>

#include "base/failure.h"
#include "http/codec.h"
#include "http/uri.h"
#include "s3/address.h"
#include "s3/error.h"

#define BUCKET_MIN_LEN 3
#define BUCKET_MAX_LEN 63
#define IP_TEXT_MAX 64

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
        return FLOE_EFAIL;
    path++;
    n--;
    if (!r->is_virtual_host) {
        if (n == 0)
            return FLOE_OK; /* the service: ListBuckets */
        slash = memchr(path, '/', n);
        size_t bucket_len = slash != NULL ? (size_t)(slash - path) : n;
        if ((r->bucket = floe_percent_decode(pool, path, bucket_len, 0)) == NULL)
            return FLOE_EFAIL;
        path += bucket_len;
        n -= bucket_len;
        if (n > 0) { /* skip the '/' after the bucket */
            path++;
            n--;
        }
    }
    if (n > 0 && (r->key = floe_percent_decode(pool, path, n, 0)) == NULL)
        return FLOE_EFAIL;
    return FLOE_OK;
}

static int parse_query(floe_s3_req_t *r)
{
    h2o_req_t *req = r->req;
    long n;

    if (req->input.query_at == SIZE_MAX)
        return FLOE_OK;
    n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                         req->input.path.len - req->input.query_at - 1, &r->query);
    if (n < 0)
        return FLOE_EFAIL;
    r->n_query = (size_t)n;
    return FLOE_OK;
}

int floe_s3_address(floe_s3_req_t *r)
{
    h2o_req_t *req = r->req;
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    size_t vhost_len = floe_s3_virtual_host_bucket(req->input.authority.base, req->input.authority.len);

    if (vhost_len > 0) {
        r->is_virtual_host = true;
        r->bucket = floe_s3_strndup(r, req->input.authority.base, vhost_len);
    }
    if (split_path(r, req->input.path.base, path_len) != 0 || parse_query(r) != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidURI, NULL, NULL);
    if (r->key != NULL && !floe_codec_utf8_valid(r->key, strlen(r->key)))
        return floe_s3_fail(r, FLOE_S3_InvalidURI, "Object keys must be valid UTF-8.", NULL);
    if (r->key != NULL && strlen(r->key) > FLOE_S3_MAX_KEY_BYTES)
        return floe_s3_fail(r, FLOE_S3_KeyTooLongError, NULL, NULL);
    return 0;
}
