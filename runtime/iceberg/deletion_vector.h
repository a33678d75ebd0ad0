/*
 * Deletion vectors (Iceberg table spec v3, "Deletion Vectors"; Puffin spec, "deletion-vector-v1"):
 * the positions of deleted rows in one data file, as a blob of a Puffin file. Pure: bytes in,
 * positions out, and back.
 *
 * Blob layout: a 4-byte big-endian length (of the magic and the vector), the magic D1 D3 39 64,
 * the vector in the Roaring "portable" 64-bit format, and a 4-byte big-endian CRC-32 of the magic
 * and the vector. The 64-bit format is an 8-byte little-endian count of 32-bit bitmaps, then for
 * each a 4-byte little-endian key (the positions' high 32 bits) and a 32-bit Roaring bitmap in
 * the portable format (cookie 12346 without run containers, or 12347 with; array, bitmap and run
 * containers). Keys must ascend, as must container keys and the values within a container.
 *
 * Refused, with a reason: a wrong length, magic or CRC; a truncated or inconsistent bitmap;
 * positions out of order; more positions than the caller's limit (a few bytes of run containers
 * can describe billions of positions).
 *
 * Not for Puffin footers (puffin.h).
 */
#ifndef FLOE_ICEBERG_DELETION_VECTOR_H
#define FLOE_ICEBERG_DELETION_VECTOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct floe_iceberg_dv {
    uint64_t *positions; /* ascending, unique; owned */
    size_t n;
} floe_iceberg_dv_t;

/**
 * Decodes a deletion-vector-v1 blob (`len` bytes) into *out, refusing more than max_positions
 * positions. Returns 0 with *out filled (release with floe_iceberg_dv_dispose), or -1 with a
 * reason in err and *out zeroed.
 */
int floe_iceberg_dv_decode(const uint8_t *blob, size_t len, size_t max_positions, floe_iceberg_dv_t *out /* OUT */,
                           char *err, size_t err_size);

/**
 * Encodes ascending unique positions as a deletion-vector-v1 blob (array and bitmap containers,
 * no run containers). Returns the malloc'ed blob and its length in *len; the caller frees.
 * Positions must ascend (asserted).
 */
uint8_t *floe_iceberg_dv_encode(const uint64_t *positions, size_t n, size_t *len /* OUT */);

/** True when `position` is in dv (binary search). */
int floe_iceberg_dv_contains(const floe_iceberg_dv_t *dv, uint64_t position);

void floe_iceberg_dv_dispose(floe_iceberg_dv_t *dv);

#endif
