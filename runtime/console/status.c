/*
 * What a table's maintenance is doing, as the table page shows it (status.h): each job type's
 * configuration and last run, the ones GetTableMaintenanceConfiguration and
 * GetTableMaintenanceJobStatus (handlers/s3tables/table_maintenance.c) report, read from the same rows
 * (catalog/maintenance.h, catalog/maintenance_job.h); and a bucket's maintenance configuration as
 * GetTableBucketMaintenanceConfiguration reports it. Not for replication (replication_status.c)
 * nor for the configurations a bucket and a table both own (resource.c).
 */
#include <stdbool.h>

#include "catalog/maintenance.h"
#include "catalog/maintenance_job.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "console/status.h"

/*
 * Writes "jobStatus" (and "lastRun" once the job ran) for job `type` of the table, as
 * GetTableMaintenanceJobStatus answers it (handlers/s3tables/table_maintenance.c): Disabled while the
 * configuration is disabled, else the last run the maintenance engine recorded
 * (catalog/maintenance_job.h), or Not_Yet_Run.
 */
static int write_job(floe_call_t *call, floe_json_t *json, int64_t table_id, const char *type, bool is_enabled)
{
    floe_maintenance_run_t run;
    bool found;

    floe_json_key(json, "jobStatus");
    if (!is_enabled) {
        floe_json_string(json, "Disabled");
        return FLOE_OK;
    }
    if (floe_maintenance_run_get(call, table_id, type, &run, &found))
        return FLOE_EFAIL;
    floe_json_string(json, found ? run.status : "Not_Yet_Run");
    if (!found)
        return FLOE_OK;
    floe_json_key(json, "lastRun");
    floe_json_object_begin(json);
    floe_json_key(json, "at");
    floe_json_timestamp(json, run.last_run_ms);
    if (run.failure_message != NULL) {
        floe_json_key(json, "failureMessage");
        floe_json_string(json, run.failure_message);
    }
    floe_json_key(json, "filesWritten");
    floe_json_int(json, run.files_written);
    floe_json_key(json, "filesDeleted");
    floe_json_int(json, run.files_deleted);
    floe_json_key(json, "snapshotsExpired");
    floe_json_int(json, run.snapshots_expired);
    floe_json_key(json, "recordsRemoved");
    floe_json_int(json, run.records_removed);
    floe_json_object_end(json);
    return FLOE_OK;
}

static int write_table_type(floe_call_t *call, floe_json_t *json, int64_t table_id, floe_TableMaintenanceType type,
                            const floe_table_maintenance_t *m)
{
    const char *name = floe_TableMaintenanceType_values[type];

    floe_json_key(json, name);
    floe_json_object_begin(json);
    floe_json_key(json, "status");
    floe_json_string(json, floe_MaintenanceStatus_values[m->status]);
    floe_json_key(json, "settings");
    floe_json_object_begin(json);
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION) {
        floe_json_key(json, "targetFileSizeMB");
        floe_json_int(json, m->target_file_size_mb);
        if (m->strategy != NULL) {
            floe_json_key(json, "strategy");
            floe_json_string(json, m->strategy);
        }
    } else {
        floe_json_key(json, "minSnapshotsToKeep");
        floe_json_int(json, m->min_snapshots_to_keep);
        floe_json_key(json, "maxSnapshotAgeHours");
        floe_json_int(json, m->max_snapshot_age_hours);
    }
    floe_json_object_end(json);
    if (write_job(call, json, table_id, name, m->status != FLOE_MaintenanceStatus_DISABLED))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}

int floe_console_bucket_maintenance(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                    floe_bucket_maintenance_t *out, bool *is_default)
{
    if (floe_settings_bucket_maintenance_get(call, bucket_id, type, out))
        return FLOE_EFAIL;
    *is_default = out->status == 0;
    if (*is_default)
        *out = (floe_bucket_maintenance_t){FLOE_MaintenanceStatus_ENABLED, FLOE_RULES_DEFAULT_UNREFERENCED_DAYS,
                                           FLOE_RULES_DEFAULT_NON_CURRENT_DAYS};
    return FLOE_OK;
}

void floe_console_write_removal_settings(floe_json_t *json, const floe_bucket_maintenance_t *m, bool is_default)
{
    floe_json_key(json, "isDefault");
    floe_json_bool(json, is_default);
    floe_json_key(json, "settings");
    floe_json_object_begin(json);
    floe_json_key(json, "unreferencedDays");
    floe_json_int(json, m->unreferenced_days);
    floe_json_key(json, "nonCurrentDays");
    floe_json_int(json, m->non_current_days);
    floe_json_object_end(json);
}

/* Unreferenced file removal is configured on the bucket, with its days (AWS's when none is stored). */
static int write_removal(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
{
    floe_bucket_maintenance_t removal;
    const floe_TableBucketMaintenanceType type = FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL;
    const char *name = floe_TableBucketMaintenanceType_values[type];
    bool is_enabled, is_default;

    if (floe_console_bucket_maintenance(call, t->bucket.id, type, &removal, &is_default))
        return FLOE_EFAIL;
    is_enabled = removal.status != FLOE_MaintenanceStatus_DISABLED;
    floe_json_key(json, name);
    floe_json_object_begin(json);
    floe_json_key(json, "status");
    floe_json_string(json, is_enabled ? "enabled" : "disabled");
    floe_json_key(json, "configuredOn");
    floe_json_string(json, "tableBucket");
    floe_console_write_removal_settings(json, &removal, is_default);
    if (write_job(call, json, t->id, name, is_enabled))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}

/* Record expiration, a job of its own (FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB). */
static int write_expiration(floe_call_t *call, floe_json_t *json, int64_t table_id)
{
    floe_record_expiration_t expiration;

    if (floe_maintenance_read_expiration(call, table_id, &expiration))
        return FLOE_EFAIL;
    floe_json_key(json, FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB);
    floe_json_object_begin(json);
    floe_json_key(json, "status");
    floe_json_string(json, expiration.is_enabled ? "enabled" : "disabled");
    floe_json_key(json, "settings");
    floe_json_object_begin(json);
    if (expiration.has_days) {
        floe_json_key(json, "days");
        floe_json_int(json, expiration.days);
    }
    floe_json_object_end(json);
    if (write_job(call, json, table_id, FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB, expiration.is_enabled))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}

int floe_console_write_maintenance(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
{
    floe_json_key(json, "maintenance");
    floe_json_object_begin(json);
    for (int type = 1; type <= FLOE_TableMaintenanceType__COUNT; type++) {
        floe_table_maintenance_t m;
        if (floe_maintenance_read(call, t->id, (floe_TableMaintenanceType)type, &m) ||
            write_table_type(call, json, t->id, (floe_TableMaintenanceType)type, &m))
            return FLOE_EFAIL;
    }
    if (write_removal(call, json, t) || write_expiration(call, json, t->id))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}
