/* Tests of runtime/query/query_form.c and query_text.c: the awsQuery form and its lookups, and
 * the readers of timestamps and doubles. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "query/query_form.h"
#include "query/query_text.h"

static int decode(h2o_mem_pool_t *pool, const char *query, const char *body, floe_query_form_t *form)
{
    return floe_query_form_decode(pool, query, query ? strlen(query) : 0, body, body ? strlen(body) : 0, form);
}

TEST(query_form_decodes_body_and_url_query)
{
    h2o_mem_pool_t pool;
    floe_query_form_t form;

    h2o_mem_init_pool(&pool);
    CHECK(decode(&pool, "Action=ListStacks&Extra=%41", "Version=2010-05-15&Name=a+b%2Bc&Action=Ignored&Empty=",
                 &form) == 0,
          "a URL query and a form body decode");
    CHECK(form.n == 5, "a repeated key counts once");
    CHECK(strcmp(floe_query_form_get(&form, "Action"), "ListStacks") == 0, "of a repeated key the first one sent stays");
    CHECK(strcmp(floe_query_form_get(&form, "Name"), "a b+c") == 0,
          "'+' is a space and %2B a plus, as form encoding has it");
    CHECK(strcmp(floe_query_form_get(&form, "Extra"), "A") == 0, "percent-escapes are decoded");
    CHECK(strcmp(floe_query_form_get(&form, "Empty"), "") == 0, "an empty value is a value");
    CHECK(floe_query_form_get(&form, "Missing") == NULL, "a key that is not there has no value");
    CHECK(floe_query_form_get(&form, "Actio") == NULL, "a prefix of a key is not the key");
    for (size_t i = 1; i < form.n; i++)
        CHECK(strcmp(form.pairs[i - 1].key, form.pairs[i].key) < 0, "the pairs are sorted by key");
    h2o_mem_clear_pool(&pool);
}

TEST(query_form_malformed_encoding_is_refused)
{
    h2o_mem_pool_t pool;
    floe_query_form_t form;

    h2o_mem_init_pool(&pool);
    CHECK(decode(&pool, NULL, "Action=%zz", &form) != 0, "a bad escape in the body is refused");
    CHECK(decode(&pool, "Action=%4", NULL, &form) != 0, "a cut escape in the URL query is refused");
    CHECK(decode(&pool, NULL, "Action=a%00b", &form) != 0, "an encoded NUL is refused");
    CHECK(decode(&pool, NULL, NULL, &form) == 0 && form.n == 0, "no query and no body is an empty form");
    h2o_mem_clear_pool(&pool);
}

/* Found by tests/fuzz/fuzz_query.c: an encoded NUL was refused, but a raw NUL byte ended its key
 * or value early, so "StackName=a<NUL>b" was read as StackName=a. */
TEST(query_form_raw_nul_is_refused)
{
    static const char body[] = "Action=CreateStack&StackName=a\0b&Version=2010-05-15";
    static const char query[] = "Action=GetCallerIdentity&x\0=1";
    h2o_mem_pool_t pool;
    floe_query_form_t form;

    h2o_mem_init_pool(&pool);
    CHECK(floe_query_form_decode(&pool, NULL, 0, body, sizeof(body) - 1, &form) != 0,
          "a NUL byte in a form body is refused, as an encoded one is");
    CHECK(floe_query_form_decode(&pool, query, sizeof(query) - 1, NULL, 0, &form) != 0, "so is one in the URL query");
    h2o_mem_clear_pool(&pool);
}

TEST(query_form_has_sees_keys_below_a_prefix)
{
    h2o_mem_pool_t pool;
    floe_query_form_t form;

    h2o_mem_init_pool(&pool);
    CHECK(decode(&pool, NULL, "Rollback-x=1&Rollback!=2&RollbackConfiguration.MonitoringTimeInMinutes=5&Roll=3",
                 &form) == 0,
          "the form decodes");
    CHECK(floe_query_form_has(&form, "RollbackConfiguration"), "a structure is present when a key lies below it");
    CHECK(!floe_query_form_has(&form, "Rollback"), "keys that merely start with the text are not below it");
    CHECK(floe_query_form_has(&form, "Roll"), "a key is present when it is there itself");
    CHECK(!floe_query_form_has(&form, "RollbackConfiguration.Monitoring"), "nor is a shorter member name");
    h2o_mem_clear_pool(&pool);
}

