/*
 * A bounds check of one Avro binary datum against its writer's schema, run before Apache Avro C
 * decodes it. Avro C trusts lengths and counts it reads (a string's length is allocated before
 * its bytes are read; an array of empty items may claim any count), so a hostile manifest could
 * make it allocate without bound. This walk reads every length, count, union index and varint
 * of the datum and refuses any that does not fit in the bytes that remain, so Avro C only ever
 * sees a datum that is known to be well-formed and small.
 *
 * Not a decoder: nothing is produced but the datum's length.
 */
#ifndef FLOE_ICEBERG_AVRO_DATUM_H
#define FLOE_ICEBERG_AVRO_DATUM_H

#include <stddef.h>
#include <stdint.h>

#include <avro.h>

/** Deepest nesting of records, arrays, maps and unions a datum may have. */
#define FLOE_AVRO_DEPTH_MAX 32

/**
 * Checks that data[0..len) begins with one datum of `schema` and sets *consumed to its length.
 * *items is a budget shared by the datums of one file: each array or map item spends one, so a
 * file cannot hold more items than the budget allows whatever their size. Returns 0, or -1 with
 * a reason in err (truncated, bad union branch, negative length, too deep, over budget, an
 * empty datum).
 */
int floe_avro_datum_check(avro_schema_t schema, const uint8_t *data, size_t len, size_t *consumed /* OUT */,
                          size_t *items, char *err, size_t err_size);

#endif
