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

#include <stddef.h>

/**
 * The Trino text of `sql` in *out (malloc'ed): a DDL statement (CREATE, ALTER, DROP, SHOW,
 * DESCRIBE) translated, any other statement unchanged. FLOE_OK, or FLOE_EINVAL with why[] (Athena's
 * reason, "<ERROR_NAME>: <message>") when Athena refuses the statement; *out is NULL then.
 */
int floe_hive_ddl_translate(const char *sql, char **out, char *why, size_t n);

#endif
