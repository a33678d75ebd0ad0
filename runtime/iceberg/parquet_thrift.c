/*
 * The compact protocol of parquet_thrift.h. Integers are zigzag varints (i16, i32, i64), i8 is a
 * byte, doubles are 8 little-endian bytes, binaries a varint length and the bytes; a struct is
 * its fields and a stop byte; a list is a header (size in the high nibble, or 15 and a varint)
 * and its elements.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_thrift.h"

/* A 64-bit varint takes at most 10 bytes; the 10th may only carry the top bit. */
#define VARINT_MAX_BYTES 10
#define VARINT_LAST_BYTE_MAX 1
#define LIST_SHORT_MAX 14
#define LIST_LONG_FORM 15
#define DELTA_MAX 15
#define DOUBLE_BYTES 8
#define UUID_BYTES 16
#define WRITER_INITIAL_CAP 1024

void floe_parquet_thrift_reader_init(floe_parquet_thrift_reader_t *r, const char *what, const uint8_t *data,
                                     size_t len, floe_iceberg_error_t *err)
{
    static const uint8_t nothing[1];

    if (data == NULL) /* no bytes: still a valid pointer, so p + 0 is defined */
        data = nothing;
    r->what = what;
    r->start = r->p = data;
    r->end = data + len;
    r->depth = 0;
    r->err = err;
}

