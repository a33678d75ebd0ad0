/*
 * The console's table page (rooms.h): the table's row, its current metadata.json as stored (the
 * browser reads schema, specs, sort orders, properties and snapshots from it), its maintenance and
 * the last job status of each type, its replication and the rest it owns; and the one route that
 * hands the browser an object's bytes, so it can read the table's manifests and Parquet files
 * itself (hyparquet and an Avro reader, vendored under console/www/vendor).
 *
 * The last job status of each maintenance type and the replication status of each destination are
 * what GetTableMaintenanceJobStatus and GetTableReplicationStatus answer, read from the same rows.
 *
 * An object is served only from inside the table's own warehouse (floe_table_location_is_inside),
 * so the route reaches nothing the table ARN (and, with strict signatures, the signer) could not.
 */
#include <stdbool.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "catalog/maintenance.h"
#include "catalog/maintenance_job.h"
#include "catalog/replication.h"
#include "catalog/replication_queue.h"
#include "catalog/settings.h"
#include "catalog/table.h"
#include "console/resource.h"
#include "console/rooms.h"
#include "store/store.h"

#define S3_SCHEME "s3://"
#define MAX_OBJECT_BYTES (64u << 20) /* the browser previews; it does not download whole lakes */

/* The table ?arn names, in the scope it names. FLOE_OK, or FLOE_EFAIL after answering. */
static int enter_table(floe_console_req_t *r, floe_table_row_t *table)
{
    const char *arn = floe_console_required(r, "arn");

    if (arn == NULL || floe_console_scope_from_arn(r, arn))
        return FLOE_EFAIL;
    if (floe_lookup_table_by_arn(&r->call, arn, table))
        return floe_console_fail_call(r);
    return FLOE_OK;
}

/* Splits "s3://bucket/key" into the pool; -1 when it is not such a location. */
static int split_location(floe_call_t *call, const char *location, char **bucket, char **key)
{
    const char *b = location + strlen(S3_SCHEME), *slash;

    if (strncmp(location, S3_SCHEME, strlen(S3_SCHEME)) != 0 || (slash = strchr(b, '/')) == NULL || slash == b ||
        slash[1] == '\0')
        return -1;
    *bucket = floe_call_strndup(call, b, (size_t)(slash - b));
    *key = floe_call_strdup(call, slash + 1);
    return 0;
}

/* Writes "metadata": the stored metadata.json as it is, or null with "metadataError" saying why. */
static void write_metadata(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t)
{
    const char *why = "The table has no metadata yet.";
    char *bucket, *key, *data = NULL, *text;
    size_t len = 0;
    cJSON *parsed = NULL;

    if (t->metadata_location != NULL) {
        why = "The metadata file cannot be read.";
        if (split_location(&r->call, t->metadata_location, &bucket, &key) == 0 &&
            floe_store_read_object(floe_call_state(&r->call), r->w->config->data_dir, bucket, key, &data, &len) ==
                FLOE_STORE_OK) {
            floe_call_keep(&r->call, data);
            why = "The metadata file is not JSON.";
            parsed = cJSON_ParseWithLength(data, len);
        }
    }
    floe_json_key(json, "metadata");
    if (parsed == NULL) {
        floe_json_raw(json, "null");
        floe_json_key(json, "metadataError");
        floe_json_string(json, why);
        return;
    }
    cJSON_Delete(parsed);
    text = floe_call_strndup(&r->call, data, len); /* as written: 64-bit ids keep every digit */
    floe_json_raw(json, text);
}

