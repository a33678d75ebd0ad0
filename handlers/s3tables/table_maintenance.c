/*
 * A table's maintenance settings (TableResource in the model): GetTableMaintenanceConfiguration,
 * PutTableMaintenanceConfiguration and GetTableMaintenanceJobStatus.
 *
 * AWS maintains every table with compaction and snapshot management, both enabled by default
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html): compaction
 * to a target file size of 512 MB (64 to 512) with the auto strategy, snapshot management keeping
 * at least 1 snapshot and expiring those older than 120 hours. A table never configured for a type
 * has those defaults (catalog/maintenance.h, which keeps the settings); a Put replaces the whole
 * value of its type, and what it leaves out takes its default, as
 * PutTableBucketMaintenanceConfiguration does for buckets.
 *
 * The jobs run (runtime/maintenance/): on a schedule and through POST
 * /_floe/maintenance/run. GetTableMaintenanceJobStatus reports each job type's last run on the
 * table (catalog/maintenance_job.h): Successful or Failed with lastRunTimestamp (the job's clock)
 * and failureMessage; Not_Yet_Run for an enabled job that never ran; Disabled for a disabled one,
 * whatever ran before. Unreferenced file removal is the table bucket's setting
 * (floe_bucket_maintenance_status_read) and runs on each of its tables.
 */
#include <string.h>

#include "bucket_settings.h"
#include "catalog/lookup.h"
#include "catalog/maintenance.h"
#include "catalog/maintenance_job.h"
#include "catalog/rules.h"
#include "floe_api.h"

/* AWS's limits, from the user guide page cited above (shared with CloudFormation). */
#define MIN_TARGET_FILE_SIZE_MB FLOE_RULES_MIN_TARGET_FILE_SIZE_MB
#define MAX_TARGET_FILE_SIZE_MB FLOE_RULES_MAX_TARGET_FILE_SIZE_MB

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

/* A stored strategy (a wire value) as the model's enum; 0 for none, or when the model has no strategy. */
static int strategy_from_text(const char *text)
{
    return text != NULL ? (int)floe_IcebergCompactionStrategy_from_string(text) : 0;
}

/* The API's value of a stored (or default) setting of `type`. */
static floe_TableMaintenanceConfigurationValue *api_value(floe_call_t *call, floe_TableMaintenanceType type,
                                                          const floe_table_maintenance_t *setting)
{
    if (type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION)
        return compaction_value(call, setting->status, setting->target_file_size_mb,
                                strategy_from_text(setting->strategy));
    return snapshot_value(call, setting->status, setting->min_snapshots_to_keep, setting->max_snapshot_age_hours);
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
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE, "The settings do not match the maintenance type %s.",
                         floe_TableMaintenanceType_values[type]);
    if (in->settings != NULL && in->settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction &&
        !target_file_size_is_allowed(in->settings->icebergCompaction))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "targetFileSizeMB must be between %d and %d.", MIN_TARGET_FILE_SIZE_MB,
                         MAX_TARGET_FILE_SIZE_MB);
    return FLOE_OK;
}

/* The compaction strategy `in` gives, as its wire value; NULL when it gives none (or the model has
 * no strategy). */
static const char *given_strategy(const floe_IcebergCompactionSettings *in)
{
    return in != NULL && in->strategy != 0 ? floe_IcebergCompactionStrategy_values[in->strategy] : NULL;
}

/* A Put replaces the whole value of its type: what it leaves out takes AWS's default. */
static void setting_to_store(floe_TableMaintenanceType type, const floe_TableMaintenanceConfigurationValue *in,
                             floe_table_maintenance_t *out)
{
    const floe_TableMaintenanceSettings *settings = in->settings;
    const floe_IcebergCompactionSettings *c = NULL;
    const floe_IcebergSnapshotManagementSettings *s = NULL;

    floe_maintenance_default(type, out);
    if (in->status != 0)
        out->status = in->status;
    if (settings != NULL && settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction)
        c = settings->icebergCompaction;
    if (settings != NULL && settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergSnapshotManagement)
        s = settings->icebergSnapshotManagement;
    if (c != NULL && c->has_targetFileSizeMB)
        out->target_file_size_mb = c->targetFileSizeMB;
    if (given_strategy(c) != NULL)
        out->strategy = given_strategy(c);
    if (s != NULL && s->has_minSnapshotsToKeep)
        out->min_snapshots_to_keep = s->minSnapshotsToKeep;
    if (s != NULL && s->has_maxSnapshotAgeHours)
        out->max_snapshot_age_hours = s->maxSnapshotAgeHours;
}

int floe_handle_PutTableMaintenanceConfiguration(floe_call_t *call,
                                                 const floe_PutTableMaintenanceConfigurationRequest *in,
                                                 floe_Unit *out)
{
    floe_table_maintenance_t setting;
    floe_table_row_t table;
    (void)out;

    if (check_value(call, in->type, in->value) ||
        floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    setting_to_store(in->type, in->value, &setting);
    return floe_maintenance_write(call, table.id, in->type, &setting);
}

/* ---- reading ---- */

/* The configuration of one maintenance type: the stored one, or AWS's default. */
static int read_maintenance(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                            floe_TableMaintenanceConfigurationValue **out)
{
    floe_table_maintenance_t setting;

    if (floe_maintenance_read(call, table_id, type, &setting))
        return FLOE_EFAIL;
    *out = api_value(call, type, &setting);
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

/* The status of an enabled job of `type` on the table: its last run, or Not_Yet_Run. */
static int job_status(floe_call_t *call, const floe_table_row_t *table, floe_TableMaintenanceJobType type,
                      floe_TableMaintenanceJobStatusValue *out)
{
    floe_maintenance_run_t run;
    bool found;

    if (floe_maintenance_run_get(call, table->id, floe_TableMaintenanceJobType_values[type], &run, &found))
        return FLOE_EFAIL;
    out->status = FLOE_JobStatus_NOT_YET_RUN;
    if (!found)
        return FLOE_OK;
    out->status = strcmp(run.status, FLOE_MAINTENANCE_RUN_SUCCESSFUL) == 0 ? FLOE_JobStatus_SUCCESSFUL
                                                                             : FLOE_JobStatus_FAILED;
    out->lastRunTimestamp = run.last_run_ms;
    out->has_lastRunTimestamp = true;
    out->failureMessage = (char *)run.failure_message;
    return FLOE_OK;
}

/* Every job type is listed, as AWS lists them. */
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
        status->values[i].status = FLOE_JobStatus_DISABLED;
        if (is_enabled && job_status(call, &table, status->keys[i], &status->values[i]))
            return FLOE_EFAIL;
    }
    out->tableARN = table.arn;
    out->status = status;
    return FLOE_OK;
}
