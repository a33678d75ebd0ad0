/* Tests of runtime/s3/checksum.c: S3's additional checksums and base64. */
#include <string.h>

#include "harness.h"
#include "s3/checksum.h"

static const char check_input[] = "123456789"; /* the CRC catalogue's check string */

TEST(checksum_crcs_match_their_check_values)
{
    CHECK(floe_s3_crc32(0, check_input, 9) == 0xCBF43926u, "CRC32 of \"123456789\" is 0xCBF43926");
    CHECK(floe_s3_crc32c(0, check_input, 9) == 0xE3069283u, "CRC32C of \"123456789\" is 0xE3069283");
    CHECK(floe_s3_crc64nvme(0, check_input, 9) == UINT64_C(0xAE8B14860A799888),
          "CRC64/NVME of \"123456789\" is 0xAE8B14860A799888");
}

TEST(checksum_crcs_continue_across_pieces)
{
    char data[1000];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (char)(i * 7);
    CHECK(floe_s3_crc32c(floe_s3_crc32c(0, data, 333), data + 333, 667) == floe_s3_crc32c(0, data, 1000),
          "CRC32C over two pieces equals CRC32C over the whole (hardware path, odd lengths)");
    CHECK(floe_s3_crc64nvme(floe_s3_crc64nvme(0, data, 5), data + 5, 995) == floe_s3_crc64nvme(0, data, 1000),
          "CRC64/NVME continues across pieces");
}

TEST(checksum_combine_joins_the_crcs_of_two_pieces)
{
    static char data[70000];
    static const size_t splits[] = {0, 1, 8, 1000, 65536, sizeof(data)};
    int mismatches = 0;

    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (char)(i * 31 + (i >> 9));
    for (size_t k = 0; k < sizeof(splits) / sizeof(splits[0]); k++) {
        size_t a = splits[k], b = sizeof(data) - a;
        mismatches += floe_s3_checksum_combine(FLOE_S3_CK_CRC64NVME, floe_s3_crc64nvme(0, data, a),
                                               floe_s3_crc64nvme(0, data + a, b), b) != floe_s3_crc64nvme(0, data, sizeof(data));
        mismatches += floe_s3_checksum_combine(FLOE_S3_CK_CRC32, floe_s3_crc32(0, data, a), floe_s3_crc32(0, data + a, b),
                                               b) != floe_s3_crc32(0, data, sizeof(data));
        mismatches += floe_s3_checksum_combine(FLOE_S3_CK_CRC32C, floe_s3_crc32c(0, data, a),
                                               floe_s3_crc32c(0, data + a, b), b) != floe_s3_crc32c(0, data, sizeof(data));
    }
    CHECK(mismatches == 0, "the combined CRC of two pieces is the CRC of the whole, for every CRC and split");
}

/* CRC64/NVME one bit at a time: the definition, against which the word-at-a-time path is checked. */
static uint64_t crc64nvme_bitwise(const unsigned char *p, size_t n)
{
    uint64_t crc = ~UINT64_C(0);
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? (crc >> 1) ^ UINT64_C(0x9A6C9329AC4BC9B5) : crc >> 1;
    }
    return ~crc;
}

TEST(checksum_crc64nvme_matches_its_definition_at_every_length_and_offset)
{
    unsigned char data[300];
    int mismatches = 0;
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)(i * 131 + 17);
    for (size_t off = 0; off < 8; off++)
        for (size_t n = 0; off + n <= sizeof(data); n++)
            mismatches += floe_s3_crc64nvme(0, data + off, n) != crc64nvme_bitwise(data + off, n);
    CHECK(mismatches == 0, "CRC64/NVME equals the bitwise definition for every length 0..300 at offsets 0..7 "
                           "(words, tail bytes, unaligned starts)");
}

TEST(checksum_values_are_big_endian_base64)
{
    floe_s3_checksum_t c;
    unsigned char raw[FLOE_S3_CHECKSUM_MAX_BYTES];
    char b64[FLOE_S3_CHECKSUM_MAX_B64];

    floe_s3_checksum_init(&c, FLOE_S3_CK_CRC32);
    floe_s3_checksum_update(&c, "123", 3);
    floe_s3_checksum_update(&c, "456789", 6);
    floe_s3_base64_encode(raw, floe_s3_checksum_final(&c, raw), b64);
    floe_s3_checksum_dispose(&c);
    CHECK(strcmp(b64, "y/Q5Jg==") == 0, "x-amz-checksum-crc32 is base64 of the big-endian CRC (0xCBF43926)");
    floe_s3_checksum_init(&c, FLOE_S3_CK_SHA256);
    floe_s3_checksum_update(&c, "", 0);
    floe_s3_base64_encode(raw, floe_s3_checksum_final(&c, raw), b64);
    floe_s3_checksum_dispose(&c);
    CHECK(strcmp(b64, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=") == 0, "SHA256 of nothing, in base64");
}

TEST(checksum_names_map_to_headers)
{
    CHECK(floe_s3_checksum_from_name("crc32c") == FLOE_S3_CK_CRC32C, "names are case-insensitive");
    CHECK(floe_s3_checksum_from_name("MD5") == FLOE_S3_CK_NONE, "MD5 is not an additional checksum");
    CHECK(strcmp(floe_s3_checksum_header(FLOE_S3_CK_CRC64NVME), "x-amz-checksum-crc64nvme") == 0,
          "each algorithm has its x-amz-checksum-* header");
    CHECK(floe_s3_checksum_size(FLOE_S3_CK_SHA1) == 20, "SHA1 digests are 20 bytes");
}

TEST(checksum_type_tells_a_composite_from_a_full_object)
{
    CHECK(strcmp(floe_s3_checksum_type("NhCmhg=="), "FULL_OBJECT") == 0,
          "a checksum of the whole body (every PutObject's) is FULL_OBJECT, as S3 reports it");
    CHECK(strcmp(floe_s3_checksum_type("yZ4nWw==-2"), "COMPOSITE") == 0,
          "a multipart upload's checksum of its parts' checksums is COMPOSITE");
}

TEST(base64_round_trips_and_refuses_garbage)
{
    unsigned char out[16];
    char text[32];

    floe_s3_base64_encode((const unsigned char *)"ab", 2, text);
    CHECK(strcmp(text, "YWI=") == 0, "two bytes encode with one pad");
    CHECK(floe_s3_base64_decode("YWI=", 4, out, sizeof(out)) == 2 && memcmp(out, "ab", 2) == 0, "and decode back");
    CHECK(floe_s3_base64_decode("YWJj", 4, out, sizeof(out)) == 3, "no padding for three bytes");
    CHECK(floe_s3_base64_decode("YWI", 3, out, sizeof(out)) == -1, "unpadded input is refused");
    CHECK(floe_s3_base64_decode("Y=I=", 4, out, sizeof(out)) == -1, "padding in the middle is refused");
    CHECK(floe_s3_base64_decode("YW!=", 4, out, sizeof(out)) == -1, "characters outside the alphabet are refused");
    CHECK(floe_s3_base64_decode("YWJjZGVm", 8, out, 3) == -1, "output larger than the buffer is refused");
}
