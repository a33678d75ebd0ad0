/*
 * SigV4 credential-scope parsing (sigv4.h). Every S3 Tables path is also a legal S3 path, so the
 * signing name in the scope is the only way to tell the two APIs apart on one port.
 */
#include <string.h>

#include "base/failure.h"
#include "http/sigv4.h"
#include "http/uri.h"

#define SIGV4_ALGORITHM "AWS4-HMAC-SHA256"
#define SCOPE_TERMINATOR "aws4_request"

/* Set once at start (floe_sigv4_set_key_source), before the serving threads run; read-only after. */
static floe_sigv4_key_source_fn key_source;

int floe_sigv4_parse_credential(const char *credential, size_t n, floe_sigv4_scope_t *out)
{
    h2o_iovec_t parts[5];
    size_t n_parts = 0, start = 0;

    while (start <= n) {
        const char *slash = memchr(credential + start, '/', n - start);
        size_t i = slash != NULL ? (size_t)(slash - credential) : n;
        if (n_parts == 5)
            return FLOE_EFAIL;
        parts[n_parts++] = h2o_iovec_init(credential + start, i - start);
        start = i + 1;
    }
    if (n_parts != 5 || parts[0].len == 0 || parts[3].len == 0 ||
        !h2o_memis(parts[4].base, parts[4].len, H2O_STRLIT(SCOPE_TERMINATOR)))
        return FLOE_EFAIL;
    out->access_key = parts[0];
    out->date = parts[1];
    out->region = parts[2];
    out->service = parts[3];
    return FLOE_OK;
}

/* The value of "Credential=" inside an Authorization header, up to the next ',' or space. */
static int scope_from_authorization(const h2o_iovec_t *value, floe_sigv4_scope_t *out)
{
    static const char key[] = "Credential=";
    const char *p = value->base, *end = value->base + value->len;

    if (value->len < sizeof(SIGV4_ALGORITHM) - 1 || memcmp(p, SIGV4_ALGORITHM, sizeof(SIGV4_ALGORITHM) - 1) != 0)
        return FLOE_EFAIL;
    for (p += sizeof(SIGV4_ALGORITHM) - 1; p + sizeof(key) - 1 <= end; p++) {
        if (memcmp(p, key, sizeof(key) - 1) == 0) {
            const char *start = p + sizeof(key) - 1, *stop = memchr(start, ',', (size_t)(end - start)), *space;
            if (stop == NULL)
                stop = end;
            if ((space = memchr(start, ' ', (size_t)(stop - start))) != NULL)
                stop = space;
            return floe_sigv4_parse_credential(start, (size_t)(stop - start), out);
        }
    }
    return FLOE_EFAIL;
}

static int scope_from_query(h2o_req_t *req, floe_sigv4_scope_t *out)
{
    floe_query_param_t *pairs;
    long n;

    if (req->input.query_at == SIZE_MAX)
        return FLOE_EFAIL;
    n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                         req->input.path.len - req->input.query_at - 1, &pairs);
    for (long i = 0; i < n; i++) {
        if (strcmp(pairs[i].key, "X-Amz-Credential") == 0)
            return floe_sigv4_parse_credential(pairs[i].value, strlen(pairs[i].value), out);
    }
    return FLOE_EFAIL;
}

int floe_sigv4_request_scope(h2o_req_t *req, floe_sigv4_scope_t *out)
{
    ssize_t i = h2o_find_header(&req->headers, H2O_TOKEN_AUTHORIZATION, -1);
    if (i >= 0)
        return scope_from_authorization(&req->headers.entries[i].value, out);
    return scope_from_query(req, out);
}

/* The access key of a SigV2 request ("Authorization: AWS key:signature", or a presigned URL's
 * AWSAccessKeyId, which boto3 1.26 still writes for S3): 0, or -1 when it is not one. */
static int access_key_v2(h2o_req_t *req, h2o_iovec_t *out)
{
    static const char prefix[] = "AWS ";
    ssize_t i = h2o_find_header(&req->headers, H2O_TOKEN_AUTHORIZATION, -1);
    floe_query_param_t *pairs;
    long n;

    if (i >= 0) {
        const h2o_iovec_t *v = &req->headers.entries[i].value;
        const char *colon;
        if (v->len <= sizeof(prefix) - 1 || memcmp(v->base, prefix, sizeof(prefix) - 1) != 0 ||
            (colon = memchr(v->base, ':', v->len)) == NULL)
            return FLOE_EFAIL;
        *out = h2o_iovec_init(v->base + sizeof(prefix) - 1, (size_t)(colon - v->base) - (sizeof(prefix) - 1));
        return FLOE_OK;
    }
    if (req->input.query_at == SIZE_MAX)
        return FLOE_EFAIL;
    n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                         req->input.path.len - req->input.query_at - 1, &pairs);
    for (long k = 0; k < n; k++) {
        if (strcmp(pairs[k].key, "AWSAccessKeyId") == 0) {
            *out = h2o_iovec_init(pairs[k].value, strlen(pairs[k].value));
            return FLOE_OK;
        }
    }
    return FLOE_EFAIL;
}

void floe_sigv4_request_account_scope(h2o_req_t *req, const floe_config_t *config, floe_scope_t *out)
{
    floe_sigv4_scope_t scope;
    h2o_iovec_t v2_key;

    if (floe_sigv4_request_scope(req, &scope) != 0) {
        /* A SigV2 request names its account the same way; it has no region, so the default's. */
        if (access_key_v2(req, &v2_key) == 0) {
            floe_sigv4_scope_t v2 = {.access_key = v2_key};
            floe_sigv4_account_scope(req, config, &v2, out);
        } else
            floe_scope_default(config, out);
        return;
    }
    floe_sigv4_account_scope(req, config, &scope, out);
}

void floe_sigv4_set_key_source(floe_sigv4_key_source_fn source)
{
    key_source = source;
}

bool floe_sigv4_issued_key(h2o_req_t *req, h2o_iovec_t access_key, floe_sigv4_key_t *out)
{
    memset(out, 0, sizeof(*out));
    return key_source != NULL && req != NULL && key_source(req, access_key, out);
}

void floe_sigv4_account_scope(h2o_req_t *req, const floe_config_t *config, const floe_sigv4_scope_t *scope,
                              floe_scope_t *out)
{
    floe_sigv4_key_t key;

    floe_scope_from_credential(config, scope->access_key.base, scope->access_key.len, scope->region.base,
                               scope->region.len, out);
    if (!floe_scope_is_account_id(scope->access_key.base, scope->access_key.len) &&
        floe_sigv4_issued_key(req, scope->access_key, &key))
        memcpy(out->account_id, key.account_id, sizeof(out->account_id));
}

int floe_sigv4_scope_is_for(const floe_sigv4_scope_t *scope, const char *service)
{
    return h2o_memis(scope->service.base, scope->service.len, service, strlen(service));
}
