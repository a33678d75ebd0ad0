/*
 * The console's table page (api_routes.h): the table's row, its current metadata.json as stored (the
 * browser reads schema, specs, sort orders, properties and snapshots from it), its maintenance and
 * the last job status of each type, its replication and the rest it owns; and the one route that
 * hands the browser an object's bytes, so it can read the table's manifests and Parquet files
 * itself (hyparquet and an Avro reader, vendored under console/www/vendor).
 *
 * Maintenance is status.c's; replication status replication_status.c's; the counts of snapshots
 * whose summary lacks them computed_summary.c's.
 *
 * An object is served only from inside the table's own warehouse (floe_table_location_is_inside),
 * so the route reaches nothing the table ARN (and, with strict signatures, the signer) could not.
 */
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/failure.h"
#include "catalog/table.h"
#include "console/api_routes.h"
#include "console/computed_summary.h"
#include "console/replication_status.h"
#include "console/resource.h"
#include "console/status.h"
#include "console/table_file.h"
#include "iceberg/iceberg_json.h"

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

/* Writes "metadata": the stored metadata.json as it is, or null with "metadataError" saying why;
 * and, when it was read, the computed counts of its snapshots whose summary lacks them. */
static void write_metadata(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t)
{
    const char *why = "The table has no metadata yet.";
    char *data = NULL, *text;
    size_t len = 0;
    cJSON *parsed = NULL;
    floe_iceberg_error_t err;

    if (t->metadata_location != NULL) {
        why = "The metadata file cannot be read.";
        if (floe_console_read_table_file(r, t, t->metadata_location, SIZE_MAX, &data, &len) == FLOE_OK) {
            why = "The metadata file is not JSON.";
            parsed = floe_iceberg_json_parse(data, len, &err); /* exact snapshot ids */
        }
    }
    floe_json_key(json, "metadata");
    if (parsed == NULL) {
        floe_json_raw(json, "null");
        floe_json_key(json, "metadataError");
        floe_json_string(json, why);
        return;
    }
    text = floe_call_strndup(&r->call, data, len); /* as written: 64-bit ids keep every digit */
    floe_json_raw(json, text);
    floe_console_write_computed_summaries(r, json, t, parsed);
    cJSON_Delete(parsed);
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
    char *data;
    size_t len;

    if (enter_table(r, &table) || (location = floe_console_required(r, "location")) == NULL)
        return FLOE_EFAIL;
    switch (floe_console_read_table_file(r, &table, location, MAX_OBJECT_BYTES, &data, &len)) {
    case FLOE_OK:
        return floe_console_send_bytes(r, "application/octet-stream", data, len);
    case FLOE_EINVAL:
        return floe_console_fail(r, 400, "The location '%.200s' is not inside the table's warehouse.", location);
    case FLOE_ENOTFOUND:
        return floe_console_fail(r, 404, "The object '%.200s' does not exist.", location);
    case FLOE_ESTATE:
        return floe_console_fail(r, 400, "The object is %zu bytes; the console reads objects of at most %u.", len,
                                 MAX_OBJECT_BYTES);
    default:
        return floe_console_fail(r, 500, "The server encountered an internal error.");
    }
}
