/*
 * The glue_catalog rows of glue_integration.h: one per account and region that has the
 * s3tablescatalog integration, keyed by (account, region, name).
 */
#include "call/call_sql.h"
#include "catalog/glue_integration.h"

FLOE_SQL(sql_glue_catalog_read,
    "SELECT name, description, identifier, connection_name, allow_full_table_external_data_access, created_at"
    " FROM glue_catalog WHERE account = ?1 AND region = ?2 AND name = ?3");

FLOE_SQL(sql_glue_catalog_insert,
    "INSERT INTO glue_catalog (account, region, name, description, identifier, connection_name,"
    " allow_full_table_external_data_access, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    " ON CONFLICT (account, region, name) DO NOTHING");

FLOE_SQL(sql_glue_catalog_remove, "DELETE FROM glue_catalog WHERE account = ?1 AND region = ?2 AND name = ?3");

static int read_row(floe_call_t *call, const char *account_id, const char *region, bool *is_integrated,
                    floe_glue_catalog_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_catalog_read, "ttt", account_id, region,
                                         FLOE_GLUE_S3TABLES_CATALOG);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW && out != NULL) {
        out->name = floe_sql_text(call, stmt, 0);
        out->description = floe_sql_text(call, stmt, 1);
        out->identifier = floe_sql_text(call, stmt, 2);
        out->connection_name = floe_sql_text(call, stmt, 3);
        out->allow_full_table_external_data_access = floe_sql_text(call, stmt, 4);
        out->created_at = floe_db_column_int64(stmt, 5);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL; /* the call already holds its 500 */
    *is_integrated = rc == FLOE_DB_ROW;
    return FLOE_OK;
}

int floe_glue_integration_read(floe_call_t *call, bool *is_integrated, floe_glue_catalog_row_t *out)
{
    return read_row(call, floe_call_account(call), floe_call_region(call), is_integrated, out);
}

int floe_glue_integration_exists(floe_call_t *call, const char *account_id, const char *region, bool *is_integrated)
{
    return read_row(call, account_id, region, is_integrated, NULL);
}

int floe_glue_integration_insert(floe_call_t *call, const floe_glue_catalog_row_t *row, bool *is_taken)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_catalog_insert, "ttttttti", floe_call_account(call),
                                         floe_call_region(call), row->name, row->description, row->identifier,
                                         row->connection_name, row->allow_full_table_external_data_access,
                                         (int64_t)floe_call_now(call));
    int rc = floe_sql_write(call, stmt);

    if (rc != FLOE_OK && rc != FLOE_ENOTFOUND)
        return FLOE_EFAIL; /* the call already holds its 500 */
    *is_taken = rc == FLOE_ENOTFOUND;
    return FLOE_OK;
}

int floe_glue_integration_remove(floe_call_t *call, bool *was_there)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_catalog_remove, "ttt", floe_call_account(call),
                                         floe_call_region(call), FLOE_GLUE_S3TABLES_CATALOG);
    int rc = floe_sql_write(call, stmt);

    if (rc != FLOE_OK && rc != FLOE_ENOTFOUND)
        return FLOE_EFAIL; /* the call already holds its 500 */
    *was_there = rc == FLOE_OK;
    return FLOE_OK;
}
