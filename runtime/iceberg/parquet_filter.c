/*
 * A Parquet column chunk written again without some rows (parquet_filter.h): page headers read
 * with the footer's Thrift reader, pages decompressed (Snappy here, gzip with zlib, ZSTD with
 * libzstd, LZ4_RAW with liblz4, Brotli with libbrotlidec), levels and values decoded (DELTA and
 * BYTE_STREAM_SPLIT values to PLAIN first), the kept ones written as one PLAIN page.
 */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <brotli/decode.h>
#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "iceberg/brotli_load.h"
#include "iceberg/lz4_load.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/parquet_stats.h"
#include "iceberg/parquet_thrift.h"
#include "iceberg/zstd_load.h"

/* parquet.thrift: PageType, Encoding */
#define PAGE_DATA 0
#define PAGE_INDEX 1
#define PAGE_DICTIONARY 2
#define PAGE_DATA_V2 3
#define ENC_PLAIN 0
#define ENC_PLAIN_DICTIONARY 2
#define ENC_RLE 3
#define ENC_DELTA_BINARY_PACKED 5
#define ENC_DELTA_LENGTH_BYTE_ARRAY 6
#define ENC_DELTA_BYTE_ARRAY 7
#define ENC_RLE_DICTIONARY 8
#define ENC_BYTE_STREAM_SPLIT 9
#define DELTA_BLOCK_MAX (1u << 20) /* values in a DELTA_BINARY_PACKED block (writers use 128) */
#define LEVELS_MAX 255 /* levels are kept in bytes */
#define INT96_BYTES 12

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf_t;

static void put(buf_t *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = floe_xrealloc(b->p, b->cap);
    }
    if (n > 0 && data != NULL) /* NULL: room only, which the caller fills */
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u32(buf_t *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, le, 4);
}

static void put_varint(buf_t *b, uint64_t v)
{
    uint8_t x;

    do {
        x = (uint8_t)(v & 0x7F);
        v >>= 7;
        if (v != 0)
            x |= 0x80;
        put(b, &x, 1);
    } while (v != 0);
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(floe_iceberg_error_t *err, const char *what)
{
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk %s.", what);
}

/* ---- decompression ---- */

static int varint32(const uint8_t **p, const uint8_t *end, uint32_t *out)
{
    uint64_t v = 0;

    for (int shift = 0; shift < 35; shift += 7) {
        if (*p >= end)
            return -1;
        v |= (uint64_t)(**p & 0x7F) << shift;
        if ((*(*p)++ & 0x80) == 0) {
            if (v > UINT32_MAX)
                return -1;
            *out = (uint32_t)v;
            return 0;
        }
    }
    return -1;
}

/* Snappy's raw format: the uncompressed length, then literals and back-references. */
static int snappy(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    const uint8_t *p = in, *end = in + in_len;
    uint32_t want;
    size_t at = 0;

    if (varint32(&p, end, &want) != 0 || want != out_len)
        return -1;
    while (p < end) {
        uint8_t tag = *p++;
        size_t len, offset;
        if ((tag & 3) == 0) {
            len = (size_t)(tag >> 2) + 1;
            if (len > 60) {
                size_t n = len - 60;
                if ((size_t)(end - p) < n)
                    return -1;
                len = 0;
                for (size_t k = 0; k < n; k++)
                    len |= (size_t)p[k] << (8 * k);
                len += 1;
                p += n;
            }
            if ((size_t)(end - p) < len || out_len - at < len)
                return -1;
            memcpy(out + at, p, len);
            p += len;
            at += len;
            continue;
        }
        if ((tag & 3) == 1) {
            if (p >= end)
                return -1;
            len = (size_t)((tag >> 2) & 7) + 4;
            offset = (size_t)(tag >> 5) << 8 | *p++;
        } else {
            size_t n = (tag & 3) == 2 ? 2 : 4;
            if ((size_t)(end - p) < n)
                return -1;
            len = (size_t)(tag >> 2) + 1;
            offset = n == 2 ? (size_t)p[0] | (size_t)p[1] << 8 : get_u32(p);
            p += n;
        }
        if (offset == 0 || offset > at || out_len - at < len)
            return -1;
        for (size_t k = 0; k < len; k++, at++) /* byte by byte: a copy may overlap itself */
            out[at] = out[at - offset];
    }
    return at == out_len ? 0 : -1;
}

static int gunzip(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    z_stream z;
    int rc;

    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, 15 + 32) != Z_OK) /* a gzip or zlib header */
        return -1;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)in_len;
    z.next_out = out;
    z.avail_out = (uInt)out_len;
    rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    return rc == Z_STREAM_END && z.avail_out == 0 ? 0 : -1;
}

/* One or more ZSTD frames (Parquet's ZSTD pages) into exactly out_len bytes. A frame that states its
 * content size must state out_len, so a small hostile page cannot make the caller decode for long. */
static int unzstd(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    unsigned long long declared = ZSTD_getFrameContentSize(in, in_len);
    size_t n;

    if (declared == ZSTD_CONTENTSIZE_ERROR || (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > out_len))
        return -1;
    n = ZSTD_decompress(out, out_len, in, in_len);
    return !ZSTD_isError(n) && n == out_len ? 0 : -1;
}

/* An LZ4_RAW page: one LZ4 block, which must decode to exactly out_len bytes (liblz4's safe decoder
 * neither reads past the block nor writes past out_len). */
static int unlz4(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    int n;

    if (in_len > INT_MAX || out_len > INT_MAX)
        return -1;
    n = LZ4_decompress_safe((const char *)in, (char *)out, (int)in_len, (int)out_len);
    return n >= 0 && (size_t)n == out_len ? 0 : -1;
}

/* A Brotli page: one stream, which must decode to exactly out_len bytes. out holds out_len + 1
 * bytes (decompress): libbrotlidec declares its buffers as arrays whose bounds must be positive. */
static int unbrotli(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    size_t n = out_len + 1;

    if (in_len == 0) /* not a Brotli stream */
        return -1;
    return BrotliDecoderDecompress(in_len, in, &n, out) == BROTLI_DECODER_RESULT_SUCCESS && n == out_len ? 0 : -1;
}

