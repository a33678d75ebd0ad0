/*
 * Avro object container framing: header, blocks, null, deflate and zstandard codecs
 * (avro_container.h). The deflate codec is raw RFC 1951 data, without zlib's header or checksum
 * (Avro spec, "Required Codecs"): zlib's window bits are negative for that. A zstandard block is
 * ZSTD frames whose content size Avro Java's stream writer leaves out, so it is decoded as a stream.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "iceberg/avro_container.h"
#include "iceberg/zstd_load.h"

/** Raw deflate, no zlib header (zlib's windowBits of -15). */
#define RAW_DEFLATE_WINDOW_BITS (-15)
#define DEFLATE_MEM_LEVEL 8
/** The longest varint an Avro long takes. */
#define VARINT_MAX_BYTES 10
#define SCRATCH_INITIAL ((size_t)64 * 1024)

int floe_avro_fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;

    if (err != NULL && err_size > 0) {
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- reading ---- */

static int read_long(const uint8_t **p, const uint8_t *end, int64_t *out)
{
    uint64_t v = 0;

    for (int shift = 0, i = 0; i < VARINT_MAX_BYTES; i++, shift += 7) {
        if (*p >= end)
            return -1;
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            return 0;
        }
    }
    return -1;
}

/* A length-prefixed byte string: points into the input. */
static int read_bytes(const uint8_t **p, const uint8_t *end, const uint8_t **bytes, size_t *len)
{
    int64_t n;

    if (read_long(p, end, &n) != 0 || n < 0 || (uint64_t)n > (uint64_t)(end - *p))
        return -1;
    *bytes = *p;
    *len = (size_t)n;
    *p += n;
    return 0;
}

static void *arena_copy(floe_parquet_arena_t *arena, const uint8_t *bytes, size_t len)
{
    uint8_t *copy = floe_parquet_arena_alloc(arena, len + 1, 1);

    if (copy != NULL && len > 0)
        memcpy(copy, bytes, len);
    return copy;
}

static int read_meta_entry(floe_avro_reader_t *r, floe_parquet_arena_t *arena, floe_avro_meta_t *m)
{
    const uint8_t *key, *value;
    size_t key_len, value_len;

    if (read_bytes(&r->p, r->end, &key, &key_len) != 0 || read_bytes(&r->p, r->end, &value, &value_len) != 0)
        return -1;
    m->key = arena_copy(arena, key, key_len);
    m->value = arena_copy(arena, value, value_len);
    m->value_len = value_len;
    return m->key != NULL && m->value != NULL && memchr(key, 0, key_len) == NULL ? 0 : -1;
}

/* The metadata map: blocks of entries, a negative count followed by a byte size, 0 at the end. */
static int read_meta(floe_avro_reader_t *r, floe_parquet_arena_t *arena, char *err, size_t err_size)
{
    r->meta = floe_parquet_arena_alloc(arena, FLOE_AVRO_META_MAX, sizeof(*r->meta));
    if (r->meta == NULL)
        return floe_avro_fail(err, err_size, "header: out of memory");
    for (;;) {
        int64_t count, size;
        if (read_long(&r->p, r->end, &count) != 0)
            return floe_avro_fail(err, err_size, "header: truncated metadata");
        if (count == 0)
            return 0;
        if (count < 0) {
            if (count == INT64_MIN || read_long(&r->p, r->end, &size) != 0)
                return floe_avro_fail(err, err_size, "header: truncated metadata");
            count = -count;
        }
        if ((uint64_t)count > FLOE_AVRO_META_MAX - r->n_meta)
            return floe_avro_fail(err, err_size, "header: more than %d metadata entries", FLOE_AVRO_META_MAX);
        for (int64_t i = 0; i < count; i++)
            if (read_meta_entry(r, arena, &r->meta[r->n_meta++]) != 0)
                return floe_avro_fail(err, err_size, "header: truncated or invalid metadata entry");
    }
}

