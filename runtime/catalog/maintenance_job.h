/*
 * What the maintenance jobs remember between runs: the last run of each job type on
 * each table (its outcome, clock, failure message and figures: what GetTableMaintenanceJobStatus
 * and GetTableRecordExpirationJobStatus report), the warehouse objects unreferenced file removal
 * has marked noncurrent, and the walk over every table that the schedule makes. All of it SQL, so
 * it runs on a serving thread (a maintenance thread reaches it through background.h).
 *
 * Not for the jobs' settings (catalog/maintenance.h, catalog/settings.h) nor for running jobs
 * (runtime/maintenance/). Every function fails the call with a failure inside (FLOE_EFAIL) (a 500)
 * when SQLite fails, and with nothing else.
 */
#ifndef FLOE_CATALOG_MAINTENANCE_JOB_H
#define FLOE_CATALOG_MAINTENANCE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"

/** Record expiration's job type, as its runs are stored and POST /_floe/maintenance/run names it
 * (the other job types are named by the model's TableMaintenanceJobType; this one is not). */
#define FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB "recordExpiration"

/** The status a run leaves (JobStatus wire values). */
#define FLOE_MAINTENANCE_RUN_SUCCESSFUL "Successful"
#define FLOE_MAINTENANCE_RUN_FAILED "Failed"

/** The last run of one job type on one table. */
typedef struct floe_maintenance_run {
    const char *type;            /* the job type's wire name ("icebergSnapshotManagement", ...) */
    const char *status;          /* FLOE_MAINTENANCE_RUN_SUCCESSFUL or _FAILED */
    int64_t last_run_ms;         /* the job's clock */
    const char *failure_message; /* NULL unless failed */
    int64_t files_read, bytes_read, files_written, bytes_written, files_deleted, bytes_deleted;
    int64_t snapshots_expired, records_removed, files_marked;
} floe_maintenance_run_t;

/** Records `run` as the last run of run->type on the table of row id `table_id` (replacing the one before). */
int floe_maintenance_run_put(floe_call_t *call, int64_t table_id, const floe_maintenance_run_t *run);

/** The last run of `type` on the table: *found false when it never ran. Strings in the call's pool. */
int floe_maintenance_run_get(floe_call_t *call, int64_t table_id, const char *type, floe_maintenance_run_t *out /* OUT */,
                             bool *found /* OUT */);

/** The noncurrent marks of a table's warehouse objects: keys and when each was marked (call's pool). */
int floe_maintenance_noncurrent_list(floe_call_t *call, int64_t table_id, char ***keys /* OUT */,
                                     int64_t **marked_at /* OUT */, size_t *n /* OUT */);

/** Marks object `key` of the table's warehouse noncurrent at `marked_at` (ms); an existing mark is kept. */
int floe_maintenance_noncurrent_mark(floe_call_t *call, int64_t table_id, const char *key, int64_t marked_at);

/** Removes the mark of `key` (deleted, or referenced again); no mark is fine. */
int floe_maintenance_noncurrent_clear(floe_call_t *call, int64_t table_id, const char *key);

/** A table as the schedule walks them. */
typedef struct floe_maintenance_table {
    int64_t id;
    char *arn;
    char *account_id;
    char *region;
} floe_maintenance_table_t;

/** Up to `limit` tables of every account and region with row id > after_id, in id order (call's pool). */
int floe_maintenance_tables_after(floe_call_t *call, int64_t after_id, int limit,
                                  floe_maintenance_table_t **rows /* OUT */, size_t *n /* OUT */);

/** The ARNs of every table of the table bucket of row id `bucket_id`, in id order (call's pool). */
int floe_maintenance_tables_of_bucket(floe_call_t *call, int64_t bucket_id, char ***arns /* OUT */, size_t *n /* OUT */);

#endif
