/* Tests of runtime/http/sigv4_verify.c: whole verifications of requests signed by real signers. */
#include <string.h>

#include "harness.h"
#include "http/sigv4_verify.h"

#define VECTOR_DATE_S 1704067200 /* 20240101T000000Z, the X-Amz-Date the vectors were signed at */

/*
 * A POST createTable to the Iceberg REST catalog as Apache Iceberg's REST SigV4 signer sends it
 * (the AWS SDK for Java v2's Aws4Signer with SHA-256 checksum parameters, which Trino 476 and
 * Spark use): x-amz-content-sha256 carries the body's SHA-256 in base64, while the signature
 * covers its hex form. Signed with key AKIDUNIT / unit-secret for s3tables in us-east-1.
 */
static const char iceberg_path[] =
    "/iceberg/v1/arn%3Aaws%3As3tables%3Aus-east-1%3A000000000000%3Abucket%2Ft/namespaces/sales/tables";
static const char iceberg_body[] = "{\"name\":\"t\"}";
static const char iceberg_auth[] =
    "AWS4-HMAC-SHA256 Credential=AKIDUNIT/20240101/us-east-1/s3tables/aws4_request, "
    "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
    "Signature=0a79648b46f39c202a67b31d0650f4d0c06dd808ed92dfe66cf9f7573a839d9e";
static const char iceberg_content_sha256[] = "Nkemdkkii2L+PROcR/ejxnPDHOV9qCQIK2ZU/AsVdR8=";

static floe_sigv4_result_t verify_post(const char *path, const char *body, const char *content_sha256, int is_s3)
{
    static floe_credential_t credential = {"AKIDUNIT", "unit-secret"};
    floe_config_t config = {.strict_signatures = true, .credentials = &credential, .n_credentials = 1};
    static h2o_iovec_t sha_name = {H2O_STRLIT("x-amz-content-sha256")}, date_name = {H2O_STRLIT("x-amz-date")};
    h2o_header_t headers[3];
    h2o_req_t req;
    floe_sigv4_result_t r;

    memset(&req, 0, sizeof(req));
    h2o_mem_init_pool(&req.pool);
    req.input.method = h2o_iovec_init(H2O_STRLIT("POST"));
    req.input.path = h2o_iovec_init(path, strlen(path));
    req.input.query_at = SIZE_MAX;
    req.input.authority = h2o_iovec_init(H2O_STRLIT("127.0.0.1:4566"));
    req.entity = h2o_iovec_init(body, strlen(body));
    headers[0] = (h2o_header_t){&H2O_TOKEN_AUTHORIZATION->buf, NULL, h2o_iovec_init(iceberg_auth, strlen(iceberg_auth))};
    headers[1] = (h2o_header_t){&sha_name, NULL, h2o_iovec_init(content_sha256, strlen(content_sha256))};
    headers[2] = (h2o_header_t){&date_name, NULL, h2o_iovec_init(H2O_STRLIT("20240101T000000Z"))};
    req.headers.entries = headers;
    req.headers.size = req.headers.capacity = 3;
    r = floe_sigv4_verify(&req, &config, is_s3, VECTOR_DATE_S);
    h2o_mem_clear_pool(&req.pool);
    return r;
}

TEST(sigv4_verify_iceberg_signer_base64_content_sha256_verifies)
{
    CHECK(verify_post(iceberg_path, iceberg_body, iceberg_content_sha256, 0) == FLOE_SIGV4_OK,
          "a body signed by Iceberg's REST signer verifies for s3tables, whose payload hash is the body's");
    CHECK(verify_post(iceberg_path, "{\"name\":\"u\"}", iceberg_content_sha256, 0) == FLOE_SIGV4_MISMATCH,
          "the body is still signed: another body does not verify");
    CHECK(verify_post(iceberg_path, iceberg_body, iceberg_content_sha256, 1) == FLOE_SIGV4_MISMATCH,
          "S3 signs x-amz-content-sha256 as sent, so the same request does not verify as S3");
}