static int check_codec(floe_avro_reader_t *r, char *err, size_t err_size)
{
    const floe_avro_meta_t *codec = floe_avro_reader_meta(r, "avro.codec");

    if (codec == NULL || strcmp((const char *)codec->value, "null") == 0)
        return 0;
    if (strcmp((const char *)codec->value, "deflate") == 0) {
        r->is_deflate = true;
        return 0;
    }
    if (strcmp((const char *)codec->value, "zstandard") == 0) {
        r->is_zstd = true;
        return 0;
    }
    return floe_avro_fail(err, err_size,
                          "header: unsupported codec \"%.32s\" (null, deflate and zstandard are read)",
                          (const char *)codec->value);
}

int floe_avro_reader_open(floe_avro_reader_t *r, const uint8_t *data, size_t len, floe_parquet_arena_t *arena,
                          char *err, size_t err_size)
{
    memset(r, 0, sizeof(*r));
    r->p = data;
    r->end = data + len;
    if (len < FLOE_AVRO_MAGIC_LEN || memcmp(data, FLOE_AVRO_MAGIC, FLOE_AVRO_MAGIC_LEN) != 0)
        return floe_avro_fail(err, err_size, "not an Avro object container file (bad magic)");
    r->p += FLOE_AVRO_MAGIC_LEN;
    if (read_meta(r, arena, err, err_size) != 0)
        return -1;
    if ((size_t)(r->end - r->p) < FLOE_AVRO_SYNC_LEN)
        return floe_avro_fail(err, err_size, "header: truncated sync marker");
    memcpy(r->sync, r->p, FLOE_AVRO_SYNC_LEN);
    r->p += FLOE_AVRO_SYNC_LEN;
    return check_codec(r, err, err_size);
}

const floe_avro_meta_t *floe_avro_reader_meta(const floe_avro_reader_t *r, const char *key)
{
    for (size_t i = 0; i < r->n_meta; i++)
        if (strcmp(r->meta[i].key, key) == 0)
            return &r->meta[i];
    return NULL;
}

/* Inflates in[0..in_len) into the scratch buffer, growing it up to FLOE_AVRO_BLOCK_MAX. */
static int inflate_block(floe_avro_reader_t *r, const uint8_t *in, size_t in_len, size_t *out_len)
{
    z_stream z;
    int rc;

    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, RAW_DEFLATE_WINDOW_BITS) != Z_OK)
        return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)in_len;
    *out_len = 0;
    do {
        if (*out_len == r->scratch_cap) {
            if (r->scratch_cap >= FLOE_AVRO_BLOCK_MAX) {
                rc = Z_MEM_ERROR;
                break;
            }
            r->scratch_cap = r->scratch_cap == 0 ? SCRATCH_INITIAL : r->scratch_cap * 2;
            if (r->scratch_cap > FLOE_AVRO_BLOCK_MAX)
                r->scratch_cap = FLOE_AVRO_BLOCK_MAX;
            r->scratch = floe_xrealloc(r->scratch, r->scratch_cap);
        }
        z.next_out = r->scratch + *out_len;
        z.avail_out = (uInt)(r->scratch_cap - *out_len);
        rc = inflate(&z, Z_NO_FLUSH);
        *out_len = r->scratch_cap - z.avail_out;
    } while (rc == Z_OK || (rc == Z_BUF_ERROR && z.avail_out == 0));
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

/* Grows the scratch buffer when *out_len fills it: -1 once it is FLOE_AVRO_BLOCK_MAX. */
static int grow_scratch(floe_avro_reader_t *r, size_t out_len)
{
    if (out_len < r->scratch_cap)
        return 0;
    if (r->scratch_cap >= FLOE_AVRO_BLOCK_MAX)
        return -1;
    r->scratch_cap = r->scratch_cap == 0 ? SCRATCH_INITIAL : r->scratch_cap * 2;
    if (r->scratch_cap > FLOE_AVRO_BLOCK_MAX)
        r->scratch_cap = FLOE_AVRO_BLOCK_MAX;
    r->scratch = floe_xrealloc(r->scratch, r->scratch_cap);
    return 0;
}

