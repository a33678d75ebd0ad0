/*
 * A table's encryption configuration, for CreateTable (table.c), which fixes it when it creates
 * the table: the one CreateTable gives, or else its bucket's. GetTableEncryption reads it back.
 */
#ifndef FLOE_HANDLERS_S3TABLES_TABLE_ENCRYPTION_H
#define FLOE_HANDLERS_S3TABLES_TABLE_ENCRYPTION_H

#include <stdint.h>

#include "floe_api.h"

/**
 * Gives the new table with row id `table_id` its encryption configuration: `given` if not NULL
 * (checked by floe_encryption_write: BadRequestException), else the one in effect for its bucket
 * `bucket_id` now. Run it inside CreateTable's transaction and roll back when it fails.
 */
int floe_table_encryption_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                 const floe_EncryptionConfiguration *given);

#endif