int floe_parquet_thrift_fail(floe_parquet_thrift_reader_t *r, const char *fmt, ...)
{
    char reason[FLOE_ICEBERG_MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    return floe_iceberg_fail(r->err, FLOE_ICEBERG_EINVALID, "%s is malformed at byte %zu: %s.", r->what,
                             floe_parquet_thrift_offset(r), reason);
}

size_t floe_parquet_thrift_offset(const floe_parquet_thrift_reader_t *r)
{
    return (size_t)(r->p - r->start);
}

static size_t left(const floe_parquet_thrift_reader_t *r)
{
    return (size_t)(r->end - r->p);
}

int floe_parquet_thrift_read_byte(floe_parquet_thrift_reader_t *r, uint8_t *out)
{
    if (r->p >= r->end)
        return floe_parquet_thrift_fail(r, "it ends too early");
    *out = *r->p++;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_varint(floe_parquet_thrift_reader_t *r, uint64_t *out)
{
    uint64_t v = 0;

    for (int i = 0; i < VARINT_MAX_BYTES; i++) {
        uint8_t b = 0;
        if (floe_parquet_thrift_read_byte(r, &b) != 0)
            return FLOE_ICEBERG_EINVALID;
        if (i == VARINT_MAX_BYTES - 1 && b > VARINT_LAST_BYTE_MAX)
            return floe_parquet_thrift_fail(r, "a varint does not fit in 64 bits");
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            *out = v;
            return FLOE_ICEBERG_OK;
        }
    }
    return floe_parquet_thrift_fail(r, "a varint does not fit in 64 bits");
}

static int64_t unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* A zigzag varint that must fit in `bits` bits. */
static int read_zigzag(floe_parquet_thrift_reader_t *r, int bits, int64_t *out)
{
    uint64_t u = 0;

    if (floe_parquet_thrift_read_varint(r, &u) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (bits < 64 && u >> bits != 0)
        return floe_parquet_thrift_fail(r, "a varint does not fit in %d bits", bits);
    *out = unzigzag(u);
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_i16(floe_parquet_thrift_reader_t *r, int16_t *out)
{
    int64_t v = 0;

    if (read_zigzag(r, 16, &v) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = (int16_t)v;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_i32(floe_parquet_thrift_reader_t *r, int32_t *out)
{
    int64_t v = 0;

    if (read_zigzag(r, 32, &v) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = (int32_t)v;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_i64(floe_parquet_thrift_reader_t *r, int64_t *out)
{
    return read_zigzag(r, 64, out);
}

int floe_parquet_thrift_read_binary(floe_parquet_thrift_reader_t *r, const uint8_t **data, uint32_t *len)
{
    uint64_t n = 0;

    if (floe_parquet_thrift_read_varint(r, &n) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (n > INT32_MAX || n > left(r))
        return floe_parquet_thrift_fail(r, "a binary value of %llu bytes runs past the end", (unsigned long long)n);
    *data = r->p;
    *len = (uint32_t)n;
    r->p += n;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_field(floe_parquet_thrift_reader_t *r, int16_t *last_id, int16_t *id, uint8_t *type)
{
    uint8_t b = 0;
    int32_t next;

    if (floe_parquet_thrift_read_byte(r, &b) != 0)
        return FLOE_ICEBERG_EINVALID;
    *type = b & 0x0f;
    if (*type == FLOE_THRIFT_STOP) {
        if (b != 0)
            return floe_parquet_thrift_fail(r, "a stop field carries a field id");
        *id = 0;
        return FLOE_ICEBERG_OK;
    }
    if (*type > FLOE_THRIFT_UUID)
        return floe_parquet_thrift_fail(r, "a field has the unknown type %u", *type);
    if (b >> 4 != 0) {
        next = (int32_t)*last_id + (b >> 4);
        if (next > INT16_MAX)
            return floe_parquet_thrift_fail(r, "a field id passes 32767");
        *id = (int16_t)next;
    } else if (floe_parquet_thrift_read_i16(r, id) != 0) {
        return FLOE_ICEBERG_EINVALID;
    }
    *last_id = *id;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_read_list(floe_parquet_thrift_reader_t *r, uint8_t *elem_type, uint32_t *n)
{
    uint8_t b = 0;
    uint64_t size;

    if (floe_parquet_thrift_read_byte(r, &b) != 0)
        return FLOE_ICEBERG_EINVALID;
    *elem_type = b & 0x0f;
    if (*elem_type == FLOE_THRIFT_FALSE)
        *elem_type = FLOE_THRIFT_TRUE;
    if (*elem_type == FLOE_THRIFT_STOP || *elem_type > FLOE_THRIFT_UUID)
        return floe_parquet_thrift_fail(r, "a list has the unknown element type %u", *elem_type);
    size = b >> 4;
    if (size == LIST_LONG_FORM && floe_parquet_thrift_read_varint(r, &size) != 0)
        return FLOE_ICEBERG_EINVALID;
    /* Every element takes at least one byte. */
    if (size > left(r) || size > FLOE_PARQUET_LIST_MAX)
        return floe_parquet_thrift_fail(r, "a list claims %llu elements with %zu bytes left", (unsigned long long)size,
                                        left(r));
    *n = (uint32_t)size;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_thrift_enter(floe_parquet_thrift_reader_t *r)
{
    if (r->depth >= FLOE_PARQUET_DEPTH_MAX)
        return floe_parquet_thrift_fail(r, "values nest more than %d deep", FLOE_PARQUET_DEPTH_MAX);
    r->depth++;
    return FLOE_ICEBERG_OK;
}

void floe_parquet_thrift_leave(floe_parquet_thrift_reader_t *r)
{
    r->depth--;
}

static int skip_bytes(floe_parquet_thrift_reader_t *r, size_t n)
{
    if (n > left(r))
        return floe_parquet_thrift_fail(r, "it ends too early");
    r->p += n;
    return FLOE_ICEBERG_OK;
}

static int skip_struct(floe_parquet_thrift_reader_t *r)
{
    int16_t last_id = 0, id;
    uint8_t type;

    for (;;) {
        if (floe_parquet_thrift_read_field(r, &last_id, &id, &type) != 0)
            return FLOE_ICEBERG_EINVALID;
        if (type == FLOE_THRIFT_STOP)
            return FLOE_ICEBERG_OK;
        if (floe_parquet_thrift_skip(r, type) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
}

static int skip_list(floe_parquet_thrift_reader_t *r)
{
    uint8_t elem;
    uint32_t n;

    if (floe_parquet_thrift_read_list(r, &elem, &n) != 0)
        return FLOE_ICEBERG_EINVALID;
    for (uint32_t i = 0; i < n; i++) {
        if (floe_parquet_thrift_skip_element(r, elem) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
    return FLOE_ICEBERG_OK;
}

static int skip_map(floe_parquet_thrift_reader_t *r)
{
    uint64_t n = 0;
    uint8_t types = 0, key, value;

    if (floe_parquet_thrift_read_varint(r, &n) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (n == 0)
        return FLOE_ICEBERG_OK;
    /* A key and a value take at least two bytes. */
    if (n > left(r) / 2 || n > FLOE_PARQUET_LIST_MAX)
        return floe_parquet_thrift_fail(r, "a map claims %llu entries with %zu bytes left", (unsigned long long)n,
                                        left(r));
    if (floe_parquet_thrift_read_byte(r, &types) != 0)
        return FLOE_ICEBERG_EINVALID;
    key = types >> 4;
    value = types & 0x0f;
    for (uint64_t i = 0; i < n; i++) {
        if (floe_parquet_thrift_skip_element(r, key) != 0 || floe_parquet_thrift_skip_element(r, value) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
    return FLOE_ICEBERG_OK;
}

/* A container: counted against the depth limit. */
static int skip_nested(floe_parquet_thrift_reader_t *r, uint8_t type)
{
    int rc;

    if (floe_parquet_thrift_enter(r) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (type == FLOE_THRIFT_STRUCT)
        rc = skip_struct(r);
    else if (type == FLOE_THRIFT_MAP)
        rc = skip_map(r);
    else
        rc = skip_list(r);
    floe_parquet_thrift_leave(r);
    return rc;
}

int floe_parquet_thrift_skip(floe_parquet_thrift_reader_t *r, uint8_t type)
{
    uint64_t v = 0;
    const uint8_t *data;
    uint32_t n;

    switch (type) {
    case FLOE_THRIFT_TRUE:
    case FLOE_THRIFT_FALSE:
        return FLOE_ICEBERG_OK;
    case FLOE_THRIFT_I8:
        return skip_bytes(r, 1);
    case FLOE_THRIFT_I16:
    case FLOE_THRIFT_I32:
    case FLOE_THRIFT_I64:
        return floe_parquet_thrift_read_varint(r, &v);
    case FLOE_THRIFT_DOUBLE:
        return skip_bytes(r, DOUBLE_BYTES);
    case FLOE_THRIFT_BINARY:
        return floe_parquet_thrift_read_binary(r, &data, &n);
    case FLOE_THRIFT_UUID:
        return skip_bytes(r, UUID_BYTES);
    case FLOE_THRIFT_LIST:
    case FLOE_THRIFT_SET:
    case FLOE_THRIFT_MAP:
    case FLOE_THRIFT_STRUCT:
        return skip_nested(r, type);
    default:
        return floe_parquet_thrift_fail(r, "a value has the unknown type %u", type);
    }
}

int floe_parquet_thrift_skip_element(floe_parquet_thrift_reader_t *r, uint8_t elem_type)
{
    if (elem_type == FLOE_THRIFT_TRUE || elem_type == FLOE_THRIFT_FALSE)
        return skip_bytes(r, 1);
    return floe_parquet_thrift_skip(r, elem_type);
}

void floe_parquet_thrift_writer_init(floe_parquet_thrift_writer_t *w)
{
    memset(w, 0, sizeof(*w));
}

void floe_parquet_thrift_writer_dispose(floe_parquet_thrift_writer_t *w)
{
    free(w->data);
    memset(w, 0, sizeof(*w));
}

uint8_t *floe_parquet_thrift_writer_take(floe_parquet_thrift_writer_t *w, size_t *len)
{
    uint8_t *data = w->data != NULL ? w->data : floe_xmalloc(1);

    *len = w->len;
    memset(w, 0, sizeof(*w));
    return data;
}

void floe_parquet_thrift_write_bytes(floe_parquet_thrift_writer_t *w, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (n > w->cap - w->len) {
        size_t cap = w->cap != 0 ? w->cap : WRITER_INITIAL_CAP;
        while (cap - w->len < n)
            cap *= 2;
        w->data = floe_xrealloc(w->data, cap);
        w->cap = cap;
    }
    memcpy(w->data + w->len, p, n);
    w->len += n;
}

static void write_byte(floe_parquet_thrift_writer_t *w, uint8_t b)
{
    floe_parquet_thrift_write_bytes(w, &b, 1);
}

void floe_parquet_thrift_write_varint(floe_parquet_thrift_writer_t *w, uint64_t v)
{
    uint8_t buf[VARINT_MAX_BYTES];
    size_t n = 0;

    do {
        buf[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v != 0)
            buf[n] |= 0x80;
        n++;
    } while (v != 0);
    floe_parquet_thrift_write_bytes(w, buf, n);
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void floe_parquet_thrift_write_i32(floe_parquet_thrift_writer_t *w, int32_t v)
{
    floe_parquet_thrift_write_varint(w, (uint32_t)zigzag(v));
}

void floe_parquet_thrift_write_i64(floe_parquet_thrift_writer_t *w, int64_t v)
{
    floe_parquet_thrift_write_varint(w, zigzag(v));
}

void floe_parquet_thrift_write_binary(floe_parquet_thrift_writer_t *w, const void *p, uint32_t n)
{
    floe_parquet_thrift_write_varint(w, n);
    floe_parquet_thrift_write_bytes(w, p, n);
}

void floe_parquet_thrift_write_field(floe_parquet_thrift_writer_t *w, int16_t id, uint8_t type)
{
    int16_t *last = &w->last_id[w->depth];
    int32_t delta = (int32_t)id - *last;

    if (delta > 0 && delta <= DELTA_MAX) {
        write_byte(w, (uint8_t)(delta << 4 | type));
    } else {
        write_byte(w, type);
        floe_parquet_thrift_write_i32(w, id);
    }
    *last = id;
}

void floe_parquet_thrift_write_bool_field(floe_parquet_thrift_writer_t *w, int16_t id, bool v)
{
    floe_parquet_thrift_write_field(w, id, v ? FLOE_THRIFT_TRUE : FLOE_THRIFT_FALSE);
}

void floe_parquet_thrift_write_list(floe_parquet_thrift_writer_t *w, uint8_t elem_type, uint32_t n)
{
    if (n <= LIST_SHORT_MAX) {
        write_byte(w, (uint8_t)(n << 4 | elem_type));
    } else {
        write_byte(w, (uint8_t)(LIST_LONG_FORM << 4 | elem_type));
        floe_parquet_thrift_write_varint(w, n);
    }
}

void floe_parquet_thrift_struct_begin(floe_parquet_thrift_writer_t *w)
{
    assert(w->depth < FLOE_PARQUET_DEPTH_MAX);
    w->last_id[++w->depth] = 0;
}

void floe_parquet_thrift_struct_end(floe_parquet_thrift_writer_t *w)
{
    assert(w->depth > 0);
    write_byte(w, FLOE_THRIFT_STOP);
    w->depth--;
}
