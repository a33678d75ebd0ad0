/*
 * Athena's Hive-style DDL as Trino's. Athena parses DDL in Hive's dialect (backquoted names,
 * `string`, `array<T>`, PARTITIONED BY transforms, TBLPROPERTIES), as AWS's S3 Tables guide writes
 * it, while its DML is Trino's; Floe's engine is Trino alone, so the DDL forms Athena documents for
 * Iceberg tables are rewritten before the query goes to Trino. A small tokenizer, no SQL parser:
 * a form it does not know passes with only its backquotes turned into double quotes, and Trino
 * answers it. Pure text in, text out.
 */
#ifndef FLOE_ATHENA_ENGINE_HIVE_DDL_H
#define FLOE_ATHENA_ENGINE_HIVE_DDL_H

#include <stdbool.h>
#include <stddef.h>

/* Athena's Iceberg TBLPROPERTIES that Trino's Iceberg connector has no table property for: kept
 * under Athena's names in the table's Iceberg properties (Trino's extra_properties, which the
 * catalog allows for these keys only). */
#define FLOE_ATHENA_ICEBERG_PROPERTIES                                                                        \
    "write_compression,compression_level,optimize_rewrite_min_data_file_size_bytes,"                          \
    "optimize_rewrite_max_data_file_size_bytes,optimize_rewrite_data_file_threshold,"                         \
    "optimize_rewrite_delete_file_threshold,vacuum_min_snapshots_to_keep,vacuum_max_snapshot_age_seconds,"  \
    "vacuum_max_metadata_files_to_keep,write_target_data_file_size_bytes"

/**
 * The Trino text of `sql` in *out (malloc'ed): a DDL statement (CREATE, ALTER, DROP, SHOW,
 * DESCRIBE) translated, any other statement unchanged. `in_default_catalog` when the query's
 * context is Glue's default catalog (AwsDataCatalog): a CREATE TABLE's or CTAS's location is then
 * kept as Trino's `location` property, as Athena requires one there, unless the table is a table
 * bucket's. One Athena statement may take several of
 * Trino's (ALTER TABLE ADD COLUMNS of several columns, CHANGE COLUMN): *out holds them one after
 * another, each ended by its '\0', the last followed by a second '\0' (floe_hive_ddl_next). FLOE_OK,
 * or FLOE_EINVAL with why[] (Athena's reason, "<ERROR_NAME>: <message>") when Athena refuses the
 * statement; *out is NULL then.
 */
int floe_hive_ddl_translate(const char *sql, bool in_default_catalog, char **out, char *why, size_t n);

/** The statement after `stmt` in floe_hive_ddl_translate's *out, or NULL after the last. */
const char *floe_hive_ddl_next(const char *stmt);

#endif
