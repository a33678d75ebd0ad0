/*
 * The owned configurations of settings.h and their SQL. A table bucket's live in
 * table_bucket_<setting> (keyed by table_bucket.id), a table's in table_<setting> (keyed by
 * s3table.id); sql_for() picks the statement for an owner's kind. Enum values are stored as their
 * wire strings; stored_enum() reads them back and treats a string Floe never writes as an internal
 * error rather than a value.
 */
#include <assert.h>
#include <string.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "catalog/owned_row.h"
#include "catalog/settings.h"

/* The statement of `owner`'s kind: `bucket_sql` for a table bucket, `table_sql` for a table. */
static const char *sql_for(const floe_resource_t *owner, const char *bucket_sql, const char *table_sql)
{
    assert(owner->kind == FLOE_RESOURCE_TABLE_BUCKET || owner->kind == FLOE_RESOURCE_TABLE);
    return owner->kind == FLOE_RESOURCE_TABLE_BUCKET ? bucket_sql : table_sql;
}

/* The enum number (1..count) of the wire value in column `col`, looked up in `values` (a
 * generated floe_<Enum>_values table); 0 after failing the call when the column holds no such
 * value (it is written only from the same table, so only a damaged database or SQLite running out
 * of memory gets here). */
static int stored_enum(floe_call_t *call, floe_db_stmt_t *stmt, int col, const char *const *values, int count)
{
    const char *text = floe_db_column_text(stmt, col);

    for (int i = 1; text != NULL && i <= count; i++) {
        if (strcmp(text, values[i]) == 0)
            return i;
    }
    floe_fail_internal(call, "a stored setting holds a value Floe does not write");
    return 0;
}

/* Steps an owned row's read: FLOE_OK on its row, FLOE_ENOTFOUND when there is none, FLOE_EFAIL
 * when the call failed. The statement is reset by the caller once it has read the row. */
static int read_owned(floe_call_t *call, const floe_resource_t *owner, const char *bucket_sql, const char *table_sql,
                      floe_db_stmt_t **stmt)
{
    return floe_owned_row(call, sql_for(owner, bucket_sql, table_sql), owner->id, stmt);
}

/* ---- encryption ---- */

FLOE_SQL(sql_bucket_encryption_get,
    "SELECT sse_algorithm, kms_key_arn FROM table_bucket_encryption WHERE table_bucket_id = ?1");

FLOE_SQL(sql_table_encryption_get, "SELECT sse_algorithm, kms_key_arn FROM table_encryption WHERE table_id = ?1");

FLOE_SQL(sql_bucket_encryption_put,
    "INSERT INTO table_bucket_encryption (table_bucket_id, sse_algorithm, kms_key_arn) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET sse_algorithm = excluded.sse_algorithm,"
    " kms_key_arn = excluded.kms_key_arn");

FLOE_SQL(sql_table_encryption_put,
    "INSERT INTO table_encryption (table_id, sse_algorithm, kms_key_arn) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id) DO UPDATE SET sse_algorithm = excluded.sse_algorithm, kms_key_arn = excluded.kms_key_arn,"
    " is_inherited = 0");

FLOE_SQL(sql_table_encryption_inherit,
    "INSERT INTO table_encryption (table_id, sse_algorithm, kms_key_arn, is_inherited) VALUES (?1, ?2, ?3, 1)");

FLOE_SQL(sql_bucket_encryption_delete, "DELETE FROM table_bucket_encryption WHERE table_bucket_id = ?1");

int floe_settings_encryption_get(floe_call_t *call, const floe_resource_t *owner, floe_EncryptionConfiguration **out)
{
    floe_EncryptionConfiguration *config;
    floe_db_stmt_t *stmt;

    switch (read_owned(call, owner, sql_bucket_encryption_get, sql_table_encryption_get, &stmt)) {
    case FLOE_ENOTFOUND:
        *out = NULL;
        return FLOE_OK;
    case FLOE_OK:
        break;
    default:
        return FLOE_EFAIL;
    }
    config = floe_EncryptionConfiguration_new(call);
    config->sseAlgorithm =
        (floe_SSEAlgorithm)stored_enum(call, stmt, 0, floe_SSEAlgorithm_values, FLOE_SSEAlgorithm__COUNT);
    config->kmsKeyArn = floe_sql_text(call, stmt, 1);
    floe_db_reset(stmt);
    if (config->sseAlgorithm == 0)
        return FLOE_EFAIL;
    *out = config;
    return FLOE_OK;
}

int floe_settings_encryption_put(floe_call_t *call, const floe_resource_t *owner,
                                 const floe_EncryptionConfiguration *config)
{
    assert(config->sseAlgorithm >= 1 && config->sseAlgorithm <= FLOE_SSEAlgorithm__COUNT);
    return floe_sql_exec(call, sql_for(owner, sql_bucket_encryption_put, sql_table_encryption_put), "itt", owner->id,
                         floe_SSEAlgorithm_values[config->sseAlgorithm], config->kmsKeyArn);
}

