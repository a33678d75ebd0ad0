/* Tests of runtime/http/sigv4.c: reading the credential scope that decides the service. */
#include <string.h>

#include "harness.h"
#include "http/sigv4.h"

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

/* The front door reads the scope once and hands it on; what the fronts derive from it. */
TEST(sigv4_parsed_scope_names_service_account_and_region)
{
    floe_config_t config;
    floe_sigv4_scope_t s;
    floe_scope_t scope;
    const char numeric[] = "111122223333/20240101/eu-west-1/s3tables/aws4_request";
    const char named[] = "AKIDEXAMPLE/20240101/us-west-2/sts/aws4_request";

    memset(&config, 0, sizeof(config));
    config.account_id = "000000000000";
    config.region = "us-east-1";
    CHECK(floe_sigv4_parse_credential(numeric, strlen(numeric), &s) == 0, "a scope with a 12-digit key parses");
    CHECK(floe_sigv4_scope_is_for(&s, "s3tables"), "it is for s3tables");
    CHECK(!floe_sigv4_scope_is_for(&s, "s3") && !floe_sigv4_scope_is_for(&s, "s3tablesx"),
          "and not for a service whose name is a prefix of it or longer");
    floe_sigv4_account_scope(NULL, &config, &s, &scope);
    CHECK(strcmp(scope.account_id, "111122223333") == 0 && strcmp(scope.region, "eu-west-1") == 0,
          "a 12-digit access key is the account, and the scope's region is the region");
    CHECK(floe_sigv4_parse_credential(named, strlen(named), &s) == 0, "a scope with a named key parses");
    floe_sigv4_account_scope(NULL, &config, &s, &scope);
    CHECK(strcmp(scope.account_id, "000000000000") == 0 && strcmp(scope.region, "us-west-2") == 0,
          "another key acts in the default account, in the scope's region");
}