/*
 * Writes "jobStatus" (and "lastRun" once the job ran) for job `type` of the table, as
 * GetTableMaintenanceJobStatus answers it (handlers/table_maintenance.c): Disabled while the
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

/* Unreferenced file removal is configured on the bucket (nothing stored: enabled, AWS's default). */
static int write_removal(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
{
    floe_bucket_maintenance_t removal;
    bool is_enabled;

    if (floe_settings_bucket_maintenance_get(call, t->bucket.id,
                                             FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL, &removal))
        return FLOE_EFAIL;
    is_enabled = removal.status != FLOE_MaintenanceStatus_DISABLED;
    floe_json_key(json, floe_TableBucketMaintenanceType_values[FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL]);
    floe_json_object_begin(json);
    floe_json_key(json, "status");
    floe_json_string(json, is_enabled ? "enabled" : "disabled");
    floe_json_key(json, "configuredOn");
    floe_json_string(json, "tableBucket");
    if (write_job(call, json, t->id, floe_TableBucketMaintenanceType_values[FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL],
                  is_enabled))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}

/* Record expiration, a job of its own ("recordExpiration" to the maintenance route). */
static int write_expiration(floe_call_t *call, floe_json_t *json, int64_t table_id)
{
    floe_record_expiration_t expiration;

    if (floe_maintenance_read_expiration(call, table_id, &expiration))
        return FLOE_EFAIL;
    floe_json_key(json, "recordExpiration");
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
    if (write_job(call, json, table_id, "recordExpiration", expiration.is_enabled))
        return FLOE_EFAIL;
    floe_json_object_end(json);
    return FLOE_OK;
}

static int write_maintenance(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
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

/* Adds the destinations of `rules` not yet in the list (a table replicates to its own and to its
 * bucket's, each once: GetTableReplicationStatus, handlers/table_replication.c). */
static void add_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules, char ***list,
                             size_t *n, size_t *cap)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            size_t k = 0;
            while (k < *n && strcmp((*list)[k], rules[r].destination_arns[i]) != 0)
                k++;
            if (k == *n) {
                *list = floe_call_grow(call, *list, *n, cap, sizeof(char *));
                (*list)[(*n)++] = rules[r].destination_arns[i];
            }
        }
    }
}

/* One destination's status, derived as GetTableReplicationStatus derives it (design note 3 of
 * catalog/replication_queue.h): failed, completed once the replica holds the current metadata,
 * else pending. */
static int write_destination(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t, const char *destination)
{
    floe_replication_status_row_t row;
    const char *status = "pending";

    if (floe_replication_status_read(call, t->id, destination, &row))
        return FLOE_EFAIL;
    if (row.is_failed)
        status = "failed";
    else if (row.last_metadata_location != NULL && t->metadata_location != NULL &&
             strcmp(row.last_metadata_location, t->metadata_location) == 0)
        status = "completed";
    floe_json_object_begin(json);
    floe_json_key(json, "destinationTableBucketArn");
    floe_json_string(json, destination);
    floe_json_key(json, "replicationStatus");
    floe_json_string(json, status);
    if (row.replica_table_arn != NULL) {
        floe_json_key(json, "destinationTableArn");
        floe_json_string(json, row.replica_table_arn);
    }
    if (row.failure_message != NULL) {
        floe_json_key(json, "failureMessage");
        floe_json_string(json, row.failure_message);
    }
    if (row.last_metadata_location != NULL) {
        floe_json_key(json, "lastReplicatedMetadataLocation");
        floe_json_string(json, row.last_metadata_location);
        floe_json_key(json, "lastReplicatedAt");
        floe_json_timestamp(json, row.last_replicated_at);
    }
    floe_json_object_end(json);
    return FLOE_OK;
}

static int write_replication_status(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
{
    floe_replication_rule_t *own, *inherited;
    size_t n_own, n_inherited, n = 0, cap = 0;
    char **destinations = NULL;

    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_TABLE, t->id, &own, &n_own) ||
        floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, t->bucket.id, &inherited, &n_inherited))
        return FLOE_EFAIL;
    add_destinations(call, own, n_own, &destinations, &n, &cap);
    add_destinations(call, inherited, n_inherited, &destinations, &n, &cap);
    floe_json_key(json, "replicationStatus");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        if (write_destination(call, json, t, destinations[i]))
            return FLOE_EFAIL;
    }
    floe_json_array_end(json);
    return FLOE_OK;
}

