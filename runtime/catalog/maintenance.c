/*
 * The table maintenance and record expiration settings of maintenance.h.
 *
 * Design notes:
 *  1. A table has at most one table_maintenance row per type and one table_record_expiration row;
 *     a write replaces the whole row (an upsert), and the rows go with the table (ON DELETE
 *     CASCADE). No row means the defaults of maintenance.h.
 *  2. A table_maintenance row fills only its type's columns; the other type's stay NULL. So each
 *     type has its own upsert, which writes NULL into the other type's columns.
 *  3. Statuses, types and strategies are stored as their wire values, so the rows read the same
 *     whichever model the build has.
 */
#include <assert.h>
#include <string.h>

#include "call/call_sql.h"
#include "catalog/maintenance.h"
#include "db/state.h"

/* TableRecordExpirationStatus wire values (design note 3). */
#define EXPIRATION_ENABLED "enabled"
#define EXPIRATION_DISABLED "disabled"

FLOE_SQL(sql_get_maintenance,
    "SELECT status, target_file_size_mb, strategy, min_snapshots_to_keep, max_snapshot_age_hours"
    " FROM table_maintenance WHERE table_id = ?1 AND type = ?2");

#define MAINTENANCE_UPSERT                                                                                     \
    "INSERT INTO table_maintenance (table_id, type, status, target_file_size_mb, strategy, min_snapshots_to_keep," \
    " max_snapshot_age_hours)"
#define MAINTENANCE_REPLACE                                                                                    \
    " ON CONFLICT (table_id, type) DO UPDATE SET status = excluded.status,"                                    \
    " target_file_size_mb = excluded.target_file_size_mb, strategy = excluded.strategy,"                       \
    " min_snapshots_to_keep = excluded.min_snapshots_to_keep, max_snapshot_age_hours = excluded.max_snapshot_age_hours"

FLOE_SQL(sql_put_compaction,
    MAINTENANCE_UPSERT " VALUES (?1, ?2, ?3, ?4, ?5, NULL, NULL)" MAINTENANCE_REPLACE);

FLOE_SQL(sql_put_snapshot_management,
    MAINTENANCE_UPSERT " VALUES (?1, ?2, ?3, NULL, NULL, ?4, ?5)" MAINTENANCE_REPLACE);

FLOE_SQL(sql_get_expiration, "SELECT status, days FROM table_record_expiration WHERE table_id = ?1");

#define EXPIRATION_REPLACE " ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, days = excluded.days"

FLOE_SQL(sql_put_expiration,
    "INSERT INTO table_record_expiration (table_id, status, days) VALUES (?1, ?2, ?3)" EXPIRATION_REPLACE);

FLOE_SQL(sql_put_expiration_without_days,
    "INSERT INTO table_record_expiration (table_id, status, days) VALUES (?1, ?2, NULL)" EXPIRATION_REPLACE);

/* The type is one the model defines: callers pass only parsed, valid values. */
#define TYPE_IS_VALID(type) ((int)(type) >= 1 && (int)(type) <= FLOE_TableMaintenanceType__COUNT)

void floe_maintenance_default(floe_TableMaintenanceType type, floe_table_maintenance_t *out)
{
    assert(TYPE_IS_VALID(type));
    memset(out, 0, sizeof(*out));
    out->status = FLOE_MaintenanceStatus_ENABLED;
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION) {
        out->target_file_size_mb = FLOE_MAINTENANCE_DEFAULT_TARGET_FILE_SIZE_MB;
        out->strategy = FLOE_MAINTENANCE_DEFAULT_STRATEGY;
        return;
    }
    out->min_snapshots_to_keep = FLOE_MAINTENANCE_DEFAULT_MIN_SNAPSHOTS_TO_KEEP;
    out->max_snapshot_age_hours = FLOE_MAINTENANCE_DEFAULT_MAX_SNAPSHOT_AGE_HOURS;
}

int floe_maintenance_read(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                          floe_table_maintenance_t *out)
{
    floe_db_stmt_t *stmt;
    int rc;

    assert(TYPE_IS_VALID(type));
    stmt = floe_sql_bind(call, sql_get_maintenance, "it", table_id, floe_TableMaintenanceType_values[type]);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_DONE)
        floe_maintenance_default(type, out); /* design note 1 */
    if (rc == FLOE_DB_ROW) {
        memset(out, 0, sizeof(*out));
        out->status = floe_MaintenanceStatus_from_string(floe_db_column_text(stmt, 0));
        out->target_file_size_mb = floe_db_column_int(stmt, 1);
        out->strategy = floe_sql_text(call, stmt, 2);
        out->min_snapshots_to_keep = floe_db_column_int(stmt, 3);
        out->max_snapshot_age_hours = floe_db_column_int(stmt, 4);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_maintenance_write(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                           const floe_table_maintenance_t *value)
{
    const char *type_text, *status_text;

    assert(TYPE_IS_VALID(type));
    assert((int)value->status >= 1 && (int)value->status <= FLOE_MaintenanceStatus__COUNT);
    type_text = floe_TableMaintenanceType_values[type];
    status_text = floe_MaintenanceStatus_values[value->status];
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION) /* design note 2 */
        return floe_sql_exec(call, sql_put_compaction, "ittnt", table_id, type_text, status_text,
                             (int)value->target_file_size_mb, value->strategy);
    return floe_sql_exec(call, sql_put_snapshot_management, "ittnn", table_id, type_text, status_text,
                         (int)value->min_snapshots_to_keep, (int)value->max_snapshot_age_hours);
}

int floe_maintenance_read_expiration(floe_call_t *call, int64_t table_id, floe_record_expiration_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_get_expiration, "i", table_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    memset(out, 0, sizeof(*out)); /* no row: disabled, without days (design note 1) */
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW) {
        const char *status = floe_db_column_text(stmt, 0);
        out->is_enabled = status != NULL && strcmp(status, EXPIRATION_ENABLED) == 0;
        out->has_days = !floe_db_column_is_null(stmt, 1);
        out->days = out->has_days ? floe_db_column_int(stmt, 1) : 0;
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

int floe_maintenance_write_expiration(floe_call_t *call, int64_t table_id, const floe_record_expiration_t *value)
{
    const char *status = value->is_enabled ? EXPIRATION_ENABLED : EXPIRATION_DISABLED;

    if (value->has_days)
        return floe_sql_exec(call, sql_put_expiration, "itn", table_id, status, (int)value->days);
    return floe_sql_exec(call, sql_put_expiration_without_days, "it", table_id, status);
}
