/* Tests of runtime/authz/authz.c: AWS's evaluation order over identity and resource policies, and its sentences. */
#include <string.h>

#include "authz/authz.h"
#include "harness.h"

#define OWNER "111122223333"
#define OTHER "444455556666"
#define TABLE "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/0001"

typedef struct authz_fixture {
    h2o_mem_pool_t pool;
    floe_call_t call;
} authz_fixture_t;

static void authz_open(authz_fixture_t *f)
{
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, NULL, NULL);
}

static floe_principal_t principal(floe_principal_kind_t kind, const char *account, const char *arn,
                                  const char *const *policies, size_t n_policies)
{
    floe_principal_t p = {kind, "", arn, NULL, policies, n_policies, NULL, 0};
    snprintf(p.account_id, sizeof(p.account_id), "%s", account);
    return p;
}

static floe_authz_decision_t decide(authz_fixture_t *f, const floe_principal_t *p, const char *bucket_policy,
                                    const char *table_policy)
{
    floe_authz_request_t r = {"s3tables:DeleteTable", TABLE, OWNER, "sales", "orders", "127.0.0.1", bucket_policy,
                              table_policy, NULL, 0};
    floe_authz_decision_t d;

    floe_authz_decide(&f->call, p, &r, &d);
    return d;
}

#define ALLOW_OTHER_ROOT                                                                                               \
    "{\"Statement\":{\"Sid\":\"Share\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" OTHER "\"},"                    \
    "\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}"
#define DENY_DELETE                                                                                                    \
    "{\"Statement\":{\"Sid\":\"Keep\",\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3tables:DeleteTable\","   \
    "\"Resource\":\"*\"}}"

TEST(authz_root_is_allowed_in_its_own_account_but_not_past_a_resource_deny)
{
    authz_fixture_t f;
    floe_principal_t root = principal(FLOE_PRINCIPAL_ROOT, OWNER, "arn:aws:iam::" OWNER ":root", NULL, 0);
    floe_authz_decision_t d;

    authz_open(&f);
    d = decide(&f, &root, NULL, NULL);
    CHECK(d.is_allowed && d.reason == FLOE_AUTHZ_ALLOWED, "a root needs no policy in its own account");
    d = decide(&f, &root, NULL, DENY_DELETE);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_RESOURCE_DENY, "a table policy's Deny refuses the owner's root");
    CHECK(d.statement != NULL && strcmp(d.statement, "Keep") == 0, "the deciding statement is named");
    CHECK(strcmp(floe_authz_message(&f.call, &d),
                 "User: arn:aws:iam::" OWNER ":root is not authorized to perform: s3tables:DeleteTable on resource: " TABLE
                 " with an explicit deny in a resource-based policy") == 0,
          "the denial is AWS's sentence");
    h2o_mem_clear_pool(&f.pool);
}

TEST(authz_users_need_an_identity_allow_and_an_identity_deny_wins)
{
    static const char *const allow[] = {"{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}"};
    static const char *const allow_and_deny[] = {
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}",
        "{\"Statement\":{\"Sid\":\"NoDelete\",\"Effect\":\"Deny\",\"Action\":\"s3tables:Delete*\",\"Resource\":\"*\"}}"};
    authz_fixture_t f;
    floe_principal_t bare = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", NULL, 0);
    floe_principal_t allowed = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", allow, 1);
    floe_principal_t denied = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", allow_and_deny, 2);
    floe_authz_decision_t d;

    authz_open(&f);
    d = decide(&f, &bare, NULL, NULL);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_NO_IDENTITY_ALLOW, "a user without policies is refused");
    CHECK(strstr(floe_authz_message(&f.call, &d), "because no identity-based policy allows the s3tables:DeleteTable action") != NULL,
          "the sentence names the missing identity-based allow");
    d = decide(&f, &allowed, NULL, NULL);
    CHECK(d.is_allowed, "an identity-based allow grants in the user's own account");
    d = decide(&f, &denied, "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"}}", NULL);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_IDENTITY_DENY, "an identity-based Deny wins over any Allow");
    CHECK(strstr(floe_authz_message(&f.call, &d), "with an explicit deny in an identity-based policy") != NULL,
          "the sentence names the identity-based deny");
    h2o_mem_clear_pool(&f.pool);
}

TEST(authz_another_account_needs_both_sides)
{
    static const char *const allow[] = {"{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}"};
    authz_fixture_t f;
    floe_principal_t root = principal(FLOE_PRINCIPAL_ROOT, OTHER, "arn:aws:iam::" OTHER ":root", NULL, 0);
    floe_principal_t bare = principal(FLOE_PRINCIPAL_USER, OTHER, "arn:aws:iam::" OTHER ":user/bob", NULL, 0);
    floe_principal_t user = principal(FLOE_PRINCIPAL_USER, OTHER, "arn:aws:iam::" OTHER ":user/bob", allow, 1);
    floe_authz_decision_t d;

    authz_open(&f);
    d = decide(&f, &root, NULL, NULL);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_NO_RESOURCE_ALLOW, "another account's root needs a resource policy");
    d = decide(&f, &root, ALLOW_OTHER_ROOT, NULL);
    CHECK(d.is_allowed && strcmp(d.statement, "Share") == 0, "a bucket policy naming the account lets its root in");
    d = decide(&f, &bare, ALLOW_OTHER_ROOT, NULL);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_NO_IDENTITY_ALLOW,
          "a user of the granted account still needs its own identity-based allow");
    d = decide(&f, &user, ALLOW_OTHER_ROOT, NULL);
    CHECK(d.is_allowed, "both sides allowing grants across accounts");
    d = decide(&f, &user, ALLOW_OTHER_ROOT, DENY_DELETE);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_RESOURCE_DENY, "the table's Deny wins over the bucket's Allow");
    h2o_mem_clear_pool(&f.pool);
}

