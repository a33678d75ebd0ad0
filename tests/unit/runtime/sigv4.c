/* Tests of runtime/sigv4.c: reading the credential scope that decides the service. */
#include <string.h>

#include "harness.h"
#include "sigv4.h"

TEST(sigv4_scope_is_read_from_credential)
{
    floe_sigv4_scope_t s;
    const char good[] = "AKIDEXAMPLE/20240101/us-east-1/s3tables/aws4_request";
    CHECK(floe_sigv4_parse_credential(good, strlen(good), &s) == 0, "a five-part scope parses");
    CHECK(h2o_memis(s.service.base, s.service.len, H2O_STRLIT("s3tables")), "the fourth part is the service");
    CHECK(h2o_memis(s.region.base, s.region.len, H2O_STRLIT("us-east-1")), "the third part is the region");
    CHECK(floe_sigv4_parse_credential("AK/20240101/us-east-1/s3", 24, &s) != 0, "a scope without aws4_request fails");
    CHECK(floe_sigv4_parse_credential("a/b/c/d/e/aws4_request", 22, &s) != 0, "a scope with six parts fails");
}
