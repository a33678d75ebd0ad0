/*
 * A small streaming JSON writer: the generated serializers and the error responses write through
 * it into one growable buffer. It places commas itself, escapes strings per RFC 8259 and writes
 * timestamps as RFC 3339. Not a parser (requests are parsed with cJSON in codec.c).
 */
#ifndef FLOE_BASE_JSON_H
#define FLOE_BASE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLOE_JSON_MAX_DEPTH 64

typedef struct floe_json {
    char *buf;
    size_t len;
    size_t cap;
    int depth;
    bool need_comma[FLOE_JSON_MAX_DEPTH];
    bool after_key;
} floe_json_t;

/** Starts an empty document; release with floe_json_dispose. */
void floe_json_init(floe_json_t *w);
void floe_json_dispose(floe_json_t *w);
/** Empties the buffer but keeps its memory, for reuse by the next response. */
void floe_json_reset(floe_json_t *w);

void floe_json_object_begin(floe_json_t *w);
void floe_json_object_end(floe_json_t *w);
void floe_json_array_begin(floe_json_t *w);
void floe_json_array_end(floe_json_t *w);
void floe_json_key(floe_json_t *w, const char *key);
/** A key of n bytes that needs no escaping (a model's member name), copied as it is. */
void floe_json_name(floe_json_t *w, const char *name, size_t n);
void floe_json_string(floe_json_t *w, const char *s);
void floe_json_string_n(floe_json_t *w, const char *s, size_t n);
void floe_json_int(floe_json_t *w, int64_t v);
void floe_json_bool(floe_json_t *w, bool v);
/** Writes already-valid JSON text as one value. */
void floe_json_raw(floe_json_t *w, const char *json);
/** Milliseconds since the epoch as an RFC 3339 UTC string with milliseconds. */
void floe_json_timestamp(floe_json_t *w, int64_t ms);
/** Milliseconds since the epoch as epoch seconds (a JSON number). */
void floe_json_epoch_seconds(floe_json_t *w, int64_t ms);
/** Formats ms since the epoch as RFC 3339 ("2024-01-02T03:04:05.678Z") into buf (>= 32 bytes). */
void floe_format_rfc3339(int64_t ms, char *buf, size_t size);

#endif