/* The page's uncompressed bytes (malloc'ed into *out) from `len` bytes at `in`. */
static int decompress(int32_t codec, const uint8_t *in, size_t len, size_t out_len, uint8_t **out,
                      floe_iceberg_error_t *err)
{
    int rc;

    if (out_len > FLOE_PARQUET_FILTER_PAGE_MAX || (codec == FLOE_PARQUET_UNCOMPRESSED && out_len != len))
        return fail(err, "has a page whose sizes do not fit");
    if (codec == FLOE_PARQUET_ZSTD && floe_zstd_load() != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk is compressed with ZSTD, and libzstd "
                                 "cannot be loaded: %s", floe_zstd_load_error());
    if (codec == FLOE_PARQUET_LZ4_RAW && floe_lz4_load() != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk is compressed with LZ4_RAW, and "
                                 "liblz4 cannot be loaded: %s", floe_lz4_load_error());
    if (codec == FLOE_PARQUET_BROTLI && floe_brotli_load() != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk is compressed with Brotli, and "
                                 "libbrotlidec cannot be loaded: %s", floe_brotli_load_error());
    *out = floe_xmalloc(out_len + 1);
    switch (codec) {
    case FLOE_PARQUET_UNCOMPRESSED: memcpy(*out, in, len); rc = 0; break;
    case FLOE_PARQUET_SNAPPY: rc = snappy(in, len, *out, out_len); break;
    case FLOE_PARQUET_GZIP: rc = len > UINT32_MAX || out_len > UINT32_MAX ? -1 : gunzip(in, len, *out, out_len); break;
    case FLOE_PARQUET_ZSTD: rc = unzstd(in, len, *out, out_len); break;
    case FLOE_PARQUET_LZ4_RAW: rc = unlz4(in, len, *out, out_len); break;
    case FLOE_PARQUET_BROTLI: rc = unbrotli(in, len, *out, out_len); break;
    default:
        free(*out);
        *out = NULL;
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk is compressed with %s, which Floe "
                                 "does not decode.", floe_parquet_codec_name(codec));
    }
    if (rc != 0) {
        free(*out);
        *out = NULL;
        return fail(err, "has a page that does not decompress to its size");
    }
    return FLOE_ICEBERG_OK;
}

/* ---- the RLE / bit-packing hybrid ---- */

typedef struct rle {
    const uint8_t *p, *end;
    int bit_width;
    uint32_t left;         /* values left in the current run */
    const uint8_t *packed; /* the current bit-packed run, or NULL for a repeated value */
    uint32_t index;
    uint32_t value;
} rle_t;

static void rle_init(rle_t *d, const uint8_t *p, size_t len, int bit_width)
{
    memset(d, 0, sizeof(*d));
    d->p = p;
    d->end = p + len;
    d->bit_width = bit_width;
}

static uint32_t unpack(const uint8_t *base, uint32_t i, int bit_width)
{
    uint64_t bit = (uint64_t)i * (uint64_t)bit_width;
    uint32_t v = 0;

    for (int b = 0; b < bit_width; b++, bit++)
        v |= (uint32_t)((base[bit >> 3] >> (bit & 7)) & 1u) << b;
    return v;
}

static int rle_next(rle_t *d, uint32_t *v)
{
    while (d->left == 0) {
        uint32_t header;
        if (varint32(&d->p, d->end, &header) != 0)
            return -1;
        if (header & 1) {
            uint64_t groups = header >> 1, bytes = groups * (uint64_t)d->bit_width;
            if (bytes > (uint64_t)(d->end - d->p) || groups * 8 > UINT32_MAX)
                return -1;
            d->packed = d->p;
            d->index = 0;
            d->left = (uint32_t)(groups * 8);
            d->p += bytes;
        } else {
            size_t n = ((size_t)d->bit_width + 7) / 8;
            if (n > (size_t)(d->end - d->p))
                return -1;
            d->value = 0;
            for (size_t k = 0; k < n; k++)
                d->value |= (uint32_t)d->p[k] << (8 * k);
            d->p += n;
            d->packed = NULL;
            d->left = header >> 1;
        }
    }
    *v = d->packed != NULL ? unpack(d->packed, d->index++, d->bit_width) : d->value;
    d->left--;
    return 0;
}

static int bits_for(uint32_t max)
{
    int n = 0;

    while (max != 0) {
        n++;
        max >>= 1;
    }
    return n;
}

/* ---- values ---- */

typedef struct slice {
    const uint8_t *data;
    size_t len;
} slice_t;

typedef struct column_state {
    const floe_parquet_filter_column_t *col;
    uint8_t *dict_bytes;
    slice_t *dict; /* the dictionary page's values, PLAIN-encoded each */
    uint32_t n_dict;
} column_state_t;

typedef struct values {
    int32_t encoding;
    uint8_t *plain; /* DELTA and BYTE_STREAM_SPLIT values decoded to PLAIN (owned), or NULL */
    const uint8_t *p, *end;
    uint32_t bit; /* PLAIN booleans: the next bit */
    rle_t rle;    /* dictionary indexes, RLE booleans */
} values_t;

/* The PLAIN width of a fixed-width value, 0 for BYTE_ARRAY and BOOLEAN. */
static size_t fixed_width(const floe_parquet_filter_column_t *c)
{
    switch (c->type) {
    case FLOE_PARQUET_INT32:
    case FLOE_PARQUET_FLOAT: return 4;
    case FLOE_PARQUET_INT64:
    case FLOE_PARQUET_DOUBLE: return 8;
    case FLOE_PARQUET_INT96: return INT96_BYTES;
    case FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY: return c->type_length > 0 ? (size_t)c->type_length : 0;
    default: return 0;
    }
}

/* The next PLAIN value at *p (its bytes as written, a BYTE_ARRAY's length included). */
static int plain_next(const floe_parquet_filter_column_t *c, const uint8_t **p, const uint8_t *end, slice_t *out)
{
    size_t w = fixed_width(c);

    if (c->type == FLOE_PARQUET_BYTE_ARRAY) {
        if (end - *p < 4 || get_u32(*p) > (size_t)(end - *p) - 4)
            return -1;
        w = 4 + (size_t)get_u32(*p);
    } else if (w == 0 || (size_t)(end - *p) < w) {
        return -1;
    }
    *out = (slice_t){*p, w};
    *p += w;
    return 0;
}

/* The next present value: its PLAIN bytes in *out, or for a boolean *bit. */
static int value_next(column_state_t *s, values_t *v, slice_t *out, bool *bit)
{
    uint32_t x;

    if (s->col->type == FLOE_PARQUET_BOOLEAN && v->encoding == ENC_PLAIN) {
        if ((size_t)(v->bit >> 3) >= (size_t)(v->end - v->p))
            return -1;
        *bit = (v->p[v->bit >> 3] >> (v->bit & 7)) & 1;
        v->bit++;
        return 0;
    }
    if (s->col->type == FLOE_PARQUET_BOOLEAN && v->encoding == ENC_RLE) {
        if (rle_next(&v->rle, &x) != 0)
            return -1;
        *bit = x != 0;
        return 0;
    }
    if (v->encoding == ENC_PLAIN)
        return plain_next(s->col, &v->p, v->end, out);
    if (rle_next(&v->rle, &x) != 0 || x >= s->n_dict)
        return -1;
    *out = s->dict[x];
    return 0;
}