TEST(authz_a_changed_policy_takes_effect_at_once)
{
    authz_fixture_t f;
    floe_principal_t root = principal(FLOE_PRINCIPAL_ROOT, OTHER, "arn:aws:iam::" OTHER ":root", NULL, 0);

    authz_open(&f);
    CHECK(decide(&f, &root, ALLOW_OTHER_ROOT, NULL).is_allowed, "the cached policy grants");
    CHECK(!decide(&f, &root, "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" OWNER "\"},"
                             "\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}",
                  NULL).is_allowed,
          "a replaced policy no longer grants");
    CHECK(!decide(&f, &root, "not a policy", NULL).is_allowed, "a stored text that is no policy grants nothing");
    h2o_mem_clear_pool(&f.pool);
}

TEST(authz_evaluate_names_the_deciding_policy_and_takes_extra_keys)
{
    static const char *const policies[] = {
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3tables:GetTable\",\"Resource\":\"*\"}}",
        "{\"Statement\":{\"Sid\":\"Hr\",\"Effect\":\"Allow\",\"Action\":\"s3tables:DeleteTable\",\"Resource\":\"*\","
        "\"Condition\":{\"StringEquals\":{\"s3tables:namespace\":\"hr\"}}}}"};
    static const floe_policy_context_key_t hr[] = {{"s3tables:namespace", "hr"}};
    authz_fixture_t f;
    floe_principal_t user = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", policies, 2);
    floe_authz_request_t r = {"s3tables:DeleteTable", TABLE, OWNER, NULL, NULL, NULL, NULL, NULL, hr, 1};
    floe_authz_decision_t d;

    authz_open(&f);
    floe_authz_evaluate(&f.call, &user, &r, &d);
    CHECK(d.is_allowed && d.source == FLOE_AUTHZ_SOURCE_IDENTITY && d.source_index == 1,
          "the second identity policy decided");
    CHECK(d.identity_effect == FLOE_POLICY_ALLOW && d.resource_effect == FLOE_POLICY_NO_MATCH, "each side's effect");
    r.n_context = 0;
    floe_authz_evaluate(&f.call, &user, &r, &d);
    CHECK(!d.is_allowed && d.source == FLOE_AUTHZ_SOURCE_NONE, "without the key nothing allows");
    r.n_context = 1;
    r.table_policy = DENY_DELETE;
    floe_authz_evaluate(&f.call, &user, &r, &d);
    CHECK(!d.is_allowed && d.source == FLOE_AUTHZ_SOURCE_TABLE && strcmp(d.statement, "Keep") == 0,
          "the table policy's Deny decided");
    h2o_mem_clear_pool(&f.pool);
}

TEST(authz_a_grant_to_the_account_needs_its_users_own_allow)
{
    static const char *const allow[] = {"{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}"};
    static const char *const account_forms[] = {OWNER, "arn:aws:iam::" OWNER ":root"};
    authz_fixture_t f;
    floe_principal_t root = principal(FLOE_PRINCIPAL_ROOT, OWNER, "arn:aws:iam::" OWNER ":root", NULL, 0);
    floe_principal_t bare = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", NULL, 0);
    floe_principal_t user = principal(FLOE_PRINCIPAL_USER, OWNER, "arn:aws:iam::" OWNER ":user/ann", allow, 1);
    floe_principal_t session = principal(FLOE_PRINCIPAL_ASSUMED_ROLE, OWNER,
                                         "arn:aws:sts::" OWNER ":assumed-role/reader/etl", NULL, 0);
    floe_authz_decision_t d;

    authz_open(&f);
    for (size_t i = 0; i < 2; i++) {
        const char *policy = floe_call_printf(&f.call, "{\"Statement\":{\"Sid\":\"Account\",\"Effect\":\"Allow\","
                                                       "\"Principal\":{\"AWS\":\"%s\"},\"Action\":\"s3tables:*\","
                                                       "\"Resource\":\"*\"}}", account_forms[i]);
        d = decide(&f, &bare, policy, NULL);
        CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_NO_IDENTITY_ALLOW && d.resource_effect == FLOE_POLICY_NO_MATCH,
              "a bucket policy naming the account delegates to it: a user of it still needs its own allow");
        d = decide(&f, &session, policy, NULL);
        CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_NO_IDENTITY_ALLOW, "and so does a role's session");
        CHECK(decide(&f, &user, policy, NULL).is_allowed, "with its own allow the user is in");
        d = decide(&f, &root, policy, NULL);
        CHECK(d.is_allowed, "the account's root is in");
    }
    d = decide(&f, &bare, "{\"Statement\":{\"Sid\":\"Ann\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                          "\"arn:aws:iam::" OWNER ":user/ann\"},\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}", NULL);
    CHECK(d.is_allowed && strcmp(d.statement, "Ann") == 0, "a bucket policy naming the user grants it alone");
    d = decide(&f, &bare, "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3tables:*\","
                          "\"Resource\":\"*\"}}", NULL);
    CHECK(d.is_allowed, "and so does one naming everyone");
    d = decide(&f, &user, "{\"Statement\":{\"Sid\":\"No\",\"Effect\":\"Deny\",\"Principal\":{\"AWS\":\"" OWNER "\"},"
                          "\"Action\":\"s3tables:*\",\"Resource\":\"*\"}}", NULL);
    CHECK(!d.is_allowed && d.reason == FLOE_AUTHZ_RESOURCE_DENY, "a Deny naming the account refuses its users");
    h2o_mem_clear_pool(&f.pool);
}
