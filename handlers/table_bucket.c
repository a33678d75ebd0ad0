/*
 * TableBucketResource: create, read, list and delete table buckets, and the bucket-level settings
 * the model puts on the same resource: storage class, metrics configuration and maintenance
 * configuration. (Encryption, policy and replication are resources of their own, in
 * table_bucket_encryption.c, table_bucket_policy.c and table_bucket_replication.c; tags are in
 * tags.c.)
 *
 * A table bucket is a row of table_bucket; its ARN is derived from the name and the process's
 * region and account (arn.h), never stored. Names follow AWS's table bucket rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html), which
 * bucket_name.h shares with S3's general purpose buckets. Each setting lives in its own
 * table_bucket_<setting> table that cascades with the bucket; a bucket without a row has AWS's
 * default (STANDARD; maintenance enabled, 3 and 10 days) or, for metrics, none.
 *
 * Floe records these settings and reports them back; it runs no maintenance job, publishes no
 * metrics and stores every object the same way whatever the storage class.
 */
#include "bucket_name.h"
#include "catalog/arn.h"
#include "floe_api.h"
#include "ids.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/page_token.h"
#include "catalog/state.h"
#include "table_bucket.h"
#include "table_bucket_encryption.h"
#include "tags.h"

#define DEFAULT_PAGE_SIZE 1000

FLOE_SQL(sql_insert_bucket,
    "INSERT INTO table_bucket (name, bucket_id, type, created_at) VALUES (?1, ?2, 'customer', ?3)");

FLOE_SQL(sql_delete_bucket, "DELETE FROM table_bucket WHERE id = ?1");

#ifdef FLOE_HAS_OP_PutTableBucketStorageClass
FLOE_SQL(sql_get_storage_class,
    "SELECT storage_class FROM table_bucket_storage_class WHERE table_bucket_id = ?1");

FLOE_SQL(sql_put_storage_class,
    "INSERT INTO table_bucket_storage_class (table_bucket_id, storage_class) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET storage_class = excluded.storage_class");
#endif

#ifdef FLOE_HAS_OP_PutTableBucketMetricsConfiguration
/* Putting the configuration again keeps its id: the operation is idempotent. */
FLOE_SQL(sql_put_metrics,
    "INSERT INTO table_bucket_metrics (table_bucket_id, configuration_id) VALUES (?1, ?2)"
    " ON CONFLICT (table_bucket_id) DO NOTHING");

FLOE_SQL(sql_get_metrics, "SELECT configuration_id FROM table_bucket_metrics WHERE table_bucket_id = ?1");

FLOE_SQL(sql_delete_metrics, "DELETE FROM table_bucket_metrics WHERE table_bucket_id = ?1");
#endif

#ifdef FLOE_HAS_OP_PutTableBucketMaintenanceConfiguration
FLOE_SQL(sql_get_maintenance,
    "SELECT status, unreferenced_days, non_current_days FROM table_bucket_maintenance"
    " WHERE table_bucket_id = ?1 AND type = ?2");

FLOE_SQL(sql_put_maintenance,
    "INSERT INTO table_bucket_maintenance (table_bucket_id, type, status, unreferenced_days, non_current_days)"
    " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (table_bucket_id, type) DO UPDATE SET status = excluded.status,"
    " unreferenced_days = excluded.unreferenced_days, non_current_days = excluded.non_current_days");

/* AWS's defaults for unreferenced file removal, which is enabled on every new bucket
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-table-buckets-maintenance.html). */
#define DEFAULT_UNREFERENCED_DAYS 3
#define DEFAULT_NON_CURRENT_DAYS 10
#endif

FLOE_SQL(sql_list_buckets,
    "SELECT name, bucket_id, type, created_at FROM table_bucket"
    " WHERE name > ?1 AND (?2 IS NULL OR substr(name, 1, length(?2)) = ?2) AND (?3 IS NULL OR type = ?3)"
    " ORDER BY name LIMIT ?4");