/* ---- DELTA and BYTE_STREAM_SPLIT values, decoded to PLAIN up front (design note 1) ---- */

static int varint64(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;

    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t b;
        if (*p >= end)
            return -1;
        b = *(*p)++;
        if (shift == 63 && (b & 0x7E) != 0)
            return -1;
        v |= (uint64_t)(b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

static uint64_t unzigzag(uint64_t v)
{
    return (v >> 1) ^ (0 - (v & 1));
}

static uint64_t unpack64(const uint8_t *base, size_t i, int bit_width)
{
    uint64_t bit = (uint64_t)i * (uint64_t)bit_width, v = 0;

    for (int b = 0; b < bit_width; b++, bit++)
        v |= (uint64_t)((base[bit >> 3] >> (bit & 7)) & 1u) << b;
    return v;
}

/* DELTA_BINARY_PACKED at *p: at most max values (two's complement, wrapping) into *out (malloc'ed,
 * *n of them); *p moves past them. The last miniblock may lack its padding. */
static int delta_packed(const uint8_t **p, const uint8_t *end, size_t max, uint64_t **out, size_t *n)
{
    uint64_t block, n_mini, total, first, per_mini, last;
    size_t got = 0;

    *out = NULL;
    if (varint64(p, end, &block) != 0 || varint64(p, end, &n_mini) != 0 || varint64(p, end, &total) != 0 ||
        varint64(p, end, &first) != 0 || block == 0 || block % 128 != 0 || block > DELTA_BLOCK_MAX || n_mini == 0 ||
        block % n_mini != 0 || (per_mini = block / n_mini) % 32 != 0 || total > max ||
        total > FLOE_PARQUET_FILTER_PAGE_MAX / sizeof(**out))
        return -1;
    *out = floe_xmalloc(((size_t)total + 1) * sizeof(**out));
    last = unzigzag(first);
    if (total > 0)
        (*out)[got++] = last;
    while (got < total) {
        uint64_t min_delta;
        const uint8_t *widths;
        if (varint64(p, end, &min_delta) != 0 || (uint64_t)(end - *p) < n_mini)
            goto Fail;
        min_delta = unzigzag(min_delta);
        widths = *p;
        *p += n_mini;
        for (uint64_t m = 0; m < n_mini && got < total; m++) {
            size_t in_mini = (size_t)(total - got < per_mini ? total - got : per_mini);
            size_t full = (size_t)(per_mini * widths[m] / 8), need = (in_mini * widths[m] + 7) / 8;
            if (widths[m] > 64 || need > (size_t)(end - *p))
                goto Fail;
            for (size_t i = 0; i < in_mini; i++) {
                last += min_delta + unpack64(*p, i, widths[m]);
                (*out)[got++] = last;
            }
            *p += full < (size_t)(end - *p) ? full : (size_t)(end - *p);
        }
    }
    *n = got;
    return 0;
Fail:
    free(*out);
    *out = NULL;
    return -1;
}

/* DELTA_BINARY_PACKED INT32 or INT64 values, PLAIN. */
static int delta_ints(const floe_parquet_filter_column_t *c, const uint8_t *p, const uint8_t *end, size_t max,
                      buf_t *out)
{
    uint64_t *ints;
    size_t n;

    if ((c->type != FLOE_PARQUET_INT32 && c->type != FLOE_PARQUET_INT64) || delta_packed(&p, end, max, &ints, &n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint8_t le[8];
        for (int k = 0; k < 8; k++)
            le[k] = (uint8_t)(ints[i] >> (8 * k));
        put(out, le, c->type == FLOE_PARQUET_INT32 ? 4 : 8);
    }
    free(ints);
    return 0;
}

/* The lengths of n DELTA_LENGTH_BYTE_ARRAY values (or of DELTA_BYTE_ARRAY's suffixes) at *p, checked
 * against the bytes after them; *p moves to the first value's bytes. */
static int delta_lengths(const uint8_t **p, const uint8_t *end, size_t max, uint64_t **lengths, size_t *n)
{
    uint64_t sum = 0;

    if (delta_packed(p, end, max, lengths, n) != 0)
        return -1;
    for (size_t i = 0; i < *n; i++) {
        sum += (*lengths)[i];
        if ((*lengths)[i] > INT32_MAX || sum > (uint64_t)(end - *p)) {
            free(*lengths);
            *lengths = NULL;
            return -1;
        }
    }
    return 0;
}

static int delta_length_strings(const floe_parquet_filter_column_t *c, const uint8_t *p, const uint8_t *end,
                                size_t max, buf_t *out)
{
    uint64_t *lengths;
    size_t n;

    if (c->type != FLOE_PARQUET_BYTE_ARRAY || delta_lengths(&p, end, max, &lengths, &n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        put_u32(out, (uint32_t)lengths[i]);
        put(out, p, (size_t)lengths[i]);
        p += lengths[i];
    }
    free(lengths);
    return 0;
}

/* DELTA_BYTE_ARRAY: each value is the first prefix[i] bytes of the one before, then its suffix.
 * The PLAIN values are at most FLOE_PARQUET_FILTER_PAGE_MAX bytes (prefixes repeat bytes). */
static int delta_strings(const floe_parquet_filter_column_t *c, const uint8_t *p, const uint8_t *end, size_t max,
                         buf_t *out)
{
    uint64_t *prefixes = NULL, *suffixes = NULL;
    size_t n, n_suffixes, prev_at = 0, prev_len = 0, head = c->type == FLOE_PARQUET_BYTE_ARRAY ? 4 : 0;
    int rc = -1;

    if ((c->type != FLOE_PARQUET_BYTE_ARRAY && (c->type != FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY || c->type_length <= 0)) ||
        delta_packed(&p, end, max, &prefixes, &n) != 0 || delta_lengths(&p, end, max, &suffixes, &n_suffixes) != 0 ||
        n != n_suffixes)
        goto Exit;
    for (size_t i = 0; i < n; i++) {
        size_t len = (size_t)prefixes[i] + (size_t)suffixes[i], at = out->len + head;
        if (prefixes[i] > prev_len || len > FLOE_PARQUET_FILTER_PAGE_MAX - out->len ||
            (head == 0 && len != (size_t)c->type_length))
            goto Exit;
        if (head != 0)
            put_u32(out, (uint32_t)len);
        put(out, NULL, (size_t)prefixes[i]); /* room, then the prefix copied (put may move the buffer) */
        if (prefixes[i] > 0)
            memmove(out->p + at, out->p + prev_at, (size_t)prefixes[i]);
        put(out, p, (size_t)suffixes[i]);
        p += suffixes[i];
        prev_at = at;
        prev_len = len;
    }
    rc = 0;
Exit:
    free(prefixes);
    free(suffixes);
    return rc;
}

/* BYTE_STREAM_SPLIT: byte k of every value, then byte k + 1 ..., back to whole values. */
static int stream_split(const floe_parquet_filter_column_t *c, const uint8_t *p, size_t len, buf_t *out)
{
    size_t w = c->type == FLOE_PARQUET_BOOLEAN || c->type == FLOE_PARQUET_INT96 ? 0 : fixed_width(c), n;

    if (w == 0 || len % w != 0)
        return -1;
    n = len / w;
    put(out, NULL, len);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < w; k++)
            out->p[i * w + k] = p[k * n + i];
    }
    return 0;
}

/* A DELTA or BYTE_STREAM_SPLIT page's values, at most max, decoded to PLAIN into v->plain. */
static int values_to_plain(column_state_t *s, values_t *v, const uint8_t *p, size_t len, size_t max,
                           floe_iceberg_error_t *err)
{
    buf_t out = {0};
    int rc = 0;

    if (len > 0) { /* no bytes: no values (a page of nulls) */
        switch (v->encoding) {
        case ENC_DELTA_BINARY_PACKED: rc = delta_ints(s->col, p, p + len, max, &out); break;
        case ENC_DELTA_LENGTH_BYTE_ARRAY: rc = delta_length_strings(s->col, p, p + len, max, &out); break;
        case ENC_DELTA_BYTE_ARRAY: rc = delta_strings(s->col, p, p + len, max, &out); break;
        default: rc = stream_split(s->col, p, len, &out); break;
        }
    }
    if (rc != 0) {
        free(out.p);
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk has values in encoding %d that do "
                                 "not decode.", (int)v->encoding);
    }
    v->plain = out.p != NULL ? out.p : floe_xmalloc(1);
    v->encoding = ENC_PLAIN;
    v->p = v->plain;
    v->end = v->plain + out.len;
    return FLOE_ICEBERG_OK;
}

/* max: the page's level entries, which bound its values. */
static int values_init(column_state_t *s, values_t *v, int32_t encoding, const uint8_t *p, size_t len, int32_t max,
                       floe_iceberg_error_t *err)
{
    memset(v, 0, sizeof(*v));
    v->encoding = encoding == ENC_PLAIN_DICTIONARY ? ENC_RLE_DICTIONARY : encoding;
    v->p = p;
    v->end = p + len;
    if ((v->encoding >= ENC_DELTA_BINARY_PACKED && v->encoding <= ENC_DELTA_BYTE_ARRAY) ||
        v->encoding == ENC_BYTE_STREAM_SPLIT)
        return max < 0 ? fail(err, "has a page with fewer than no values")
                       : values_to_plain(s, v, p, len, (size_t)max, err);
    if (v->encoding == ENC_PLAIN)
        return s->col->type == FLOE_PARQUET_BOOLEAN || fixed_width(s->col) > 0 || s->col->type == FLOE_PARQUET_BYTE_ARRAY
                   ? FLOE_ICEBERG_OK
                   : fail(err, "has a type Floe does not decode");
    if (v->encoding == ENC_RLE && s->col->type == FLOE_PARQUET_BOOLEAN) {
        if (len < 4 || get_u32(p) > len - 4)
            return fail(err, "has a boolean page whose length does not fit");
        rle_init(&v->rle, p + 4, get_u32(p), 1);
        return FLOE_ICEBERG_OK;
    }
    if (v->encoding == ENC_RLE_DICTIONARY) {
        if (s->dict == NULL || len < 1 || p[0] > 32)
            return fail(err, "has a dictionary-encoded page without a dictionary");
        rle_init(&v->rle, p + 1, len - 1, p[0]);
        return FLOE_ICEBERG_OK;
    }
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The column chunk uses encoding %d, which Floe does not "
                             "decode.", (int)encoding);
}

