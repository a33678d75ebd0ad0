/*
 * A table's maintenance settings (TableResource in the model): GetTableMaintenanceConfiguration,
 * PutTableMaintenanceConfiguration and GetTableMaintenanceJobStatus.
 *
 * AWS maintains every table with compaction and snapshot management, both enabled by default
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html): compaction
 * to a target file size of 512 MB (64 to 512) with the auto strategy, snapshot management keeping
 * at least 1 snapshot and expiring those older than 120 hours. A table without a table_maintenance
 * row for a type has those defaults; a Put replaces the whole value of its type, and what it
 * leaves out takes its default, as PutTableBucketMaintenanceConfiguration does for buckets. Rows
 * go with the table (ON DELETE CASCADE).
 *
 * Floe has no maintenance engine: it records the settings and runs no job. So
 * GetTableMaintenanceJobStatus says Disabled for a disabled job and Not_Yet_Run for every other,
 * for the two table-level jobs and for unreferenced file removal, which is the table bucket's
 * setting (floe_bucket_maintenance_status_read).
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "catalog/state.h"
#include "table_bucket.h"

/* The maintenance operations on tables came with the same model version; each handler also names its own. */

/* AWS's defaults and limits, from the user guide page cited above. */
#define DEFAULT_TARGET_FILE_SIZE_MB 512
#define MIN_TARGET_FILE_SIZE_MB 64
#define MAX_TARGET_FILE_SIZE_MB 512
#define DEFAULT_MIN_SNAPSHOTS_TO_KEEP 1
#define DEFAULT_MAX_SNAPSHOT_AGE_HOURS 120

FLOE_SQL(sql_get_maintenance,
    "SELECT status, target_file_size_mb, strategy, min_snapshots_to_keep, max_snapshot_age_hours"
    " FROM table_maintenance WHERE table_id = ?1 AND type = ?2");

FLOE_SQL(sql_put_maintenance,
    "INSERT INTO table_maintenance (table_id, type, status, target_file_size_mb, strategy, min_snapshots_to_keep,"
    " max_snapshot_age_hours) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    " ON CONFLICT (table_id, type) DO UPDATE SET status = excluded.status,"
    " target_file_size_mb = excluded.target_file_size_mb, strategy = excluded.strategy,"
    " min_snapshots_to_keep = excluded.min_snapshots_to_keep, max_snapshot_age_hours = excluded.max_snapshot_age_hours");

/* ---- one type's value as the API shows it ---- */

/* A compaction value; `strategy` 0 means "none", for models whose settings have no strategy. */
static floe_TableMaintenanceConfigurationValue *compaction_value(floe_call_t *call, floe_MaintenanceStatus status,
                                                                 int32_t target_file_size_mb, int strategy)
{
    floe_TableMaintenanceConfigurationValue *value = floe_TableMaintenanceConfigurationValue_new(call);
    floe_IcebergCompactionSettings *compaction = floe_IcebergCompactionSettings_new(call);

    compaction->targetFileSizeMB = target_file_size_mb;
    compaction->has_targetFileSizeMB = true;
    compaction->strategy = (floe_IcebergCompactionStrategy)strategy;
    value->status = status;
    value->settings = floe_TableMaintenanceSettings_new(call);
    value->settings->tag = FLOE_TableMaintenanceSettings_TAG_icebergCompaction;
    value->settings->icebergCompaction = compaction;
    return value;
}

static floe_TableMaintenanceConfigurationValue *snapshot_value(floe_call_t *call, floe_MaintenanceStatus status,
                                                               int32_t min_snapshots_to_keep,
                                                               int32_t max_snapshot_age_hours)
{
    floe_TableMaintenanceConfigurationValue *value = floe_TableMaintenanceConfigurationValue_new(call);
    floe_IcebergSnapshotManagementSettings *snapshots = floe_IcebergSnapshotManagementSettings_new(call);

    snapshots->minSnapshotsToKeep = min_snapshots_to_keep;
    snapshots->has_minSnapshotsToKeep = true;
    snapshots->maxSnapshotAgeHours = max_snapshot_age_hours;
    snapshots->has_maxSnapshotAgeHours = true;
    value->status = status;
    value->settings = floe_TableMaintenanceSettings_new(call);
    value->settings->tag = FLOE_TableMaintenanceSettings_TAG_icebergSnapshotManagement;
    value->settings->icebergSnapshotManagement = snapshots;
    return value;
}

/* The strategy AWS uses when none is given: auto ("the default compaction strategy for all tables"). */
static int default_strategy(void)
{
    return FLOE_IcebergCompactionStrategy_AUTO;
}

/* What a table that was never configured has for `type`. */
static floe_TableMaintenanceConfigurationValue *default_value(floe_call_t *call, floe_TableMaintenanceType type)
{
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION)
        return compaction_value(call, FLOE_MaintenanceStatus_ENABLED, DEFAULT_TARGET_FILE_SIZE_MB, default_strategy());
    return snapshot_value(call, FLOE_MaintenanceStatus_ENABLED, DEFAULT_MIN_SNAPSHOTS_TO_KEEP,
                          DEFAULT_MAX_SNAPSHOT_AGE_HOURS);
}