TEST(query_form_lists_count_up_to_the_first_gap)
{
    h2o_mem_pool_t pool;
    floe_query_form_t form;
    floe_call_t call;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(decode(&pool, NULL,
                 "P.member.1.K=a&P.member.2.K=b&P.member.10.K=j&P.member.3=c&T.member.2=x&E=&"
                 "M.entry.1.key=k&M.entry.1.value=v",
                 &form) == 0,
          "the form decodes");
    CHECK(floe_query_form_count(&form, "P.member") == 3, "items 1, 2 and 3 count; 10 is past the gap at 4");
    CHECK(floe_query_form_count(&form, "T.member") == 0, "a list without item 1 has no items");
    CHECK(floe_query_form_has(&form, "E") && floe_query_form_count(&form, "E.member") == 0,
          "an empty list (E=) is present with no items");
    CHECK(floe_query_form_count(&form, "M.entry") == 1, "map entries count like list items");
    CHECK(strcmp(floe_query_form_key(&call, NULL, "A"), "A") == 0, "a top-level key is the member name");
    CHECK(strcmp(floe_query_form_key(&call, "A.member.2", "B"), "A.member.2.B") == 0, "a nested key joins with a dot");
    CHECK(strcmp(floe_query_form_index_key(&call, "A.member", 12), "A.member.12") == 0, "an item key ends in its index");
    h2o_mem_clear_pool(&pool);
}

TEST(query_text_timestamps_are_iso8601)
{
    floe_violation_t v;
    floe_timestamp_t t;
    const floe_path_t path = {NULL, "creationTime", -1};

    CHECK(floe_query_text_timestamp("2024-01-02T03:04:05Z", &path, &t, &v) == 0 && t == INT64_C(1704164645000),
          "ISO 8601 with Z, as botocore sends it");
    CHECK(floe_query_text_timestamp("2024-01-02T03:04:05.123456Z", &path, &t, &v) == 0 && t == INT64_C(1704164645123),
          "fractional seconds keep their milliseconds");
    CHECK(floe_query_text_timestamp("2024-01-02T05:04:05+02:00", &path, &t, &v) == 0 && t == INT64_C(1704164645000),
          "an offset is applied");
    CHECK(floe_query_text_timestamp("1704164645.5", &path, &t, &v) == 0 && t == INT64_C(1704164645500),
          "epoch seconds are read too");
    CHECK(floe_query_text_timestamp("2024-13-02T03:04:05Z", &path, &t, &v) != 0, "month 13 is refused");
    CHECK(floe_query_text_timestamp("2024-01-02T03:04:05Zjunk", &path, &t, &v) != 0, "trailing bytes are refused");
    CHECK(strstr(v.message, "'creationTime'") != NULL, "the message names the member");
}

TEST(query_text_doubles)
{
    floe_violation_t v;
    const floe_path_t path = {NULL, "percentageCompleted", -1};
    double d;

    CHECK(floe_query_text_double("12.5", &path, &d, &v) == 0 && d == 12.5, "a decimal is read");
    CHECK(floe_query_text_double("-1e3", &path, &d, &v) == 0 && d == -1000, "an exponent is read");
    CHECK(floe_query_text_double("NaN", &path, &d, &v) == 0 && isnan(d), "NaN is Smithy's spelling");
    CHECK(floe_query_text_double("-Infinity", &path, &d, &v) == 0 && isinf(d) && d < 0, "so is -Infinity");
    CHECK(floe_query_text_double("0x10", &path, &d, &v) != 0, "C's hexadecimal floats are refused");
    CHECK(floe_query_text_double("", &path, &d, &v) != 0, "an empty value is refused");
    CHECK(floe_query_text_double("1.5 ", &path, &d, &v) != 0, "trailing bytes are refused");
}
