/*
 * The read of resource_policy.h: one statement joins the bucket, its policy, the table it names
 * (by names or by table id) and the table's policy, so authorizing a call costs one lookup.
 */

#include "call/call_sql.h"
#include "catalog/resource_policy.h"

FLOE_SQL(sql_policies_by_names,
    "SELECT bp.document, t.table_id, tp.document FROM table_bucket b"
    " LEFT JOIN table_bucket_policy bp ON bp.table_bucket_id = b.id"
    " LEFT JOIN namespace n ON n.table_bucket_id = b.id AND n.name = ?4"
    " LEFT JOIN s3table t ON t.namespace_id = n.id AND t.name = ?5"
    " LEFT JOIN table_policy tp ON tp.table_id = t.id"
    " WHERE b.account_id = ?2 AND b.region = ?3 AND b.name = ?1");

FLOE_SQL(sql_policies_by_table_id,
    "SELECT bp.document, t.table_id, tp.document FROM table_bucket b"
    " LEFT JOIN table_bucket_policy bp ON bp.table_bucket_id = b.id"
    " LEFT JOIN s3table t ON t.table_bucket_id = b.id AND t.table_id = ?4"
    " LEFT JOIN table_policy tp ON tp.table_id = t.id"
    " WHERE b.account_id = ?2 AND b.region = ?3 AND b.name = ?1");

int floe_resource_policies_get(floe_call_t *call, const char *bucket, const char *namespace_, const char *name,
                               const char *table_id, floe_resource_policies_t *out)
{
    floe_db_stmt_t *stmt;
    int rc;

    *out = (floe_resource_policies_t){0};
    if (table_id != NULL)
        stmt = floe_sql_bind(call, sql_policies_by_table_id, "tttt", bucket, floe_call_account(call),
                             floe_call_region(call), table_id);
    else
        stmt = floe_sql_bind(call, sql_policies_by_names, "ttttt", bucket, floe_call_account(call),
                             floe_call_region(call), namespace_ ? namespace_ : "", name ? name : "");
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    out->has_bucket = rc == FLOE_DB_ROW;
    if (rc == FLOE_DB_ROW) {
        out->bucket_policy = floe_sql_text(call, stmt, 0);
        out->table_id = floe_sql_text(call, stmt, 1);
        out->table_policy = floe_sql_text(call, stmt, 2);
        out->has_table = out->table_id != NULL;
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

FLOE_SQL(sql_table_of_warehouse,
    "SELECT 'arn:aws:s3tables:' || b.region || ':' || b.account_id || ':bucket/' || b.name || '/table/' || t.table_id,"
    " n.name, t.name FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " JOIN table_bucket b ON b.id = t.table_bucket_id WHERE t.warehouse_bucket = ?1");

int floe_resource_table_of_warehouse(floe_call_t *call, const char *warehouse, floe_warehouse_table_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_table_of_warehouse, "t", warehouse);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW) {
        out->arn = floe_sql_text(call, stmt, 0);
        out->namespace_ = floe_sql_text(call, stmt, 1);
        out->name = floe_sql_text(call, stmt, 2);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW ? FLOE_OK : rc == FLOE_DB_DONE ? FLOE_ENOTFOUND : FLOE_EFAIL;
}