/* ---- pages ---- */

typedef struct page_header {
    int32_t type, uncompressed, compressed;
    int32_t num_values, encoding, def_encoding;       /* v1 and v2 */
    int32_t rep_encoding;                              /* v1 */
    int32_t def_len, rep_len;                          /* v2 */
    bool is_compressed;                                /* v2 */
} page_header_t;

static int read_i32_field(floe_parquet_thrift_reader_t *r, uint8_t type, int32_t *out)
{
    return type == FLOE_THRIFT_I32 ? floe_parquet_thrift_read_i32(r, out) : floe_parquet_thrift_skip(r, type);
}

/* DataPageHeader, DictionaryPageHeader or DataPageHeaderV2: the fields the filter uses. */
static int read_sub_header(floe_parquet_thrift_reader_t *r, int16_t which, page_header_t *h)
{
    int16_t last = 0, id;
    uint8_t type;
    int rc = floe_parquet_thrift_enter(r);

    if (rc != 0)
        return rc;
    while ((rc = floe_parquet_thrift_read_field(r, &last, &id, &type)) == 0 && type != FLOE_THRIFT_STOP) {
        int32_t *slot = NULL;
        if (id == 1)
            slot = &h->num_values;
        else if ((which != 8 && id == 2) || (which == 8 && id == 4))
            slot = &h->encoding;
        else if (which == 5 && id == 3)
            slot = &h->def_encoding;
        else if (which == 5 && id == 4)
            slot = &h->rep_encoding;
        else if (which == 8 && id == 5)
            slot = &h->def_len;
        else if (which == 8 && id == 6)
            slot = &h->rep_len;
        if (which == 8 && id == 7 && (type == FLOE_THRIFT_TRUE || type == FLOE_THRIFT_FALSE))
            h->is_compressed = type == FLOE_THRIFT_TRUE;
        else
            rc = slot != NULL ? read_i32_field(r, type, slot) : floe_parquet_thrift_skip(r, type);
    }
    floe_parquet_thrift_leave(r);
    return rc;
}

