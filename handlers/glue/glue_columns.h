/*
 * The columns Glue reports for an Iceberg table: the current schema's top-level fields, read from
 * the table's metadata file, typed as Glue (Hive) names Iceberg types, with the field parameters
 * Iceberg's own Glue catalog writes (iceberg.field.id, iceberg.field.optional,
 * iceberg.field.current; Apache Iceberg's IcebergToGlueConverter).
 */
#ifndef FLOE_HANDLERS_GLUE_COLUMNS_H
#define FLOE_HANDLERS_GLUE_COLUMNS_H

#include "catalog/lookup.h"
#include "glue_api.h"

/**
 * The columns of table `t`'s current schema, in the call's pool (an empty list for a table
 * without metadata). FLOE_OK, or FLOE_EFAIL with the call failed (the metadata cannot be read).
 */
int glue_columns_of(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_glue_ColumnList **out /* OUT */);

#endif
