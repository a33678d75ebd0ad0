/*
 * Glue (Hive) column types as Iceberg types: "bigint", "decimal(10,2)", "array<string>",
 * "map<string,int>", "struct<a:int,b:array<string>>" into Iceberg's JSON type ("long", {"type":
 * "list", ...}), with every nested field, element and value optional and without ids (the table's
 * creation numbers them). The inverse of what Glue reports for an Iceberg table
 * (handlers/glue/glue_columns.c). Not for Iceberg's own type strings (iceberg_types.h).
 */
#ifndef FLOE_ICEBERG_HIVE_TYPE_H
#define FLOE_ICEBERG_HIVE_TYPE_H

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"

/**
 * Parses the Hive type `text` (keywords in any case, spaces allowed between tokens). Returns
 * FLOE_ICEBERG_OK with *out set (the caller owns it), or FLOE_ICEBERG_EINVALID with err set for a
 * type that is malformed, nested deeper than 32 or has no Iceberg counterpart.
 */
int floe_iceberg_type_from_hive(const char *text, cJSON **out /* OUT */, floe_iceberg_error_t *err /* OUT */);

#endif
