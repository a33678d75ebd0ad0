/* The glue_table rows of glue_table.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "call/call_sql.h"
#include "call/transaction.h"
#include "catalog/glue_database.h"
#include "catalog/glue_table.h"

FLOE_SQL(sql_glue_table_insert,
    "INSERT INTO glue_table (account, region, database_name, name, document, version, created_at, updated_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6) ON CONFLICT (account, region, database_name, name) DO NOTHING");

FLOE_SQL(sql_glue_table_read,
    "SELECT database_name, name, document, version, created_at, updated_at FROM glue_table"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_list,
    "SELECT database_name, name, document, version, created_at, updated_at FROM glue_table"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name > ?4 ORDER BY name LIMIT ?5");

FLOE_SQL(sql_glue_table_update,
    "UPDATE glue_table SET document = ?5, version = version + 1, updated_at = ?6"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_remove,
    "DELETE FROM glue_table WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_remove_all, "DELETE FROM glue_table WHERE account = ?1 AND region = ?2 AND database_name = ?3");

typedef struct table_write {
    const char *database;
    const char *name;
    const char *document;
    const char *expected; /* an update's expected version, or NULL */
    int64_t version;      /* OUT: an update's new version */
} table_write_t;

static int insert_body(floe_call_t *call, void *arg)
{
    const table_write_t *a = arg;
    floe_glue_database_row_t db;
    int rc = floe_glue_database_read(call, a->database, &db);

    if (rc != FLOE_OK)
        return rc;
    rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_table_insert, "ttttti", floe_call_account(call),
                                            floe_call_region(call), a->database, a->name, a->document,
                                            (int64_t)floe_call_now(call)));
    return rc == FLOE_ENOTFOUND ? FLOE_EEXISTS : rc; /* the conflict did nothing: the name is taken */
}

int floe_glue_table_insert(floe_call_t *call, const char *database, const char *name, const char *document)
{
    table_write_t a = {database, name, document, NULL, 0};

    return floe_call_in_transaction(call, insert_body, &a);
}

static void read_columns(floe_call_t *call, floe_db_stmt_t *stmt, floe_glue_table_row_t *out)
{
    out->database = floe_sql_text(call, stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->document = floe_sql_text(call, stmt, 2);
    out->version = floe_db_column_int64(stmt, 3);
    out->created_at = floe_db_column_int64(stmt, 4);
    out->updated_at = floe_db_column_int64(stmt, 5);
}

int floe_glue_table_read(floe_call_t *call, const char *database, const char *name, floe_glue_table_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_table_read, "tttt", floe_call_account(call),
                                         floe_call_region(call), database, name);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW)
        read_columns(call, stmt, out);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL; /* the call already holds its 500 */
    return rc == FLOE_DB_ROW ? FLOE_OK : FLOE_ENOTFOUND;
}

int floe_glue_table_list(floe_call_t *call, const char *database, const char *after, int limit,
                         floe_glue_table_row_t **rows, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_table_list, "tttti", floe_call_account(call),
                                         floe_call_region(call), database, after, (int64_t)limit);
    int rc;

    *n = 0;
    *rows = floe_call_alloc(call, sizeof(**rows) * ((size_t)limit + 1));
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW)
        read_columns(call, stmt, &(*rows)[(*n)++]);
    floe_db_reset(stmt);
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* The compare-and-swap of Glue's VersionId: read, check, write in one transaction. */
static int update_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;
    floe_glue_table_row_t row;
    char current[24];
    int rc = floe_glue_table_read(call, a->database, a->name, &row);

    if (rc != FLOE_OK)
        return rc;
    snprintf(current, sizeof(current), "%" PRId64, row.version);
    if (a->expected != NULL && strcmp(a->expected, current) != 0)
        return FLOE_ECHANGED;
    a->version = row.version + 1;
    return floe_sql_write(call, floe_sql_bind(call, sql_glue_table_update, "ttttti", floe_call_account(call),
                                              floe_call_region(call), a->database, a->name, a->document,
                                              (int64_t)floe_call_now(call)));
}

int floe_glue_table_update(floe_call_t *call, const char *database, const char *name, const char *expected,
                           const char *document, int64_t *version)
{
    table_write_t a = {database, name, document, expected, 0};
    int rc = floe_call_in_transaction(call, update_body, &a);

    *version = a.version;
    return rc;
}

int floe_glue_table_remove(floe_call_t *call, const char *database, const char *name)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_glue_table_remove, "tttt", floe_call_account(call),
                                              floe_call_region(call), database, name));
}

int floe_glue_table_remove_all(floe_call_t *call, const char *database)
{
    int rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_table_remove_all, "ttt", floe_call_account(call),
                                                floe_call_region(call), database));

    return rc == FLOE_ENOTFOUND ? FLOE_OK : rc; /* a database without tables */
}
