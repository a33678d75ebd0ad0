/*
 * Partition values between Avro C values and Iceberg's single-value binary form
 * (manifest_binary.h).
 */
#include <stdlib.h>
#include <string.h>

#include "iceberg/manifest_binary.h"
#include "iceberg/manifest_schema.h"

/** The widest decimal fixed (precision 38). */
#define DECIMAL_BYTES_MAX 16
#define UUID_BYTES 16

static void store_le(uint8_t *out, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_le(const uint8_t *in, size_t n)
{
    uint64_t v = 0;

    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)in[i] << (8 * i);
    return v;
}

static bool is_8_byte(const floe_iceberg_primitive_t *t)
{
    return t != NULL && (t->kind == FLOE_ICEBERG_LONG || t->kind == FLOE_ICEBERG_TIME ||
                         t->kind == FLOE_ICEBERG_TIMESTAMP || t->kind == FLOE_ICEBERG_TIMESTAMPTZ ||
                         t->kind == FLOE_ICEBERG_TIMESTAMP_NS || t->kind == FLOE_ICEBERG_TIMESTAMPTZ_NS);
}

static int put(floe_parquet_arena_t *arena, const void *bytes, size_t len, floe_iceberg_bytes_t *out)
{
    out->data = floe_parquet_arena_alloc(arena, len + 1, 1);
    if (out->data == NULL)
        return -1;
    if (len > 0)
        memcpy(out->data, bytes, len);
    out->len = len;
    return 0;
}

/* A decimal's fewest bytes: drop leading bytes that only repeat the sign. */
static int put_decimal(floe_parquet_arena_t *arena, const uint8_t *b, size_t len, floe_iceberg_bytes_t *out)
{
    while (len > 1 && ((b[0] == 0x00 && (b[1] & 0x80) == 0) || (b[0] == 0xff && (b[1] & 0x80) != 0))) {
        b++;
        len--;
    }
    return put(arena, b, len, out);
}

static int from_number(const avro_value_t *v, const floe_iceberg_primitive_t *type, floe_parquet_arena_t *arena,
                       floe_iceberg_bytes_t *out)
{
    uint8_t buf[8];
    int32_t i;
    int64_t l;
    float f;
    double d;

    switch (avro_value_get_type(v)) {
    case AVRO_INT32:
        if (avro_value_get_int(v, &i) != 0)
            return -1;
        store_le(buf, (uint64_t)(int64_t)i, sizeof(buf));
        return put(arena, buf, is_8_byte(type) ? 8 : 4, out);
    case AVRO_INT64:
        if (avro_value_get_long(v, &l) != 0)
            return -1;
        store_le(buf, (uint64_t)l, sizeof(buf));
        return put(arena, buf, type != NULL && !is_8_byte(type) && l >= INT32_MIN && l <= INT32_MAX ? 4 : 8, out);
    case AVRO_FLOAT:
        if (avro_value_get_float(v, &f) != 0)
            return -1;
        if (type != NULL && type->kind == FLOE_ICEBERG_DOUBLE) {
            d = f;
            memcpy(&l, &d, sizeof(d));
            store_le(buf, (uint64_t)l, 8);
            return put(arena, buf, 8, out);
        }
        memcpy(&i, &f, sizeof(f));
        store_le(buf, (uint32_t)i, 4);
        return put(arena, buf, 4, out);
    case AVRO_DOUBLE:
        if (avro_value_get_double(v, &d) != 0)
            return -1;
        memcpy(&l, &d, sizeof(d));
        store_le(buf, (uint64_t)l, 8);
        return put(arena, buf, 8, out);
    default:
        return -1;
    }
}

int floe_iceberg_binary_from_avro(const avro_value_t *v, const floe_iceberg_primitive_t *type,
                                  floe_parquet_arena_t *arena, floe_iceberg_bytes_t *out)
{
    const void *bytes;
    const char *str;
    size_t size;
    int b;
    uint8_t one;

    switch (avro_value_get_type(v)) {
    case AVRO_BOOLEAN:
        if (avro_value_get_boolean(v, &b) != 0)
            return -1;
        one = b ? 1 : 0;
        return put(arena, &one, 1, out);
    case AVRO_STRING:
        if (avro_value_get_string(v, &str, &size) != 0)
            return -1;
        return put(arena, str, size > 0 ? size - 1 : 0, out); /* Avro C counts its NUL */
    case AVRO_BYTES:
    case AVRO_FIXED:
        if ((avro_value_get_type(v) == AVRO_BYTES ? avro_value_get_bytes(v, &bytes, &size)
                                                  : avro_value_get_fixed(v, &bytes, &size)) != 0)
            return -1;
        if (type != NULL && type->kind == FLOE_ICEBERG_DECIMAL && size > 0)
            return put_decimal(arena, bytes, size, out);
        return put(arena, bytes, size, out);
    default:
        return from_number(v, type, arena, out);
    }
}