static int read_page_header(floe_parquet_thrift_reader_t *r, page_header_t *h)
{
    int16_t last = 0, id;
    uint8_t type;
    int rc;

    memset(h, 0, sizeof(*h));
    h->type = -1;
    h->def_encoding = h->rep_encoding = ENC_RLE;
    h->is_compressed = true;
    while ((rc = floe_parquet_thrift_read_field(r, &last, &id, &type)) == 0 && type != FLOE_THRIFT_STOP) {
        if (id == 1)
            rc = read_i32_field(r, type, &h->type);
        else if (id == 2)
            rc = read_i32_field(r, type, &h->uncompressed);
        else if (id == 3)
            rc = read_i32_field(r, type, &h->compressed);
        else if ((id == 5 || id == 7 || id == 8) && type == FLOE_THRIFT_STRUCT)
            rc = read_sub_header(r, id, h);
        else
            rc = floe_parquet_thrift_skip(r, type);
        if (rc != 0)
            return rc;
    }
    return rc;
}

/* The least and greatest kept value so far (design note 4), as offsets into the filter's values
 * (or bits), which move as they grow. */
typedef struct bounds {
    bool is_on; /* a footer was given and no value has had an order Floe does not know */
    bool has;
    size_t min_at, min_len, max_at, max_len;
} bounds_t;

/* The filter's state across the chunk's pages. */
typedef struct filter {
    column_state_t s;
    int64_t num_rows, row;
    const uint64_t *deleted;
    size_t n_deleted, next_deleted;
    bool keep_row;  /* whether the row the last level entry belongs to is kept */
    int64_t entries; /* level entries read (design note 4) */
    buf_t reps;   /* repetition levels, one byte a kept entry (repeated columns) */
    buf_t levels; /* definition levels, one byte a kept entry */
    buf_t values; /* the kept present values, PLAIN */
    buf_t bits;   /* kept booleans, one byte each until written */
    int64_t nulls, kept, kept_rows;
    bounds_t bounds;
    floe_parquet_map_fn map; /* floe_parquet_map_chunk's, or NULL */
    void *map_arg;
    floe_iceberg_error_t *err;
} filter_t;

static bool is_nan(int32_t type, floe_parquet_bytes_t v)
{
    float x;
    double y;

    if (type == FLOE_PARQUET_FLOAT && v.len == 4)
        return memcpy(&x, v.data, 4), isnan(x);
    if (type == FLOE_PARQUET_DOUBLE && v.len == 8)
        return memcpy(&y, v.data, 8), isnan(y);
    return false;
}

/* Whether the column's ColumnOrder is IEEE_754_TOTAL_ORDER, where a NaN has a place in the order. */
static bool is_total_order(const floe_parquet_filter_column_t *col)
{
    return col->footer->has_column_orders && col->leaf < col->footer->n_column_orders &&
           col->footer->column_orders[col->leaf].kind == FLOE_PARQUET_IEEE_754_TOTAL_ORDER;
}

/* Folds the kept value at buf[at..at + len) into the bounds (design note 4): a NaN is left out
 * (under IEEE_754_TOTAL_ORDER, where it has a place, it stops them), as is any value without a
 * known order. */
static void fold_bound(filter_t *f, const buf_t *buf, size_t at, size_t len)
{
    bounds_t *b = &f->bounds;
    const floe_parquet_filter_column_t *col = f->s.col;
    floe_parquet_bytes_t v, lo, hi;
    int cmp = 0;

    if (!b->is_on)
        return;
    if (col->type == FLOE_PARQUET_BYTE_ARRAY) /* its bound has no length prefix */
        at += 4, len -= 4;
    if (len > UINT32_MAX) {
        b->is_on = false;
        return;
    }
    v = (floe_parquet_bytes_t){buf->p + at, (uint32_t)len};
    if (floe_parquet_value_compare(col->footer, col->leaf, v, v, &cmp) != 0) {
        b->is_on = is_nan(col->type, v) && !is_total_order(col);
        return;
    }
    if (!b->has) {
        *b = (bounds_t){true, true, at, len, at, len};
        return;
    }
    lo = (floe_parquet_bytes_t){buf->p + b->min_at, (uint32_t)b->min_len};
    hi = (floe_parquet_bytes_t){buf->p + b->max_at, (uint32_t)b->max_len};
    if (floe_parquet_value_compare(col->footer, col->leaf, v, lo, &cmp) == 0 && cmp < 0)
        b->min_at = at, b->min_len = len;
    if (floe_parquet_value_compare(col->footer, col->leaf, v, hi, &cmp) == 0 && cmp > 0)
        b->max_at = at, b->max_len = len;
}

/* Whether row f->row (a row starting now) is deleted. */
static bool row_is_deleted(filter_t *f)
{
    while (f->next_deleted < f->n_deleted && f->deleted[f->next_deleted] < (uint64_t)f->row)
        f->next_deleted++;
    return f->next_deleted < f->n_deleted && f->deleted[f->next_deleted] == (uint64_t)f->row;
}

static int read_dictionary(filter_t *f, const page_header_t *h, const uint8_t *payload)
{
    const uint8_t *p, *end;

    if (f->s.dict != NULL || h->num_values < 0 || (h->encoding != ENC_PLAIN && h->encoding != ENC_PLAIN_DICTIONARY))
        return fail(f->err, "has a dictionary Floe does not decode");
    if (decompress(f->s.col->codec, payload, (size_t)h->compressed, (size_t)h->uncompressed, &f->s.dict_bytes, f->err))
        return FLOE_ICEBERG_EINVALID;
    p = f->s.dict_bytes;
    end = p + h->uncompressed;
    if ((size_t)h->num_values > (size_t)h->uncompressed + 1)
        return fail(f->err, "has a dictionary with more values than bytes");
    f->s.dict = floe_xcalloc((size_t)h->num_values + 1, sizeof(*f->s.dict));
    for (int32_t i = 0; i < h->num_values; i++) {
        if (f->s.col->type == FLOE_PARQUET_BOOLEAN || plain_next(f->s.col, &p, end, &f->s.dict[i]) != 0)
            return fail(f->err, "has a dictionary whose values do not fit");
    }
    f->s.n_dict = (uint32_t)h->num_values;
    return FLOE_ICEBERG_OK;
}

/* Puts a BYTE_ARRAY value (PLAIN: its length, then its bytes) as f->map replaces it. */
static int put_mapped(filter_t *f, slice_t value)
{
    size_t n = 0;
    uint8_t *mapped = f->map(value.data + 4, value.len - 4, &n, f->map_arg);

    if (mapped == NULL) {
        put(&f->values, value.data, value.len);
        return 0;
    }
    if (n > INT32_MAX) {
        free(mapped);
        return -1;
    }
    put_u32(&f->values, (uint32_t)n);
    put(&f->values, mapped, n);
    free(mapped);
    return 0;
}

