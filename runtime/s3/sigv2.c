/*
 * SigV2 presigned URLs (sigv2.h), after "Signing and authenticating REST requests" in the S3
 * developer guide (the legacy SigV2 page) and botocore's HmacV1QueryAuth, which is what the
 * clients sign with:
 *
 *   StringToSign = Method \n Content-MD5 \n Content-Type \n Expires \n
 *                  CanonicalizedAmzHeaders CanonicalizedResource
 *   Signature    = Base64(HMAC-SHA1(secret, StringToSign))
 *
 * Design notes:
 *  1. botocore moves Content-Type, Content-MD5 and x-amz-* values it signed into the query
 *     string; a header the request carries wins, else the query parameter of that name counts.
 *  2. The canonical resource is "/" + bucket for a virtual-hosted request, then the path exactly
 *     as sent (still percent-encoded; a path-style bucket's "/b" is signed as "/b/"), then the
 *     sub-resources botocore signs, sorted by name, with their values decoded; a sub-resource sent
 *     without '=' is signed without it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/failure.h"
#include "base/pool_text.h"
#include "http/codec.h"
#include "http/uri.h"
#include "s3/address.h"
#include "s3/sigv2.h"

#define SHA1_LEN 20
#define BASE64_SHA1_LEN 28
#define AMZ_PREFIX "x-amz-"

/* The sub-resources botocore's HmacV1Auth signs (QSAOfInterest). */
static const char *const signed_subresources[] = {
    "accelerate", "acl", "analytics", "cors", "defaultObjectAcl", "delete", "inventory", "lifecycle", "location",
    "logging", "metrics", "notification", "object-lock", "partNumber", "policy", "replication", "requestPayment",
    "response-cache-control", "response-content-disposition", "response-content-encoding",
    "response-content-language", "response-content-type", "response-expires", "restore", "select", "select-type",
    "storageClass", "tagging", "torrent", "uploadId", "uploads", "versionId", "versioning", "versions", "website",
};

typedef struct presigned {
    floe_query_param_t *query; /* decoded */
    long n_query;
} presigned_t;

static const char *query_value(const presigned_t *p, const char *name)
{
    for (long i = 0; i < p->n_query; i++) {
        if (strcmp(p->query[i].key, name) == 0)
            return p->query[i].value;
    }
    return NULL;
}

static int read_query(h2o_req_t *req, presigned_t *out)
{
    out->n_query = 0;
    out->query = NULL;
    if (req->input.query_at == SIZE_MAX)
        return FLOE_EFAIL;
    out->n_query = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                    req->input.path.len - req->input.query_at - 1, &out->query);
    return out->n_query > 0 ? FLOE_OK : FLOE_EFAIL;
}

static h2o_iovec_t find_header(h2o_req_t *req, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < req->headers.size; i++) {
        h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len == n && strncasecmp(h->name->base, name, n) == 0)
            return h->value;
    }
    return h2o_iovec_init(NULL, 0);
}

/* Design note 1: the header's value, else the query parameter's, else "". */
static void add_standard(floe_pool_text_t *b, h2o_req_t *req, const presigned_t *p, const char *name)
{
    h2o_iovec_t v = find_header(req, name);
    const char *q;

    if (v.base != NULL)
        floe_pool_text_add(b, v.base, v.len);
    else if ((q = query_value(p, name)) != NULL)
        floe_pool_text_str(b, q);
    floe_pool_text_add(b, "\n", 1);
}

typedef struct pair {
    char *name; /* lower case */
    const char *value;
    size_t value_len;
    bool has_equals;
} pair_t;

static int compare_pairs(const void *a, const void *b)
{
    return strcmp(((const pair_t *)a)->name, ((const pair_t *)b)->name);
}

static char *lower_copy(h2o_mem_pool_t *pool, const char *s, size_t n)
{
    char *out = h2o_mem_alloc_pool(pool, n + 1);
    for (size_t i = 0; i < n; i++)
        out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + ('a' - 'A') : s[i]);
    out[n] = '\0';
    return out;
}

static bool has_pair(const pair_t *pairs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(pairs[i].name, name) == 0)
            return true;
    }
    return false;
}

/* "name:value\n" for each x-amz-* header (then x-amz-* query parameter), sorted by name; values of
 * one header name repeated are joined with ','. */
static void add_amz_headers(floe_pool_text_t *b, h2o_req_t *req, const presigned_t *p)
{
    size_t cap = req->headers.size + (size_t)p->n_query, n = 0;
    pair_t *pairs = h2o_mem_alloc_pool(&req->pool, (cap ? cap : 1) * sizeof(*pairs));

    for (size_t i = 0; i < req->headers.size; i++) {
        h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len > strlen(AMZ_PREFIX) && strncasecmp(h->name->base, AMZ_PREFIX, strlen(AMZ_PREFIX)) == 0)
            pairs[n++] = (pair_t){lower_copy(&req->pool, h->name->base, h->name->len), h->value.base, h->value.len,
                                  true};
    }
    for (long i = 0; i < p->n_query; i++) {
        const char *k = p->query[i].key;
        char *lower = lower_copy(&req->pool, k, strlen(k));
        if (strncmp(lower, AMZ_PREFIX, strlen(AMZ_PREFIX)) == 0 && !has_pair(pairs, n, lower))
            pairs[n++] = (pair_t){lower, p->query[i].value, strlen(p->query[i].value), true};
    }
    qsort(pairs, n, sizeof(*pairs), compare_pairs);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(pairs[i].name, pairs[i - 1].name) == 0) {
            b->len--; /* the previous line's '\n' */
            floe_pool_text_add(b, ",", 1);
        } else {
            floe_pool_text_str(b, pairs[i].name);
            floe_pool_text_add(b, ":", 1);
        }
        floe_pool_text_add(b, pairs[i].value, pairs[i].value_len);
        floe_pool_text_add(b, "\n", 1);
    }
}

