/* Tests of runtime/codec.c: UTF-8 checks every string passes before a handler sees it. */
#include <string.h>

#include "codec.h"
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
