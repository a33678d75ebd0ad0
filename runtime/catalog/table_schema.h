/*
 * A table's current schema as the analytics catalogs describe it (Glue's GetTable, Athena's
 * GetTableMetadata): the top-level fields of the current Iceberg schema, each with its type named
 * as Apache Iceberg's IcebergToGlueConverter.toTypeString writes it (long is bigint, nested types
 * struct<a:t,...>, array<t> and map<k,v>). Read from the metadata file the table's pointer names.
 */
#ifndef FLOE_CATALOG_TABLE_SCHEMA_H
#define FLOE_CATALOG_TABLE_SCHEMA_H

#include <stdbool.h>

#include "call/call.h"
#include "catalog/lookup.h"

/** One top-level field of the current schema; strings in the call's pool. */
typedef struct floe_table_column {
    char *name;
    char *type;    /* Glue's (Hive's) name: "bigint", "decimal(10,2)", "array<string>" */
    char *comment; /* the field's doc, or NULL */
    int id;        /* the Iceberg field id */
    bool required;
} floe_table_column_t;

/**
 * The columns of table `t`'s current schema: *columns an array of *n in the call's pool (none for a
 * table without metadata, or whose pointer names a file not written yet). FLOE_OK, or FLOE_EFAIL
 * with the call failed (a pointer outside the table's warehouse).
 */
int floe_table_schema_columns(floe_call_t *call, const floe_table_row_t *t, floe_table_column_t **columns /* OUT */,
                              size_t *n /* OUT */);

/**
 * The columns of the current schema of the Iceberg metadata file at `location` ("s3://<bucket>/<key>"
 * in Floe's S3), as floe_table_schema_columns gives them: none when it is no such file. FLOE_OK.
 */
int floe_table_schema_columns_at(floe_call_t *call, const char *location, floe_table_column_t **columns /* OUT */,
                                 size_t *n /* OUT */);

#endif