/* Decodes the ZSTD frames in[0..in_len) into the scratch buffer, up to FLOE_AVRO_BLOCK_MAX. */
static int unzstd_block(floe_avro_reader_t *r, const uint8_t *in, size_t in_len, size_t *out_len)
{
    ZSTD_DCtx *z = ZSTD_createDCtx();
    ZSTD_inBuffer src = {in, in_len, 0};
    size_t rc = 1;

    *out_len = 0;
    if (z == NULL)
        return -1;
    while (src.pos < src.size || rc != 0) {
        ZSTD_outBuffer dst;
        if (grow_scratch(r, *out_len) != 0)
            break;
        dst = (ZSTD_outBuffer){r->scratch, r->scratch_cap, *out_len};
        rc = ZSTD_decompressStream(z, &dst, &src);
        *out_len = dst.pos;
        if (ZSTD_isError(rc) || (rc != 0 && src.pos == src.size && dst.pos < dst.size))
            break; /* bad data, or a frame cut short */
    }
    ZSTD_freeDCtx(z);
    return src.pos == src.size && rc == 0 ? 0 : -1;
}

int floe_avro_reader_next(floe_avro_reader_t *r, floe_avro_block_t *block, char *err, size_t err_size)
{
    int64_t count, size;
    size_t n = r->n_blocks + 1;

    if (r->p == r->end)
        return 0;
    if (read_long(&r->p, r->end, &count) != 0 || read_long(&r->p, r->end, &size) != 0)
        return floe_avro_fail(err, err_size, "block %zu: truncated header", n);
    if (count < 0 || size < 0 || (uint64_t)size > (uint64_t)(r->end - r->p))
        return floe_avro_fail(err, err_size, "block %zu: truncated", n);
    if ((uint64_t)(r->end - r->p) - (uint64_t)size < FLOE_AVRO_SYNC_LEN)
        return floe_avro_fail(err, err_size, "block %zu: truncated sync marker", n);
    if (memcmp(r->p + size, r->sync, FLOE_AVRO_SYNC_LEN) != 0)
        return floe_avro_fail(err, err_size, "block %zu: sync marker does not match the header's", n);
    block->data = r->p;
    block->len = (size_t)size;
    if (r->is_deflate) {
        if ((uint64_t)size > UINT32_MAX || inflate_block(r, r->p, (size_t)size, &block->len) != 0)
            return floe_avro_fail(err, err_size, "block %zu: invalid deflate data or more than %zu bytes inflated", n,
                                  FLOE_AVRO_BLOCK_MAX);
        block->data = r->scratch;
    } else if (r->is_zstd) {
        if (floe_zstd_load() != 0)
            return floe_avro_fail(err, err_size, "block %zu: the zstandard codec needs libzstd: %s", n,
                                  floe_zstd_load_error());
        if (unzstd_block(r, r->p, (size_t)size, &block->len) != 0)
            return floe_avro_fail(err, err_size, "block %zu: invalid zstandard data or more than %zu bytes decoded", n,
                                  FLOE_AVRO_BLOCK_MAX);
        block->data = r->scratch;
    } else if (block->len > FLOE_AVRO_BLOCK_MAX) {
        return floe_avro_fail(err, err_size, "block %zu: more than %zu bytes", n, FLOE_AVRO_BLOCK_MAX);
    }
    if ((uint64_t)count > block->len)
        return floe_avro_fail(err, err_size, "block %zu: claims %lld objects in %zu bytes", n, (long long)count,
                              block->len);
    block->n_objects = count;
    r->p += size + FLOE_AVRO_SYNC_LEN;
    r->n_blocks = n;
    return 1;
}

void floe_avro_reader_close(floe_avro_reader_t *r)
{
    free(r->scratch);
    r->scratch = NULL;
    r->scratch_cap = 0;
}

/* ---- writing ---- */

