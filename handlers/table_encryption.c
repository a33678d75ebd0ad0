/*
 * TableEncryptionResource: a table's server-side encryption, GetTableEncryption.
 *
 * A table's configuration is fixed when it is created (floe_table_encryption_create, called by
 * CreateTable): the encryptionConfiguration CreateTable gives, or else a copy of its bucket's.
 * Changing or deleting the bucket's configuration later leaves existing tables alone: the model
 * calls the bucket's configuration "the default encryption settings that will be applied to all
 * tables created in this bucket unless overridden at the table level"
 * (CreateTableBucketRequest.encryptionConfiguration), and has no operation that changes a table's.
 * The row lives in table_encryption and goes with the table (ON DELETE CASCADE). Like the
 * bucket's, it is recorded only: Floe encrypts nothing and asks no key service about KMS keys.
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/state.h"
#include "table_bucket_encryption.h"
#include "table_encryption.h"

#ifdef FLOE_HAS_MEMBER_CreateTableRequest_encryptionConfiguration
FLOE_SQL(sql_put_table_encryption,
    "INSERT INTO table_encryption (table_id, sse_algorithm, kms_key_arn) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id) DO UPDATE SET sse_algorithm = excluded.sse_algorithm, kms_key_arn = excluded.kms_key_arn");

static int write_table_encryption(floe_call_t *call, int64_t table_id, const floe_EncryptionConfiguration *config)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_put_table_encryption);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_text(stmt, 2, floe_SSEAlgorithm_values[config->sseAlgorithm], -1, SQLITE_STATIC);
    if (config->kmsKeyArn != NULL)
        sqlite3_bind_text(stmt, 3, config->kmsKeyArn, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_table_encryption_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                 const floe_EncryptionConfiguration *given)
{
    floe_EncryptionConfiguration *inherited;

    if (given != NULL)
        return floe_encryption_check(call, given) ? FLOE_EFAIL : write_table_encryption(call, table_id, given);
    if (floe_bucket_encryption_read(call, bucket_id, &inherited))
        return FLOE_EFAIL;
    return write_table_encryption(call, table_id, inherited);
}
#endif

#ifdef FLOE_HAS_OP_GetTableEncryption
FLOE_SQL(sql_get_table_encryption,
    "SELECT sse_algorithm, kms_key_arn FROM table_encryption WHERE table_id = ?1");

/* The table's configuration. Every table gets a row at creation (or from the migration that added
 * them); a table without one could only come from a path that forgot, and reports what it would
 * have inherited. */
static int read_table_encryption(floe_call_t *call, const floe_table_row_t *table, floe_EncryptionConfiguration **out)
{
    floe_EncryptionConfiguration *config;
    sqlite3_stmt *stmt;

    switch (floe_owned_row(call, sql_get_table_encryption, table->id, &stmt)) {
    case 0:
        return floe_bucket_encryption_read(call, table->bucket.id, out);
    case 1:
        config = floe_EncryptionConfiguration_new(call);
        config->sseAlgorithm = floe_SSEAlgorithm_from_string((const char *)sqlite3_column_text(stmt, 0));
        config->kmsKeyArn = floe_column_text(call, stmt, 1);
        *out = config;
        return FLOE_OK;
    default:
        return FLOE_EFAIL;
    }
}

int floe_handle_GetTableEncryption(floe_call_t *call, const floe_GetTableEncryptionRequest *in,
                                   floe_GetTableEncryptionResponse *out)
{
    floe_table_row_t table;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    return read_table_encryption(call, &table, &out->encryptionConfiguration);
}
#endif