int floe_settings_table_encryption_inherit(floe_call_t *call, int64_t table_id,
                                           const floe_EncryptionConfiguration *config)
{
    assert(config->sseAlgorithm >= 1 && config->sseAlgorithm <= FLOE_SSEAlgorithm__COUNT);
    return floe_sql_exec(call, sql_table_encryption_inherit, "itt", table_id,
                         floe_SSEAlgorithm_values[config->sseAlgorithm], config->kmsKeyArn);
}

int floe_settings_bucket_encryption_delete(floe_call_t *call, int64_t bucket_id)
{
    return floe_owned_exec(call, sql_bucket_encryption_delete, bucket_id);
}

/* ---- storage class ---- */

FLOE_SQL(sql_bucket_storage_class_get,
    "SELECT storage_class FROM table_bucket_storage_class WHERE table_bucket_id = ?1");

FLOE_SQL(sql_table_storage_class_get, "SELECT storage_class FROM table_storage_class WHERE table_id = ?1");

FLOE_SQL(sql_bucket_storage_class_put,
    "INSERT INTO table_bucket_storage_class (table_bucket_id, storage_class) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET storage_class = excluded.storage_class");

FLOE_SQL(sql_table_storage_class_put,
    "INSERT INTO table_storage_class (table_id, storage_class) VALUES (?1, ?2)"
    " ON CONFLICT (table_id) DO UPDATE SET storage_class = excluded.storage_class, is_inherited = 0");

FLOE_SQL(sql_table_storage_class_inherit,
    "INSERT INTO table_storage_class (table_id, storage_class, is_inherited) VALUES (?1, ?2, 1)");

/* NULL (no row) counts as inherited: a table without a row reports its bucket's (design note in
 * handlers/s3tables/table_encryption.c). */
FLOE_SQL(sql_table_inherits,
    "SELECT COALESCE((SELECT is_inherited FROM table_encryption WHERE table_id = ?1), 1),"
    " COALESCE((SELECT is_inherited FROM table_storage_class WHERE table_id = ?1), 1)");

int floe_settings_storage_class_get(floe_call_t *call, const floe_resource_t *owner, floe_StorageClass *out)
{
    floe_db_stmt_t *stmt;
    int storage_class;

    switch (read_owned(call, owner, sql_bucket_storage_class_get, sql_table_storage_class_get, &stmt)) {
    case FLOE_ENOTFOUND:
        *out = (floe_StorageClass)0;
        return FLOE_OK;
    case FLOE_OK:
        break;
    default:
        return FLOE_EFAIL;
    }
    storage_class = stored_enum(call, stmt, 0, floe_StorageClass_values, FLOE_StorageClass__COUNT);
    floe_db_reset(stmt);
    if (storage_class == 0)
        return FLOE_EFAIL;
    *out = (floe_StorageClass)storage_class;
    return FLOE_OK;
}

int floe_settings_storage_class_put(floe_call_t *call, const floe_resource_t *owner, floe_StorageClass storage_class)
{
    assert(storage_class >= 1 && storage_class <= FLOE_StorageClass__COUNT);
    return floe_sql_exec(call, sql_for(owner, sql_bucket_storage_class_put, sql_table_storage_class_put), "it",
                         owner->id, floe_StorageClass_values[storage_class]);
}

int floe_settings_table_storage_class_inherit(floe_call_t *call, int64_t table_id, floe_StorageClass storage_class)
{
    assert(storage_class >= 1 && storage_class <= FLOE_StorageClass__COUNT);
    return floe_sql_exec(call, sql_table_storage_class_inherit, "it", table_id, floe_StorageClass_values[storage_class]);
}

int floe_settings_table_inherits(floe_call_t *call, int64_t table_id, bool *encryption, bool *storage_class)
{
    floe_db_stmt_t *stmt;
    int rc = floe_owned_row(call, sql_table_inherits, table_id, &stmt);

    if (rc == FLOE_ENOTFOUND) /* a SELECT of two values always answers a row */
        return floe_fail_internal(call, "reading whether a table's settings are its bucket's found no row");
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    *encryption = floe_db_column_int(stmt, 0) != 0;
    *storage_class = floe_db_column_int(stmt, 1) != 0;
    floe_db_reset(stmt);
    return FLOE_OK;
}

/* ---- resource policy ---- */

FLOE_SQL(sql_bucket_policy_get, "SELECT document FROM table_bucket_policy WHERE table_bucket_id = ?1");

FLOE_SQL(sql_table_policy_get, "SELECT document FROM table_policy WHERE table_id = ?1");

FLOE_SQL(sql_bucket_policy_put,
    "INSERT INTO table_bucket_policy (table_bucket_id, document) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET document = excluded.document");

FLOE_SQL(sql_table_policy_put,
    "INSERT INTO table_policy (table_id, document) VALUES (?1, ?2)"
    " ON CONFLICT (table_id) DO UPDATE SET document = excluded.document");

FLOE_SQL(sql_bucket_policy_delete, "DELETE FROM table_bucket_policy WHERE table_bucket_id = ?1");

FLOE_SQL(sql_table_policy_delete, "DELETE FROM table_policy WHERE table_id = ?1");