void floe_avro_buf_append(floe_avro_buf_t *b, const void *bytes, size_t n)
{
    if (n == 0)
        return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap == 0 ? 256 : b->cap;
        while (cap - b->len < n)
            cap *= 2;
        b->data = floe_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

void floe_avro_buf_long(floe_avro_buf_t *b, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint8_t bytes[VARINT_MAX_BYTES];
    size_t n = 0;

    do {
        bytes[n] = (uint8_t)(z & 0x7f);
        z >>= 7;
        if (z != 0)
            bytes[n] |= 0x80;
        n++;
    } while (z != 0);
    floe_avro_buf_append(b, bytes, n);
}

void floe_avro_buf_dispose(floe_avro_buf_t *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* 16 bytes from two FNV-1a passes over the header: deterministic (design note 3), and unlikely
 * to appear inside the data, which is all a sync marker needs. */
static void make_sync(const uint8_t *bytes, size_t len, uint8_t sync[FLOE_AVRO_SYNC_LEN])
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};

    for (size_t i = 0; i < len; i++) {
        h[0] = (h[0] ^ bytes[i]) * 0x100000001b3ull;
        h[1] = (h[1] ^ bytes[len - 1 - i]) * 0x100000001b3ull;
    }
    for (int i = 0; i < FLOE_AVRO_SYNC_LEN; i++)
        sync[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
}

static int deflate_into(floe_avro_buf_t *out, const uint8_t *in, size_t len)
{
    z_stream z;
    uLong bound;
    int rc;

    memset(&z, 0, sizeof(z));
    if (len > UINT32_MAX / 2 ||
        deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, RAW_DEFLATE_WINDOW_BITS, DEFLATE_MEM_LEVEL,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    bound = deflateBound(&z, (uLong)len);
    uint8_t *buf = floe_xmalloc(bound);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)bound;
    rc = deflate(&z, Z_FINISH);
    size_t n = bound - z.avail_out;
    deflateEnd(&z);
    if (rc == Z_STREAM_END) {
        floe_avro_buf_long(out, (int64_t)n);
        floe_avro_buf_append(out, buf, n);
    }
    free(buf);
    return rc == Z_STREAM_END ? 0 : -1;
}

static int write_block(floe_avro_buf_t *out, const uint8_t *data, size_t len, size_t n_objects, bool deflate,
                       const uint8_t sync[FLOE_AVRO_SYNC_LEN])
{
    floe_avro_buf_long(out, (int64_t)n_objects);
    if (deflate) {
        if (deflate_into(out, data, len) != 0)
            return -1;
    } else {
        floe_avro_buf_long(out, (int64_t)len);
        floe_avro_buf_append(out, data, len);
    }
    floe_avro_buf_append(out, sync, FLOE_AVRO_SYNC_LEN);
    return 0;
}

int floe_avro_container_write(floe_avro_buf_t *out, const floe_avro_meta_t *meta, size_t n_meta, const uint8_t *data,
                              const size_t *offsets, size_t n_objects, bool deflate, char *err, size_t err_size)
{
    uint8_t sync[FLOE_AVRO_SYNC_LEN];
    size_t first = 0;

    assert(out->len == 0);
    floe_avro_buf_append(out, FLOE_AVRO_MAGIC, FLOE_AVRO_MAGIC_LEN);
    if (n_meta > 0) {
        floe_avro_buf_long(out, (int64_t)n_meta);
        for (size_t i = 0; i < n_meta; i++) {
            size_t key_len = strlen(meta[i].key);
            floe_avro_buf_long(out, (int64_t)key_len);
            floe_avro_buf_append(out, meta[i].key, key_len);
            floe_avro_buf_long(out, (int64_t)meta[i].value_len);
            floe_avro_buf_append(out, meta[i].value, meta[i].value_len);
        }
    }
    floe_avro_buf_long(out, 0);
    make_sync(out->data, out->len, sync);
    floe_avro_buf_append(out, sync, FLOE_AVRO_SYNC_LEN);
    for (size_t i = 1; i <= n_objects; i++) {
        if (i < n_objects && offsets[i] - offsets[first] < FLOE_AVRO_BLOCK_TARGET)
            continue;
        if (write_block(out, data + offsets[first], offsets[i] - offsets[first], i - first, deflate, sync) != 0)
            return floe_avro_fail(err, err_size, "deflate failed");
        first = i;
    }
    return 0;
}
