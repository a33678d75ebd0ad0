/*
 * A table bucket's encryption configuration, for the operations that set or inherit it outside
 * table_bucket_encryption.c: CreateTableBucket (encryptionConfiguration) now, and CreateTable,
 * whose table takes its bucket's configuration unless it gives its own.
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
 * Checks `config` against AWS's rule (a KMS key ARN with aws:kms and only then; BadRequestException)
 * and makes it the bucket's configuration.
 */
int floe_bucket_encryption_write(floe_call_t *call, int64_t bucket_id, const floe_EncryptionConfiguration *config);
#endif

#endif
