/*
 * TableBucketEncryptionResource: a table bucket's default server-side encryption, which the
 * bucket's tables take at creation unless they give their own.
 *
 * A bucket without a stored configuration (catalog/settings.h) uses AES256 (S3-managed keys): that
 * is what AWS reports for a new bucket, and what DeleteTableBucketEncryption returns it to. Floe
 * records the configuration only: it encrypts nothing and does not ask a key service whether a KMS
 * key exists. The rule a configuration must pass and its write are here once, for a bucket's and a
 * table's (table_encryption.c).
 */
#include "catalog/lookup.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "floe_api.h"
#include "table_bucket_encryption.h"

/* AWS: kmsKeyArn "is required only when sseAlgorithm is set to aws:kms" (EncryptionConfiguration in
 * the model). Floe reads that both ways: aws:kms needs a key, and AES256, whose
 * keys S3 manages, takes none. The model's pattern has already checked the key ARN's shape. The
 * rule and the AES256 default are catalog/rules.h's, shared with CloudFormation. */
int floe_bucket_encryption_read(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out)
{
    return floe_rules_bucket_encryption(call, bucket_id, out);
}

int floe_encryption_write(floe_call_t *call, const floe_resource_t *owner, const floe_EncryptionConfiguration *config)
{
    return floe_rules_encryption_write(call, owner, config);
}

int floe_handle_PutTableBucketEncryption(floe_call_t *call, const floe_PutTableBucketEncryptionRequest *in,
                                         floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    floe_resource_t owner = {FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    return floe_encryption_write(call, &owner, in->encryptionConfiguration);
}

int floe_handle_GetTableBucketEncryption(floe_call_t *call, const floe_GetTableBucketEncryptionRequest *in,
                                         floe_GetTableBucketEncryptionResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_bucket_encryption_read(call, bucket.id, &out->encryptionConfiguration);
}

/* Deleting returns the bucket to the AES256 default; a bucket already there stays there. */
int floe_handle_DeleteTableBucketEncryption(floe_call_t *call, const floe_DeleteTableBucketEncryptionRequest *in,
                                            floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    return floe_settings_bucket_encryption_delete(call, bucket.id);
}

