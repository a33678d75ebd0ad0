/*
 * Partition specs and sort orders bound to a schema: each field names a source column by id and
 * a transform; binding checks the column exists and the transform applies to its type, and writes
 * the field canonically. Used when a table is created (iceberg_create.c) and by the add-spec and
 * add-sort-order updates (iceberg_update.c).
 *
 * Rules, after the Java reference (PartitionSpec.Builder, PartitionSpec.checkCompatibility,
 * SortOrder.checkCompatibility): a source column must be a primitive field; a partition source
 * may not sit inside a list or map; partition names are non-empty and unique within the spec,
 * and may equal a column's name only for an identity partition of that same column.
 *
 * Not for choosing spec or order ids, which depend on the table (iceberg_update.c).
 */
#ifndef FLOE_ICEBERG_SPEC_H
#define FLOE_ICEBERG_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/iceberg_schema.h"

/** Partition field ids start here (Iceberg table spec: "partition field IDs ... start at 1000"),
 * so an unpartitioned table's last-partition-id is one less. */
#define FLOE_ICEBERG_PARTITION_ID_START 1000

/**
 * Binds the partition fields `fields_in` (an array of {source-id, transform, name, field-id?})
 * to `schema`. When `source_map` is non-NULL the source ids are the caller's input ids and are
 * translated through it (a new table, see floe_iceberg_schema_fresh); otherwise they are ids of
 * `schema`. With `assign_fresh`, every field gets the next id after *last_partition_id and given
 * field-ids are ignored; without it, a given field-id is kept and only missing ones are numbered
 * from *last_partition_id + 1. Returns 0 with *fields_out (a new array of {name, transform,
 * source-id, field-id}, the caller deletes it) and *last_partition_id raised to the highest id
 * used, or FLOE_ICEBERG_EINVALID with err set and neither touched.
 */
int floe_iceberg_spec_bind(const cJSON *fields_in, const floe_iceberg_schema_index_t *schema,
                           const floe_iceberg_id_map_t *source_map, bool assign_fresh,
                           int32_t *last_partition_id /* IN/OUT */, cJSON **fields_out /* OUT */,
                           floe_iceberg_error_t *err /* OUT */);

/**
 * Binds the sort fields `fields_in` (an array of {source-id, transform, direction, null-order})
 * to `schema`, translating source ids through `source_map` when it is non-NULL. Directions are
 * asc or desc, null orders nulls-first or nulls-last. Returns 0 with *fields_out (a new array of
 * {transform, source-id, direction, null-order}, the caller deletes it), or FLOE_ICEBERG_EINVALID.
 */
int floe_iceberg_sort_bind(const cJSON *fields_in, const floe_iceberg_schema_index_t *schema,
                           const floe_iceberg_id_map_t *source_map, cJSON **fields_out /* OUT */,
                           floe_iceberg_error_t *err /* OUT */);

/** True when two bound partition field arrays have the same source ids, transforms and names in
 * the same order, whatever their field ids (Java's PartitionSpec.compatibleWith). */
bool floe_iceberg_spec_same(const cJSON *a, const cJSON *b);

/** True when two bound sort field arrays are equal (Java's SortOrder.sameOrder). */
bool floe_iceberg_sort_same(const cJSON *a, const cJSON *b);

#endif
