/*
 * The deletion-vector codec of deletion_vector.h. Decoding reads through a bounds-checked cursor;
 * every count read from the blob is checked against the bytes left (and the caller's limit)
 * before anything is allocated for it.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "base/xalloc.h"
#include "iceberg/deletion_vector.h"

#define DV_MAGIC_LEN 4
#define SERIAL_COOKIE_NO_RUN 12346
#define SERIAL_COOKIE 12347
#define NO_OFFSET_THRESHOLD 4
#define ARRAY_MAX 4096          /* a container with more values is a bitmap */
#define BITMAP_BYTES 8192       /* 2^16 bits */
#define CONTAINER_VALUES 65536u /* values one container covers */

static const uint8_t dv_magic[DV_MAGIC_LEN] = {0xD1, 0xD3, 0x39, 0x64};

typedef struct cursor {
    const uint8_t *p;
    size_t left;
} cursor_t;

typedef struct sink {
    floe_iceberg_dv_t *dv;
    size_t cap, max;
    uint64_t high; /* the current 32-bit bitmap's key, shifted */
    char *err;
    size_t err_size;
} sink_t;

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    if (err != NULL && err_size > 0) {
        int n = snprintf(err, err_size, "deletion vector: ");
        va_start(ap, fmt);
        if (n > 0 && (size_t)n < err_size)
            vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int take(cursor_t *c, size_t n, const uint8_t **out)
{
    if (c->left < n)
        return -1;
    *out = c->p;
    c->p += n;
    c->left -= n;
    return 0;
}

static int take_le(cursor_t *c, size_t n, uint64_t *out)
{
    const uint8_t *p;
    uint64_t v = 0;
    if (take(c, n, &p) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    *out = v;
    return 0;
}

/* Appends one position; positions must ascend strictly across the whole vector. */
static int emit(sink_t *s, uint64_t low)
{
    uint64_t pos = s->high | low;
    floe_iceberg_dv_t *dv = s->dv;

    if (dv->n > 0 && pos <= dv->positions[dv->n - 1])
        return fail(s->err, s->err_size, "positions are not in ascending order.");
    if (dv->n == s->max)
        return fail(s->err, s->err_size, "more than %zu positions.", s->max);
    if (dv->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        if (s->cap > s->max)
            s->cap = s->max;
        dv->positions = floe_xrealloc(dv->positions, s->cap * sizeof(uint64_t));
    }
    dv->positions[dv->n++] = pos;
    return 0;
}

static int read_run(cursor_t *c, sink_t *s, uint32_t key)
{
    uint64_t n_runs, start, len;
    if (take_le(c, 2, &n_runs) != 0)
        return fail(s->err, s->err_size, "a run container is truncated.");
    for (uint64_t r = 0; r < n_runs; r++) {
        if (take_le(c, 2, &start) != 0 || take_le(c, 2, &len) != 0)
            return fail(s->err, s->err_size, "a run container is truncated.");
        if (start + len >= CONTAINER_VALUES)
            return fail(s->err, s->err_size, "a run passes the end of its container.");
        for (uint64_t v = start; v <= start + len; v++) {
            if (emit(s, (uint64_t)key << 16 | v) != 0)
                return -1;
        }
    }
    return 0;
}

static int read_array(cursor_t *c, sink_t *s, uint32_t key, uint32_t card)
{
    uint64_t v;
    for (uint32_t i = 0; i < card; i++) {
        if (take_le(c, 2, &v) != 0)
            return fail(s->err, s->err_size, "an array container is truncated.");
        if (emit(s, (uint64_t)key << 16 | v) != 0)
            return -1;
    }
    return 0;
}

static int read_bitmap(cursor_t *c, sink_t *s, uint32_t key, uint32_t card)
{
    const uint8_t *bits;
    uint32_t seen = 0;
    if (take(c, BITMAP_BYTES, &bits) != 0)
        return fail(s->err, s->err_size, "a bitmap container is truncated.");
    for (uint32_t v = 0; v < CONTAINER_VALUES; v++) {
        if ((bits[v / 8] >> (v % 8)) & 1) {
            if (emit(s, (uint64_t)key << 16 | v) != 0)
                return -1;
            seen++;
        }
    }
    if (seen != card)
        return fail(s->err, s->err_size, "a bitmap container holds %u values, its header says %u.", seen, card);
    return 0;
}

/* One 32-bit Roaring bitmap in the portable format. */
static int read_bitmap32(cursor_t *c, sink_t *s)
{
    uint64_t cookie, size, key, card;
    const uint8_t *run_flags = NULL, *header, *skip;
    int has_run;

    if (take_le(c, 4, &cookie) != 0)
        return fail(s->err, s->err_size, "a bitmap is truncated.");
    has_run = (cookie & 0xFFFF) == SERIAL_COOKIE;
    if (has_run) {
        size = (cookie >> 16) + 1;
        if (take(c, (size_t)((size + 7) / 8), &run_flags) != 0)
            return fail(s->err, s->err_size, "a bitmap is truncated.");
    } else if (cookie != SERIAL_COOKIE_NO_RUN || take_le(c, 4, &size) != 0) {
        return fail(s->err, s->err_size, "a bitmap has no valid Roaring cookie.");
    }
    if (size > CONTAINER_VALUES || take(c, (size_t)size * 4, &header) != 0)
        return fail(s->err, s->err_size, "a bitmap's container headers are truncated.");
    if ((!has_run || size >= NO_OFFSET_THRESHOLD) && take(c, (size_t)size * 4, &skip) != 0)
        return fail(s->err, s->err_size, "a bitmap's container offsets are truncated.");
    for (uint64_t i = 0; i < size; i++) {
        key = (uint64_t)header[4 * i] | (uint64_t)header[4 * i + 1] << 8;
        card = ((uint64_t)header[4 * i + 2] | (uint64_t)header[4 * i + 3] << 8) + 1;
        int rc;
        if (has_run && (run_flags[i / 8] >> (i % 8)) & 1)
            rc = read_run(c, s, (uint32_t)key);
        else if (card <= ARRAY_MAX)
            rc = read_array(c, s, (uint32_t)key, (uint32_t)card);
        else
            rc = read_bitmap(c, s, (uint32_t)key, (uint32_t)card);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int floe_iceberg_dv_decode(const uint8_t *blob, size_t len, size_t max_positions, floe_iceberg_dv_t *out, char *err,
                           size_t err_size)
{
    sink_t s = {.dv = out, .max = max_positions, .err = err, .err_size = err_size};
    cursor_t c;
    uint64_t n_maps, key, last_key = 0;
    uint32_t body_len;

    memset(out, 0, sizeof(*out));
    if (len < 4 + DV_MAGIC_LEN + 4)
        return fail(err, err_size, "the blob is %zu bytes, too short.", len);
    body_len = be32(blob);
    if ((size_t)body_len != len - 8)
        return fail(err, err_size, "the length field says %u bytes, the blob holds %zu.", body_len, len - 8);
    if (memcmp(blob + 4, dv_magic, DV_MAGIC_LEN) != 0)
        return fail(err, err_size, "the magic is not D1 D3 39 64.");
    if ((uint32_t)crc32(0L, blob + 4, body_len) != be32(blob + 4 + body_len))
        return fail(err, err_size, "the CRC-32 does not match.");
    c = (cursor_t){blob + 4 + DV_MAGIC_LEN, body_len - DV_MAGIC_LEN};
    if (take_le(&c, 8, &n_maps) != 0 || n_maps > c.left / 8)
        return fail(err, err_size, "the bitmap count is missing or larger than the blob.");
    for (uint64_t i = 0; i < n_maps; i++) {
        if (take_le(&c, 4, &key) != 0) {
            fail(err, err_size, "a bitmap key is truncated.");
            goto Fail;
        }
        if (i > 0 && key <= last_key) {
            fail(err, err_size, "bitmap keys are not in ascending order.");
            goto Fail;
        }
        last_key = key;
        s.high = key << 32;
        if (read_bitmap32(&c, &s) != 0)
            goto Fail;
    }
    if (c.left != 0) {
        fail(err, err_size, "%zu bytes follow the bitmap.", c.left);
        goto Fail;
    }
    return 0;
Fail:
    floe_iceberg_dv_dispose(out);
    return -1;
}

void floe_iceberg_dv_dispose(floe_iceberg_dv_t *dv)
{
    free(dv->positions);
    memset(dv, 0, sizeof(*dv));
}

int floe_iceberg_dv_contains(const floe_iceberg_dv_t *dv, uint64_t position)
{
    size_t lo = 0, hi = dv->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dv->positions[mid] == position)
            return 1;
        if (dv->positions[mid] < position)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* ==== encoding ==== */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = floe_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_le(buf_t *b, uint64_t v, size_t n)
{
    uint8_t bytes[8];
    for (size_t i = 0; i < n; i++)
        bytes[i] = (uint8_t)(v >> (8 * i));
    put(b, bytes, n);
}

static void put_be32(buf_t *b, uint32_t v)
{
    uint8_t bytes[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, bytes, 4);
}

/* Positions [from, to) share their high 48 bits: one container's values. */
static size_t container_end(const uint64_t *pos, size_t from, size_t to)
{
    size_t i = from;
    while (i < to && pos[i] >> 16 == pos[from] >> 16)
        i++;
    return i;
}

/* The 32-bit bitmap of positions [from, to), which share their high 32 bits; no run containers. */
static void put_bitmap32(buf_t *b, const uint64_t *pos, size_t from, size_t to)
{
    size_t n_containers = 0, offset;

    for (size_t i = from; i < to; i = container_end(pos, i, to))
        n_containers++;
    put_le(b, SERIAL_COOKIE_NO_RUN, 4);
    put_le(b, n_containers, 4);
    for (size_t i = from, end; i < to; i = end) {
        end = container_end(pos, i, to);
        put_le(b, (pos[i] >> 16) & 0xFFFF, 2);
        put_le(b, end - i - 1, 2);
    }
    offset = 8 + n_containers * 8; /* from the cookie: cookie, size, headers, offsets */
    for (size_t i = from, end; i < to; i = end) {
        end = container_end(pos, i, to);
        put_le(b, offset, 4);
        offset += end - i > ARRAY_MAX ? BITMAP_BYTES : (end - i) * 2;
    }
    for (size_t i = from, end; i < to; i = end) {
        end = container_end(pos, i, to);
        if (end - i > ARRAY_MAX) {
            uint8_t bits[BITMAP_BYTES] = {0};
            for (size_t k = i; k < end; k++)
                bits[(pos[k] & 0xFFFF) / 8] |= (uint8_t)(1u << (pos[k] & 7));
            put(b, bits, sizeof(bits));
        } else {
            for (size_t k = i; k < end; k++)
                put_le(b, pos[k] & 0xFFFF, 2);
        }
    }
}

uint8_t *floe_iceberg_dv_encode(const uint64_t *positions, size_t n, size_t *len)
{
    buf_t b = {0};
    size_t n_maps = 0;
    uint32_t crc;

    for (size_t i = 1; i < n; i++)
        assert(positions[i] > positions[i - 1]);
    put_be32(&b, 0); /* the length, filled in below */
    put(&b, dv_magic, DV_MAGIC_LEN);
    for (size_t i = 0; i < n; n_maps++) {
        size_t j = i;
        while (j < n && positions[j] >> 32 == positions[i] >> 32)
            j++;
        i = j;
    }
    put_le(&b, n_maps, 8);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && positions[j] >> 32 == positions[i] >> 32)
            j++;
        put_le(&b, positions[i] >> 32, 4);
        put_bitmap32(&b, positions, i, j);
        i = j;
    }
    crc = (uint32_t)crc32(0L, b.p + 4, (uInt)(b.n - 4));
    put_be32(&b, crc);
    b.p[0] = (uint8_t)((b.n - 8) >> 24);
    b.p[1] = (uint8_t)((b.n - 8) >> 16);
    b.p[2] = (uint8_t)((b.n - 8) >> 8);
    b.p[3] = (uint8_t)(b.n - 8);
    *len = b.n;
    return b.p;
}
