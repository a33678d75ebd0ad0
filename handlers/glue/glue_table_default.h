/*
 * Glue's tables in the account's default catalog (no CatalogId, or the account's id): each a
 * TableInput kept whole in a database of that catalog (catalog/glue_table.h), as AWS Glue keeps the
 * Hive tables awswrangler writes and the tables Trino's Hive and Iceberg Glue metastores commit.
 * glue_table.c and glue_table_create.c hand a call here when its CatalogId names the default
 * catalog; the operations Floe serves only there (UpdateTable, BatchDeleteTable, GetPartitions)
 * answer a table bucket's catalog here too.
 */
#ifndef FLOE_HANDLERS_GLUE_TABLE_DEFAULT_H
#define FLOE_HANDLERS_GLUE_TABLE_DEFAULT_H

#include "catalog/glue_table.h"
#include "glue_api.h"

/** `row` as Glue's Table: the stored TableInput's members, with DatabaseName, CatalogId, times and
 * VersionId. FLOE_OK, or FLOE_EFAIL with the call failed. */
int glue_default_table_fill(floe_awsjson_call_t *call, const floe_glue_table_row_t *row, floe_glue_Table *out /* OUT */);

/** The default catalog's database `database` (any case) as Glue keeps its name, in the pool, or
 * NULL with the call failed (EntityNotFoundException `Database <name> not found.`). */
const char *glue_default_database(floe_awsjson_call_t *call, const char *database);

int glue_default_create_table(floe_awsjson_call_t *call, const floe_glue_CreateTableRequest *in);
int glue_default_get_table(floe_awsjson_call_t *call, const char *database, const char *name,
                           floe_glue_GetTableResponse *out);
int glue_default_delete_table(floe_awsjson_call_t *call, const char *database, const char *name);

#endif
