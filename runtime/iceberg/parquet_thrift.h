/*
 * Thrift's compact protocol, the encoding of Parquet footers, page indexes and bloom filter
 * headers (apache/thrift doc/specs/thrift-compact-protocol.md): a bounds-checked reader that can
 * skip any value it does not know, and a writer into a growing buffer. Only what Parquet uses:
 * no messages, and maps, sets and UUIDs are only ever skipped.
 *
 * Not the Parquet model (parquet_footer.c turns fields into structs). The reader never reads past
 * its end, refuses varints longer than their type allows, lists longer than the bytes left could
 * hold, and nesting deeper than FLOE_PARQUET_DEPTH_MAX; each refusal names the byte offset.
 */
#ifndef FLOE_ICEBERG_PARQUET_THRIFT_H
#define FLOE_ICEBERG_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"

/** The deepest nesting of Thrift structs and lists read. */
#define FLOE_PARQUET_DEPTH_MAX 64
/** The most elements one list may have. */
#define FLOE_PARQUET_LIST_MAX (1u << 24)

/* Compact-protocol types: a field header's low nibble, a list header's element type. */
#define FLOE_THRIFT_STOP 0
#define FLOE_THRIFT_TRUE 1 /* a bool field's value is its type; in a list, both mean bool */
#define FLOE_THRIFT_FALSE 2
#define FLOE_THRIFT_I8 3
#define FLOE_THRIFT_I16 4
#define FLOE_THRIFT_I32 5
#define FLOE_THRIFT_I64 6
#define FLOE_THRIFT_DOUBLE 7
#define FLOE_THRIFT_BINARY 8
#define FLOE_THRIFT_LIST 9
#define FLOE_THRIFT_SET 10
#define FLOE_THRIFT_MAP 11
#define FLOE_THRIFT_STRUCT 12
#define FLOE_THRIFT_UUID 13

typedef struct floe_parquet_thrift_reader {
    const char *what; /* names the input in messages: "The Parquet footer" */
    const uint8_t *start, *p, *end;
    int depth; /* structs, lists, sets and maps open */
    floe_iceberg_error_t *err;
} floe_parquet_thrift_reader_t;

/** Reads `len` bytes at `data` (borrowed); failures go to err, naming the input `what` (static). */
void floe_parquet_thrift_reader_init(floe_parquet_thrift_reader_t *r, const char *what, const uint8_t *data,
                                     size_t len, floe_iceberg_error_t *err);

/** Records "<what> is malformed at byte N: <message>." in the reader's err; returns FLOE_ICEBERG_EINVALID. */
int floe_parquet_thrift_fail(floe_parquet_thrift_reader_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

int floe_parquet_thrift_read_byte(floe_parquet_thrift_reader_t *r, uint8_t *out /* OUT */);
int floe_parquet_thrift_read_varint(floe_parquet_thrift_reader_t *r, uint64_t *out /* OUT */);
int floe_parquet_thrift_read_i16(floe_parquet_thrift_reader_t *r, int16_t *out /* OUT */);
int floe_parquet_thrift_read_i32(floe_parquet_thrift_reader_t *r, int32_t *out /* OUT */);
int floe_parquet_thrift_read_i64(floe_parquet_thrift_reader_t *r, int64_t *out /* OUT */);
/** A binary (or string) value: *data points into the input, valid while it is. */
int floe_parquet_thrift_read_binary(floe_parquet_thrift_reader_t *r, const uint8_t **data /* OUT */,
                                    uint32_t *len /* OUT */);

/**
 * Reads a field header inside a struct whose previous field id is *last_id (0 at the start) and
 * updates it. *type is FLOE_THRIFT_STOP at the struct's end (then *id is 0).
 */
int floe_parquet_thrift_read_field(floe_parquet_thrift_reader_t *r, int16_t *last_id, int16_t *id /* OUT */,
                                   uint8_t *type /* OUT */);

/** Reads a list (or set) header. *n is at most the bytes left and FLOE_PARQUET_LIST_MAX. A bool element
 * type is reported as FLOE_THRIFT_TRUE, whichever of 1 and 2 the writer used. */
int floe_parquet_thrift_read_list(floe_parquet_thrift_reader_t *r, uint8_t *elem_type /* OUT */,
                                  uint32_t *n /* OUT */);

/** Skips one value of compact type `type` (a field's value: nothing for a bool field). */
int floe_parquet_thrift_skip(floe_parquet_thrift_reader_t *r, uint8_t type);
/** Skips one list element of `elem_type` (a bool element is one byte). */
int floe_parquet_thrift_skip_element(floe_parquet_thrift_reader_t *r, uint8_t elem_type);

/** Enters a struct or list: fails past FLOE_PARQUET_DEPTH_MAX. Pair with floe_parquet_thrift_leave. */
int floe_parquet_thrift_enter(floe_parquet_thrift_reader_t *r);
void floe_parquet_thrift_leave(floe_parquet_thrift_reader_t *r);

/** The offset of the next byte to read. */
size_t floe_parquet_thrift_offset(const floe_parquet_thrift_reader_t *r);

typedef struct floe_parquet_thrift_writer {
    uint8_t *data; /* malloc'ed */
    size_t len, cap;
    int depth;                                    /* structs open */
    int16_t last_id[FLOE_PARQUET_DEPTH_MAX + 1]; /* previous field id of each open struct */
} floe_parquet_thrift_writer_t;

/** An empty writer. Take its bytes with floe_parquet_thrift_writer_take or free them with _dispose. */
void floe_parquet_thrift_writer_init(floe_parquet_thrift_writer_t *w);
void floe_parquet_thrift_writer_dispose(floe_parquet_thrift_writer_t *w);
/** The bytes written (malloc'ed, the caller frees) and their count; the writer is empty again. */
uint8_t *floe_parquet_thrift_writer_take(floe_parquet_thrift_writer_t *w, size_t *len /* OUT */);

void floe_parquet_thrift_write_bytes(floe_parquet_thrift_writer_t *w, const void *p, size_t n);
void floe_parquet_thrift_write_varint(floe_parquet_thrift_writer_t *w, uint64_t v);
void floe_parquet_thrift_write_i32(floe_parquet_thrift_writer_t *w, int32_t v);
void floe_parquet_thrift_write_i64(floe_parquet_thrift_writer_t *w, int64_t v);
void floe_parquet_thrift_write_binary(floe_parquet_thrift_writer_t *w, const void *p, uint32_t n);
/** A field header (short form when the id is 1..15 above the previous one). */
void floe_parquet_thrift_write_field(floe_parquet_thrift_writer_t *w, int16_t id, uint8_t type);
/** A bool field: its value is its header's type. */
void floe_parquet_thrift_write_bool_field(floe_parquet_thrift_writer_t *w, int16_t id, bool v);
void floe_parquet_thrift_write_list(floe_parquet_thrift_writer_t *w, uint8_t elem_type, uint32_t n);
/** Opens a struct value (after its field header or as a list element, or the top-level struct). */
void floe_parquet_thrift_struct_begin(floe_parquet_thrift_writer_t *w);
/** Writes the stop field and closes the struct. */
void floe_parquet_thrift_struct_end(floe_parquet_thrift_writer_t *w);

#endif
