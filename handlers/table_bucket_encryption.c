/*
 * TableBucketEncryptionResource: a table bucket's default server-side encryption, which the
 * bucket's tables take at creation unless they give their own.
 *
 * A bucket without a table_bucket_encryption row uses AES256 (S3-managed keys): that is what AWS
 * reports for a new bucket, and what DeleteTableBucketEncryption returns it to. Floe records the
 * configuration only: it encrypts nothing and does not ask a key service whether a KMS key exists.
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/state.h"
#include "table_bucket_encryption.h"

/* The three encryption operations came with the same model version; each handler also names its own. */
#ifdef FLOE_HAS_OP_PutTableBucketEncryption

FLOE_SQL(sql_get_encryption,
    "SELECT sse_algorithm, kms_key_arn FROM table_bucket_encryption WHERE table_bucket_id = ?1");

FLOE_SQL(sql_put_encryption,
    "INSERT INTO table_bucket_encryption (table_bucket_id, sse_algorithm, kms_key_arn) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET sse_algorithm = excluded.sse_algorithm,"
    " kms_key_arn = excluded.kms_key_arn");

FLOE_SQL(sql_delete_encryption, "DELETE FROM table_bucket_encryption WHERE table_bucket_id = ?1");

/* AWS: kmsKeyArn "is required only when sseAlgorithm is set to aws:kms" (EncryptionConfiguration in
 * the model). Floe reads that both ways, as issue #4 asks: aws:kms needs a key, and AES256, whose
 * keys S3 manages, takes none. The model's pattern has already checked the key ARN's shape. */
static const char *encryption_rule_violation(const floe_EncryptionConfiguration *config)
{
    bool is_kms = config->sseAlgorithm == FLOE_SSEAlgorithm_AWS_KMS;

    if (is_kms && config->kmsKeyArn == NULL)
        return "A KMS key ARN is required when sseAlgorithm is aws:kms.";
    if (!is_kms && config->kmsKeyArn != NULL)
        return "A KMS key ARN can be given only when sseAlgorithm is aws:kms.";
    return NULL;
}

int floe_bucket_encryption_read(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out)
{
    floe_EncryptionConfiguration *config = floe_EncryptionConfiguration_new(call);
    sqlite3_stmt *stmt;

    switch (floe_owned_row(call, sql_get_encryption, bucket_id, &stmt)) {
    case 1:
        config->sseAlgorithm = floe_SSEAlgorithm_from_string((const char *)sqlite3_column_text(stmt, 0));
        config->kmsKeyArn = floe_column_text(call, stmt, 1);
        break;
    case 0:
        config->sseAlgorithm = FLOE_SSEAlgorithm_AES256;
        break;
    default:
        return FLOE_EFAIL;
    }
    *out = config;
    return FLOE_OK;
}

int floe_encryption_check(floe_call_t *call, const floe_EncryptionConfiguration *config)
{
    const char *violation = encryption_rule_violation(config);

    if (violation != NULL)
        return floe_fail(call, FLOE_ERR_BadRequestException, "%s", violation);
    return FLOE_OK;
}

int floe_bucket_encryption_write(floe_call_t *call, int64_t bucket_id, const floe_EncryptionConfiguration *config)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;

    if (floe_encryption_check(call, config))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_put_encryption)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket_id);
    sqlite3_bind_text(stmt, 2, floe_SSEAlgorithm_values[config->sseAlgorithm], -1, SQLITE_STATIC);
    if (config->kmsKeyArn != NULL)
        sqlite3_bind_text(stmt, 3, config->kmsKeyArn, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

#ifdef FLOE_HAS_OP_PutTableBucketEncryption
int floe_handle_PutTableBucketEncryption(floe_call_t *call, const floe_PutTableBucketEncryptionRequest *in,
                                         floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_bucket_encryption_write(call, bucket.id, in->encryptionConfiguration);
}
#endif

#ifdef FLOE_HAS_OP_GetTableBucketEncryption
int floe_handle_GetTableBucketEncryption(floe_call_t *call, const floe_GetTableBucketEncryptionRequest *in,
                                         floe_GetTableBucketEncryptionResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_bucket_encryption_read(call, bucket.id, &out->encryptionConfiguration);
}
#endif

#ifdef FLOE_HAS_OP_DeleteTableBucketEncryption
/* Deleting returns the bucket to the AES256 default; a bucket already there stays there. */
int floe_handle_DeleteTableBucketEncryption(floe_call_t *call, const floe_DeleteTableBucketEncryptionRequest *in,
                                            floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_owned_exec(call, sql_delete_encryption, bucket.id);
}
#endif

#endif /* FLOE_HAS_OP_PutTableBucketEncryption */
