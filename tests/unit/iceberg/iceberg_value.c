/* Tests of runtime/iceberg/iceberg_value.c: floe_iceberg_value_compare orders single-value
 * binary values of each Iceberg primitive type as Iceberg's bounds need. */
#include <math.h>

#include "harness.h"
#include "iceberg/manifest.h"

static floe_iceberg_bytes_t iv_le(uint64_t v, size_t len, uint8_t *buf)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(v >> (8 * i));
    return (floe_iceberg_bytes_t){buf, len};
}

static int iv_int(const char *type, int64_t a, int64_t b, size_t len)
{
    uint8_t x[8], y[8];

    return floe_iceberg_value_compare(type, iv_le((uint64_t)a, len, x), iv_le((uint64_t)b, len, y));
}

static int iv_double(double a, double b)
{
    uint64_t x, y;
    uint8_t bx[8], by[8];

    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return floe_iceberg_value_compare("double", iv_le(x, 8, bx), iv_le(y, 8, by));
}

static int iv_float(float a, float b)
{
    uint32_t x, y;
    uint8_t bx[4], by[4];

    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return floe_iceberg_value_compare("float", iv_le(x, 4, bx), iv_le(y, 4, by));
}

static int iv_bytes(const char *type, const char *a, size_t a_len, const char *b, size_t b_len)
{
    return floe_iceberg_value_compare(type, (floe_iceberg_bytes_t){(uint8_t *)a, a_len},
                                      (floe_iceberg_bytes_t){(uint8_t *)b, b_len});
}

TEST(iceberg_value_ints_and_longs_are_signed_little_endian)
{
    CHECK(iv_int("int", -1, 1, 4) < 0, "-1 is below 1 as an int, though its bytes are larger");
    CHECK(iv_int("int", 256, 1, 4) > 0, "256 is above 1: bytes are little-endian");
    CHECK(iv_int("int", INT32_MIN, INT32_MAX, 4) < 0, "int extremes order");
    CHECK(iv_int("long", -5, -5, 8) == 0, "equal longs compare equal");
    CHECK(iv_int("long", INT64_MIN, 0, 8) < 0 && iv_int("long", 9000000000LL, 1, 8) > 0, "longs are signed 64-bit");
    CHECK(iv_int("date", 19783, 19784, 4) < 0, "dates are days as ints");
    CHECK(iv_int("time", 1000, 999, 8) > 0, "times are microseconds as longs");
    CHECK(iv_int("timestamp", -1, 0, 8) < 0 && iv_int("timestamptz", 5, 4, 8) > 0, "timestamps are longs");
    CHECK(iv_int("timestamp_ns", -1, 1, 8) < 0, "nanosecond timestamps are longs");

    uint8_t x[4], y[8];
    CHECK(floe_iceberg_value_compare("long", iv_le((uint64_t)-3, 4, x), iv_le(2, 8, y)) < 0,
          "a 4-byte bound of a column promoted from int to long compares with an 8-byte one");
}

TEST(iceberg_value_floats_order_like_java_with_zeros_and_nan)
{
    CHECK(iv_double(-INFINITY, -1e300) < 0, "-inf is the lowest number");
    CHECK(iv_double(-0.0, 0.0) < 0, "-0 orders before +0");
    CHECK(iv_double(0.0, -0.0) > 0, "+0 orders after -0");
    CHECK(iv_double(-2.5, 1.0) < 0 && iv_double(3.0, 2.0) > 0, "doubles order by value, not by bytes");
    CHECK(iv_double(INFINITY, NAN) < 0, "NaN orders after +inf");
    CHECK(iv_double(NAN, -NAN) == 0, "every NaN is equal, whatever its sign");
    CHECK(iv_double(-NAN, INFINITY) > 0, "a negative NaN still orders after +inf");
    CHECK(iv_float(-1.5f, -0.5f) < 0 && iv_float(-0.0f, 0.0f) < 0, "floats order the same way");
    CHECK(iv_float(NAN, 1e30f) > 0, "a float NaN orders last");

    uint8_t x[4], y[8];
    float f = 1.5f;
    double d = 2.0;
    uint32_t fu;
    uint64_t du;
    memcpy(&fu, &f, 4);
    memcpy(&du, &d, 8);
    CHECK(floe_iceberg_value_compare("double", iv_le(fu, 4, x), iv_le(du, 8, y)) < 0,
          "a float bound of a column promoted to double compares with a double one");
}

TEST(iceberg_value_strings_and_binary_are_unsigned_lexicographic)
{
    CHECK(iv_bytes("string", "apple", 5, "pear", 4) < 0, "strings order by bytes");
    CHECK(iv_bytes("string", "app", 3, "apple", 5) < 0, "a prefix orders first");
    CHECK(iv_bytes("string", "\xc3\xa9", 2, "z", 1) > 0, "UTF-8 bytes compare unsigned (é after z)");
    CHECK(iv_bytes("string", "", 0, "", 0) == 0, "empty strings are equal");
    CHECK(iv_bytes("binary", "\x00\xff", 2, "\x01", 1) < 0, "binary compares unsigned bytes");
    CHECK(iv_bytes("binary", "\x80", 1, "\x7f", 1) > 0, "0x80 is above 0x7f in binary");
    CHECK(iv_bytes("fixed[2]", "\x01\x02", 2, "\x01\x03", 2) < 0, "fixed compares bytes");
    CHECK(iv_bytes("uuid", "\xff\x00", 2, "\x00\xff", 2) > 0, "uuid compares bytes");
}

TEST(iceberg_value_decimals_are_big_endian_twos_complement)
{
    CHECK(iv_bytes("decimal(9, 2)", "\xff\x85", 2, "\x01\x00\x00", 3) < 0, "-123 is below 65536");
    CHECK(iv_bytes("decimal(9, 2)", "\xff", 1, "\x00", 1) < 0, "-1 is below 0");
    CHECK(iv_bytes("decimal(9, 2)", "\x7f", 1, "\x00\x80", 2) < 0, "127 is below 128, in any length");
    CHECK(iv_bytes("decimal(9, 2)", "\xff\xff\x85", 3, "\x85", 1) == 0, "sign padding does not change the value");
    CHECK(iv_bytes("decimal(38,10)", "\x80", 1, "\xff\x00", 2) > 0, "-128 is above -256, though shorter");
}

TEST(iceberg_value_booleans_and_unknown_types)
{
    CHECK(iv_bytes("boolean", "\x00", 1, "\x01", 1) < 0, "false orders before true");
    CHECK(iv_bytes("boolean", "\x01", 1, "\x01", 1) == 0, "true equals true");
    CHECK(iv_bytes("struct", "\x02", 1, "\x01", 1) > 0, "an unknown type falls back to bytes");
    CHECK(iv_bytes("int", "\x01\x02\x03", 3, "\x01\x02", 2) > 0, "a value of the wrong length falls back to bytes");
    CHECK(iv_bytes(NULL, "a", 1, "b", 1) < 0, "no type falls back to bytes");
}
