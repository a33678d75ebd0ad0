/*
 * A table's maintenance settings (table_maintenance: compaction and snapshot management) and its
 * record expiration setting (table_record_expiration): what the API records and what a maintenance
 * engine reads to know what to do with a table. A table bucket's own maintenance settings are not
 * here (handlers/s3tables/table_bucket.c).
 *
 * What a table without a row has is part of the state's meaning, so it is answered here too:
 * AWS maintains every table with compaction and snapshot management, both enabled by default
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html), with a
 * target file size of 512 MB, the auto strategy, at least 1 snapshot kept and snapshots older than
 * 120 hours expired; "by default, records in your S3 tables don't expire"
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-record-expiration.html).
 * Which values a request may set, and the messages for those it may not, are the API's
 * (handlers/s3tables/table_maintenance.c, handlers/s3tables/table_record_expiration.c).
 *
 * The types here hold no shape that only some models have, so a maintenance engine can use them
 * whatever the model: enumerations the model added later are their wire values (strategy) or a
 * flag (record expiration's status). Every function fails the call with
 * a failure inside (FLOE_EFAIL) (a 500) when SQLite fails, and with nothing else.
 */
#ifndef FLOE_CATALOG_MAINTENANCE_H
#define FLOE_CATALOG_MAINTENANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"

/* AWS's defaults for table maintenance, from the user guide page cited above. */
#define FLOE_MAINTENANCE_DEFAULT_TARGET_FILE_SIZE_MB 512
#define FLOE_MAINTENANCE_DEFAULT_STRATEGY "auto" /* IcebergCompactionStrategy wire value */
#define FLOE_MAINTENANCE_DEFAULT_MIN_SNAPSHOTS_TO_KEEP 1
#define FLOE_MAINTENANCE_DEFAULT_MAX_SNAPSHOT_AGE_HOURS 120

/** One maintenance type's setting of a table. Each type uses its own fields only. */
typedef struct floe_table_maintenance {
    floe_MaintenanceStatus status;
    int32_t target_file_size_mb;    /* icebergCompaction */
    const char *strategy;           /* icebergCompaction: IcebergCompactionStrategy wire value; NULL: none */
    int32_t min_snapshots_to_keep;  /* icebergSnapshotManagement */
    int32_t max_snapshot_age_hours; /* icebergSnapshotManagement */
} floe_table_maintenance_t;

/** A table's record expiration setting. */
typedef struct floe_record_expiration {
    bool is_enabled; /* TableRecordExpirationStatus "enabled"; otherwise "disabled" */
    bool has_days;
    int32_t days; /* days to keep records; only with has_days */
} floe_record_expiration_t;

/** What a table that was never configured has for maintenance `type` (AWS's defaults). */
void floe_maintenance_default(floe_TableMaintenanceType type, floe_table_maintenance_t *out /* OUT */);

/**
 * The setting of maintenance `type` for the table of row id `table_id`: the stored one, or the
 * default when none is stored. Strings in the call's pool.
 */
int floe_maintenance_read(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                          floe_table_maintenance_t *out /* OUT */);

/** Stores `value` as the whole setting of maintenance `type` for the table of row id `table_id`. */
int floe_maintenance_write(floe_call_t *call, int64_t table_id, floe_TableMaintenanceType type,
                           const floe_table_maintenance_t *value);

/** The record expiration of the table of row id `table_id`: the stored one, or disabled without days. */
int floe_maintenance_read_expiration(floe_call_t *call, int64_t table_id, floe_record_expiration_t *out /* OUT */);

/** Stores `value` as the whole record expiration setting of the table of row id `table_id`. */
int floe_maintenance_write_expiration(floe_call_t *call, int64_t table_id, const floe_record_expiration_t *value);

#endif