/* Inserts the bucket's row; *id is its row id. ConflictException if the name is taken. */
static int insert_bucket(floe_call_t *call, const char *name, int64_t *id)
{
    floe_state_t *st = floe_call_state(call);
    char bucket_id[FLOE_UUID_LEN + 1];
    sqlite3_stmt *stmt;
    int rc;

    if ((stmt = floe_state_stmt(st, sql_insert_bucket)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    floe_uuid_v4(bucket_id);
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, bucket_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, floe_call_now(call));
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException,
                         "The bucket that you tried to create already exists, and you own it.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    *id = sqlite3_last_insert_rowid(floe_state_db(st));
    return FLOE_OK;
}

/* The settings CreateTableBucket may carry, stored by the operations that own them, in the
 * transaction that creates the bucket: a refused setting creates no bucket. */
static int configure_new_bucket(floe_call_t *call, const floe_CreateTableBucketRequest *in, int64_t id)
{
#ifdef FLOE_HAS_MEMBER_CreateTableBucketRequest_encryptionConfiguration
    if (in->encryptionConfiguration != NULL && floe_bucket_encryption_write(call, id, in->encryptionConfiguration))
        return FLOE_EFAIL;
#endif
#ifdef FLOE_HAS_MEMBER_CreateTableBucketRequest_storageClassConfiguration
    if (in->storageClassConfiguration != NULL &&
        floe_bucket_storage_class_write(call, id, in->storageClassConfiguration->storageClass))
        return FLOE_EFAIL;
#endif
#ifdef FLOE_HAS_MEMBER_CreateTableBucketRequest_tags
    if (in->tags != NULL) {
        floe_resource_t resource = {FLOE_RESOURCE_TABLE_BUCKET, id};
        if (floe_tags_add(call, &resource, in->tags))
            return FLOE_EFAIL;
    }
#endif
    return FLOE_OK;
}

/* The bucket and the settings CreateTableBucket gives it, in one transaction: a refused setting
 * leaves no bucket behind. */
static int create_bucket(floe_call_t *call, void *arg)
{
    const floe_CreateTableBucketRequest *in = arg;
    int64_t id = 0;

    if (insert_bucket(call, in->name, &id))
        return FLOE_EFAIL;
    return configure_new_bucket(call, in, id);
}

int floe_handle_CreateTableBucket(floe_call_t *call, const floe_CreateTableBucketRequest *in,
                                  floe_CreateTableBucketResponse *out)
{
    if (!floe_bucket_name_is_valid(in->name, FLOE_BUCKET_NAME_TABLE))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The specified bucket name is not valid.");
    if (floe_call_in_transaction(call, create_bucket, (void *)in))
        return FLOE_EFAIL;
    out->arn = floe_arn_table_bucket(call, in->name);
    return FLOE_OK;
}

int floe_handle_GetTableBucket(floe_call_t *call, const floe_GetTableBucketRequest *in,
                               floe_GetTableBucketResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    out->arn = bucket.arn;
    out->name = bucket.name;
    out->ownerAccountId = floe_call_config(call)->account_id;
    out->createdAt = bucket.created_at;
    out->has_createdAt = true;
#ifdef FLOE_HAS_MEMBER_GetTableBucketResponse_tableBucketId
    out->tableBucketId = bucket.bucket_id;
#endif
#ifdef FLOE_HAS_MEMBER_GetTableBucketResponse_type
    out->type = floe_TableBucketType_from_string(bucket.type);
#endif
    return FLOE_OK;
}

/* Reads one row of sql_list_buckets into a summary. */
static void read_bucket_summary(floe_call_t *call, sqlite3_stmt *stmt, floe_TableBucketSummary *s)
{
    s->name = floe_column_text(call, stmt, 0);
    s->arn = floe_arn_table_bucket(call, s->name);
    s->ownerAccountId = floe_call_config(call)->account_id;
    s->createdAt = sqlite3_column_int64(stmt, 3);
    s->has_createdAt = true;
#ifdef FLOE_HAS_MEMBER_TableBucketSummary_tableBucketId
    s->tableBucketId = floe_column_text(call, stmt, 1);
#endif
#ifdef FLOE_HAS_MEMBER_TableBucketSummary_type
    s->type = floe_TableBucketType_from_string((const char *)sqlite3_column_text(stmt, 2));
#endif
}

/* The type filter, as a number for the listing's fingerprint (0: none). */
static int list_type(const floe_ListTableBucketsRequest *in)
{
#ifdef FLOE_HAS_MEMBER_ListTableBucketsRequest_type
    return (int)in->type;
#else
    (void)in;
    return 0;
#endif
}

int floe_handle_ListTableBuckets(floe_call_t *call, const floe_ListTableBucketsRequest *in,
                                 floe_ListTableBucketsResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    int page_size = in->has_maxBuckets ? in->maxBuckets : DEFAULT_PAGE_SIZE;
    const char *after = "";
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc;

    const char *listing = floe_call_printf(call, "ListTableBuckets|%s|%d", in->prefix ? in->prefix : "", list_type(in));

    if (in->continuationToken != NULL && (after = floe_page_token_decode(call, listing, in->continuationToken)) == NULL)
        return floe_fail(call, FLOE_ERR_BadRequestException, "The continuation token is not valid.");
    if ((stmt = floe_state_stmt(st, sql_list_buckets)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_text(stmt, 1, after, -1, SQLITE_STATIC);
    if (in->prefix != NULL)
        sqlite3_bind_text(stmt, 2, in->prefix, -1, SQLITE_STATIC);
#ifdef FLOE_HAS_MEMBER_ListTableBucketsRequest_type
    if (in->type != 0)
        sqlite3_bind_text(stmt, 3, floe_TableBucketType_values[in->type], -1, SQLITE_STATIC);
#endif
    sqlite3_bind_int(stmt, 4, page_size + 1); /* one more tells whether another page follows */
    out->tableBuckets = floe_TableBucketSummaryList_new(call, (size_t)page_size);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (n == (size_t)page_size) {
            out->continuationToken = floe_page_token_encode(call, listing, out->tableBuckets->items[n - 1].name);
            break;
        }
        read_bucket_summary(call, stmt, &out->tableBuckets->items[n++]);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->tableBuckets->n = n;
    return FLOE_OK;
}

int floe_handle_DeleteTableBucket(floe_call_t *call, const floe_DeleteTableBucketRequest *in, floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;
    int rc;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_delete_bucket)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket.id);
    rc = sqlite3_step(stmt);
    /* Namespaces reference their bucket without ON DELETE CASCADE: a bucket that still has one
     * fails the foreign key, atomically with the delete. Its settings and tags reference it with
     * ON DELETE CASCADE and go with it. */
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException, "The bucket that you tried to delete is not empty.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

/* ---- storage class ---- */

#ifdef FLOE_HAS_OP_PutTableBucketStorageClass
int floe_bucket_storage_class_read(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out)
{
    sqlite3_stmt *stmt;

    switch (floe_owned_row(call, sql_get_storage_class, bucket_id, &stmt)) {
    case 1:
        *out = floe_StorageClass_from_string((const char *)sqlite3_column_text(stmt, 0));
        return FLOE_OK;
    case 0:
        *out = FLOE_StorageClass_STANDARD; /* "If not specified, the service default storage class will be used." */
        return FLOE_OK;
    default:
        return FLOE_EFAIL;
    }
}

int floe_bucket_storage_class_write(floe_call_t *call, int64_t bucket_id, floe_StorageClass storage_class)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_put_storage_class);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket_id);
    sqlite3_bind_text(stmt, 2, floe_StorageClass_values[storage_class], -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_handle_PutTableBucketStorageClass(floe_call_t *call, const floe_PutTableBucketStorageClassRequest *in,
                                           floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_bucket_storage_class_write(call, bucket.id, in->storageClassConfiguration->storageClass);
}
#endif

#ifdef FLOE_HAS_OP_GetTableBucketStorageClass
int floe_handle_GetTableBucketStorageClass(floe_call_t *call, const floe_GetTableBucketStorageClassRequest *in,
                                           floe_GetTableBucketStorageClassResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    out->storageClassConfiguration = floe_StorageClassConfiguration_new(call);
    return floe_bucket_storage_class_read(call, bucket.id, &out->storageClassConfiguration->storageClass);
}
#endif

/* ---- metrics configuration ---- */

#ifdef FLOE_HAS_OP_PutTableBucketMetricsConfiguration
int floe_handle_PutTableBucketMetricsConfiguration(floe_call_t *call,
                                                   const floe_PutTableBucketMetricsConfigurationRequest *in,
                                                   floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    char configuration_id[FLOE_UUID_LEN + 1];
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_put_metrics)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    floe_uuid_v4(configuration_id);
    sqlite3_bind_int64(stmt, 1, bucket.id);
    sqlite3_bind_text(stmt, 2, configuration_id, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#ifdef FLOE_HAS_OP_GetTableBucketMetricsConfiguration
int floe_handle_GetTableBucketMetricsConfiguration(floe_call_t *call,
                                                   const floe_GetTableBucketMetricsConfigurationRequest *in,
                                                   floe_GetTableBucketMetricsConfigurationResponse *out)
{
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    switch (floe_owned_row(call, sql_get_metrics, bucket.id, &stmt)) {
    case 1:
        out->tableBucketARN = bucket.arn;
        out->id = floe_column_text(call, stmt, 0);
        return FLOE_OK;
    case 0:
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified metrics configuration does not exist.");
    default:
        return FLOE_EFAIL;
    }
}
#endif

#ifdef FLOE_HAS_OP_DeleteTableBucketMetricsConfiguration
/* Deleting a configuration that is not there succeeds: the bucket ends up without one either way. */
int floe_handle_DeleteTableBucketMetricsConfiguration(floe_call_t *call,
                                                      const floe_DeleteTableBucketMetricsConfigurationRequest *in,
                                                      floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_owned_exec(call, sql_delete_metrics, bucket.id);
}
#endif

/* ---- maintenance configuration ---- */

#ifdef FLOE_HAS_OP_PutTableBucketMaintenanceConfiguration
/* One type's configuration as the API shows it. Unreferenced file removal is the only bucket-level
 * type; its settings are the union member of the same name. */
static floe_TableBucketMaintenanceConfigurationValue *maintenance_value(floe_call_t *call, floe_MaintenanceStatus status,
                                                                        int32_t unreferenced_days,
                                                                        int32_t non_current_days)
{
    floe_TableBucketMaintenanceConfigurationValue *value = floe_TableBucketMaintenanceConfigurationValue_new(call);
    floe_IcebergUnreferencedFileRemovalSettings *removal = floe_IcebergUnreferencedFileRemovalSettings_new(call);

    removal->unreferencedDays = unreferenced_days;
    removal->has_unreferencedDays = true;
    removal->nonCurrentDays = non_current_days;
    removal->has_nonCurrentDays = true;
    value->status = status;
    value->settings = floe_TableBucketMaintenanceSettings_new(call);
    value->settings->tag = FLOE_TableBucketMaintenanceSettings_TAG_icebergUnreferencedFileRemoval;
    value->settings->icebergUnreferencedFileRemoval = removal;
    return value;
}

/* AWS: the settings of a maintenance configuration are those of its type (PUT .../maintenance/{type}).
 * The model cannot tie the union member to the path label, so the handler does. */
static bool maintenance_settings_match_type(floe_TableBucketMaintenanceType type,
                                            const floe_TableBucketMaintenanceSettings *settings)
{
    return settings == NULL || (type == FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL &&
                                settings->tag == FLOE_TableBucketMaintenanceSettings_TAG_icebergUnreferencedFileRemoval);
}

/* A Put replaces the whole value: what it leaves out takes AWS's default, as on a new bucket. The
 * ranges AWS documents (at least 1 day each) are the model's PositiveInteger, checked before. */
static floe_TableBucketMaintenanceConfigurationValue *
maintenance_value_to_store(floe_call_t *call, const floe_TableBucketMaintenanceConfigurationValue *in)
{
    const floe_IcebergUnreferencedFileRemovalSettings *removal =
        in->settings != NULL ? in->settings->icebergUnreferencedFileRemoval : NULL;

    return maintenance_value(
        call, in->status != 0 ? in->status : FLOE_MaintenanceStatus_ENABLED,
        removal != NULL && removal->has_unreferencedDays ? removal->unreferencedDays : DEFAULT_UNREFERENCED_DAYS,
        removal != NULL && removal->has_nonCurrentDays ? removal->nonCurrentDays : DEFAULT_NON_CURRENT_DAYS);
}

int floe_handle_PutTableBucketMaintenanceConfiguration(floe_call_t *call,
                                                       const floe_PutTableBucketMaintenanceConfigurationRequest *in,
                                                       floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    floe_TableBucketMaintenanceConfigurationValue *value;
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;
    (void)out;

    if (!maintenance_settings_match_type(in->type, in->value->settings))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The settings do not match the maintenance type %s.",
                         floe_TableBucketMaintenanceType_values[in->type]);
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    value = maintenance_value_to_store(call, in->value);
    if ((stmt = floe_state_stmt(st, sql_put_maintenance)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket.id);
    sqlite3_bind_text(stmt, 2, floe_TableBucketMaintenanceType_values[in->type], -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, floe_MaintenanceStatus_values[value->status], -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 4, value->settings->icebergUnreferencedFileRemoval->unreferencedDays);
    sqlite3_bind_int(stmt, 5, value->settings->icebergUnreferencedFileRemoval->nonCurrentDays);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#ifdef FLOE_HAS_OP_GetTableBucketMaintenanceConfiguration
/* The configuration of one maintenance type: the stored one, or AWS's default. */
static int read_maintenance(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                            floe_TableBucketMaintenanceConfigurationValue *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_get_maintenance);
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket_id);
    sqlite3_bind_text(stmt, 2, floe_TableBucketMaintenanceType_values[type], -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        *out = *maintenance_value(call, floe_MaintenanceStatus_from_string((const char *)sqlite3_column_text(stmt, 0)),
                                  sqlite3_column_int(stmt, 1), sqlite3_column_int(stmt, 2));
    else if (rc == SQLITE_DONE)
        *out = *maintenance_value(call, FLOE_MaintenanceStatus_ENABLED, DEFAULT_UNREFERENCED_DAYS,
                                  DEFAULT_NON_CURRENT_DAYS);
    else
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_reset(stmt);
    return FLOE_OK;
}

int floe_bucket_maintenance_status_read(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                       floe_MaintenanceStatus *out)
{
    floe_TableBucketMaintenanceConfigurationValue value;

    if (read_maintenance(call, bucket_id, type, &value))
        return FLOE_EFAIL;
    *out = value.status;
    return FLOE_OK;
}

/* Every bucket-level maintenance type is listed, configured or not, as AWS lists its defaults. */
int floe_handle_GetTableBucketMaintenanceConfiguration(floe_call_t *call,
                                                       const floe_GetTableBucketMaintenanceConfigurationRequest *in,
                                                       floe_GetTableBucketMaintenanceConfigurationResponse *out)
{
    floe_TableBucketMaintenanceConfiguration *config =
        floe_TableBucketMaintenanceConfiguration_new(call, FLOE_TableBucketMaintenanceType__COUNT);
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    for (size_t i = 0; i < config->n; i++) {
        config->keys[i] = (floe_TableBucketMaintenanceType)(i + 1);
        if (read_maintenance(call, bucket.id, config->keys[i], &config->values[i]))
            return FLOE_EFAIL;
    }
    out->tableBucketARN = bucket.arn;
    out->configuration = config;
    return FLOE_OK;
}
#endif
