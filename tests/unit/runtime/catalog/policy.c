/* Tests of runtime/catalog/policy.c: well-formed resource policies pass, malformed ones say why. */
#include <string.h>

#include "catalog/policy.h"
#include "harness.h"

#define GOOD_STATEMENT                                                                                                 \
    "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::111122223333:root\"},"                                \
    "\"Action\":\"s3tables:GetTableBucket\",\"Resource\":\"*\"}"

TEST(policy_well_formed_documents_pass)
{
    const char *docs[] = {
        "{\"Version\":\"2012-10-17\",\"Statement\":[" GOOD_STATEMENT "]}",
        "{\"Version\":\"2008-10-17\",\"Statement\":" GOOD_STATEMENT "}",
        ("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"NotPrincipal\":{\"AWS\":\"*\"},"
         "\"NotAction\":[\"s3tables:*\"],\"NotResource\":\"*\"}]}"),
    };
    char why[128];
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
        CHECK(floe_policy_check(docs[i], why, sizeof(why)) == 0, "a well-formed policy is accepted");
}

TEST(policy_malformed_documents_say_why)
{
    static const struct {
        const char *doc, *why;
    } cases[] = {
        {"not json", "Policies must be valid JSON and the first byte must be '{'"},
        {"[]", "Policies must be valid JSON and the first byte must be '{'"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":[]} trailing", "Policies must be valid JSON and the first byte must be '{'"},
        {"{\"Statement\":[" GOOD_STATEMENT "]}", "The policy must contain a valid version string"},
        {"{\"Version\":\"2013-01-01\",\"Statement\":[" GOOD_STATEMENT "]}", "The policy must contain a valid version string"},
        {"{\"Version\":\"2012-10-17\"}", "Missing required field Statement"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":[]}", "Missing required field Statement"},
        {"{\"Version\":\"2012-10-17\",\"statement\":[" GOOD_STATEMENT "]}", "Missing required field Statement"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":[1]}", "Each policy statement must be a JSON object."},
        {"{\"Version\":\"2012-10-17\",\"Statement\":{\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"}}",
         "Missing required field Effect"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Maybe\",\"Principal\":\"*\",\"Action\":\"*\","
         "\"Resource\":\"*\"}}",
         "Invalid effect: the Effect of a statement must be Allow or Deny"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}}",
         "Missing required field Principal"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Resource\":\"*\"}}",
         "Missing required field Action"},
        {"{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"*\"}}",
         "Missing required field Resource"},
    };
    char why[128];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK(floe_policy_check(cases[i].doc, why, sizeof(why)) == -1, "a malformed policy is refused");
        CHECK(strcmp(why, cases[i].why) == 0, "the refusal says what is wrong with the policy");
    }
}

TEST(policy_reason_is_cut_to_the_buffer)
{
    char why[8];
    CHECK(floe_policy_check("nope", why, sizeof(why)) == -1, "a malformed policy is refused");
    CHECK(strlen(why) == sizeof(why) - 1, "the reason is cut to the buffer and NUL-terminated");
}
