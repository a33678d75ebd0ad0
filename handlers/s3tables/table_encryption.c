/*
 * TableEncryptionResource: a table's server-side encryption, GetTableEncryption.
 *
 * A table's configuration is fixed when it is created (floe_table_encryption_create, called by
 * CreateTable): the encryptionConfiguration CreateTable gives, or else a copy of its bucket's.
 * Changing or deleting the bucket's configuration later leaves existing tables alone: the model
 * calls the bucket's configuration "the default encryption settings that will be applied to all
 * tables created in this bucket unless overridden at the table level"
 * (CreateTableBucketRequest.encryptionConfiguration), and has no operation that changes a table's.
 * The catalog stores it (catalog/settings.h) and drops it with the table. Like the bucket's, it is
 * recorded only: Floe encrypts nothing and asks no key service about KMS keys.
 */
#include "catalog/lookup.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "floe_api.h"
#include "table_bucket_encryption.h"
#include "table_encryption.h"

int floe_table_encryption_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                 const floe_EncryptionConfiguration *given)
{
    return floe_rules_table_encryption_create(call, table_id, bucket_id, given);
}

/* The table's configuration. Every table gets one at creation (or from the migration that added
 * them); a table without one could only come from a path that forgot, and reports what it would
 * have inherited. */
static int read_table_encryption(floe_call_t *call, const floe_table_row_t *table, floe_EncryptionConfiguration **out)
{
    floe_resource_t owner = {FLOE_RESOURCE_TABLE, table->id};

    if (floe_settings_encryption_get(call, &owner, out))
        return FLOE_EFAIL;
    return *out != NULL ? FLOE_OK : floe_bucket_encryption_read(call, table->bucket.id, out);
}

int floe_handle_GetTableEncryption(floe_call_t *call, const floe_GetTableEncryptionRequest *in,
                                   floe_GetTableEncryptionResponse *out)
{
    floe_table_row_t table;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    return read_table_encryption(call, &table, &out->encryptionConfiguration);
}