/* ---- writing ---- */

/* AWS: the settings of a maintenance configuration are those of its type (PUT .../maintenance/{type}).
 * The model cannot tie the union member to the path label, so the handler does. */
static bool settings_match_type(floe_TableMaintenanceType type, const floe_TableMaintenanceSettings *settings)
{
    if (settings == NULL)
        return true;
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION)
        return settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction;
    return settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergSnapshotManagement;
}

/* AWS: the compaction target file size is "a custom value you specify between 64MB to 512MB"; the
 * model only says it is positive. */
static bool target_file_size_is_allowed(const floe_IcebergCompactionSettings *compaction)
{
    return compaction == NULL || !compaction->has_targetFileSizeMB ||
           (compaction->targetFileSizeMB >= MIN_TARGET_FILE_SIZE_MB &&
            compaction->targetFileSizeMB <= MAX_TARGET_FILE_SIZE_MB);
}

static int check_value(floe_call_t *call, floe_TableMaintenanceType type,
                       const floe_TableMaintenanceConfigurationValue *in)
{
    if (!settings_match_type(type, in->settings))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The settings do not match the maintenance type %s.",
                         floe_TableMaintenanceType_values[type]);
    if (in->settings != NULL && in->settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction &&
        !target_file_size_is_allowed(in->settings->icebergCompaction))
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "targetFileSizeMB must be between %d and %d.", MIN_TARGET_FILE_SIZE_MB,
                         MAX_TARGET_FILE_SIZE_MB);
    return FLOE_OK;
}

/* The compaction strategy `in` gives, or 0 when it gives none (or the model has no strategy). */
static int given_strategy(const floe_IcebergCompactionSettings *in)
{
    return in != NULL ? (int)in->strategy : 0;
}

/* A Put replaces the whole value of its type: what it leaves out takes AWS's default. */
static floe_TableMaintenanceConfigurationValue *value_to_store(floe_call_t *call, floe_TableMaintenanceType type,
                                                               const floe_TableMaintenanceConfigurationValue *in)
{
    const floe_TableMaintenanceSettings *settings = in->settings;
    floe_MaintenanceStatus status = in->status != 0 ? in->status : FLOE_MaintenanceStatus_ENABLED;
    const floe_IcebergCompactionSettings *c = NULL;
    const floe_IcebergSnapshotManagementSettings *s = NULL;

    if (settings != NULL && settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction)
        c = settings->icebergCompaction;
    if (settings != NULL && settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergSnapshotManagement)
        s = settings->icebergSnapshotManagement;
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION)
        return compaction_value(call, status,
                                c != NULL && c->has_targetFileSizeMB ? c->targetFileSizeMB
                                                                     : DEFAULT_TARGET_FILE_SIZE_MB,
                                given_strategy(c) != 0 ? given_strategy(c) : default_strategy());
    return snapshot_value(call, status,
                          s != NULL && s->has_minSnapshotsToKeep ? s->minSnapshotsToKeep
                                                                 : DEFAULT_MIN_SNAPSHOTS_TO_KEEP,
                          s != NULL && s->has_maxSnapshotAgeHours ? s->maxSnapshotAgeHours
                                                                  : DEFAULT_MAX_SNAPSHOT_AGE_HOURS);
}

/* Binds the settings columns (?4..?7) of sql_put_maintenance; a type leaves the other type's NULL. */
static void bind_settings(sqlite3_stmt *stmt, const floe_TableMaintenanceSettings *settings)
{
    if (settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction) {
        int strategy = given_strategy(settings->icebergCompaction);
        sqlite3_bind_int(stmt, 4, settings->icebergCompaction->targetFileSizeMB);
        if (strategy != 0)
            sqlite3_bind_text(stmt, 5, floe_IcebergCompactionStrategy_values[strategy], -1, SQLITE_STATIC);
        return;
    }
    sqlite3_bind_int(stmt, 6, settings->icebergSnapshotManagement->minSnapshotsToKeep);
    sqlite3_bind_int(stmt, 7, settings->icebergSnapshotManagement->maxSnapshotAgeHours);
}