/* Sign-extends a big-endian two's complement value to `width` bytes; -1 when it does not fit. */
static int widen_decimal(floe_iceberg_bytes_t b, uint8_t *out, size_t width)
{
    uint8_t pad = b.len > 0 && (b.data[0] & 0x80) ? 0xff : 0x00;
    size_t skip = 0;

    while (b.len - skip > width) { /* leading sign bytes may go */
        if (b.data[skip] != pad || ((b.data[skip + 1] & 0x80) != 0) != (pad != 0))
            return -1;
        skip++;
    }
    memset(out, pad, width);
    if (b.len > skip)
        memcpy(out + width - (b.len - skip), b.data + skip, b.len - skip);
    return 0;
}

static int to_bytes(avro_value_t *v, const floe_iceberg_primitive_t *type, floe_iceberg_bytes_t b)
{
    uint8_t fixed[DECIMAL_BYTES_MAX];
    char *str;
    int rc;

    switch (type->kind) {
    case FLOE_ICEBERG_STRING: /* Avro C wants the NUL counted and present */
        str = malloc(b.len + 1);
        if (str == NULL)
            abort();
        if (b.len > 0)
            memcpy(str, b.data, b.len);
        str[b.len] = '\0';
        rc = avro_value_set_string_len(v, str, b.len + 1);
        free(str);
        return rc == 0 ? 0 : -1;
    case FLOE_ICEBERG_BINARY:
        return avro_value_set_bytes(v, b.data, b.len) == 0 ? 0 : -1;
    case FLOE_ICEBERG_UUID:
        return b.len == UUID_BYTES && avro_value_set_fixed(v, b.data, b.len) == 0 ? 0 : -1;
    case FLOE_ICEBERG_FIXED:
        return b.len == (size_t)type->length && avro_value_set_fixed(v, b.data, b.len) == 0 ? 0 : -1;
    default: { /* decimal */
        size_t width = (size_t)floe_iceberg_decimal_required_bytes(type->precision);
        if (b.len == 0 || width > sizeof(fixed) || widen_decimal(b, fixed, width) != 0)
            return -1;
        return avro_value_set_fixed(v, fixed, width) == 0 ? 0 : -1;
    }
    }
}

int floe_iceberg_binary_to_avro(avro_value_t *v, const floe_iceberg_primitive_t *type, floe_iceberg_bytes_t b)
{
    float f;
    double d;
    uint32_t u32;
    uint64_t u64;

    switch (type->kind) {
    case FLOE_ICEBERG_BOOLEAN:
        return b.len == 1 && b.data[0] <= 1 && avro_value_set_boolean(v, b.data[0]) == 0 ? 0 : -1;
    case FLOE_ICEBERG_INT:
    case FLOE_ICEBERG_DATE:
        return b.len == 4 && avro_value_set_int(v, (int32_t)(uint32_t)load_le(b.data, 4)) == 0 ? 0 : -1;
    case FLOE_ICEBERG_FLOAT:
        if (b.len != 4)
            return -1;
        u32 = (uint32_t)load_le(b.data, 4);
        memcpy(&f, &u32, sizeof(f));
        return avro_value_set_float(v, f) == 0 ? 0 : -1;
    case FLOE_ICEBERG_DOUBLE:
        if (b.len != 8)
            return -1;
        u64 = load_le(b.data, 8);
        memcpy(&d, &u64, sizeof(d));
        return avro_value_set_double(v, d) == 0 ? 0 : -1;
    default:
        if (is_8_byte(type))
            return b.len == 8 && avro_value_set_long(v, (int64_t)load_le(b.data, 8)) == 0 ? 0 : -1;
        return to_bytes(v, type, b);
    }
}
