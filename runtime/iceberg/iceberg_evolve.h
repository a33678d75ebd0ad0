/*
 * What a schema may hold for a table's format version, and how it may change from the table's
 * current schema: the format v3 rules (Iceberg table spec, "Schemas and Data Types", "Default
 * values", "Schema Evolution"), with the messages of Java's Schema.checkCompatibility where it has
 * one.
 *
 *  - timestamp_ns, timestamptz_ns, variant, unknown, geometry and geography need v3; so does a
 *    non-null initial-default.
 *  - initial-default and write-default must be valid JSON single values (spec Appendix D) of the
 *    field's type; variant, unknown, geometry and geography take only null.
 *  - A field that keeps its id may only be promoted: int -> long, float -> double,
 *    decimal(P, S) -> decimal(P', S) with P' >= P, and in v3 date -> timestamp or timestamp_ns
 *    and unknown -> any type. Its initial-default may not change once set.
 *  - In v3, a required field added (an id above the table's last-column-id, not under an optional
 *    one) to a table that has rows (a current snapshot) needs a non-null initial-default, so rows
 *    written before it still read.
 *
 * Not for well-formedness (ids, names, nesting: iceberg_schema.h).
 */
#ifndef FLOE_ICEBERG_EVOLVE_H
#define FLOE_ICEBERG_EVOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"

/** Checks one schema for a table of `format_version` (types and defaults, the first two rules).
 * Returns 0, or FLOE_ICEBERG_EINVALID with err set (a schema that does not index is refused too). */
int floe_iceberg_schema_check_version(const cJSON *schema, int format_version, floe_iceberg_error_t *err /* OUT */);

/** floe_iceberg_schema_check_version for each schema of a metadata "schemas" array (an upgrade
 * keeps every schema, so each must suit the new version). */
int floe_iceberg_schemas_check_version(const cJSON *schemas, int format_version, floe_iceberg_error_t *err /* OUT */);

/** Checks `next` as a change of `current` (the last two rules); `last_column_id` is the table's
 * before the change and `has_rows` whether it has a current snapshot. Both schemas must index.
 * Returns 0 or FLOE_ICEBERG_EINVALID with err set. */
int floe_iceberg_schema_check_evolution(const cJSON *current, const cJSON *next, int format_version,
                                        int32_t last_column_id, bool has_rows, floe_iceberg_error_t *err /* OUT */);

#endif
