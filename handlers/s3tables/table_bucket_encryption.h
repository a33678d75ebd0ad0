/*
 * Encryption configurations outside table_bucket_encryption.c: CreateTableBucket
 * (encryptionConfiguration) writes a bucket's, and CreateTable (table_encryption.c) writes its
 * table's, given or taken from its bucket. The rule every configuration must pass and the write
 * are here once for both.
 */
#ifndef FLOE_HANDLERS_S3TABLES_TABLE_BUCKET_ENCRYPTION_H
#define FLOE_HANDLERS_S3TABLES_TABLE_BUCKET_ENCRYPTION_H

#include <stdint.h>

#include "catalog/lookup.h"
#include "floe_api.h"

/**
 * The encryption configuration in effect for the bucket with row id `bucket_id`: the one set, or
 * AES256 when none was. *out lives in the call's pool.
 */
int floe_bucket_encryption_read(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out /* OUT */);

/**
 * Checks `config` against AWS's rule for every EncryptionConfiguration, a bucket's or a table's (a
 * KMS key ARN with aws:kms and only then: BadRequestException when it is broken), and makes it the
 * configuration of `owner`, a table bucket or a table.
 */
int floe_encryption_write(floe_call_t *call, const floe_resource_t *owner, const floe_EncryptionConfiguration *config);

#endif
