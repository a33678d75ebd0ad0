/*
 * The lookups of lookup.h. Messages are AWS's (as seen from the service and mirrored by moto):
 * "The specified bucket does not exist.", "The specified namespace does not exist." and
 * "The specified table does not exist." Only "no row" is a miss: any other SQLite failure is a 500
 * (call_sql.h).
 */
#include <assert.h>

#include "call/call_sql.h"
#include "catalog/arn.h"
#include "catalog/bucket_cache.h"
#include "catalog/lookup.h"
#include "catalog/table_columns.h"
#include "db/state.h"

#define MESSAGE_NO_BUCKET "The specified bucket does not exist."
#define MESSAGE_NO_NAMESPACE "The specified namespace does not exist."
#define MESSAGE_NO_TABLE "The specified table does not exist."

/* An ARN that names nothing in the call's scope: another account's resource is access denied, as
 * AWS answers a caller whom no policy grants access (Floe evaluates no resource policies, so none
 * ever does), in IAM's words; a miss in the caller's own account (any region) is NotFound
 * (`missing`). Off the S3 Tables API (call->operation NULL) every miss is NotFound. */
static int fail_unknown_arn(floe_call_t *call, const char *arn, floe_subject_t subject, const char *missing)
{
    if (call->operation != NULL && floe_arn_is_other_account(call, arn))
        return floe_fail(call, FLOE_EDENIED, subject,
                         "User: arn:aws:iam::%s:root is not authorized to perform: s3tables:%s on resource: %s "
                         "because no resource-based policy allows the s3tables:%s action",
                         floe_call_account(call), call->operation, arn, call->operation);
    return floe_fail(call, FLOE_ENOTFOUND, subject, "%s", missing);
}

FLOE_SQL(sql_bucket_by_name,
    "SELECT id, name, bucket_id, type, created_at FROM table_bucket WHERE account_id = ?2 AND region = ?3 AND name = ?1");

FLOE_SQL(sql_namespace_by_name,
    "SELECT id, name, namespace_id, created_by, created_at FROM namespace WHERE table_bucket_id = ?1 AND name = ?2");

FLOE_SQL(sql_table_by_name,
    "SELECT " FLOE_TABLE_COLUMNS " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.namespace_id = ?1 AND t.name = ?2");

FLOE_SQL(sql_table_by_id,
    "SELECT " FLOE_TABLE_COLUMNS " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.table_bucket_id = ?1 AND t.table_id = ?2");

/* One query for bucket, namespace and table together: the path every table operation takes. */
FLOE_SQL(sql_table_by_names,
    "SELECT " FLOE_TABLE_COLUMNS ", b.id, b.bucket_id, b.type, b.created_at"
    " FROM table_bucket b JOIN namespace n ON n.table_bucket_id = b.id JOIN s3table t ON t.namespace_id = n.id"
    " WHERE b.account_id = ?4 AND b.region = ?5 AND b.name = ?1 AND n.name = ?2 AND t.name = ?3");

/* Steps a lookup bound by floe_sql_bind (NULL: the bind failed the call): FLOE_DB_ROW, with the
 * statement left on its row for the caller to read and reset; FLOE_DB_DONE (reset); or FLOE_EFAIL
 * with the call failed (reset). */
static int step_lookup(floe_call_t *call, floe_db_stmt_t *stmt)
{
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    if (rc != FLOE_DB_ROW)
        floe_db_reset(stmt);
    return rc;
}