/* Whether a page of n level entries fits the row group (checked before its values are decoded). */
static bool count_fits(const filter_t *f, int32_t n)
{
    return n >= 0 && (f->s.col->max_repetition_level > 0 || n <= f->num_rows - f->row) &&
           n <= FLOE_PARQUET_FILTER_ENTRIES_MAX - f->entries;
}

/* Decodes n level entries: their repetition levels from `reps` and definition levels from `levels`
 * (NULL when the column has none) and their present values from v. An entry of repetition level 0
 * starts a row (design note 4); the entries of a deleted row are dropped with their values. */
static int filter_rows(filter_t *f, int32_t n, rle_t *reps, rle_t *levels, values_t *v)
{
    int32_t max_def = f->s.col->max_definition_level, max_rep = f->s.col->max_repetition_level;

    if (!count_fits(f, n))
        return fail(f->err, "holds more values than its row group's rows");
    f->entries += n;
    for (int32_t i = 0; i < n; i++) {
        uint32_t def = (uint32_t)max_def, rep = 0;
        slice_t value = {0};
        bool bit = false;
        if (reps != NULL && (rle_next(reps, &rep) != 0 || rep > (uint32_t)max_rep))
            return fail(f->err, "has repetition levels that do not decode");
        if (levels != NULL && (rle_next(levels, &def) != 0 || def > (uint32_t)max_def))
            return fail(f->err, "has definition levels that do not decode");
        if (rep == 0) { /* a new row */
            if (f->row >= f->num_rows)
                return fail(f->err, "holds more rows than its row group");
            f->keep_row = !row_is_deleted(f);
            f->row++;
            f->kept_rows += f->keep_row;
        } else if (f->row == 0) {
            return fail(f->err, "has a first value that does not start a row");
        }
        if (def == (uint32_t)max_def && value_next(&f->s, v, &value, &bit) != 0)
            return fail(f->err, "has values that do not decode");
        if (!f->keep_row)
            continue;
        f->kept++;
        if (max_rep > 0) {
            uint8_t level = (uint8_t)rep;
            put(&f->reps, &level, 1);
        }
        if (max_def > 0) {
            uint8_t level = (uint8_t)def;
            put(&f->levels, &level, 1);
        }
        if (def != (uint32_t)max_def) {
            f->nulls++;
        } else if (f->s.col->type == FLOE_PARQUET_BOOLEAN) {
            uint8_t b = bit;
            put(&f->bits, &b, 1);
            fold_bound(f, &f->bits, f->bits.len - 1, 1);
        } else if (f->map != NULL) {
            size_t at = f->values.len;
            if (put_mapped(f, value) != 0)
                return fail(f->err, "has a value whose replacement is too long");
            fold_bound(f, &f->values, at, f->values.len - at); /* the bounds of the new values */
        } else {
            put(&f->values, value.data, value.len);
            fold_bound(f, &f->values, f->values.len - value.len, value.len);
        }
    }
    return FLOE_ICEBERG_OK;
}

static int read_data_v1(filter_t *f, const page_header_t *h, const uint8_t *payload)
{
    uint8_t *page = NULL;
    const uint8_t *p, *end;
    rle_t reps, levels;
    values_t v;
    int rc = FLOE_ICEBERG_EINVALID;

    if (!count_fits(f, h->num_values))
        return fail(f->err, "holds more values than its row group's rows");
    if (decompress(f->s.col->codec, payload, (size_t)h->compressed, (size_t)h->uncompressed, &page, f->err))
        return FLOE_ICEBERG_EINVALID;
    p = page;
    end = page + h->uncompressed;
    if (f->s.col->max_repetition_level > 0) { /* repetition levels come first (design note 4) */
        if (h->rep_encoding != ENC_RLE || end - p < 4 || get_u32(p) > (size_t)(end - p) - 4) {
            fail(f->err, "has repetition levels Floe does not decode");
            goto Exit;
        }
        rle_init(&reps, p + 4, get_u32(p), bits_for((uint32_t)f->s.col->max_repetition_level));
        p += 4 + get_u32(p);
    }
    if (f->s.col->max_definition_level > 0) {
        if (h->def_encoding != ENC_RLE || end - p < 4 || get_u32(p) > (size_t)(end - p) - 4) {
            fail(f->err, "has definition levels Floe does not decode");
            goto Exit;
        }
        rle_init(&levels, p + 4, get_u32(p), bits_for((uint32_t)f->s.col->max_definition_level));
        p += 4 + get_u32(p);
    }
    if (values_init(&f->s, &v, h->encoding, p, (size_t)(end - p), h->num_values, f->err) == 0)
        rc = filter_rows(f, h->num_values, f->s.col->max_repetition_level > 0 ? &reps : NULL,
                         f->s.col->max_definition_level > 0 ? &levels : NULL, &v);
    free(v.plain);
Exit:
    free(page);
    return rc;
}

static int read_data_v2(filter_t *f, const page_header_t *h, const uint8_t *payload)
{
    size_t levels_len = (size_t)h->def_len + (size_t)h->rep_len;
    uint8_t *values = NULL;
    rle_t reps, levels;
    values_t v;
    int rc = FLOE_ICEBERG_EINVALID;

    if (!count_fits(f, h->num_values))
        return fail(f->err, "holds more values than its row group's rows");
    if (h->def_len < 0 || h->rep_len < 0 || levels_len > (size_t)h->compressed || levels_len > (size_t)h->uncompressed)
        return fail(f->err, "has a page whose level lengths do not fit");
    if (h->is_compressed) {
        if (decompress(f->s.col->codec, payload + levels_len, (size_t)h->compressed - levels_len,
                       (size_t)h->uncompressed - levels_len, &values, f->err))
            return FLOE_ICEBERG_EINVALID;
    } else {
        if (h->compressed != h->uncompressed)
            return fail(f->err, "has an uncompressed page whose sizes differ");
        values = floe_xmalloc((size_t)h->uncompressed - levels_len + 1);
        memcpy(values, payload + levels_len, (size_t)h->uncompressed - levels_len);
    }
    /* v2: the levels are never compressed, repetition levels first (design note 4) */
    rle_init(&reps, payload, (size_t)h->rep_len, bits_for((uint32_t)f->s.col->max_repetition_level));
    rle_init(&levels, payload + h->rep_len, (size_t)h->def_len, bits_for((uint32_t)f->s.col->max_definition_level));
    if (values_init(&f->s, &v, h->encoding, values, (size_t)h->uncompressed - levels_len, h->num_values, f->err) == 0)
        rc = filter_rows(f, h->num_values, f->s.col->max_repetition_level > 0 ? &reps : NULL,
                         f->s.col->max_definition_level > 0 ? &levels : NULL, &v);
    free(v.plain);
    free(values);
    return rc;
}

