/*
 * The Avro schemas of Iceberg manifests and manifest lists (Iceberg table spec, "Manifests" and
 * "Manifest Lists", format version 2), as Iceberg Java writes them: field-id on every field,
 * element-id on lists, and maps with int keys written as arrays of key/value records with
 * logicalType "map" (the key and value ids as the field-ids of the record's fields). A
 * manifest's partition record depends on the table: its fields come from the partition spec and
 * their types from the transform's result type over the source column's type.
 *
 * Used by manifest_write.c and manifest_list.c to write, and by manifest_read.c to know the
 * Iceberg type of a partition value it reads. Not for reading Avro (the reader goes by the writer's schema).
 */
#ifndef FLOE_ICEBERG_MANIFEST_SCHEMA_H
#define FLOE_ICEBERG_MANIFEST_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_types.h"

/** One field of a manifest's partition tuple. */
typedef struct floe_iceberg_partition_field {
    char *name;                       /* the partition field's name, as in the spec */
    int32_t field_id;
    floe_iceberg_primitive_t type;    /* the transform's result type */
    bool is_day;                      /* day transform: int written with logicalType date, as Java does */
} floe_iceberg_partition_field_t;

/**
 * The partition fields of `spec_json` (a JSON array of {name, transform, source-id, field-id},
 * or an object with such "fields") bound to the table schema `schema_json`. Returns 0 with
 * *fields a malloc'd array of *n_fields (free with floe_iceberg_partition_fields_free), or -1
 * with a reason in err (unparseable JSON, unknown source column, transform that does not apply).
 */
int floe_iceberg_partition_fields(const char *schema_json, const char *spec_json,
                                  floe_iceberg_partition_field_t **fields /* OUT */, size_t *n_fields /* OUT */,
                                  char *err, size_t err_size);

/** Frees what floe_iceberg_partition_fields returned. Accepts NULL. */
void floe_iceberg_partition_fields_free(floe_iceberg_partition_field_t *fields, size_t n_fields);

/** The manifest_entry Avro schema for this partition tuple, as JSON text: v2, plus the v3 data
 * file fields when format_version is 3 or more. Caller frees. */
char *floe_iceberg_manifest_entry_schema_json(const floe_iceberg_partition_field_t *fields, size_t n_fields,
                                              int format_version);

/** The manifest_file Avro schema (a manifest list's records), as JSON text: v2, plus first_row_id
 * when format_version is 3 or more. Caller frees. */
char *floe_iceberg_manifest_file_schema_json(int format_version);

/** Bytes of the Avro fixed holding a decimal of this precision (Java's
 * TypeUtil.decimalRequiredBytes): the fewest bytes whose two's complement holds 10^p - 1. */
int floe_iceberg_decimal_required_bytes(int32_t precision);

#endif