int floe_lookup_bucket(floe_call_t *call, const char *arn, floe_bucket_row_t *out)
{
    char *name = floe_arn_parse_table_bucket(call, arn);
    floe_db_stmt_t *stmt;
    uint64_t generation;
    bool is_keepable = floe_bucket_cache_generation(call, &generation);

    if (name == NULL)
        return fail_unknown_arn(call, arn, FLOE_SUBJECT_BUCKET, MESSAGE_NO_BUCKET);
    if (is_keepable && floe_bucket_cache_find(call, arn, name, generation, out))
        return FLOE_OK;
    stmt = floe_sql_bind(call, sql_bucket_by_name, "ttt", name, floe_call_account(call), floe_call_region(call));
    switch (step_lookup(call, stmt)) {
    case FLOE_DB_ROW: break;
    case FLOE_DB_DONE: return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_BUCKET, MESSAGE_NO_BUCKET);
    default: return FLOE_EFAIL;
    }
    out->id = floe_db_column_int64(stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->bucket_id = floe_sql_text(call, stmt, 2);
    out->type = floe_sql_text(call, stmt, 3);
    out->created_at = floe_db_column_int64(stmt, 4);
    out->arn = floe_arn_table_bucket(call, out->name);
    floe_db_reset(stmt);
    if (is_keepable)
        floe_bucket_cache_keep(out, generation);
    return FLOE_OK;
}

int floe_lookup_namespace(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_namespace_by_name, "it", bucket->id, name);

    switch (step_lookup(call, stmt)) {
    case FLOE_DB_ROW: break;
    case FLOE_DB_DONE: return floe_fail_about(call, FLOE_ENOTFOUND, FLOE_SUBJECT_NAMESPACE, name, MESSAGE_NO_NAMESPACE);
    default: return FLOE_EFAIL;
    }
    out->id = floe_db_column_int64(stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->namespace_id = floe_sql_text(call, stmt, 2);
    out->created_by = floe_sql_text(call, stmt, 3);
    out->created_at = floe_db_column_int64(stmt, 4);
    floe_db_reset(stmt);
    return FLOE_OK;
}

void floe_table_columns_read(floe_call_t *call, floe_db_stmt_t *stmt, floe_table_row_t *t)
{
    assert(t->bucket.name != NULL);
    t->id = floe_db_column_int64(stmt, 0);
    t->table_id = floe_sql_text(call, stmt, 1);
    t->name = floe_sql_text(call, stmt, 2);
    t->type = floe_sql_text(call, stmt, 3);
    t->format = floe_sql_text(call, stmt, 4);
    t->version_token = floe_sql_text(call, stmt, 5);
    t->metadata_location = floe_sql_text(call, stmt, 6);
    t->warehouse_bucket = floe_sql_text(call, stmt, 7);
    t->created_at = floe_db_column_int64(stmt, 8);
    t->created_by = floe_sql_text(call, stmt, 9);
    t->modified_at = floe_db_column_int64(stmt, 10);
    t->modified_by = floe_sql_text(call, stmt, 11);
    t->ns.id = floe_db_column_int64(stmt, 12);
    t->ns.name = floe_sql_text(call, stmt, 13);
    t->ns.namespace_id = floe_sql_text(call, stmt, 14);
    t->ns.created_by = floe_sql_text(call, stmt, 15);
    t->ns.created_at = floe_db_column_int64(stmt, 16);
    t->arn = floe_arn_table(call, t->bucket.name, t->table_id);
}

/* Steps a table query bound by the caller (out->bucket filled): fills *out, or fails FLOE_ENOTFOUND
 * about the table `name` (NULL when looked up by its id). */
static int step_table(floe_call_t *call, floe_db_stmt_t *stmt, const char *name, floe_table_row_t *out)
{
    switch (step_lookup(call, stmt)) {
    case FLOE_DB_ROW: break;
    case FLOE_DB_DONE: return floe_fail_about(call, FLOE_ENOTFOUND, FLOE_SUBJECT_TABLE, name, MESSAGE_NO_TABLE);
    default: return FLOE_EFAIL;
    }
    floe_table_columns_read(call, stmt, out);
    floe_db_reset(stmt);
    return FLOE_OK;
}

int floe_lookup_table_in(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                         const char *name, floe_table_row_t *out)
{
    out->bucket = *bucket;
    return step_table(call, floe_sql_bind(call, sql_table_by_name, "it", ns->id, name), name, out);
}

