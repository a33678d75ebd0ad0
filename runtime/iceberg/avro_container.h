/*
 * The framing of Avro object container files (Avro spec, "Object Container Files"): the header
 * (magic, metadata map, sync marker) and the blocks (object count, byte size, data, sync marker),
 * with the null and deflate codecs, and zstandard for reading (Iceberg Java writes it when
 * write.avro.compression-codec says so). Hand-written because Avro C's file reader and writer cannot
 * read or write the header metadata Iceberg keeps there (manifest.h); the datums inside the
 * blocks are Avro C's business (avro_datum.h checks them, libavro decodes them).
 *
 * Not an Avro codec: nothing here looks inside a block.
 *
 * Design notes
 * ------------
 * 1. Reading is a cursor: floe_avro_reader_open parses the header, floe_avro_reader_next hands
 *    out one block at a time. A deflated or zstandard block is decompressed into a scratch buffer the reader owns
 *    and reuses, so a block's bytes are valid until the next call; memory is bounded by the
 *    largest block, at most FLOE_AVRO_BLOCK_MAX bytes uncompressed.
 * 2. Every length and count is checked against the bytes that remain before it is used; a
 *    block may not claim more objects than it has bytes (a datum takes at least one byte in the
 *    schemas Iceberg uses, and avro_datum.h refuses an empty one).
 * 3. Writing is deterministic: the sync marker is derived from the header, so the same input
 *    gives the same bytes.
 */
#ifndef FLOE_ICEBERG_AVRO_CONTAINER_H
#define FLOE_ICEBERG_AVRO_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/parquet_arena.h"

/** "Obj" and the version byte 1: the first bytes of every Avro object container file. */
#define FLOE_AVRO_MAGIC "Obj\x01"
#define FLOE_AVRO_MAGIC_LEN 4
#define FLOE_AVRO_SYNC_LEN 16
/** The most metadata entries a header may hold. */
#define FLOE_AVRO_META_MAX 1024
/** The most bytes one block may hold after inflating. */
#define FLOE_AVRO_BLOCK_MAX ((size_t)64 * 1024 * 1024)
/** Blocks Floe writes hold about this many bytes of datums before compression. */
#define FLOE_AVRO_BLOCK_TARGET ((size_t)1024 * 1024)

/** One header metadata entry; key and value are NUL-terminated copies (the NUL not counted). */
typedef struct floe_avro_meta {
    char *key;
    uint8_t *value;
    size_t value_len;
} floe_avro_meta_t;

typedef struct floe_avro_reader {
    const uint8_t *p, *end;      /* the input not yet read */
    uint8_t sync[FLOE_AVRO_SYNC_LEN];
    bool is_deflate;
    bool is_zstd;                /* the zstandard codec (read only) */
    floe_avro_meta_t *meta;      /* in the arena given to open */
    size_t n_meta;
    uint8_t *scratch;            /* malloc'd inflate buffer, reused across blocks */
    size_t scratch_cap;
    size_t n_blocks;             /* blocks handed out so far, for messages */
} floe_avro_reader_t;

/** One block: `len` bytes holding `n_objects` datums (design note 1 says how long they live). */
typedef struct floe_avro_block {
    const uint8_t *data;
    size_t len;
    int64_t n_objects;
} floe_avro_block_t;

/**
 * Parses the header of the container in data[0..len): magic, metadata (copied into `arena`),
 * codec ("null", "deflate", "zstandard" or none) and sync marker. `data` must outlive the reader. Returns 0,
 * or -1 with a reason in err. Release with floe_avro_reader_close either way.
 */
int floe_avro_reader_open(floe_avro_reader_t *r /* OUT */, const uint8_t *data, size_t len,
                          floe_parquet_arena_t *arena, char *err, size_t err_size);

/** The value of header key `key`, or NULL. Points into the reader's arena. */
const floe_avro_meta_t *floe_avro_reader_meta(const floe_avro_reader_t *r, const char *key);

/**
 * The next block: 1 with *block filled, 0 at the end of the file, -1 with a reason in err
 * (truncated, sync marker mismatch, bad deflate or zstandard data, over FLOE_AVRO_BLOCK_MAX).
 */
int floe_avro_reader_next(floe_avro_reader_t *r, floe_avro_block_t *block /* OUT */, char *err, size_t err_size);

/** Frees the reader's scratch buffer. Safe on a zeroed reader. */
void floe_avro_reader_close(floe_avro_reader_t *r);

/** A growing malloc'd byte buffer (the writer's output). */
typedef struct floe_avro_buf {
    uint8_t *data;
    size_t len, cap;
} floe_avro_buf_t;

/** Appends n bytes. Aborts when memory runs out (floe_xmalloc). */
void floe_avro_buf_append(floe_avro_buf_t *b, const void *bytes, size_t n);

/** Appends v as an Avro long (zig-zag varint). */
void floe_avro_buf_long(floe_avro_buf_t *b, int64_t v);

/** Frees b's data and zeroes it. */
void floe_avro_buf_dispose(floe_avro_buf_t *b);

/**
 * Writes a whole container to *out (which must be empty): the header with `meta` (avro.schema
 * and avro.codec among them, as the caller gives them), then the datums in blocks of about
 * FLOE_AVRO_BLOCK_TARGET bytes, deflated when `deflate` is true. datums[i] starts at
 * data[offsets[i]] and ends at offsets[i + 1] (offsets has n_objects + 1 entries). Returns 0, or
 * -1 with a reason in err (zlib failure).
 */
int floe_avro_container_write(floe_avro_buf_t *out, const floe_avro_meta_t *meta, size_t n_meta,
                              const uint8_t *data, const size_t *offsets, size_t n_objects, bool deflate,
                              char *err, size_t err_size);

/** Formats a one-line reason into err (when err is not NULL); returns -1. */
int floe_avro_fail(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
