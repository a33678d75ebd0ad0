/* Tests of runtime/s3/sigv2.c: S3's SigV2 presigned URLs, against the S3 developer guide's example. */
#include <string.h>

#include "harness.h"
#include "s3/sigv2.h"

#define EXAMPLE_EXPIRES_S 1175139620

/* The guide's "Query string request authentication" example: GET /photos/puppy.jpg on the
 * virtual-hosted bucket johnsmith, Expires 1175139620, the documented example keys. */
static floe_sigv4_result_t verify_example(const char *target, const char *authority, int64_t now_s)
{
    static floe_credential_t credential = {"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};
    floe_config_t config = {.strict_signatures = true, .credentials = &credential, .n_credentials = 1};
    floe_sigv4_result_t r;
    h2o_req_t req;

    memset(&req, 0, sizeof(req));
    h2o_mem_init_pool(&req.pool);
    req.input.path = h2o_iovec_init(target, strlen(target));
    req.input.query_at = (size_t)(strchr(target, '?') - target);
    req.input.method = h2o_iovec_init(H2O_STRLIT("GET"));
    req.input.authority = h2o_iovec_init(authority, strlen(authority));
    r = floe_s3_sigv2_verify(&req, &config, now_s);
    h2o_mem_clear_pool(&req.pool);
    return r;
}

TEST(s3_sigv2_presigned_url_matches_the_guide_example)
{
    const char *good = "/photos/puppy.jpg?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Signature=NpgCjnDzrM%2BWFzoENXmpNDUsSn8%3D"
                       "&Expires=1175139620";
    const char *path_style = "/johnsmith/photos/puppy.jpg?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE"
                             "&Signature=NpgCjnDzrM%2BWFzoENXmpNDUsSn8%3D&Expires=1175139620";
    const char *other_key = "/photos/kitten.jpg?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE"
                            "&Signature=NpgCjnDzrM%2BWFzoENXmpNDUsSn8%3D&Expires=1175139620";

    CHECK(verify_example(good, "johnsmith.s3.amazonaws.com", EXAMPLE_EXPIRES_S - 1) == FLOE_SIGV4_OK,
          "the guide's virtual-hosted URL verifies");
    CHECK(verify_example(path_style, "s3.amazonaws.com", EXAMPLE_EXPIRES_S - 1) == FLOE_SIGV4_OK,
          "so does its path-style form, which signs the same resource");
    CHECK(verify_example(other_key, "johnsmith.s3.amazonaws.com", EXAMPLE_EXPIRES_S - 1) == FLOE_SIGV4_MISMATCH,
          "the signature does not carry over to another key");
    CHECK(verify_example(good, "johnsmith.s3.amazonaws.com", EXAMPLE_EXPIRES_S + 1) == FLOE_SIGV4_EXPIRED,
          "after Expires the URL has expired");
    CHECK(verify_example("/photos/puppy.jpg?x=1", "johnsmith.s3.amazonaws.com", 0) == FLOE_SIGV4_MISSING,
          "a URL without AWSAccessKeyId, Signature and Expires carries no SigV2 signature");
    CHECK(verify_example("/p?AWSAccessKeyId=NOBODY&Signature=x&Expires=1175139620", "s3.amazonaws.com", 0) ==
              FLOE_SIGV4_UNKNOWN_KEY,
          "an access key that is not configured is unknown");
}
