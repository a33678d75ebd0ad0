/*
 * What table_bucket.c lends other handler files: a bucket's storage class, which CreateTable
 * takes as its table's default unless it gives its own, and whether a bucket-level maintenance
 * job is enabled, which GetTableMaintenanceJobStatus reports for each of the bucket's tables.
 */
#ifndef FLOE_HANDLERS_S3TABLES_BUCKET_SETTINGS_H
#define FLOE_HANDLERS_S3TABLES_BUCKET_SETTINGS_H

#include <stdint.h>

#include "floe_api.h"

/** The storage class in effect for the bucket with row id `bucket_id`: the one set, or STANDARD. */
int floe_bucket_storage_class_read(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out /* OUT */);
/** Makes `storage_class` the bucket's default storage class. */
int floe_bucket_storage_class_write(floe_call_t *call, int64_t bucket_id, floe_StorageClass storage_class);

/**
 * The status of the bucket's maintenance of `type` (row id `bucket_id`): the one set, or enabled,
 * AWS's default.
 */
int floe_bucket_maintenance_status_read(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                       floe_MaintenanceStatus *out /* OUT */);

#endif