int floe_handle_PutTableMaintenanceConfiguration(floe_call_t *call,
                                                 const floe_PutTableMaintenanceConfigurationRequest *in,
                                                 floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    floe_TableMaintenanceConfigurationValue *value;
    floe_table_row_t table;
    sqlite3_stmt *stmt;
    (void)out;

    if (check_value(call, in->type, in->value) ||
        floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    value = value_to_store(call, in->type, in->value);
    if ((stmt = floe_state_stmt(st, sql_put_maintenance)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table.id);
    sqlite3_bind_text(stmt, 2, floe_TableMaintenanceType_values[in->type], -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, floe_MaintenanceStatus_values[value->status], -1, SQLITE_STATIC);
    bind_settings(stmt, value->settings);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

/* ---- reading ---- */

/* The strategy column of a compaction row, as an enum (0 when NULL or unknown to this model). */
static int read_strategy(sqlite3_stmt *stmt, int col)
{
    const char *text = (const char *)sqlite3_column_text(stmt, col);
    return text != NULL ? (int)floe_IcebergCompactionStrategy_from_string(text) : 0;
}

/* The configuration of one maintenance type: the stored one, or AWS's default. */
static int read_maintenance(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                            floe_TableMaintenanceConfigurationValue **out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_get_maintenance);
    floe_MaintenanceStatus status;
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_text(stmt, 2, floe_TableMaintenanceType_values[type], -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
        *out = default_value(call, type);
        return FLOE_OK;
    }
    if (rc != SQLITE_ROW)
        return floe_fail_internal(call, floe_state_errmsg(st));
    status = floe_MaintenanceStatus_from_string((const char *)sqlite3_column_text(stmt, 0));
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION)
        *out = compaction_value(call, status, sqlite3_column_int(stmt, 1), read_strategy(stmt, 2));
    else
        *out = snapshot_value(call, status, sqlite3_column_int(stmt, 3), sqlite3_column_int(stmt, 4));
    sqlite3_reset(stmt);
    return FLOE_OK;
}

/* Every table-level maintenance type is listed, configured or not, as AWS lists its defaults. */
int floe_handle_GetTableMaintenanceConfiguration(floe_call_t *call,
                                                 const floe_GetTableMaintenanceConfigurationRequest *in,
                                                 floe_GetTableMaintenanceConfigurationResponse *out)
{
    floe_TableMaintenanceConfiguration *config =
        floe_TableMaintenanceConfiguration_new(call, FLOE_TableMaintenanceType__COUNT);
    floe_TableMaintenanceConfigurationValue *value;
    floe_table_row_t table;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    for (size_t i = 0; i < config->n; i++) {
        config->keys[i] = (floe_TableMaintenanceType)(i + 1);
        if (read_maintenance(call, table.id, config->keys[i], &value))
            return FLOE_EFAIL;
        config->values[i] = *value;
    }
    out->tableARN = table.arn;
    out->configuration = config;
    return FLOE_OK;
}

/* ---- job status ---- */

/* Whether the job of `type` is enabled for `table`: compaction and snapshot management by the
 * table's configuration, unreferenced file removal by its bucket's. */
static int job_is_enabled(floe_call_t *call, const floe_table_row_t *table, floe_TableMaintenanceJobType type,
                          bool *out)
{
    floe_TableMaintenanceConfigurationValue *value;
    floe_MaintenanceStatus status;

    switch (type) {
    case FLOE_TableMaintenanceJobType_ICEBERG_COMPACTION:
    case FLOE_TableMaintenanceJobType_ICEBERG_SNAPSHOT_MANAGEMENT:
        if (read_maintenance(call, table->id,
                             type == FLOE_TableMaintenanceJobType_ICEBERG_COMPACTION
                                 ? FLOE_TableMaintenanceType_ICEBERG_COMPACTION
                                 : FLOE_TableMaintenanceType_ICEBERG_SNAPSHOT_MANAGEMENT,
                             &value))
            return FLOE_EFAIL;
        status = value->status;
        break;
    case FLOE_TableMaintenanceJobType_ICEBERG_UNREFERENCED_FILE_REMOVAL:
        if (floe_bucket_maintenance_status_read(
                call, table->bucket.id, FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL, &status))
            return FLOE_EFAIL;
        break;
    default: /* a job type newer than this file: AWS enables maintenance unless told otherwise */
        status = FLOE_MaintenanceStatus_ENABLED;
        break;
    }
    *out = status != FLOE_MaintenanceStatus_DISABLED;
    return FLOE_OK;
}

/* Every job type is listed. No job ever runs in Floe, so an enabled one has Not_Yet_Run, with no
 * lastRunTimestamp or failureMessage. */
int floe_handle_GetTableMaintenanceJobStatus(floe_call_t *call, const floe_GetTableMaintenanceJobStatusRequest *in,
                                             floe_GetTableMaintenanceJobStatusResponse *out)
{
    floe_TableMaintenanceJobStatus *status =
        floe_TableMaintenanceJobStatus_new(call, FLOE_TableMaintenanceJobType__COUNT);
    floe_table_row_t table;
    bool is_enabled;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    for (size_t i = 0; i < status->n; i++) {
        status->keys[i] = (floe_TableMaintenanceJobType)(i + 1);
        if (job_is_enabled(call, &table, status->keys[i], &is_enabled))
            return FLOE_EFAIL;
        status->values[i].status = is_enabled ? FLOE_JobStatus_NOT_YET_RUN : FLOE_JobStatus_DISABLED;
    }
    out->tableARN = table.arn;
    out->status = status;
    return FLOE_OK;
}

