/* Tests of runtime/policy/policy_match.c: the value comparisons conditions and patterns make. */
#include "harness.h"
#include "policy/policy_match.h"

TEST(policy_match_glob_backtracks)
{
    CHECK(floe_policy_glob("*", "", false), "* matches nothing at all");
    CHECK(floe_policy_glob("a*b*c", "aXbYbZc", false), "* backtracks to a later match");
    CHECK(!floe_policy_glob("a*b*c", "aXbYbZ", false), "a missing last character fails");
    CHECK(floe_policy_glob("a?c", "abc", false) && !floe_policy_glob("a?c", "ac", false), "? is exactly one character");
    CHECK(floe_policy_glob("ABC", "abc", true) && !floe_policy_glob("ABC", "abc", false), "case is ignored only when asked");
    CHECK(!floe_policy_glob("********************************b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
          "many stars fail quickly");
}

TEST(policy_match_arn_like_matches_part_by_part)
{
    CHECK(floe_policy_arn_like("arn:aws:s3tables:*:*:bucket/*", "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/t"),
          "each part matches its pattern");
    CHECK(!floe_policy_arn_like("arn:aws:*:bucket/*", "arn:aws:s3tables:us-east-1:111122223333:bucket/b"),
          "a * does not span parts");
    CHECK(floe_policy_arn_like("arn:aws:iam::111122223333:role/*", "arn:aws:iam::111122223333:role/a:b"),
          "the resource part keeps its colons");
    CHECK(!floe_policy_arn_like("arn:aws:iam::111122223333:root", "not-an-arn"), "a value that is no ARN never matches");
}

TEST(policy_match_ip_blocks_of_both_families)
{
    CHECK(floe_policy_ip_in("203.0.113.0/24", "203.0.113.77"), "an IPv4 address in its /24");
    CHECK(!floe_policy_ip_in("203.0.113.0/24", "203.0.114.1"), "an IPv4 address outside the block");
    CHECK(floe_policy_ip_in("127.0.0.1", "127.0.0.1"), "a bare address is a /32");
    CHECK(floe_policy_ip_in("0.0.0.0/0", "8.8.8.8"), "a /0 holds every address");
    CHECK(floe_policy_ip_in("2001:db8::/32", "2001:db8:1::5"), "an IPv6 address in its /32");
    CHECK(!floe_policy_ip_in("2001:db8::/32", "10.0.0.1"), "families never match each other");
    CHECK(!floe_policy_ip_in("10.0.0.0/33", "10.0.0.1"), "a prefix longer than the address is no block");
}
