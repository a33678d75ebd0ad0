/*
 * Record expiration for a table (TableResource in the model): GetTableRecordExpirationConfiguration,
 * PutTableRecordExpirationConfiguration and GetTableRecordExpirationJobStatus. Each names its table
 * by tableArn.
 *
 * AWS (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-record-expiration.html):
 * "By default, records in your S3 tables don't expire"; enabling expiration means giving the
 * number of days to keep records (1 to 2,147,483,647, the model's PositiveInteger). A table
 * without a table_record_expiration row is therefore disabled, with no settings. A Put replaces
 * the whole value; an absent status takes that default, disabled. The row goes with the table
 * (ON DELETE CASCADE).
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
#include "owned_row.h"
#include "catalog/state.h"

/* The record expiration operations came with the same model version; each handler also names its own. */

FLOE_SQL(sql_get_expiration, "SELECT status, days FROM table_record_expiration WHERE table_id = ?1");

FLOE_SQL(sql_put_expiration,
    "INSERT INTO table_record_expiration (table_id, status, days) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, days = excluded.days");

/* The table's configuration: the stored one, or AWS's default (disabled, no settings). */
static int read_expiration(floe_call_t *call, int64_t table_id, floe_TableRecordExpirationConfigurationValue **out)
{
    floe_TableRecordExpirationConfigurationValue *value = floe_TableRecordExpirationConfigurationValue_new(call);
    sqlite3_stmt *stmt;
    int rc = floe_owned_row(call, sql_get_expiration, table_id, &stmt);

    if (rc < 0)
        return FLOE_EFAIL;
    value->status = FLOE_TableRecordExpirationStatus_DISABLED;
    if (rc == 1) {
        value->status = floe_TableRecordExpirationStatus_from_string((const char *)sqlite3_column_text(stmt, 0));
        if (sqlite3_column_type(stmt, 1) != SQLITE_NULL) {
            value->settings = floe_TableRecordExpirationSettings_new(call);
            value->settings->days = sqlite3_column_int(stmt, 1);
            value->settings->has_days = true;
        }
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
    floe_state_t *st = floe_call_state(call);
    floe_TableRecordExpirationStatus status =
        in->value->status != 0 ? in->value->status : FLOE_TableRecordExpirationStatus_DISABLED;
    floe_table_row_t table;
    sqlite3_stmt *stmt;
    (void)out;

    if (status == FLOE_TableRecordExpirationStatus_ENABLED && !has_days(in->value))
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "The number of days to retain records is required when record expiration is enabled.");
    if (floe_lookup_table_by_arn(call, in->tableArn, &table))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_put_expiration)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table.id);
    sqlite3_bind_text(stmt, 2, floe_TableRecordExpirationStatus_values[status], -1, SQLITE_STATIC);
    if (has_days(in->value))
        sqlite3_bind_int(stmt, 3, in->value->settings->days);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
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

