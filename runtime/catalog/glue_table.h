/*
 * Glue tables of an account's default catalog's databases (catalog/glue_database.h), which Glue's
 * CreateTable makes (awswrangler's datasets, Trino's Hive and Iceberg Glue metastores): rows of
 * glue_table, keyed by (account, region, database, name). A table is kept as its document (the
 * Glue TableInput as JSON text, opaque here: handlers/glue/ encodes and decodes it) with Glue's
 * VersionId (0 when created, one more per update) and its times. A table bucket's tables are S3
 * tables (table.h), not these.
 *
 * State only, as glue_database.h: a SQLite failure fails the call (FLOE_EFAIL); what the API answers
 * with a modeled error comes back as a house code. Names are taken as given (the handler lower-cases).
 */
#ifndef FLOE_CATALOG_GLUE_TABLE_H
#define FLOE_CATALOG_GLUE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call/call.h"

/** A table as stored; strings in the call's pool. */
typedef struct floe_glue_table_row {
    char *database;
    char *name;
    char *document; /* the TableInput's JSON text */
    int64_t version;
    floe_timestamp_t created_at;
    floe_timestamp_t updated_at;
} floe_glue_table_row_t;

/** A column of a table's StorageDescriptor or PartitionKeys; strings in the call's pool. */
typedef struct floe_glue_table_column {
    char *name;
    char *type;    /* NULL when the TableInput gave none */
    char *comment; /* NULL when none */
} floe_glue_table_column_t;

/** Key-value pairs in the order the document holds them; strings in the call's pool. */
typedef struct floe_glue_table_pairs {
    size_t n;
    char **keys;
    char **values;
} floe_glue_table_pairs_t;

/** What another API than Glue's (Athena's table metadata) reads of a stored table; strings (NULL
 * when the document has none) in the call's pool. */
typedef struct floe_glue_table_summary {
    char *table_type;
    floe_glue_table_column_t *columns; /* the StorageDescriptor's */
    size_t n_columns;
    floe_glue_table_column_t *partition_keys;
    size_t n_partition_keys;
    floe_glue_table_pairs_t parameters;       /* the table's */
    char *location;                           /* the StorageDescriptor's */
    char *input_format;
    char *output_format;
    char *serde_library;                      /* SerdeInfo.SerializationLibrary */
    floe_glue_table_pairs_t serde_parameters; /* SerdeInfo.Parameters */
    bool has_last_access_time;
    floe_timestamp_t last_access_time;
} floe_glue_table_summary_t;

/** Reads the summary of `row`'s document: FLOE_OK, or FLOE_EFAIL with the call failed (the
 * document is not JSON). */
int floe_glue_table_summarize(floe_call_t *call, const floe_glue_table_row_t *row,
                              floe_glue_table_summary_t *out /* OUT */);

/** Stores the table `name` of `database` (version 0, created now) in one transaction with the check
 * that the database exists: FLOE_OK, FLOE_ENOTFOUND (no such database), FLOE_EEXISTS (the name is
 * taken; nothing written), or FLOE_EFAIL. */
int floe_glue_table_insert(floe_call_t *call, const char *database, const char *name, const char *document);

/** The table `name` of `database`: FLOE_OK with *out filled, FLOE_ENOTFOUND, or FLOE_EFAIL. */
int floe_glue_table_read(floe_call_t *call, const char *database, const char *name,
                         floe_glue_table_row_t *out /* OUT */);

/** The tables of `database` whose names sort after `after` ("" from the start), in name order, at
 * most `limit`; *rows is an array of *n rows in the call's pool. FLOE_OK or FLOE_EFAIL. */
int floe_glue_table_list(floe_call_t *call, const char *database, const char *after, int limit,
                         floe_glue_table_row_t **rows /* OUT */, size_t *n /* OUT */);

/** Replaces the document of table `name`, one version up, updated now, in one transaction with the
 * check that its version is `expected` (decimal text; NULL: any): FLOE_OK with *version the new
 * one, FLOE_ENOTFOUND (no such table), FLOE_ECHANGED (another version is current; nothing
 * written), or FLOE_EFAIL. */
int floe_glue_table_update(floe_call_t *call, const char *database, const char *name, const char *expected,
                           const char *document, int64_t *version /* OUT */);

/** Removes the table `name` of `database` and its column statistics in one transaction: FLOE_OK,
 * FLOE_ENOTFOUND, or FLOE_EFAIL. */
int floe_glue_table_remove(floe_call_t *call, const char *database, const char *name);

/** Stores the statistics of column `column` of table `name` (a ColumnStatistics as JSON, opaque
 * here), replacing what it had, in one transaction with the check that the table exists: FLOE_OK,
 * FLOE_ENOTFOUND (no such table), or FLOE_EFAIL. */
int floe_glue_table_statistics_put(floe_call_t *call, const char *database, const char *name, const char *column,
                                   const char *document);

/** The statistics document of column `column` of table `name`: FLOE_OK with *document (in the
 * pool), FLOE_ENOTFOUND when it has none, or FLOE_EFAIL. */
int floe_glue_table_statistics_read(floe_call_t *call, const char *database, const char *name, const char *column,
                                    char **document /* OUT */);

/** Removes the statistics of column `column` of table `name` (none is fine): FLOE_OK or FLOE_EFAIL. */
int floe_glue_table_statistics_remove(floe_call_t *call, const char *database, const char *name, const char *column);

/** Removes the database `database` (glue_database.h) and its tables in one transaction, as Glue's
 * DeleteDatabase deletes a database's tables: FLOE_OK, FLOE_ENOTFOUND (no such database; nothing
 * removed), or FLOE_EFAIL. */
int floe_glue_table_drop_database(floe_call_t *call, const char *database);

#endif
