/*
 * Ordering of Iceberg values in single-value binary form (spec Appendix D): what maintenance
 * jobs need to merge column bounds and partition summaries. Declared in manifest.h beside the
 * bounds it compares (floe_iceberg_value_compare). Not a parser of type strings beyond the kind
 * (iceberg_types.h does that).
 */
#include <math.h>
#include <string.h>

#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"

static int sign(int64_t v)
{
    return v < 0 ? -1 : v > 0 ? 1 : 0;
}

static int compare_bytes(floe_iceberg_bytes_t a, floe_iceberg_bytes_t b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n > 0 ? memcmp(a.data, b.data, n) : 0;

    if (c != 0)
        return sign(c);
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

/* A signed little-endian integer of 4 or 8 bytes. */
static bool load_int(floe_iceberg_bytes_t v, int64_t *out)
{
    uint64_t u = 0;

    if (v.len != 4 && v.len != 8)
        return false;
    for (size_t i = 0; i < v.len; i++)
        u |= (uint64_t)v.data[i] << (8 * i);
    *out = v.len == 4 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u;
    return true;
}

/* A float (4 bytes) or double (8 bytes), little-endian IEEE 754. */
static bool load_double(floe_iceberg_bytes_t v, double *out)
{
    uint64_t u = 0;
    float f;
    uint32_t u32;

    if (v.len != 4 && v.len != 8)
        return false;
    for (size_t i = 0; i < v.len; i++)
        u |= (uint64_t)v.data[i] << (8 * i);
    if (v.len == 4) {
        u32 = (uint32_t)u;
        memcpy(&f, &u32, sizeof(f));
        *out = f;
    } else {
        memcpy(out, &u, sizeof(*out));
    }
    return true;
}

/* Java's Double.compare: NaN last and equal to itself, -0 before +0. */
static int compare_double(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    return (signbit(b) != 0) - (signbit(a) != 0);
}

/* Big-endian two's complement integers of any lengths. */
static int compare_decimal(floe_iceberg_bytes_t a, floe_iceberg_bytes_t b)
{
    bool a_neg = a.len > 0 && (a.data[0] & 0x80), b_neg = b.len > 0 && (b.data[0] & 0x80);
    size_t n = a.len > b.len ? a.len : b.len;

    if (a_neg != b_neg)
        return a_neg ? -1 : 1;
    /* Same sign: compare byte by byte after sign-extending both to n bytes. */
    for (size_t i = 0; i < n; i++) {
        uint8_t pad = a_neg ? 0xff : 0x00;
        uint8_t x = i < n - a.len ? pad : a.data[i - (n - a.len)];
        uint8_t y = i < n - b.len ? pad : b.data[i - (n - b.len)];
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

int floe_iceberg_value_compare(const char *type, floe_iceberg_bytes_t a, floe_iceberg_bytes_t b)
{
    floe_iceberg_primitive_t t;
    int64_t x, y;
    double f, g;

    if (type == NULL || floe_iceberg_primitive_parse(type, &t) != 0)
        return compare_bytes(a, b);
    switch (t.kind) {
    case FLOE_ICEBERG_INT: case FLOE_ICEBERG_LONG: case FLOE_ICEBERG_DATE: case FLOE_ICEBERG_TIME:
    case FLOE_ICEBERG_TIMESTAMP: case FLOE_ICEBERG_TIMESTAMPTZ: case FLOE_ICEBERG_TIMESTAMP_NS:
    case FLOE_ICEBERG_TIMESTAMPTZ_NS:
        if (load_int(a, &x) && load_int(b, &y))
            return x < y ? -1 : x > y ? 1 : 0;
        break;
    case FLOE_ICEBERG_FLOAT: case FLOE_ICEBERG_DOUBLE:
        if (load_double(a, &f) && load_double(b, &g))
            return compare_double(f, g);
        break;
    case FLOE_ICEBERG_DECIMAL:
        return compare_decimal(a, b);
    case FLOE_ICEBERG_BOOLEAN:
        if (a.len == 1 && b.len == 1)
            return (a.data[0] != 0) - (b.data[0] != 0);
        break;
    default: /* string, binary, uuid, fixed */
        break;
    }
    return compare_bytes(a, b);
}
