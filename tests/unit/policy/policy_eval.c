/* Tests of runtime/policy/policy_eval.c: which statement of a policy applies to a request, as AWS reads it. */
#include <stdbool.h>
#include <string.h>

#include "harness.h"
#include "policy/policy.h"

#define ROOT_A "arn:aws:iam::111122223333:root"
#define ACCOUNT_A "111122223333"
#define TABLE_ARN "arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-table-bucket/table/0001"

static floe_policy_t *must_parse(const char *text, floe_policy_kind_t kind)
{
    char err[256];
    floe_policy_t *p = floe_policy_parse(text, strlen(text), kind, err, sizeof(err));

    if (p == NULL)
        fprintf(stderr, "    unexpected refusal: %s\n    of %s\n", err, text);
    return p;
}

/* The effect of an identity policy of one statement with `condition` on a request carrying `ctx`. */
static floe_policy_effect_t with_condition(const char *condition, const floe_policy_context_key_t *ctx, size_t n_ctx)
{
    char doc[1024];
    floe_policy_t *p;
    floe_policy_request_t req = {ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, ctx, n_ctx, NULL};
    floe_policy_effect_t effect;

    snprintf(doc, sizeof(doc), "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":%s}}",
             condition);
    if ((p = must_parse(doc, FLOE_POLICY_IDENTITY)) == NULL)
        return FLOE_POLICY_DENY;
    effect = floe_policy_evaluate(p, &req, NULL);
    floe_policy_free(p);
    return effect;
}

static bool allows(const char *condition, const floe_policy_context_key_t *ctx, size_t n_ctx)
{
    return with_condition(condition, ctx, n_ctx) == FLOE_POLICY_ALLOW;
}

static floe_policy_effect_t eval(const floe_policy_t *p, const char *principal, const char *account, const char *action,
                                 const char *resource, const char **statement)
{
    floe_policy_request_t req = {principal, account, action, resource, NULL, 0, NULL};

    return floe_policy_evaluate(p, &req, statement);
}

TEST(policy_eval_action_wildcards_ignore_case)
{
    floe_policy_t *p = must_parse("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":[\"s3tables:Get*\",\"S3TABLES:list?ables\"],"
                                  "\"Resource\":\"*\"}}",
                                  FLOE_POLICY_IDENTITY);

    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW, "Get* allows GetTable");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:gettablebucket", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW,
          "actions compare without case");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:ListTables", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW, "? matches one character");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:ListTableBuckets", TABLE_ARN, NULL) == FLOE_POLICY_NO_MATCH,
          "? matches exactly one character");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:DeleteTable", TABLE_ARN, NULL) == FLOE_POLICY_NO_MATCH,
          "an action no pattern matches is not allowed");
    floe_policy_free(p);
}

TEST(policy_eval_resource_wildcards_keep_case)
{
    floe_policy_t *p = must_parse("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":"
                                  "\"arn:aws:s3tables:*:111122223333:bucket/amzn-s3-demo-table-bucket/table/*\"}}",
                                  FLOE_POLICY_IDENTITY);

    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW, "a table of the bucket matches");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", "arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-table-bucket",
               NULL) == FLOE_POLICY_NO_MATCH,
          "the bucket itself does not match .../table/*");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", "arn:aws:s3tables:us-east-1:111122223333:bucket/AMZN-s3-demo-table-bucket/table/1",
               NULL) == FLOE_POLICY_NO_MATCH,
          "resources compare with case");
    floe_policy_free(p);
}

TEST(policy_eval_deny_wins_and_names_its_statement)
{
    floe_policy_t *p = must_parse("{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"},"
                                  "{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"},"
                                  "{\"Sid\":\"NoDelete\",\"Effect\":\"Deny\",\"Action\":\"s3tables:DeleteTable\",\"Resource\":\"*\"}]}",
                                  FLOE_POLICY_IDENTITY);
    const char *st = "unset";

    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:DeleteTable", TABLE_ARN, &st) == FLOE_POLICY_DENY, "a Deny wins over an Allow before it");
    CHECK(st != NULL && strcmp(st, "NoDelete") == 0, "the deciding statement is named by its Sid");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, &st) == FLOE_POLICY_ALLOW, "other actions are allowed");
    CHECK(st != NULL && strcmp(st, "Statement[0]") == 0, "a statement without a Sid is named by its index, the first allow deciding");
    floe_policy_free(p);
    p = must_parse("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:*\",\"Resource\":\"*\"}}", FLOE_POLICY_IDENTITY);
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, &st) == FLOE_POLICY_NO_MATCH && st == NULL,
          "no match names no statement");
    floe_policy_free(p);
}

