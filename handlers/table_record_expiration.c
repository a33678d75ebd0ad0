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
 * these operations can be tested; it never answers MethodNotAllowedException. Nothing expires
 * either: Floe has no expiration engine, so the job status is Disabled or NotYetRun.
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "catalog/maintenance.h"

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
        return floe_fail(call, FLOE_ERR_BadRequestException,
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

/* No expiration job ever runs in Floe: an enabled configuration has NotYetRun, with no
 * lastRunTimestamp, failureMessage or metrics. */
int floe_handle_GetTableRecordExpirationJobStatus(floe_call_t *call,
                                                  const floe_GetTableRecordExpirationJobStatusRequest *in,
                                                  floe_GetTableRecordExpirationJobStatusResponse *out)
{
    floe_TableRecordExpirationConfigurationValue *value;
    floe_table_row_t table;

    if (floe_lookup_table_by_arn(call, in->tableArn, &table) || read_expiration(call, table.id, &value))
        return FLOE_EFAIL;
    out->status = value->status == FLOE_TableRecordExpirationStatus_ENABLED
                      ? FLOE_TableRecordExpirationJobStatus_NOT_YET_RUN
                      : FLOE_TableRecordExpirationJobStatus_DISABLED;
    return FLOE_OK;
}

