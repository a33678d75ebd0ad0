/*
 * Record expiration for a table (TableResource in the model): GetTableRecordExpirationConfiguration,
 * PutTableRecordExpirationConfiguration and GetTableRecordExpirationJobStatus. Each names its table
 * by tableArn.
 *
 * AWS (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-record-expiration.html):
 * "By default, records in your S3 tables don't expire"; enabling expiration means giving the
 * number of days to keep records (1 to 2,147,483,647, the model's PositiveInteger). A table never
 * configured is therefore disabled, with no settings (catalog/maintenance.h, which keeps the
 * setting). A Put replaces the whole value; an absent status takes that default, disabled.
 *
 * Where Floe differs: AWS offers record expiration only on some AWS-managed tables (S3 Storage
 * Lens, SageMaker Catalog) and not on "S3 tables that you create"; the model's
 * MethodNotAllowedException, listed only on these three operations, is "not allowed on this
 * resource ... managed by a service or has restrictions that prevent the operation". Floe holds
 * only tables that users create, and accepts record expiration on all of them so that clients of
 * these operations can be tested; it never answers MethodNotAllowedException. The expiration job
 * runs (runtime/maintenance/expiration.c), and GetTableRecordExpirationJobStatus
 * reports its last run (catalog/maintenance_job.h) with real metrics.
 */
#include <string.h>

#include "catalog/lookup.h"
#include "catalog/maintenance.h"
#include "catalog/maintenance_job.h"
#include "floe_api.h"

/* The table's configuration as the API shows it: the stored one, or AWS's default (disabled, no
 * settings). */
static int read_expiration(floe_call_t *call, int64_t table_id, floe_TableRecordExpirationConfigurationValue **out)
{
    floe_TableRecordExpirationConfigurationValue *value = floe_TableRecordExpirationConfigurationValue_new(call);
    floe_record_expiration_t setting;

    if (floe_maintenance_read_expiration(call, table_id, &setting))
        return FLOE_EFAIL;
    value->status = setting.is_enabled ? FLOE_TableRecordExpirationStatus_ENABLED
                                       : FLOE_TableRecordExpirationStatus_DISABLED;
    if (setting.has_days) {
        value->settings = floe_TableRecordExpirationSettings_new(call);
        value->settings->days = setting.days;
        value->settings->has_days = true;
    }
    *out = value;
    return FLOE_OK;
}

/* AWS: "If you enable record expiration for a table, you specify the number of days to retain
 * records in the table before the records expire." */
static bool has_days(const floe_TableRecordExpirationConfigurationValue *value)
{
    return value->settings != NULL && value->settings->has_days;
}

int floe_handle_PutTableRecordExpirationConfiguration(floe_call_t *call,
                                                      const floe_PutTableRecordExpirationConfigurationRequest *in,
                                                      floe_Unit *out)
{
    floe_TableRecordExpirationStatus status =
        in->value->status != 0 ? in->value->status : FLOE_TableRecordExpirationStatus_DISABLED;
    floe_record_expiration_t setting = {
        .is_enabled = status == FLOE_TableRecordExpirationStatus_ENABLED,
        .has_days = has_days(in->value),
        .days = has_days(in->value) ? in->value->settings->days : 0,
    };
    floe_table_row_t table;
    (void)out;

    if (setting.is_enabled && !setting.has_days)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "The number of days to retain records is required when record expiration is enabled.");
    if (floe_lookup_table_by_arn(call, in->tableArn, &table))
        return FLOE_EFAIL;
    return floe_maintenance_write_expiration(call, table.id, &setting);
}

int floe_handle_GetTableRecordExpirationConfiguration(floe_call_t *call,
                                                      const floe_GetTableRecordExpirationConfigurationRequest *in,
                                                      floe_GetTableRecordExpirationConfigurationResponse *out)
{
    floe_table_row_t table;

    if (floe_lookup_table_by_arn(call, in->tableArn, &table))
        return FLOE_EFAIL;
    return read_expiration(call, table.id, &out->configuration);
}

/* The last run's metrics: data files and records removed from the table, and their bytes. */
static floe_TableRecordExpirationJobMetrics *metrics_of(floe_call_t *call, const floe_maintenance_run_t *run)
{
    floe_TableRecordExpirationJobMetrics *m = floe_TableRecordExpirationJobMetrics_new(call);

    m->deletedDataFiles = run->files_deleted;
    m->has_deletedDataFiles = true;
    m->deletedRecords = run->records_removed;
    m->has_deletedRecords = true;
    m->removedFilesSize = run->bytes_deleted;
    m->has_removedFilesSize = true;
    return m;
}

/* Disabled when the configuration is; else the last run, or NotYetRun. */
int floe_handle_GetTableRecordExpirationJobStatus(floe_call_t *call,
                                                  const floe_GetTableRecordExpirationJobStatusRequest *in,
                                                  floe_GetTableRecordExpirationJobStatusResponse *out)
{
    floe_TableRecordExpirationConfigurationValue *value;
    floe_maintenance_run_t run;
    floe_table_row_t table;
    bool found;

    if (floe_lookup_table_by_arn(call, in->tableArn, &table) || read_expiration(call, table.id, &value))
        return FLOE_EFAIL;
    if (value->status != FLOE_TableRecordExpirationStatus_ENABLED) {
        out->status = FLOE_TableRecordExpirationJobStatus_DISABLED;
        return FLOE_OK;
    }
    if (floe_maintenance_run_get(call, table.id, FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB, &run, &found))
        return FLOE_EFAIL;
    if (!found) {
        out->status = FLOE_TableRecordExpirationJobStatus_NOT_YET_RUN;
        return FLOE_OK;
    }
    out->status = strcmp(run.status, FLOE_MAINTENANCE_RUN_SUCCESSFUL) == 0 ? FLOE_TableRecordExpirationJobStatus_SUCCESSFUL
                                                                             : FLOE_TableRecordExpirationJobStatus_FAILED;
    out->lastRunTimestamp = run.last_run_ms;
    out->has_lastRunTimestamp = true;
    out->failureMessage = (char *)run.failure_message;
    out->metrics = metrics_of(call, &run);
    return FLOE_OK;
}
