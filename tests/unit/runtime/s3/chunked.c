/* Tests of runtime/s3/chunked.c: the aws-chunked framing the SDKs send for streamed uploads. */
#include <string.h>

#include "harness.h"
#include "s3/chunked.h"

/* Decodes a whole body into out (slices of at most max bytes); returns the final rc. */
static int decode_all(floe_s3_chunked_t *d, const char *body, size_t len, size_t max, char *out, size_t *out_len)
{
    h2o_iovec_t slice;
    int rc;

    *out_len = 0;
    floe_s3_chunked_init(d, body, len);
    while ((rc = floe_s3_chunked_next(d, &slice, max)) == 1) {
        memcpy(out + *out_len, slice.base, slice.len);
        *out_len += slice.len;
    }
    return rc;
}

TEST(chunked_signed_framing_decodes_to_the_payload)
{
    static const char body[] = "5;chunk-signature=0000000000000000000000000000000000000000000000000000000000000000\r\n"
                               "hello\r\n"
                               "6;chunk-signature=1111111111111111111111111111111111111111111111111111111111111111\r\n"
                               " world\r\n"
                               "0;chunk-signature=2222222222222222222222222222222222222222222222222222222222222222\r\n"
                               "\r\n";
    floe_s3_chunked_t d;
    char out[64];
    size_t n;

    CHECK(decode_all(&d, body, sizeof(body) - 1, 1024, out, &n) == 0, "a signed body decodes to the end");
    CHECK(n == 11 && memcmp(out, "hello world", 11) == 0, "the payload is the chunks' data without framing");
    CHECK(d.decoded == 11, "the decoder counts the payload bytes");
    CHECK(d.checksum_name[0] == '\0', "a body without trailers has no checksum trailer");
}

TEST(chunked_unsigned_trailer_carries_the_checksum)
{
    static const char body[] = "a\r\n0123456789\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n";
    floe_s3_chunked_t d;
    char out[64];
    size_t n;

    CHECK(decode_all(&d, body, sizeof(body) - 1, 3, out, &n) == 0, "an unsigned body with a trailer decodes");
    CHECK(n == 10 && memcmp(out, "0123456789", 10) == 0, "slices smaller than a chunk join up to the payload");
    CHECK(strcmp(d.checksum_name, "x-amz-checksum-crc32") == 0, "the checksum trailer's name is kept");
    CHECK(strcmp(d.checksum_value, "AAAAAA==") == 0, "and its value");
}

TEST(chunked_signed_trailer_signature_is_skipped)
{
    static const char body[] = "3\r\nabc\r\n0\r\nx-amz-checksum-sha256:abc=\r\nx-amz-trailer-signature:ffff\r\n\r\n";
    floe_s3_chunked_t d;
    char out[8];
    size_t n;

    CHECK(decode_all(&d, body, sizeof(body) - 1, 64, out, &n) == 0, "a trailer signature line is accepted");
    CHECK(strcmp(d.checksum_name, "x-amz-checksum-sha256") == 0, "the checksum trailer is still found");
}

TEST(chunked_malformed_bodies_are_refused)
{
    static const struct {
        const char *body;
        const char *why;
    } cases[] = {
        {"", "an empty body has no final chunk"},
        {"5\r\nhel", "a body cut inside a chunk"},
        {"5\r\nhello", "a chunk without CRLF after its data"},
        {"5\r\nhelloXX0\r\n\r\n", "garbage instead of CRLF after data"},
        {"zz\r\nhello\r\n0\r\n\r\n", "a size that is not hexadecimal"},
        {"5\nhello\r\n0\r\n\r\n", "a size line ended by LF alone"},
        {"ffffffffffffffffff\r\nx\r\n", "a size that overflows"},
        {"1\r\nx\r\n0\r\n\r\nextra", "bytes after the final chunk"},
        {"1\r\nx\r\n0\r\nno-colon-trailer\r\n\r\n", "a trailer without a colon"},
        {"100\r\nshort\r\n0\r\n\r\n", "a chunk longer than the body"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        floe_s3_chunked_t d;
        char out[64];
        size_t n;
        int rc = decode_all(&d, cases[i].body, strlen(cases[i].body), 64, out, &n);
        if (rc != -1 || d.error == NULL)
            fprintf(stderr, "case: %s\n", cases[i].why);
        CHECK(rc == -1 && d.error != NULL, "a malformed aws-chunked body is refused with a reason");
    }
}

/* Found by tests/fuzz/fuzz_chunked.c: a chunk whose data was not followed by CRLF was refused only
 * after its last slice had been counted in `decoded`, though the caller never received it. */
TEST(chunked_refused_chunk_is_not_counted_as_decoded)
{
    static const char body[] = "5\r\nhello\r\n6\r\n worldXX0\r\n\r\n";
    floe_s3_chunked_t d;
    char out[64];
    size_t n;

    CHECK(decode_all(&d, body, sizeof(body) - 1, 64, out, &n) == -1, "a chunk without CRLF after its data is refused");
    CHECK(n == 5 && d.decoded == 5, "decoded counts only the slices handed out before the refusal");
    CHECK(decode_all(&d, body, sizeof(body) - 1, 4, out, &n) == -1 && n == d.decoded,
          "with small slices too, decoded is what the caller received");
}

TEST(chunked_trailer_without_final_crlf_is_accepted)
{
    static const char body[] = "2\r\nhi\r\n0\r\nx-amz-checksum-crc32c:AAAAAA==\r\n";
    floe_s3_chunked_t d;
    char out[8];
    size_t n;

    CHECK(decode_all(&d, body, sizeof(body) - 1, 64, out, &n) == 0,
          "a body that ends right after its last trailer line is complete");
    CHECK(n == 2 && strcmp(d.checksum_name, "x-amz-checksum-crc32c") == 0, "payload and trailer are read");
}
