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

/**
 * A table Floe's own Athena engine (Trino, signing with the engine key) writes to the default catalog
 * as an Iceberg table gets the columns AWS's Athena writes there, which Iceberg's Glue catalog
 * makes (the parameters above; clients such as awswrangler read `iceberg.field.current`), in
 * place of Trino's own; from the metadata file its `metadata_location` names. Any other writer's
 * table is kept as given.
 */
void glue_columns_as_athena_writes(floe_awsjson_call_t *call, floe_glue_TableInput *table /* IN/OUT */);

#endif
