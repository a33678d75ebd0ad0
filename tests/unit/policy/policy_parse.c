/* Tests of runtime/policy/policy_parse.c: documents IAM accepts parse, the ones it refuses say why in IAM's words. */
#include <string.h>

#include "harness.h"
#include "policy/policy.h"

/* The examples of AWS's S3 Tables user guide (s3-tables-resource-based-policies.html, s3-tables-identity-based-policies.html). */
#define GUIDE_BUCKET_POLICY_HR                                                                                         \
    "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"                           \
    "\"arn:aws:iam::123456789012:user/Jane\"},\"Action\":[\"s3tables:GetTableData\","                                    \
    "\"s3tables:GetTableMetadataLocation\"],\"Resource\":"                                                             \
    "\"arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-table-bucket/table/*\","                             \
    "\"Condition\":{\"StringLike\":{\"s3tables:namespace\":\"hr\"}}}]}"
#define GUIDE_TABLE_POLICY_DELETE                                                                                      \
    "{\"Version\":\"2012-10-17\",\"Id\":\"DeleteTable\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"    \
    "\"arn:aws:iam::111122223333:role/datasteward\"},\"Action\":[\"s3tables:DeleteTable\","                              \
    "\"s3tables:UpdateTableMetadataLocation\",\"s3tables:PutTableData\",\"s3tables:GetTableMetadataLocation\"],"         \
    "\"Resource\":\"arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-bucket/table/tableUUID\"}]}"
#define GUIDE_IDENTITY_POLICY                                                                                          \
    "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"AllowBucketActions\",\"Effect\":\"Allow\",\"Action\":["      \
    "\"s3tables:CreateTableBucket\",\"s3tables:PutTableBucketPolicy\",\"s3tables:GetTableBucketPolicy\","                \
    "\"s3tables:ListTableBuckets\",\"s3tables:GetTableBucket\"],"                                                       \
    "\"Resource\":\"arn:aws:s3tables:us-east-1:111122223333:bucket/*\"}]}"

static floe_policy_t *parse(const char *text, floe_policy_kind_t kind, char *err, size_t err_size)
{
    return floe_policy_parse(text, strlen(text), kind, err, err_size);
}

TEST(policy_parse_accepts_the_s3_tables_guide_examples)
{
    char err[256];
    floe_policy_t *p;

    p = parse(GUIDE_BUCKET_POLICY_HR, FLOE_POLICY_RESOURCE, err, sizeof(err));
    CHECK(p != NULL, "the guide's namespace-scoped bucket policy is a valid resource policy");
    floe_policy_free(p);
    p = parse(GUIDE_TABLE_POLICY_DELETE, FLOE_POLICY_RESOURCE, err, sizeof(err));
    CHECK(p != NULL, "the guide's delete-table policy is a valid resource policy");
    floe_policy_free(p);
    p = parse(GUIDE_IDENTITY_POLICY, FLOE_POLICY_IDENTITY, err, sizeof(err));
    CHECK(p != NULL, "the guide's identity policy is a valid identity policy");
    floe_policy_free(p);
    p = parse("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"glue.amazonaws.com\"},"
              "\"Action\":\"sts:AssumeRole\"}}  \n",
              FLOE_POLICY_TRUST, err, sizeof(err));
    CHECK(p != NULL, "a trust policy with one statement object, no Version and trailing blanks is valid");
    floe_policy_free(p);
}

TEST(policy_parse_refuses_with_iam_messages)
{
    static const struct {
        const char *doc, *why;
    } cases[] = {
        {"not json", "Syntax errors in policy."},
        {"[]", "Syntax errors in policy."},
        {"{\"Statement\":[]} x", "Syntax errors in policy."},
        {"{\"Version\":\"2012-10-17\"}", "Syntax errors in policy."},
        {"{\"Version\":\"2012-10-17\",\"Statement\":[],\"Extra\":1}", "Syntax errors in policy."},
        {"{\"Version\":\"2013-01-01\",\"Statement\":[]}", "The policy failed legacy parsing"},
        {"{\"Statement\":[]}", "Policy document must contain at least one statement."},
        {"{\"Statement\":[{\"Action\":\"s3tables:*\",\"Resource\":\"*\"}]}", "Missing required field Effect"},
        {"{\"Statement\":[{\"Effect\":\"Maybe\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}]}", "Invalid effect: Maybe"},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Resource\":\"*\"}]}", "Policy statement must contain actions."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[],\"Resource\":\"*\"}]}", "Policy statement must contain actions."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\"}]}", "Policy statement must contain resources."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"GetTable\",\"Resource\":\"*\"}]}",
         "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:Get:Table\",\"Resource\":\"*\"}]}",
         "Actions/Condition can contain only one colon."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:Get Table\",\"Resource\":\"*\"}]}",
         "Policy has invalid action"},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"bucket/x\"}]}",
         "Resource bucket/x must be in ARN format or \"*\"."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\",\"Condition\":"
         "{\"StringEqualz\":{\"aws:SourceIp\":\"x\"}}}]}",
         "Invalid Condition type : StringEqualz"},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\",\"Condition\":"
         "{\"StringEquals\":{\"namespace\":\"x\"}}}]}",
         "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"NotAction\":\"s3:*\",\"Resource\":\"*\"}]}",
         "Syntax errors in policy."},
        {"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":{\"a\":1},\"Resource\":\"*\"}]}", "Syntax errors in policy."},
    };
    char err[256];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        floe_policy_t *p = parse(cases[i].doc, FLOE_POLICY_IDENTITY, err, sizeof(err));
        CHECK(p == NULL, "a malformed identity policy is refused");
        CHECK(strcmp(err, cases[i].why) == 0, "the refusal says what IAM says");
        if (strcmp(err, cases[i].why) != 0)
            fprintf(stderr, "    case %zu: got \"%s\"\n", i, err);
        floe_policy_free(p);
    }
}

