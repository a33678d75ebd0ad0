/* Tests of runtime/http/codec.c: UTF-8 checks every string passes before a handler sees it. */
#include <string.h>

#include "http/codec.h"
#include "harness.h"

TEST(utf8_invalid_sequences_are_refused)
{
    CHECK(floe_codec_utf8_valid("plain", 5), "ASCII is valid");
    CHECK(floe_codec_utf8_valid("caf\xc3\xa9", 5), "a two-byte sequence is valid");
    CHECK(!floe_codec_utf8_valid("\xc3", 1), "a cut sequence is refused");
    CHECK(!floe_codec_utf8_valid("\xc0\xaf", 2), "an overlong encoding is refused");
    CHECK(!floe_codec_utf8_valid("\xed\xa0\x80", 3), "a UTF-16 surrogate is refused");
    CHECK(!floe_codec_utf8_valid("a\0b", 3), "a NUL byte is refused");
    CHECK(floe_codec_utf8_length("caf\xc3\xa9") == 4, "length counts code points, not bytes");
}

/* Found by tests/fuzz/fuzz_query.c: a message showed a long value's first bytes (128), which can
 * end inside a character; the S3 Tables front writes messages into JSON as they are. Every
 * position of a two-byte character around the cut is tried. */
TEST(violation_message_cuts_a_long_value_between_characters)
{
    const floe_path_t path = {NULL, "resourceArn", -1};
    char value[300];
    floe_violation_t v;

    for (size_t at = 100; at < 160; at++) {
        memset(value, 'a', at);
        strcpy(value + at, "\xc3\xa9!bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
        floe_violation_set(&v, &path, value, "Member must satisfy regular expression pattern: ^arn:.*$");
        CHECK(floe_codec_utf8_valid(v.message, strlen(v.message)), "the message is valid UTF-8");
        CHECK(strstr(v.message, "...' at 'resourceArn'") != NULL, "the value is marked as cut");
    }
}