/* Fills *out when bucket, namespace and table all exist: FLOE_OK; FLOE_ENOTFOUND when one of them
 * does not; FLOE_EFAIL when the call failed. */
static int lookup_table_at_once(floe_call_t *call, const char *bucket_name, const char *ns, const char *name,
                                floe_table_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_table_by_names, "ttttt", bucket_name, ns, name,
                                         floe_call_account(call), floe_call_region(call));

    switch (step_lookup(call, stmt)) {
    case FLOE_DB_ROW: break;
    case FLOE_DB_DONE: return FLOE_ENOTFOUND;
    default: return FLOE_EFAIL;
    }
    out->bucket.name = floe_call_strdup(call, bucket_name);
    out->bucket.arn = floe_arn_table_bucket(call, bucket_name);
    out->bucket.id = floe_db_column_int64(stmt, FLOE_TABLE_N_COLUMNS);
    out->bucket.bucket_id = floe_sql_text(call, stmt, FLOE_TABLE_N_COLUMNS + 1);
    out->bucket.type = floe_sql_text(call, stmt, FLOE_TABLE_N_COLUMNS + 2);
    out->bucket.created_at = floe_db_column_int64(stmt, FLOE_TABLE_N_COLUMNS + 3);
    floe_table_columns_read(call, stmt, out);
    floe_db_reset(stmt);
    return FLOE_OK;
}

int floe_lookup_table(floe_call_t *call, const char *bucket_arn, const char *ns, const char *name,
                      floe_table_row_t *out)
{
    char *bucket_name = floe_arn_parse_table_bucket(call, bucket_arn);
    floe_bucket_row_t bucket;
    floe_namespace_row_t namespace;
    int found = bucket_name != NULL ? lookup_table_at_once(call, bucket_name, ns, name, out) : FLOE_ENOTFOUND;

    if (found != FLOE_ENOTFOUND)
        return found;
    /* Something is missing: the step-by-step lookups say which, with AWS's message for it. */
    if (floe_lookup_bucket(call, bucket_arn, &bucket) || floe_lookup_namespace(call, &bucket, ns, &namespace))
        return FLOE_EFAIL;
    return floe_lookup_table_in(call, &bucket, &namespace, name, out);
}

int floe_lookup_table_by_arn(floe_call_t *call, const char *table_arn, floe_table_row_t *out)
{
    char *bucket_name, *table_id;

    if (floe_arn_parse_table(call, table_arn, &bucket_name, &table_id) != 0)
        return fail_unknown_arn(call, table_arn, FLOE_SUBJECT_TABLE, MESSAGE_NO_TABLE);
    if (floe_lookup_bucket(call, floe_arn_table_bucket(call, bucket_name), &out->bucket))
        return FLOE_EFAIL;
    return step_table(call, floe_sql_bind(call, sql_table_by_id, "it", out->bucket.id, table_id), NULL, out);
}

/* A table ARN names a table of a bucket of this account and region. */
static int lookup_table_resource(floe_call_t *call, const char *arn, floe_resource_t *out)
{
    floe_table_row_t table;
    if (floe_lookup_table_by_arn(call, arn, &table))
        return FLOE_EFAIL;
    out->kind = FLOE_RESOURCE_TABLE;
    out->id = table.id;
    return FLOE_OK;
}

int floe_lookup_resource(floe_call_t *call, const char *arn, floe_resource_t *out)
{
    floe_bucket_row_t bucket;
    char *bucket_name, *table_id;

    if (floe_arn_parse_table(call, arn, &bucket_name, &table_id) == 0)
        return lookup_table_resource(call, arn, out);
    if (floe_lookup_bucket(call, arn, &bucket))
        return FLOE_EFAIL;
    out->kind = FLOE_RESOURCE_TABLE_BUCKET;
    out->id = bucket.id;
    return FLOE_OK;
}