static void write_table_fields(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t)
{
    floe_json_key(json, "table");
    floe_json_object_begin(json);
    floe_json_key(json, "name");
    floe_json_string(json, t->name);
    floe_json_key(json, "namespace");
    floe_json_string(json, t->ns.name);
    floe_json_key(json, "arn");
    floe_json_string(json, t->arn);
    floe_json_key(json, "tableId");
    floe_json_string(json, t->table_id);
    floe_json_key(json, "format");
    floe_json_string(json, t->format);
    floe_json_key(json, "type");
    floe_json_string(json, t->type);
    floe_json_key(json, "versionToken");
    floe_json_string(json, t->version_token);
    floe_json_key(json, "metadataLocation");
    if (t->metadata_location != NULL)
        floe_json_string(json, t->metadata_location);
    else
        floe_json_raw(json, "null");
    floe_json_key(json, "warehouseLocation");
    floe_json_string(json, floe_table_warehouse_location(&r->call, t));
    floe_json_key(json, "createdAt");
    floe_json_timestamp(json, t->created_at);
    floe_json_key(json, "createdBy");
    floe_json_string(json, t->created_by);
    floe_json_key(json, "modifiedAt");
    floe_json_timestamp(json, t->modified_at);
    floe_json_key(json, "modifiedBy");
    floe_json_string(json, t->modified_by);
    floe_json_object_end(json);
    floe_json_key(json, "bucket");
    floe_json_object_begin(json);
    floe_json_key(json, "name");
    floe_json_string(json, t->bucket.name);
    floe_json_key(json, "arn");
    floe_json_string(json, t->bucket.arn);
    floe_json_object_end(json);
}

int floe_console_table(floe_console_req_t *r)
{
    floe_table_row_t table;
    floe_resource_t owner;
    floe_json_t *json;

    if (enter_table(r, &table))
        return FLOE_EFAIL;
    owner = (floe_resource_t){FLOE_RESOURCE_TABLE, table.id};
    json = floe_console_json(r);
    floe_json_object_begin(json);
    write_table_fields(r, json, &table);
    write_metadata(r, json, &table);
    if (write_maintenance(&r->call, json, &table) || write_replication_status(&r->call, json, &table) ||
        floe_console_write_owned(&r->call, json, &owner, FLOE_REPLICATION_OF_TABLE))
        return floe_console_fail_call(r);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

int floe_console_object(floe_console_req_t *r)
{
    floe_table_row_t table;
    const char *location;
    char *bucket, *key, *data;
    size_t len;
    floe_store_rc_t rc;

    if (enter_table(r, &table) || (location = floe_console_required(r, "location")) == NULL)
        return FLOE_EFAIL;
    if (split_location(&r->call, location, &bucket, &key) != 0 || !floe_table_location_is_inside(&table, location))
        return floe_console_fail(r, 400, "The location '%.200s' is not inside the table's warehouse.", location);
    rc = floe_store_head_object(floe_call_state(&r->call), bucket, key, &len);
    if (rc == FLOE_STORE_NOT_FOUND)
        return floe_console_fail(r, 404, "The object '%.200s' does not exist.", location);
    if (rc != FLOE_STORE_OK)
        return floe_console_fail(r, 500, "The server encountered an internal error.");
    if (len > MAX_OBJECT_BYTES)
        return floe_console_fail(r, 400, "The object is %zu bytes; the console reads objects of at most %u.", len,
                                 MAX_OBJECT_BYTES);
    rc = floe_store_read_object(floe_call_state(&r->call), r->w->config->data_dir, bucket, key, &data, &len);
    if (rc == FLOE_STORE_NOT_FOUND)
        return floe_console_fail(r, 404, "The object '%.200s' does not exist.", location);
    if (rc != FLOE_STORE_OK)
        return floe_console_fail(r, 500, "The server encountered an internal error.");
    floe_call_keep(&r->call, data);
    return floe_console_send_bytes(r, "application/octet-stream", data, len);
}
