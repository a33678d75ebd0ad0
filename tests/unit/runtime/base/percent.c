/* Tests of runtime/base/percent.c: RFC 3986 percent-encoding, '/' kept or not. */
#include <string.h>

#include "base/percent.h"
#include "harness.h"

TEST(percent_encode_keeps_unreserved_and_escapes_the_rest_in_uppercase)
{
    char out[FLOE_PERCENT_ENCODED_MAX(32)];
    const char in[] = "aZ09-_.~ /:%\xc3\xa9\n";
    size_t n = floe_percent_encode(out, in, strlen(in), false);

    CHECK(strcmp(out, "aZ09-_.~%20%2F%3A%25%C3%A9%0A") == 0, "unreserved stay; space, '/', ':', '%', UTF-8 and \\n are %XX");
    CHECK(n == strlen(out), "the length written is returned");
}

TEST(percent_encode_keeps_slash_when_asked_and_stops_at_n)
{
    char out[FLOE_PERCENT_ENCODED_MAX(16)];
    size_t n = floe_percent_encode(out, "a/b c/d", 5, true);

    CHECK(strcmp(out, "a/b%20c") == 0, "'/' stays with keep_slash, and only n bytes are read");
    CHECK(n == 7, "seven bytes written");
    CHECK(floe_percent_encode(out, "", 0, true) == 0 && out[0] == '\0', "nothing in, an empty string out");
}
