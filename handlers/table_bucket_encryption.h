/*
 * A table bucket's encryption configuration, for the operations that set or inherit it outside
 * table_bucket_encryption.c: CreateTableBucket (encryptionConfiguration), and CreateTable
 * (table_encryption.c), whose table takes its bucket's configuration unless it gives its own.
 */
#ifndef FLOE_TABLE_BUCKET_ENCRYPTION_H
#define FLOE_TABLE_BUCKET_ENCRYPTION_H

#include <stdint.h>

#include "floe_api.h"

#ifdef FLOE_HAS_OP_PutTableBucketEncryption
/**
 * The encryption configuration in effect for the bucket with row id `bucket_id`: the one set, or
 * AES256 when none was. *out lives in the call's pool.
 */
int floe_bucket_encryption_read(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out /* OUT */);

/**
 * Checks `config` against AWS's rule for every EncryptionConfiguration, a bucket's or a table's: a
 * KMS key ARN with aws:kms and only then. Fails the call with BadRequestException when it is broken.
 */
int floe_encryption_check(floe_call_t *call, const floe_EncryptionConfiguration *config);

/**
 * Checks `config` against AWS's rule (floe_encryption_check) and makes it the bucket's configuration.
 */
int floe_bucket_encryption_write(floe_call_t *call, int64_t bucket_id, const floe_EncryptionConfiguration *config);
#endif

#endif
