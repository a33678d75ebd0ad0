/*
 * TableBucketResource: create, read, list and delete table buckets.
 *
 * A table bucket is a row of table_bucket; its ARN is derived from the name and the process's
 * region and account (arn.h), never stored. Names follow AWS's table bucket rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html): the model
 * checks length and characters, bucket_name_is_allowed() the rest.
 */
#include <string.h>

#include "arn.h"
#include "floe_api.h"
#include "ids.h"
#include "lookup.h"
#include "page_token.h"
#include "state.h"

#define DEFAULT_PAGE_SIZE 1000

static const char sql_insert_bucket[] =
    "INSERT INTO table_bucket (name, bucket_id, type, created_at) VALUES (?1, ?2, 'customer', ?3)";

static const char sql_delete_bucket[] = "DELETE FROM table_bucket WHERE id = ?1";

static const char sql_list_buckets[] =
    "SELECT name, bucket_id, type, created_at FROM table_bucket"
    " WHERE name > ?1 AND (?2 IS NULL OR substr(name, 1, length(?2)) = ?2) AND (?3 IS NULL OR type = ?3)"
    " ORDER BY name LIMIT ?4";

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_letter_or_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* AWS: a table bucket name begins and ends with a letter or number, does not start with the
 * reserved prefixes xn--, sthree-, amzn-s3-demo- or aws, and does not end with the reserved
 * suffixes -s3alias, --ol-s3, --x-s3 or --table-s3. */
static bool bucket_name_is_allowed(const char *name)
{
    static const char *const reserved_prefixes[] = {"xn--", "sthree-", "amzn-s3-demo-", "aws"};
    static const char *const reserved_suffixes[] = {"-s3alias", "--ol-s3", "--x-s3", "--table-s3"};
    size_t n = strlen(name);

    if (n == 0 || !is_letter_or_digit(name[0]) || !is_letter_or_digit(name[n - 1]))
        return false;
    for (size_t i = 0; i < sizeof(reserved_prefixes) / sizeof(reserved_prefixes[0]); i++) {
        if (has_prefix(name, reserved_prefixes[i]))
            return false;
    }
    for (size_t i = 0; i < sizeof(reserved_suffixes) / sizeof(reserved_suffixes[0]); i++) {
        if (has_suffix(name, reserved_suffixes[i]))
            return false;
    }
    return true;
}

int floe_handle_CreateTableBucket(floe_call_t *call, const floe_CreateTableBucketRequest *in,
                                  floe_CreateTableBucketResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    char bucket_id[FLOE_UUID_LEN + 1];
    sqlite3_stmt *stmt;
    int rc;

    if (!bucket_name_is_allowed(in->name))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The specified bucket name is not valid.");
    if ((stmt = floe_state_stmt(st, sql_insert_bucket)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    floe_uuid_v4(bucket_id);
    sqlite3_bind_text(stmt, 1, in->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, bucket_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, floe_call_now(call));
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException,
                         "The bucket that you tried to create already exists, and you own it.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
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

int floe_handle_ListTableBuckets(floe_call_t *call, const floe_ListTableBucketsRequest *in,
                                 floe_ListTableBucketsResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    int page_size = in->has_maxBuckets ? in->maxBuckets : DEFAULT_PAGE_SIZE;
    const char *after = "";
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc;

    if (in->continuationToken != NULL && (after = floe_page_token_decode(call, in->continuationToken)) == NULL)
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
            out->continuationToken = floe_page_token_encode(call, out->tableBuckets->items[n - 1].name);
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
     * fails the foreign key, atomically with the delete. */
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException, "The bucket that you tried to delete is not empty.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
