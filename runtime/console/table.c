/*
 * The console's table page (rooms.h): the table's row, its current metadata.json as stored (the
 * browser reads schema, specs, sort orders, properties and snapshots from it), its maintenance and
 * the last job status of each type, its replication and the rest it owns; and the one route that
 * hands the browser an object's bytes, so it can read the table's manifests and Parquet files
 * itself (hyparquet and an Avro reader, vendored under console/www/vendor).
 *
 * Maintenance is status.c's; replication status replication_status.c's.
 *
 * An object is served only from inside the table's own warehouse (floe_table_location_is_inside),
 * so the route reaches nothing the table ARN (and, with strict signatures, the signer) could not.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "catalog/table.h"
#include "console/replication_status.h"
#include "console/resource.h"
#include "console/rooms.h"
#include "console/status.h"
#include "base/failure.h"
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
        return FLOE_EFAIL;
    *bucket = floe_call_strndup(call, b, (size_t)(slash - b));
    *key = floe_call_strdup(call, slash + 1);
    return FLOE_OK;
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
                FLOE_OK) {
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

static void write_table_fields(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t)
{
    floe_json_key(json, "table");
    floe_json_object_begin(json);
    floe_console_write_table_summary(json, t);
    floe_json_key(json, "tableId");
    floe_json_string(json, t->table_id);
    floe_json_key(json, "versionToken");
    floe_json_string(json, t->version_token);
    floe_json_key(json, "metadataLocation");
    if (t->metadata_location != NULL)
        floe_json_string(json, t->metadata_location);
    else
        floe_json_raw(json, "null");
    floe_json_key(json, "warehouseLocation");
    floe_json_string(json, floe_table_warehouse_location(&r->call, t));
    floe_json_key(json, "createdBy");
    floe_json_string(json, t->created_by);
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
    if (floe_console_write_maintenance(&r->call, json, &table) ||
        floe_console_write_replication_status(&r->call, json, &table) ||
        floe_console_write_replica_source(r, json, &table) ||
        floe_console_write_owned(&r->call, json, &owner, table.bucket.id, FLOE_REPLICATION_OF_TABLE))
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
    int rc;

    if (enter_table(r, &table) || (location = floe_console_required(r, "location")) == NULL)
        return FLOE_EFAIL;
    if (split_location(&r->call, location, &bucket, &key) != 0 || !floe_table_location_is_inside(&table, location))
        return floe_console_fail(r, 400, "The location '%.200s' is not inside the table's warehouse.", location);
    rc = floe_store_head_object(floe_call_state(&r->call), bucket, key, &len);
    if (rc == FLOE_ENOTFOUND)
        return floe_console_fail(r, 404, "The object '%.200s' does not exist.", location);
    if (rc != FLOE_OK)
        return floe_console_fail(r, 500, "The server encountered an internal error.");
    if (len > MAX_OBJECT_BYTES)
        return floe_console_fail(r, 400, "The object is %zu bytes; the console reads objects of at most %u.", len,
                                 MAX_OBJECT_BYTES);
    rc = floe_store_read_object(floe_call_state(&r->call), r->w->config->data_dir, bucket, key, &data, &len);
    if (rc == FLOE_ENOTFOUND)
        return floe_console_fail(r, 404, "The object '%.200s' does not exist.", location);
    if (rc != FLOE_OK)
        return floe_console_fail(r, 500, "The server encountered an internal error.");
    floe_call_keep(&r->call, data);
    return floe_console_send_bytes(r, "application/octet-stream", data, len);
}