TEST(policy_parse_principal_belongs_to_resource_and_trust_policies_only)
{
    char err[256];
    floe_policy_t *p;

    p = parse(GUIDE_BUCKET_POLICY_HR, FLOE_POLICY_IDENTITY, err, sizeof(err));
    CHECK(p == NULL && strcmp(err, "Policy document should not specify a principal.") == 0,
          "an identity policy naming a principal is refused");
    p = parse(GUIDE_IDENTITY_POLICY, FLOE_POLICY_RESOURCE, err, sizeof(err));
    CHECK(p == NULL && strcmp(err, "Missing required field Principal") == 0,
          "a resource policy statement without a principal is refused");
    p = parse("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sts:AssumeRole\",\"Resource\":\"*\"}}",
              FLOE_POLICY_TRUST, err, sizeof(err));
    CHECK(p == NULL && strcmp(err, "Has prohibited field Resource") == 0, "a trust policy naming a resource is refused");
}

TEST(policy_parse_refuses_invalid_principals)
{
    static const char *const good[] = {"\"*\"", "{\"AWS\":\"*\"}", "{\"AWS\":\"111122223333\"}",
                                       "{\"AWS\":[\"arn:aws:iam::111122223333:root\",\"arn:aws:iam::111122223333:user/a/b\"]}",
                                       "{\"AWS\":\"arn:aws:sts::111122223333:assumed-role/r/s\"}",
                                       "{\"Service\":\"s3tables.amazonaws.com\"}"};
    static const struct {
        const char *principal, *why;
    } bad[] = {
        {"{\"AWS\":\"Jane\"}", "Invalid principal in policy: \"AWS\":\"Jane\""},
        {"{\"AWS\":\"arn:aws:iam::1111:root\"}", "Invalid principal in policy: \"AWS\":\"arn:aws:iam::1111:root\""},
        {"{\"AWS\":\"arn:aws:iam::111122223333:rooty\"}", "Invalid principal in policy: \"AWS\":\"arn:aws:iam::111122223333:rooty\""},
        {"{\"AWS\":\"arn:aws:iam::111122223333:user/\"}", "Invalid principal in policy: \"AWS\":\"arn:aws:iam::111122223333:user/\""},
        {"{\"Robot\":\"x\"}", "Invalid principal in policy: \"Robot\""},
        {"\"someone\"", "Invalid principal in policy"},
    };
    char doc[512], err[256];

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        snprintf(doc, sizeof(doc), "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":%s,\"Action\":\"*\",\"Resource\":\"*\"}}", good[i]);
        floe_policy_t *p = parse(doc, FLOE_POLICY_RESOURCE, err, sizeof(err));
        CHECK(p != NULL, "a principal IAM accepts is accepted");
        floe_policy_free(p);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(doc, sizeof(doc), "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":%s,\"Action\":\"*\",\"Resource\":\"*\"}}", bad[i].principal);
        CHECK(parse(doc, FLOE_POLICY_RESOURCE, err, sizeof(err)) == NULL, "an invalid principal is refused");
        CHECK(strcmp(err, bad[i].why) == 0, "the refusal quotes the principal as IAM does");
    }
}

TEST(policy_parse_refuses_duplicate_sids)
{
    char err[256];
    const char *doc = "{\"Statement\":[{\"Sid\":\"A\",\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"},"
                      "{\"Sid\":\"A\",\"Effect\":\"Deny\",\"Action\":\"*\",\"Resource\":\"*\"}]}";

    CHECK(parse(doc, FLOE_POLICY_IDENTITY, err, sizeof(err)) == NULL, "two statements with one Sid are refused");
    CHECK(strcmp(err, "Statement IDs (SID) in a single policy must be unique.") == 0, "the refusal says the Sids repeat");
}

TEST(policy_parse_error_is_cut_to_the_buffer)
{
    char err[8];

    CHECK(parse("nope", FLOE_POLICY_IDENTITY, err, sizeof(err)) == NULL, "a malformed policy is refused");
    CHECK(strlen(err) == sizeof(err) - 1, "the message is cut to the buffer and NUL-terminated");
}