int floe_settings_policy_get(floe_call_t *call, const floe_resource_t *owner, char **document)
{
    floe_db_stmt_t *stmt;

    switch (read_owned(call, owner, sql_bucket_policy_get, sql_table_policy_get, &stmt)) {
    case FLOE_ENOTFOUND:
        *document = NULL;
        return FLOE_OK;
    case FLOE_OK:
        *document = floe_sql_text(call, stmt, 0);
        floe_db_reset(stmt);
        return FLOE_OK;
    default:
        return FLOE_EFAIL;
    }
}

int floe_settings_policy_put(floe_call_t *call, const floe_resource_t *owner, const char *document)
{
    assert(document != NULL);
    return floe_sql_exec(call, sql_for(owner, sql_bucket_policy_put, sql_table_policy_put), "it", owner->id, document);
}

int floe_settings_policy_delete(floe_call_t *call, const floe_resource_t *owner)
{
    return floe_owned_exec(call, sql_for(owner, sql_bucket_policy_delete, sql_table_policy_delete), owner->id);
}

/* ---- metrics configuration ---- */

FLOE_SQL(sql_bucket_metrics_get, "SELECT configuration_id FROM table_bucket_metrics WHERE table_bucket_id = ?1");

/* Putting the configuration again keeps its id: the operation is idempotent. */
FLOE_SQL(sql_bucket_metrics_put,
    "INSERT INTO table_bucket_metrics (table_bucket_id, configuration_id) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO NOTHING");

FLOE_SQL(sql_bucket_metrics_delete, "DELETE FROM table_bucket_metrics WHERE table_bucket_id = ?1");

int floe_settings_bucket_metrics_get(floe_call_t *call, int64_t bucket_id, char **configuration_id)
{
    floe_db_stmt_t *stmt;

    switch (floe_owned_row(call, sql_bucket_metrics_get, bucket_id, &stmt)) {
    case FLOE_ENOTFOUND:
        *configuration_id = NULL;
        return FLOE_OK;
    case FLOE_OK:
        *configuration_id = floe_sql_text(call, stmt, 0);
        floe_db_reset(stmt);
        return FLOE_OK;
    default:
        return FLOE_EFAIL;
    }
}

int floe_settings_bucket_metrics_put(floe_call_t *call, int64_t bucket_id)
{
    char configuration_id[FLOE_UUID_LEN + 1];

    floe_uuid_v4(configuration_id);
    return floe_sql_exec(call, sql_bucket_metrics_put, "it", bucket_id, configuration_id);
}

int floe_settings_bucket_metrics_delete(floe_call_t *call, int64_t bucket_id)
{
    return floe_owned_exec(call, sql_bucket_metrics_delete, bucket_id);
}

/* ---- maintenance configuration ---- */

FLOE_SQL(sql_bucket_maintenance_get,
    "SELECT status, unreferenced_days, non_current_days FROM table_bucket_maintenance"
    " WHERE table_bucket_id = ?1 AND type = ?2");

FLOE_SQL(sql_bucket_maintenance_put,
    "INSERT INTO table_bucket_maintenance (table_bucket_id, type, status, unreferenced_days, non_current_days)"
    " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (table_bucket_id, type) DO UPDATE SET status = excluded.status,"
    " unreferenced_days = excluded.unreferenced_days, non_current_days = excluded.non_current_days");

int floe_settings_bucket_maintenance_get(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                         floe_bucket_maintenance_t *out)
{
    floe_db_stmt_t *stmt;
    int status;

    assert(type >= 1 && type <= FLOE_TableBucketMaintenanceType__COUNT);
    stmt = floe_sql_bind(call, sql_bucket_maintenance_get, "it", bucket_id,
                         floe_TableBucketMaintenanceType_values[type]);
    if (stmt == NULL)
        return FLOE_EFAIL;
    switch (floe_sql_step(call, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_DONE:
        *out = (floe_bucket_maintenance_t){0};
        return FLOE_OK;
    case FLOE_DB_ROW:
        break;
    default:
        return FLOE_EFAIL;
    }
    status = stored_enum(call, stmt, 0, floe_MaintenanceStatus_values, FLOE_MaintenanceStatus__COUNT);
    out->unreferenced_days = floe_db_column_int(stmt, 1);
    out->non_current_days = floe_db_column_int(stmt, 2);
    floe_db_reset(stmt);
    if (status == 0)
        return FLOE_EFAIL;
    out->status = (floe_MaintenanceStatus)status;
    return FLOE_OK;
}

int floe_settings_bucket_maintenance_put(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                         const floe_bucket_maintenance_t *value)
{
    assert(type >= 1 && type <= FLOE_TableBucketMaintenanceType__COUNT);
    assert(value->status >= 1 && value->status <= FLOE_MaintenanceStatus__COUNT);
    return floe_sql_exec(call, sql_bucket_maintenance_put, "ittnn", bucket_id,
                         floe_TableBucketMaintenanceType_values[type], floe_MaintenanceStatus_values[value->status],
                         (int)value->unreferenced_days, (int)value->non_current_days);
}