/* ---- writing the kept rows ---- */

/* The levels as RLE runs (design note 2). */
static void put_levels(buf_t *out, const buf_t *levels, int bit_width)
{
    size_t n_bytes = ((size_t)bit_width + 7) / 8;

    for (size_t i = 0; i < levels->len;) {
        size_t j = i;
        while (j < levels->len && levels->p[j] == levels->p[i] && j - i < (1u << 30))
            j++;
        put_varint(out, (uint64_t)(j - i) << 1);
        put(out, &levels->p[i], n_bytes); /* a level fits one byte (LEVELS_MAX) */
        i = j;
    }
}

static void put_bits(buf_t *out, const buf_t *bits)
{
    for (size_t i = 0; i < bits->len; i += 8) {
        uint8_t byte = 0;
        for (size_t k = 0; k < 8 && i + k < bits->len; k++)
            byte |= (uint8_t)(bits->p[i + k] << k);
        put(out, &byte, 1);
    }
}

static void put_i32_field(floe_parquet_thrift_writer_t *w, int16_t id, int32_t v)
{
    floe_parquet_thrift_write_field(w, id, FLOE_THRIFT_I32);
    floe_parquet_thrift_write_i32(w, v);
}

/* A ZSTD column's page is compressed again (design note 2): one frame at libzstd's default level. */
static int zstd_body(buf_t *body)
{
    size_t cap = ZSTD_compressBound(body->len), n;
    uint8_t *packed = floe_xmalloc(cap + 1);

    n = ZSTD_compress(packed, cap, body->p, body->len, ZSTD_CLEVEL_DEFAULT);
    if (cap == 0 || ZSTD_isError(n)) {
        free(packed);
        return -1;
    }
    free(body->p);
    body->p = packed;
    body->len = n;
    body->cap = cap + 1;
    return 0;
}

/* Copies one bound to dst[*at..] (design note 4): a float zero as -0.0 for a least value and +0.0
 * for a greatest, as parquet.thrift asks of writers (the two compare equal, so either was kept). */
static floe_parquet_bytes_t put_bound(const filter_t *f, uint8_t *dst, size_t *at, size_t from, size_t len,
                                      bool is_min)
{
    const buf_t *src = f->s.col->type == FLOE_PARQUET_BOOLEAN ? &f->bits : &f->values;
    floe_parquet_bytes_t v = {dst + *at, (uint32_t)len};
    float x;
    double y;

    memcpy(dst + *at, src->p + from, len);
    if (f->s.col->type == FLOE_PARQUET_FLOAT && len == 4 && (memcpy(&x, dst + *at, 4), x == 0.0f)) {
        x = is_min ? -0.0f : 0.0f;
        memcpy(dst + *at, &x, 4);
    } else if (f->s.col->type == FLOE_PARQUET_DOUBLE && len == 8 && (memcpy(&y, dst + *at, 8), y == 0.0)) {
        y = is_min ? -0.0 : 0.0;
        memcpy(dst + *at, &y, 8);
    }
    *at += len;
    return v;
}

/* The bytes of the bounds given out (design note 4). */
static size_t bounds_len(const bounds_t *b)
{
    if (!b->is_on || !b->has)
        return 0;
    return (b->min_len <= FLOE_PARQUET_FILTER_BOUND_MAX ? b->min_len : 0) +
           (b->max_len <= FLOE_PARQUET_FILTER_BOUND_MAX ? b->max_len : 0);
}

/* Gives out the bounds (design note 4), after the chunk's bytes in out->bytes. */
static void put_bounds(const filter_t *f, floe_parquet_filtered_t *out, size_t *at)
{
    const bounds_t *b = &f->bounds;

    if (!b->is_on || !b->has)
        return;
    if (b->min_len <= FLOE_PARQUET_FILTER_BOUND_MAX) {
        out->min = put_bound(f, out->bytes, at, b->min_at, b->min_len, true);
        out->has_min = true;
    }
    if (b->max_len <= FLOE_PARQUET_FILTER_BOUND_MAX) {
        out->max = put_bound(f, out->bytes, at, b->max_at, b->max_len, false);
        out->has_max = true;
    }
}

/* The levels as written: their 4-byte length, then RLE runs (design note 2). */
static void put_level_section(buf_t *body, const buf_t *levels, int32_t max_level)
{
    buf_t runs = {0};

    put_levels(&runs, levels, bits_for((uint32_t)max_level));
    put_u32(body, (uint32_t)runs.len);
    put(body, runs.p, runs.len);
    free(runs.p);
}

static int write_page(filter_t *f, int64_t kept, floe_parquet_filtered_t *out)
{
    buf_t body = {0};
    size_t plain_len;
    int32_t codec = f->s.col->codec == FLOE_PARQUET_ZSTD ? FLOE_PARQUET_ZSTD : FLOE_PARQUET_UNCOMPRESSED;
    floe_parquet_thrift_writer_t w;
    uint8_t *header;
    size_t header_len, bounds_at;

    if (f->s.col->max_repetition_level > 0)
        put_level_section(&body, &f->reps, f->s.col->max_repetition_level);
    if (f->s.col->max_definition_level > 0)
        put_level_section(&body, &f->levels, f->s.col->max_definition_level);
    if (f->s.col->type == FLOE_PARQUET_BOOLEAN)
        put_bits(&body, &f->bits);
    else
        put(&body, f->values.p, f->values.len);
    plain_len = body.len;
    if (codec == FLOE_PARQUET_ZSTD && zstd_body(&body) != 0) {
        free(body.p);
        return fail(f->err, "cannot be compressed with ZSTD again");
    }
    if (plain_len > INT32_MAX || body.len > INT32_MAX || kept > INT32_MAX) {
        free(body.p);
        return fail(f->err, "would be too large as one page");
    }
    floe_parquet_thrift_writer_init(&w);
    floe_parquet_thrift_struct_begin(&w); /* PageHeader */
    put_i32_field(&w, 1, PAGE_DATA);
    put_i32_field(&w, 2, (int32_t)plain_len);
    put_i32_field(&w, 3, (int32_t)body.len);
    floe_parquet_thrift_write_field(&w, 5, FLOE_THRIFT_STRUCT);
    floe_parquet_thrift_struct_begin(&w); /* DataPageHeader */
    put_i32_field(&w, 1, (int32_t)kept);
    put_i32_field(&w, 2, ENC_PLAIN);
    put_i32_field(&w, 3, ENC_RLE);
    put_i32_field(&w, 4, ENC_RLE);
    floe_parquet_thrift_struct_end(&w);
    floe_parquet_thrift_struct_end(&w);
    header = floe_parquet_thrift_writer_take(&w, &header_len);
    out->bytes = floe_xmalloc(header_len + body.len + bounds_len(&f->bounds) + 1);
    memcpy(out->bytes, header, header_len);
    if (body.len > 0)
        memcpy(out->bytes + header_len, body.p, body.len);
    out->len = header_len + body.len;
    bounds_at = out->len;
    put_bounds(f, out, &bounds_at);
    out->codec = codec;
    out->uncompressed_len = header_len + plain_len;
    out->num_values = kept;
    out->num_rows = f->kept_rows;
    out->null_count = f->nulls;
    free(header);
    free(body.p);
    return FLOE_ICEBERG_OK;
}