TEST(policy_eval_not_action_and_not_resource_invert)
{
    floe_policy_t *p = must_parse("{\"Statement\":{\"Effect\":\"Deny\",\"NotAction\":\"s3tables:Get*\",\"NotResource\":"
                                  "\"arn:aws:s3tables:*:*:bucket/open/*\"}}",
                                  FLOE_POLICY_IDENTITY);

    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:DeleteTable", TABLE_ARN, NULL) == FLOE_POLICY_DENY,
          "an action outside NotAction on a resource outside NotResource is denied");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_NO_MATCH,
          "an action NotAction names is untouched");
    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:DeleteTable", "arn:aws:s3tables:us-east-1:1:bucket/open/table/x", NULL) ==
              FLOE_POLICY_NO_MATCH,
          "a resource NotResource names is untouched");
    floe_policy_free(p);
}

TEST(policy_eval_principals_name_accounts_users_and_roles)
{
    floe_policy_t *p = must_parse("{\"Statement\":[{\"Sid\":\"Acct\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"444455556666\"},"
                                  "\"Action\":\"s3tables:GetTable\",\"Resource\":\"*\"},"
                                  "{\"Sid\":\"Root\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::777788889999:root\"},"
                                  "\"Action\":\"s3tables:ListTables\",\"Resource\":\"*\"},"
                                  "{\"Sid\":\"Role\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::111122223333:role/reader\"},"
                                  "\"Action\":\"s3tables:GetTableData\",\"Resource\":\"*\"}]}",
                                  FLOE_POLICY_RESOURCE);
    floe_policy_request_t session = {"arn:aws:sts::111122223333:assumed-role/reader/spark", ACCOUNT_A, "s3tables:GetTableData",
                                     TABLE_ARN, NULL, 0, "arn:aws:iam::111122223333:role/reader"};

    CHECK(eval(p, "arn:aws:iam::444455556666:user/bob", "444455556666", "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW,
          "an account id names every principal of the account");
    CHECK(eval(p, "arn:aws:iam::777788889999:root", "777788889999", "s3tables:ListTables", TABLE_ARN, NULL) == FLOE_POLICY_ALLOW,
          "a root ARN names the account");
    CHECK(eval(p, "arn:aws:iam::123456789012:root", "123456789012", "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_NO_MATCH,
          "another account is not named");
    CHECK(floe_policy_evaluate(p, &session, NULL) == FLOE_POLICY_ALLOW, "a role's ARN names its sessions");
    session.role_arn = "arn:aws:iam::111122223333:role/writer";
    CHECK(floe_policy_evaluate(p, &session, NULL) == FLOE_POLICY_NO_MATCH, "another role's session is not named");
    floe_policy_free(p);
}

TEST(policy_eval_not_principal_excludes)
{
    floe_policy_t *p = must_parse("{\"Statement\":{\"Effect\":\"Deny\",\"NotPrincipal\":{\"AWS\":\"" ROOT_A "\"},"
                                  "\"Action\":\"*\",\"Resource\":\"*\"}}",
                                  FLOE_POLICY_RESOURCE);

    CHECK(eval(p, ROOT_A, ACCOUNT_A, "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_NO_MATCH, "the principal named is spared");
    CHECK(eval(p, "arn:aws:iam::444455556666:root", "444455556666", "s3tables:GetTable", TABLE_ARN, NULL) == FLOE_POLICY_DENY,
          "every other principal is denied");
    floe_policy_free(p);
}

TEST(policy_eval_guide_namespace_example_grants_only_hr)
{
    floe_policy_t *p = must_parse(
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::123456789012:user/Jane\"},"
        "\"Action\":[\"s3tables:GetTableData\",\"s3tables:GetTableMetadataLocation\"],\"Resource\":"
        "\"arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-table-bucket/table/*\","
        "\"Condition\":{\"StringLike\":{\"s3tables:namespace\":\"hr\"}}}]}",
        FLOE_POLICY_RESOURCE);
    floe_policy_context_key_t hr[] = {{"s3tables:namespace", "hr"}}, sales[] = {{"s3tables:namespace", "sales"}};
    floe_policy_request_t req = {"arn:aws:iam::123456789012:user/Jane", "123456789012", "s3tables:GetTableData", TABLE_ARN, hr, 1, NULL};

    CHECK(floe_policy_evaluate(p, &req, NULL) == FLOE_POLICY_ALLOW, "Jane reads a table of the hr namespace");
    req.context = sales;
    CHECK(floe_policy_evaluate(p, &req, NULL) == FLOE_POLICY_NO_MATCH, "Jane is not granted another namespace");
    req.context = hr;
    req.action = "s3tables:PutTableData";
    CHECK(floe_policy_evaluate(p, &req, NULL) == FLOE_POLICY_NO_MATCH, "Jane is not granted writes");
    floe_policy_free(p);
}

TEST(policy_eval_string_conditions)
{
    floe_policy_context_key_t ns[] = {{"s3tables:namespace", "Sales_2024"}};

    CHECK(allows("{\"StringEquals\":{\"s3tables:namespace\":\"Sales_2024\"}}", ns, 1), "StringEquals matches the same string");
    CHECK(!allows("{\"StringEquals\":{\"s3tables:namespace\":\"sales_2024\"}}", ns, 1), "StringEquals keeps case");
    CHECK(allows("{\"StringEqualsIgnoreCase\":{\"s3tables:namespace\":\"sales_2024\"}}", ns, 1), "StringEqualsIgnoreCase ignores case");
    CHECK(allows("{\"StringNotEquals\":{\"s3tables:namespace\":\"hr\"}}", ns, 1), "StringNotEquals holds for another string");
    CHECK(!allows("{\"StringNotEquals\":{\"s3tables:namespace\":[\"hr\",\"Sales_2024\"]}}", ns, 1),
          "StringNotEquals fails when any value equals");
    CHECK(allows("{\"StringLike\":{\"s3tables:namespace\":\"Sales_*\"}}", ns, 1), "StringLike takes wildcards");
    CHECK(!allows("{\"StringLike\":{\"s3tables:namespace\":\"sales_*\"}}", ns, 1), "StringLike keeps case");
    CHECK(allows("{\"StringNotLike\":{\"s3tables:namespace\":\"hr*\"}}", ns, 1), "StringNotLike holds when no pattern matches");
    CHECK(!allows("{\"StringNotLike\":{\"s3tables:namespace\":\"S*\"}}", ns, 1), "StringNotLike fails when a pattern matches");
}

TEST(policy_eval_missing_keys_fail_positive_and_satisfy_negated_operators)
{
    CHECK(!allows("{\"StringEquals\":{\"s3tables:namespace\":\"hr\"}}", NULL, 0), "StringEquals fails on a missing key");
    CHECK(!allows("{\"StringLike\":{\"s3tables:namespace\":\"*\"}}", NULL, 0), "even * does not match a missing key");
    CHECK(!allows("{\"Bool\":{\"aws:SecureTransport\":\"false\"}}", NULL, 0), "Bool fails on a missing key");
    CHECK(allows("{\"StringNotEquals\":{\"s3tables:namespace\":\"hr\"}}", NULL, 0), "StringNotEquals holds on a missing key");
    CHECK(allows("{\"ArnNotLike\":{\"aws:PrincipalArn\":\"arn:*\"}}", NULL, 0), "ArnNotLike holds on a missing key");
    CHECK(allows("{\"NotIpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}", NULL, 0), "NotIpAddress holds on a missing key");
}

TEST(policy_eval_if_exists_satisfied_by_a_missing_key)
{
    floe_policy_context_key_t ns[] = {{"s3tables:namespace", "sales"}};

    CHECK(allows("{\"StringEqualsIfExists\":{\"s3tables:namespace\":\"hr\"}}", NULL, 0), "IfExists holds on a missing key");
    CHECK(!allows("{\"StringEqualsIfExists\":{\"s3tables:namespace\":\"hr\"}}", ns, 1), "IfExists still compares a present key");
    CHECK(allows("{\"StringEqualsIfExists\":{\"s3tables:namespace\":\"sales\"}}", ns, 1), "IfExists holds on a present matching key");
}

TEST(policy_eval_keys_and_values_combine_and_or)
{
    floe_policy_context_key_t ctx[] = {{"s3tables:namespace", "hr"}, {"s3tables:tableName", "pay"}};

    CHECK(allows("{\"StringEquals\":{\"s3tables:namespace\":[\"sales\",\"hr\"]}}", ctx, 2), "the values of a key are OR'ed");
    CHECK(allows("{\"StringEquals\":{\"s3tables:namespace\":\"hr\",\"s3tables:tableName\":\"pay\"}}", ctx, 2),
          "keys that all hold allow");
    CHECK(!allows("{\"StringEquals\":{\"s3tables:namespace\":\"hr\",\"s3tables:tableName\":\"bonus\"}}", ctx, 2),
          "the keys of an operator are AND'ed");
    CHECK(!allows("{\"StringEquals\":{\"s3tables:namespace\":\"hr\"},\"StringLike\":{\"s3tables:tableName\":\"b*\"}}", ctx, 2),
          "the operators of a condition are AND'ed");
}

TEST(policy_eval_set_operators)
{
    floe_policy_context_key_t tags[] = {{"aws:TagKeys", "team"}, {"aws:TagKeys", "cost"}};

    CHECK(allows("{\"ForAllValues:StringEquals\":{\"aws:TagKeys\":[\"team\",\"cost\",\"env\"]}}", tags, 2),
          "ForAllValues holds when every value is listed");
    CHECK(!allows("{\"ForAllValues:StringEquals\":{\"aws:TagKeys\":[\"team\"]}}", tags, 2),
          "ForAllValues fails when a value is not listed");
    CHECK(allows("{\"ForAllValues:StringEquals\":{\"aws:TagKeys\":[\"team\"]}}", NULL, 0), "ForAllValues holds over no values");
    CHECK(allows("{\"ForAnyValue:StringEquals\":{\"aws:TagKeys\":[\"cost\"]}}", tags, 2), "ForAnyValue holds when one value is listed");
    CHECK(!allows("{\"ForAnyValue:StringEquals\":{\"aws:TagKeys\":[\"env\"]}}", tags, 2), "ForAnyValue fails when none is");
    CHECK(!allows("{\"ForAnyValue:StringEquals\":{\"aws:TagKeys\":[\"env\"]}}", NULL, 0), "ForAnyValue fails over no values");
    CHECK(allows("{\"ForAnyValue:StringNotEquals\":{\"aws:TagKeys\":[\"team\"]}}", tags, 2),
          "ForAnyValue:StringNotEquals holds when one value is not listed");
}

TEST(policy_eval_bool_ip_arn_numeric_date_null)
{
    floe_policy_context_key_t ctx[] = {{"aws:SecureTransport", "false"},
                                       {"aws:SourceIp", "10.1.2.3"},
                                       {"aws:PrincipalArn", "arn:aws:iam::111122223333:role/team/reader"},
                                       {"s3:max-keys", "5"},
                                       {"aws:CurrentTime", "2026-12-07T16:00:00Z"}};
    size_t n = sizeof(ctx) / sizeof(ctx[0]);

    CHECK(allows("{\"Bool\":{\"aws:SecureTransport\":false}}", ctx, n), "Bool compares a JSON boolean");
    CHECK(!allows("{\"Bool\":{\"aws:SecureTransport\":\"true\"}}", ctx, n), "Bool tells true from false");
    CHECK(allows("{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}", ctx, n), "an address in a block matches");
    CHECK(!allows("{\"IpAddress\":{\"aws:SourceIp\":\"192.168.0.0/16\"}}", ctx, n), "an address outside it does not");
    CHECK(allows("{\"NotIpAddress\":{\"aws:SourceIp\":\"192.168.0.0/16\"}}", ctx, n), "NotIpAddress holds outside the block");
    CHECK(allows("{\"ArnLike\":{\"aws:PrincipalArn\":\"arn:aws:iam::*:role/team/*\"}}", ctx, n), "ArnLike takes wildcards");
    CHECK(allows("{\"ArnEquals\":{\"aws:PrincipalArn\":\"arn:aws:iam::111122223333:role/team/reader\"}}", ctx, n),
          "ArnEquals matches the same ARN");
    CHECK(!allows("{\"ArnNotEquals\":{\"aws:PrincipalArn\":\"arn:aws:iam::111122223333:role/team/reader\"}}", ctx, n),
          "ArnNotEquals fails on the same ARN");
    CHECK(allows("{\"NumericLessThan\":{\"s3:max-keys\":10}}", ctx, n), "NumericLessThan compares numbers");
    CHECK(!allows("{\"NumericGreaterThanEquals\":{\"s3:max-keys\":\"10\"}}", ctx, n), "NumericGreaterThanEquals compares numbers");
    CHECK(allows("{\"DateGreaterThan\":{\"aws:CurrentTime\":\"2026-01-01T00:00:00Z\"}}", ctx, n), "DateGreaterThan compares dates");
    CHECK(allows("{\"DateLessThan\":{\"aws:CurrentTime\":\"2027-01-01\"}}", ctx, n), "a date alone is midnight UTC");
    CHECK(allows("{\"Null\":{\"aws:ResourceTag/team\":\"true\"}}", ctx, n), "Null true holds for a missing key");
    CHECK(!allows("{\"Null\":{\"aws:SourceIp\":\"true\"}}", ctx, n), "Null true fails for a present key");
    CHECK(allows("{\"Null\":{\"aws:SourceIp\":\"false\"}}", ctx, n), "Null false holds for a present key");
}

TEST(policy_eval_condition_keys_ignore_case)
{
    floe_policy_context_key_t ctx[] = {{"aws:PrincipalAccount", ACCOUNT_A}};

    CHECK(allows("{\"StringEquals\":{\"AWS:principalaccount\":\"" ACCOUNT_A "\"}}", ctx, 1), "condition keys compare without case");
}
