/*
 * Athena's Hive DDL for a database of AwsDataCatalog, which Athena runs against the Glue Data
 * Catalog itself, not in an engine: `CREATE (SCHEMA|DATABASE) [IF NOT EXISTS] name [COMMENT
 * 'text'] [LOCATION 's3://...']` and `DROP (SCHEMA|DATABASE) [IF EXISTS] name [RESTRICT|CASCADE]`,
 * a name bare, in backquotes or in double quotes, an optional closing semicolon. Recognized
 * whole or not at all: any other statement (a qualified name, DBPROPERTIES, ...) is not one of
 * these and goes to the engine as before. Never more of a parse than this one statement.
 */
#ifndef FLOE_ATHENA_SCHEMA_DDL_H
#define FLOE_ATHENA_SCHEMA_DDL_H

#include <stdbool.h>

#define FLOE_SCHEMA_DDL_NAME_MAX 256
#define FLOE_SCHEMA_DDL_TEXT_MAX 2048

typedef struct floe_schema_ddl {
    bool is_drop;        /* DROP, else CREATE */
    bool has_if;         /* IF NOT EXISTS (CREATE) or IF EXISTS (DROP) */
    bool is_cascade;     /* DROP ... CASCADE: its tables go too (else RESTRICT: it must hold none) */
    char name[FLOE_SCHEMA_DDL_NAME_MAX];
    bool has_comment, has_location;
    char comment[FLOE_SCHEMA_DDL_TEXT_MAX];
    char location[FLOE_SCHEMA_DDL_TEXT_MAX];
} floe_schema_ddl_t;

/** Whether `sql` is one of these statements; *out filled when it is. */
bool floe_schema_ddl_parse(const char *sql, floe_schema_ddl_t *out /* OUT */);

#endif