static bool is_signed_subresource(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof(signed_subresources) / sizeof(signed_subresources[0]); i++) {
        if (h2o_memis(name, n, signed_subresources[i], strlen(signed_subresources[i])))
            return true;
    }
    return false;
}

/* Design note 2. -1 for a sub-resource value that is not validly percent-encoded. */
static int add_resource(floe_pool_text_t *b, h2o_req_t *req)
{
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    size_t vhost = floe_s3_virtual_host_bucket(req->input.authority.base, req->input.authority.len), n = 0;
    const char *q, *end;
    pair_t *pairs;

    if (vhost > 0) {
        floe_pool_text_add(b, "/", 1);
        floe_pool_text_add(b, req->input.authority.base, vhost);
    }
    floe_pool_text_add(b, path_len > 0 ? req->input.path.base : "/", path_len > 0 ? path_len : 1);
    if (vhost == 0 && path_len > 1 && memchr(req->input.path.base + 1, '/', path_len - 1) == NULL)
        floe_pool_text_add(b, "/", 1); /* a path-style bucket ("/b") is signed as "/b/", as botocore signs it */
    if (req->input.query_at == SIZE_MAX)
        return FLOE_OK;
    q = req->input.path.base + req->input.query_at + 1;
    end = req->input.path.base + req->input.path.len;
    pairs = h2o_mem_alloc_pool(&req->pool, ((size_t)(end - q) / 2 + 1) * sizeof(*pairs));
    while (q < end) {
        const char *amp = memchr(q, '&', (size_t)(end - q)), *stop = amp ? amp : end;
        const char *eq = memchr(q, '=', (size_t)(stop - q)), *key_end = eq ? eq : stop;
        if (is_signed_subresource(q, (size_t)(key_end - q))) {
            char *value = eq ? floe_percent_decode(&req->pool, eq + 1, (size_t)(stop - eq - 1), 0) : "";
            if (value == NULL)
                return FLOE_EFAIL;
            pairs[n++] = (pair_t){h2o_strdup(&req->pool, q, (size_t)(key_end - q)).base, value, strlen(value),
                                  eq != NULL};
        }
        q = stop + 1;
    }
    qsort(pairs, n, sizeof(*pairs), compare_pairs);
    for (size_t i = 0; i < n; i++) {
        floe_pool_text_add(b, i == 0 ? "?" : "&", 1);
        floe_pool_text_str(b, pairs[i].name);
        if (pairs[i].has_equals) {
            floe_pool_text_add(b, "=", 1);
            floe_pool_text_add(b, pairs[i].value, pairs[i].value_len);
        }
    }
    return FLOE_OK;
}

static void sign(const char *secret, const char *text, size_t n, char out[BASE64_SHA1_LEN + 1])
{
    unsigned char digest[SHA1_LEN];
    unsigned int len = SHA1_LEN;

    HMAC(EVP_sha1(), secret, (int)strlen(secret), (const unsigned char *)text, n, digest, &len);
    EVP_EncodeBlock((unsigned char *)out, digest, SHA1_LEN);
}

floe_sigv4_result_t floe_s3_sigv2_verify(h2o_req_t *req, const floe_config_t *config, int64_t now_s)
{
    presigned_t p;
    floe_pool_text_t text = {&req->pool, NULL, 0, 0};
    const char *access_key, *signature, *expires, *secret;
    char expected[BASE64_SHA1_LEN + 1], *end;
    long long expires_s;

    if (read_query(req, &p) != 0 || (access_key = query_value(&p, "AWSAccessKeyId")) == NULL ||
        (signature = query_value(&p, "Signature")) == NULL || (expires = query_value(&p, "Expires")) == NULL)
        return FLOE_SIGV4_MISSING;
    expires_s = strtoll(expires, &end, 10);
    if (*expires == '\0' || *end != '\0' || expires_s <= 0)
        return FLOE_SIGV4_MALFORMED;
    if ((secret = floe_sigv4_secret_for(req, config, h2o_iovec_init(access_key, strlen(access_key)))) == NULL)
        return FLOE_SIGV4_UNKNOWN_KEY;
    if (now_s > expires_s)
        return FLOE_SIGV4_EXPIRED;
    floe_pool_text_add(&text, req->input.method.base, req->input.method.len);
    floe_pool_text_add(&text, "\n", 1);
    add_standard(&text, req, &p, "content-md5");
    add_standard(&text, req, &p, "content-type");
    floe_pool_text_str(&text, expires);
    floe_pool_text_add(&text, "\n", 1);
    add_amz_headers(&text, req, &p);
    if (add_resource(&text, req) != 0)
        return FLOE_SIGV4_MALFORMED;
    sign(secret, text.p, text.len, expected);
    if (strlen(signature) != BASE64_SHA1_LEN || CRYPTO_memcmp(expected, signature, BASE64_SHA1_LEN) != 0)
        return FLOE_SIGV4_MISMATCH;
    return FLOE_SIGV4_OK;
}
