/*
 * libFuzzer harness for SigV4: the credential-scope parser, the Authorization header and presigned
 * query readers, and the whole verification over a synthetic request; and S3's SigV2 presigned
 * query verification (s3/sigv2.h) over the same request. Input: "header\nquery\nbody".
 * A header-signed request carries X-Amz-Date 20240101T000000Z and the clock reads that time, so
 * the seeds get past the date checks to the canonical request and the signature.
 */
#include <stdint.h>
#include <string.h>

#include "http/sigv4.h"
#include "http/sigv4_verify.h"
#include "s3/sigv2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static floe_credential_t credential = {"AKIDFUZZ", "fuzz-secret"};
static floe_config_t config = {.strict_signatures = true, .credentials = &credential, .n_credentials = 1};
#define SEED_DATE "20240101T000000Z"
#define SEED_DATE_S 1704067200 /* SEED_DATE in seconds since the epoch */

static h2o_iovec_t take_line(const char **p, const char *end)
{
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    h2o_iovec_t line = h2o_iovec_init(*p, nl ? (size_t)(nl - *p) : (size_t)(end - *p));
    *p = nl ? nl + 1 : end;
    return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    h2o_iovec_t auth = take_line(&p, end), query = take_line(&p, end);
    floe_sigv4_scope_t scope;
    h2o_req_t req;
    h2o_header_t headers[4];
    static h2o_iovec_t x_amz_date_name = {H2O_STRLIT("x-amz-date")};
    char *target;

    floe_sigv4_parse_credential(auth.base, auth.len, &scope);
    memset(&req, 0, sizeof(req));
    h2o_mem_init_pool(&req.pool);
    target = h2o_mem_alloc_pool(&req.pool, query.len + 32);
    memcpy(target, "/buckets/x%3Ay?", 15);
    memcpy(target + 15, query.base, query.len);
    req.input.path = h2o_iovec_init(target, 15 + query.len);
    req.input.query_at = 14;
    req.input.method = h2o_iovec_init(H2O_STRLIT("GET"));
    req.input.authority = h2o_iovec_init(H2O_STRLIT("127.0.0.1:4566"));
    req.entity = h2o_iovec_init(p, (size_t)(end - p));
    headers[0] = (h2o_header_t){&H2O_TOKEN_AUTHORIZATION->buf, NULL, auth};
    headers[1] = (h2o_header_t){&H2O_TOKEN_CONTENT_TYPE->buf, NULL, h2o_iovec_init(H2O_STRLIT("text/plain"))};
    headers[2] = (h2o_header_t){&H2O_TOKEN_USER_AGENT->buf, NULL, query};
    headers[3] = (h2o_header_t){&x_amz_date_name, NULL, h2o_iovec_init(H2O_STRLIT(SEED_DATE))};
    req.headers.entries = headers;
    req.headers.size = auth.len ? 4 : 2;
    req.headers.capacity = 4;
    floe_sigv4_verify(&req, &config, data[0] & 1, SEED_DATE_S);
    floe_s3_sigv2_verify(&req, &config, SEED_DATE_S);
    floe_sigv4_request_scope(&req, &scope);
    h2o_mem_clear_pool(&req.pool);
    return 0;
}
