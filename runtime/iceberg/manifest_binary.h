/*
 * Partition values between Avro C values and Iceberg's single-value binary form (Iceberg table
 * spec, Appendix D "Single-value serialization"): int and date are 4 bytes little-endian; long,
 * time and timestamps 8 bytes little-endian; float and double IEEE 754 little-endian; boolean
 * one byte 0 or 1; string UTF-8 bytes; binary, fixed and uuid their bytes; decimal the unscaled
 * value as big-endian two's complement in the fewest bytes.
 *
 * Used by the manifest reader (a partition value as written) and writer (the Avro type of the
 * partition field). Not for bounds, which manifests already hold in binary form.
 */
#ifndef FLOE_ICEBERG_MANIFEST_BINARY_H
#define FLOE_ICEBERG_MANIFEST_BINARY_H

#include <avro.h>

#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"

/**
 * The single-value form of the Avro value v (not a union), copied into the arena. `type` is the
 * partition field's Iceberg type when known, else NULL (the Avro type alone decides). Returns 0,
 * or -1 for an Avro type a partition value cannot have or when the arena is full.
 */
int floe_iceberg_binary_from_avro(const avro_value_t *v, const floe_iceberg_primitive_t *type,
                                  floe_parquet_arena_t *arena, floe_iceberg_bytes_t *out /* OUT */);

/**
 * Sets the Avro value v (of the Avro type manifest_schema.h gives `type`) from the single-value
 * form b. Returns 0, or -1 when b's length does not fit the type (a decimal wider than its fixed).
 */
int floe_iceberg_binary_to_avro(avro_value_t *v, const floe_iceberg_primitive_t *type, floe_iceberg_bytes_t b);

#endif
