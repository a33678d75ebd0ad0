/* Tests of runtime/s3/conditional.c: If-* headers and Range, as S3 evaluates them. */
#include <string.h>

#include "harness.h"
#include "s3/conditional.h"

#define LAST_MODIFIED_MS INT64_C(1700000000000) /* Tue, 14 Nov 2023 22:13:20 GMT */

static floe_s3_cond_t eval(const char *im, const char *inm, const char *ims, const char *ius, const char **failed)
{
    floe_s3_cond_headers_t h = {im, inm, ims, ius};
    return floe_s3_conditional_evaluate(&h, "abc", LAST_MODIFIED_MS, failed);
}

TEST(conditional_http_dates_parse)
{
    CHECK(floe_s3_parse_http_date("Tue, 14 Nov 2023 22:13:20 GMT") == 1700000000, "IMF-fixdate parses");
    CHECK(floe_s3_parse_http_date("Tuesday, 14-Nov-23 22:13:20 GMT") == 1700000000, "RFC 850 parses");
    CHECK(floe_s3_parse_http_date("Tue Nov 14 22:13:20 2023") == 1700000000, "asctime parses");
    CHECK(floe_s3_parse_http_date("yesterday") == -1, "anything else is not a date");
}

TEST(conditional_etag_lists_match)
{
    CHECK(floe_s3_etag_list_matches("\"abc\"", "abc"), "a quoted ETag matches");
    CHECK(floe_s3_etag_list_matches("abc", "abc"), "an unquoted ETag matches");
    CHECK(floe_s3_etag_list_matches("\"x\", W/\"abc\"", "abc"), "a weak ETag in a list matches");
    CHECK(floe_s3_etag_list_matches("*", "abc"), "* matches any object");
    CHECK(!floe_s3_etag_list_matches("\"abcd\"", "abc"), "a different ETag does not match");
}

TEST(conditional_evaluation_follows_s3)
{
    const char *failed = NULL;
    const char *before = "Mon, 13 Nov 2023 00:00:00 GMT", *after = "Wed, 15 Nov 2023 00:00:00 GMT";

    CHECK(eval(NULL, NULL, NULL, NULL, &failed) == FLOE_S3_COND_PASS, "no conditions: serve");
    CHECK(eval("\"zzz\"", NULL, NULL, NULL, &failed) == FLOE_S3_COND_FAILED && strcmp(failed, "If-Match") == 0,
          "a failed If-Match is 412 naming If-Match");
    CHECK(eval(NULL, NULL, NULL, before, &failed) == FLOE_S3_COND_FAILED &&
              strcmp(failed, "If-Unmodified-Since") == 0,
          "modified after If-Unmodified-Since: 412");
    CHECK(eval("\"abc\"", NULL, NULL, before, &failed) == FLOE_S3_COND_PASS,
          "If-Match true and If-Unmodified-Since false: 200, as S3 documents");
    CHECK(eval(NULL, "\"abc\"", NULL, NULL, &failed) == FLOE_S3_COND_NOT_MODIFIED, "If-None-Match matching: 304");
    CHECK(eval(NULL, "\"abc\"", before, NULL, &failed) == FLOE_S3_COND_NOT_MODIFIED,
          "If-None-Match false and If-Modified-Since true: 304, as S3 documents");
    CHECK(eval(NULL, NULL, after, NULL, &failed) == FLOE_S3_COND_NOT_MODIFIED, "not modified since: 304");
    CHECK(eval(NULL, NULL, "Tue, 14 Nov 2023 22:13:20 GMT", NULL, &failed) == FLOE_S3_COND_NOT_MODIFIED,
          "If-Modified-Since at the very second of the change: 304 (HTTP dates have whole seconds)");
    CHECK(eval(NULL, NULL, "not a date", NULL, &failed) == FLOE_S3_COND_PASS, "an unparseable date is ignored");
}

TEST(range_forms_and_limits)
{
    uint64_t first = 0, last = 0;

    CHECK(floe_s3_range_parse("bytes=0-9", 100, &first, &last) == FLOE_S3_RANGE_PARTIAL && first == 0 && last == 9,
          "first-last");
    CHECK(floe_s3_range_parse("bytes=90-", 100, &first, &last) == FLOE_S3_RANGE_PARTIAL && first == 90 && last == 99,
          "first- runs to the end");
    CHECK(floe_s3_range_parse("bytes=-10", 100, &first, &last) == FLOE_S3_RANGE_PARTIAL && first == 90 && last == 99,
          "-n is the last n bytes");
    CHECK(floe_s3_range_parse("bytes=-1000", 100, &first, &last) == FLOE_S3_RANGE_PARTIAL && first == 0 && last == 99,
          "a suffix longer than the object is the whole object");
    CHECK(floe_s3_range_parse("bytes=50-1000", 100, &first, &last) == FLOE_S3_RANGE_PARTIAL && last == 99,
          "a last byte past the end is clamped");
    CHECK(floe_s3_range_parse("bytes=100-", 100, &first, &last) == FLOE_S3_RANGE_UNSATISFIABLE,
          "a first byte at the end is unsatisfiable");
    CHECK(floe_s3_range_parse("bytes=-0", 100, &first, &last) == FLOE_S3_RANGE_UNSATISFIABLE,
          "an empty suffix is unsatisfiable");
    CHECK(floe_s3_range_parse("bytes=0-", 0, &first, &last) == FLOE_S3_RANGE_UNSATISFIABLE,
          "an empty object has no bytes to range over");
    CHECK(floe_s3_range_parse("bytes=5-2", 100, &first, &last) == FLOE_S3_RANGE_NONE, "a reversed range is ignored");
    CHECK(floe_s3_range_parse("bytes=0-1,5-6", 100, &first, &last) == FLOE_S3_RANGE_NONE, "several ranges are ignored");
    CHECK(floe_s3_range_parse("items=0-1", 100, &first, &last) == FLOE_S3_RANGE_NONE, "other units are ignored");
    CHECK(floe_s3_range_parse("bytes=99999999999999999999-", 100, &first, &last) == FLOE_S3_RANGE_NONE,
          "an overflowing number is ignored");
}