static int read_pages(filter_t *f, const uint8_t *chunk, size_t len)
{
    size_t at = 0;

    /* a repeated column's last row may go on in the next page: every page is read */
    while (at < len && (f->row < f->num_rows || f->s.col->max_repetition_level > 0)) {
        floe_parquet_thrift_reader_t r;
        page_header_t h;
        const uint8_t *payload;
        int rc;
        floe_parquet_thrift_reader_init(&r, "A page header", chunk + at, len - at, f->err);
        if (read_page_header(&r, &h) != 0)
            return FLOE_ICEBERG_EINVALID;
        at += floe_parquet_thrift_offset(&r);
        if (h.compressed < 0 || h.uncompressed < 0 || (size_t)h.compressed > len - at)
            return fail(f->err, "has a page longer than the chunk");
        payload = chunk + at;
        at += (size_t)h.compressed;
        if (h.type == PAGE_DICTIONARY)
            rc = read_dictionary(f, &h, payload);
        else if (h.type == PAGE_DATA)
            rc = read_data_v1(f, &h, payload);
        else if (h.type == PAGE_DATA_V2)
            rc = read_data_v2(f, &h, payload);
        else
            rc = FLOE_ICEBERG_OK; /* an index page: nothing to keep */
        if (rc != 0)
            return rc;
    }
    return f->row == f->num_rows ? FLOE_ICEBERG_OK : fail(f->err, "holds fewer rows than its row group");
}

/* Decodes the chunk's pages through f and writes the one page of what it keeps. */
static int run(filter_t *f, const uint8_t *chunk, size_t len, floe_parquet_filtered_t *out)
{
    const floe_parquet_filter_column_t *column = f->s.col;
    floe_iceberg_error_t *err = f->err;
    int64_t num_rows = f->num_rows;
    int rc;

    f->bounds.is_on = column->footer != NULL && column->leaf < column->footer->n_leaves;

    memset(out, 0, sizeof(*out));
    if (column->max_definition_level < 0 || column->max_definition_level > LEVELS_MAX || num_rows < 0 ||
        column->max_repetition_level < 0 || column->max_repetition_level > LEVELS_MAX ||
        (column->max_repetition_level > 0 && column->max_definition_level == 0))
        return fail(err, "has levels Floe does not decode");
    /* checked before any page: a chunk without data pages must not pass once and fail when read again */
    if (column->type < FLOE_PARQUET_BOOLEAN || column->type > FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY ||
        (column->type == FLOE_PARQUET_FIXED_LEN_BYTE_ARRAY && column->type_length <= 0))
        return fail(err, "has a type Floe does not decode");
    rc = read_pages(f, chunk, len);
    if (rc == FLOE_ICEBERG_OK)
        rc = write_page(f, f->kept, out);
    free(f->s.dict_bytes);
    free(f->s.dict);
    free(f->reps.p);
    free(f->levels.p);
    free(f->values.p);
    free(f->bits.p);
    return rc;
}

int floe_parquet_filter_chunk(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                              int64_t num_rows, const uint64_t *deleted, size_t n_deleted,
                              floe_parquet_filtered_t *out, floe_iceberg_error_t *err)
{
    filter_t f = {.s = {.col = column}, .num_rows = num_rows, .deleted = deleted, .n_deleted = n_deleted, .err = err};

    return run(&f, chunk, len, out);
}

int floe_parquet_map_chunk(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                           int64_t num_rows, floe_parquet_map_fn map, void *arg, floe_parquet_filtered_t *out,
                           floe_iceberg_error_t *err)
{
    filter_t f = {.s = {.col = column}, .num_rows = num_rows, .map = map, .map_arg = arg, .err = err};

    assert(map != NULL);
    memset(out, 0, sizeof(*out));
    if (column->type != FLOE_PARQUET_BYTE_ARRAY)
        return fail(err, "is not of type BYTE_ARRAY, so its values cannot be replaced");
    if (run(&f, chunk, len, out) != FLOE_ICEBERG_OK)
        return FLOE_ICEBERG_EINVALID;
    out->is_mapped = true;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_filter_values(const uint8_t *chunk, size_t len, const floe_parquet_filter_column_t *column,
                               int64_t num_rows, floe_parquet_values_t *out, floe_iceberg_error_t *err)
{
    filter_t f = {.s = {.col = column}, .num_rows = num_rows, .err = err};
    int rc;

    memset(out, 0, sizeof(*out));
    if (column->type == FLOE_PARQUET_BOOLEAN)
        return fail(err, "holds booleans, which Floe does not read as values");
    if (column->max_repetition_level != 0)
        return fail(err, "belongs to a repeated field (a list or a map), which Floe does not read");
    if (column->max_definition_level < 0 || column->max_definition_level > LEVELS_MAX || num_rows < 0)
        return fail(err, "has levels Floe does not decode");
    rc = read_pages(&f, chunk, len); /* no row deleted: every value is kept */
    free(f.s.dict_bytes);
    free(f.s.dict);
    free(f.reps.p);
    free(f.levels.p);
    free(f.bits.p);
    if (rc != FLOE_ICEBERG_OK) {
        free(f.values.p);
        return rc;
    }
    out->plain = f.values.p;
    out->len = f.values.len;
    out->n_values = f.kept - f.nulls;
    out->null_count = f.nulls;
    return FLOE_ICEBERG_OK;
}
