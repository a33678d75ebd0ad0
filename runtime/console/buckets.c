/*
 * The console's table bucket routes (api_routes.h): the paginated list of a scope's table buckets,
 * and one bucket's page (its configuration and tags). Pages come from the catalog's own listing
 * (catalog/table_bucket.h), so a token is the one ListTableBuckets would give.
 */
#include "catalog/glue_integration.h"
#include "catalog/settings.h"
#include "catalog/table_bucket.h"
#include "console/api_routes.h"
#include "console/replication_status.h"
#include "console/resource.h"
#include "console/status.h"

static void write_bucket_row(floe_json_t *json, const floe_bucket_row_t *b)
{
    floe_json_object_begin(json);
    floe_json_key(json, "name");
    floe_json_string(json, b->name);
    floe_json_key(json, "arn");
    floe_json_string(json, b->arn);
    floe_json_key(json, "tableBucketId");
    floe_json_string(json, b->bucket_id);
    floe_json_key(json, "type");
    floe_json_string(json, b->type);
    floe_json_key(json, "createdAt");
    floe_json_timestamp(json, b->created_at);
    floe_json_object_end(json);
}

int floe_console_buckets(floe_console_req_t *r)
{
    floe_table_bucket_page_t page;
    floe_json_t *json;
    int page_size, rc;

    if (floe_console_scope_from_params(r) || floe_console_page_size(r, &page_size))
        return FLOE_EFAIL;
    rc = floe_table_bucket_list(&r->call, floe_console_param(r, "prefix"), NULL, floe_console_param(r, "token"),
                                page_size, &page);
    if (rc == FLOE_EINVAL)
        return floe_console_fail(r, 400, "The continuation token is not one of this listing.");
    if (rc != FLOE_OK)
        return floe_console_fail_call(r);
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "account");
    floe_json_string(json, floe_call_account(&r->call));
    floe_json_key(json, "region");
    floe_json_string(json, floe_call_region(&r->call));
    floe_json_key(json, "items");
    floe_json_array_begin(json);
    for (size_t i = 0; i < page.n; i++)
        write_bucket_row(json, &page.items[i]);
    floe_json_array_end(json);
    floe_json_key(json, "nextToken");
    if (page.continuation_token != NULL)
        floe_json_string(json, page.continuation_token);
    else
        floe_json_raw(json, "null");
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

/* Each bucket-level type as GetTableBucketMaintenanceConfiguration lists it, AWS's default included. */
static int write_maintenance(floe_call_t *call, floe_json_t *json, int64_t bucket_id)
{
    floe_json_key(json, "maintenance");
    floe_json_object_begin(json);
    for (int t = 1; t <= FLOE_TableBucketMaintenanceType__COUNT; t++) {
        floe_bucket_maintenance_t m;
        bool is_default;
        if (floe_console_bucket_maintenance(call, bucket_id, (floe_TableBucketMaintenanceType)t, &m, &is_default))
            return FLOE_EFAIL;
        floe_json_key(json, floe_TableBucketMaintenanceType_values[t]);
        floe_json_object_begin(json);
        floe_json_key(json, "status");
        floe_json_string(json, floe_MaintenanceStatus_values[m.status]);
        floe_console_write_removal_settings(json, &m, is_default);
        floe_json_object_end(json);
    }
    floe_json_object_end(json);
    return FLOE_OK;
}

/* Whether the account and region has the Glue Data Catalog's s3tablescatalog integration, and
 * the bucket's catalog id there (its tables' Glue names are <catalog id>/<namespace>/<table>). */
static int write_glue(floe_call_t *call, floe_json_t *json, const floe_bucket_row_t *bucket)
{
    bool is_integrated;

    if (floe_glue_integration_read(call, &is_integrated, NULL))
        return FLOE_EFAIL;
    floe_json_key(json, "glue");
    floe_json_object_begin(json);
    floe_json_key(json, "integrated");
    floe_json_bool(json, is_integrated);
    floe_json_key(json, "catalogId");
    floe_json_string(json, floe_call_printf(call, "%s:%s/%s", floe_call_account(call), FLOE_GLUE_S3TABLES_CATALOG,
                                            bucket->name));
    floe_json_object_end(json);
    return FLOE_OK;
}

int floe_console_bucket(floe_console_req_t *r)
{
    const char *arn = floe_console_required(r, "arn");
    floe_bucket_row_t bucket;
    floe_resource_t owner;
    char *metrics;
    floe_json_t *json;

    if (arn == NULL || floe_console_scope_from_arn(r, arn))
        return FLOE_EFAIL;
    if (floe_lookup_bucket(&r->call, arn, &bucket))
        return floe_console_fail_call(r);
    owner = (floe_resource_t){FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "bucket");
    write_bucket_row(json, &bucket);
    floe_json_key(json, "account");
    floe_json_string(json, floe_call_account(&r->call));
    floe_json_key(json, "region");
    floe_json_string(json, floe_call_region(&r->call));
    if (floe_settings_bucket_metrics_get(&r->call, bucket.id, &metrics) ||
        write_maintenance(&r->call, json, bucket.id) ||
        floe_console_write_owned(&r->call, json, &owner, bucket.id, FLOE_REPLICATION_OF_BUCKET) ||
        floe_console_write_bucket_replication_status(&r->call, json, &bucket) || write_glue(&r->call, json, &bucket))
        return floe_console_fail_call(r);
    floe_json_key(json, "metricsConfigurationId");
    if (metrics != NULL)
        floe_json_string(json, metrics);
    else
        floe_json_raw(json, "null");
    floe_json_object_end(json);
    return floe_console_send_json(r);
}
