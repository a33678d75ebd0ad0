/*
 * Reading Avro C values the way manifest readers need: a record's field by name, whatever union
 * wraps it (["null", T] or [T, "null"]), with integer widening, copies into an arena, and the
 * whole-file loop that checks each datum (avro_datum.h) before Avro C decodes it.
 *
 * Not for writing (manifest_write.h has the setters).
 */
#ifndef FLOE_ICEBERG_AVRO_VALUE_H
#define FLOE_ICEBERG_AVRO_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avro.h>

#include "iceberg/avro_container.h"
#include "iceberg/manifest.h"

/** Called once per datum, in file order; returns 0 to go on or -1 with a reason in err. */
typedef int (*floe_avro_datum_fn)(avro_value_t *datum, void *arg, char *err, size_t err_size);

/**
 * Decodes every datum of the opened container r with the writer's schema (header avro.schema),
 * calling fn for each. The top-level schema must be a record. Errors read "block B: object O:
 * <reason>". Returns 0 or -1 with err set.
 */
int floe_avro_each_datum(floe_avro_reader_t *r, floe_avro_datum_fn fn, void *arg, char *err, size_t err_size);

/** Field `name` of record `rec` with any union unwrapped: true and *out set when the field
 * exists and is not null, false otherwise. */
bool floe_avro_value_field(const avro_value_t *rec, const char *name, avro_value_t *out /* OUT */);

/** v unwrapped from its union, if it is one: false for a null. */
bool floe_avro_value_unwrap(const avro_value_t *v, avro_value_t *out /* OUT */);

/** An int or a long, as a long. Returns 0, or -1 for another type. */
int floe_avro_value_long(const avro_value_t *v, int64_t *out /* OUT */);

/** An int, or a long that fits in an int. Returns 0 or -1. */
int floe_avro_value_int(const avro_value_t *v, int32_t *out /* OUT */);

/** A boolean. Returns 0 or -1. */
int floe_avro_value_bool(const avro_value_t *v, bool *out /* OUT */);

/** The bytes of a bytes, string or fixed value, copied into the arena with a NUL after them.
 * Returns 0, or -1 for another type or when the arena is full. */
int floe_avro_value_bytes(const avro_value_t *v, floe_parquet_arena_t *arena, floe_iceberg_bytes_t *out /* OUT */);

/** Field `name`, required: like the readers above, -1 when absent, null or of another type. */
int floe_avro_field_long(const avro_value_t *rec, const char *name, int64_t *out /* OUT */);
int floe_avro_field_int(const avro_value_t *rec, const char *name, int32_t *out /* OUT */);
/** A string field copied into the arena (NUL-terminated), or -1. */
int floe_avro_field_string(const avro_value_t *rec, const char *name, floe_parquet_arena_t *arena,
                           char **out /* OUT */);

/** Optional fields: 0 with *has false when absent or null, 0 with *has true and *out set, -1
 * when present with another type. */
int floe_avro_field_opt_long(const avro_value_t *rec, const char *name, bool *has /* OUT */, int64_t *out /* OUT */);
int floe_avro_field_opt_int(const avro_value_t *rec, const char *name, bool *has /* OUT */, int32_t *out /* OUT */);
int floe_avro_field_opt_bool(const avro_value_t *rec, const char *name, bool *has /* OUT */, bool *out /* OUT */);
int floe_avro_field_opt_bytes(const avro_value_t *rec, const char *name, floe_parquet_arena_t *arena,
                              bool *has /* OUT */, floe_iceberg_bytes_t *out /* OUT */);

#endif
