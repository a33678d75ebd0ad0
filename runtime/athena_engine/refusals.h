/*
 * The statements Athena refuses on S3 Tables before any engine sees them, as AWS's S3 Tables guide
 * lists them: views (CREATE VIEW), a database's properties (ALTER DATABASE), renaming a table
 * (ALTER TABLE ... RENAME TO), and OPTIMIZE and VACUUM, which S3 Tables' own maintenance does
 * (compaction, snapshot management, unreferenced file removal). Recognized by their leading
 * keywords only: this is the statement's kind, as Athena's StatementType names it, not a parse.
 */
#ifndef FLOE_ATHENA_ENGINE_REFUSALS_H
#define FLOE_ATHENA_ENGINE_REFUSALS_H

#include <stdbool.h>

/**
 * Athena's reason for refusing `sql` on a table bucket (`on_table_bucket`), or in Glue's default
 * catalog, where Athena takes views and renames: there, only REPLACE COLUMNS (Athena's refusal for
 * any Iceberg table), and what Floe does not run there (OPTIMIZE, VACUUM, ALTER DATABASE, in
 * Floe's sentence). NULL when it is not refused.
 */
const char *floe_athena_refusal(const char *sql, bool on_table_bucket);

#endif
