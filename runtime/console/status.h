/*
 * A table's maintenance configuration and job status, written as members of the table page's JSON
 * object (table.c), and a bucket's maintenance configuration (buckets.c). See status.c.
 */
#ifndef FLOE_CONSOLE_STATUS_H
#define FLOE_CONSOLE_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/json.h"
#include "call/call.h"
#include "catalog/lookup.h"
#include "catalog/settings.h"

/**
 * The bucket's maintenance configuration of `type` as GetTableBucketMaintenanceConfiguration
 * reports it: the stored one, or AWS's default (enabled, 3 unreferenced days, 10 non-current days)
 * with *is_default true. FLOE_OK, or FLOE_EFAIL with the call failed.
 */
int floe_console_bucket_maintenance(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                    floe_bucket_maintenance_t *out /* OUT */, bool *is_default /* OUT */);

/** Writes "isDefault" and "settings" {unreferencedDays, nonCurrentDays} of a bucket configuration. */
void floe_console_write_removal_settings(floe_json_t *json, const floe_bucket_maintenance_t *m, bool is_default);

/**
 * Writes "maintenance": per job type (icebergCompaction, icebergSnapshotManagement,
 * icebergUnreferencedFileRemoval, recordExpiration) its status, settings (as the API reports them,
 * defaults included), jobStatus and lastRun.
 * FLOE_OK, or FLOE_EFAIL with the call failed.
 */
int floe_console_write_maintenance(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t);

#endif
