/*
 * A table's storage class: GetTableStorageClass (TableResource in the model; it has a file of its
 * own here, like the table's other settings, so that table.c holds only the table itself).
 *
 * The storage class is fixed when the table is created (floe_table_storage_class_create, called
 * by CreateTable): the storageClassConfiguration CreateTable gives, or else its bucket's. The
 * model says so on both sides: CreateTable's "If not specified, the table inherits the storage
 * class configuration from its table bucket", and PutTableBucketStorageClass sets "the default
 * storage class for all new tables created in the bucket", so a later change to the bucket leaves
 * existing tables alone. The catalog stores it (catalog/settings.h) and drops it with the table.
 * Recorded only: Floe stores every object the same way.
 */
#include "bucket_settings.h"
#include "catalog/lookup.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "floe_api.h"
#include "table_storage_class.h"

int floe_table_storage_class_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                    const floe_StorageClassConfiguration *given)
{
    return floe_rules_table_storage_class_create(call, table_id, bucket_id, given != NULL ? given->storageClass : 0);
}

/* The table's storage class. Every table gets one at creation (or from the migration that added
 * them); a table without one could only come from a path that forgot, and reports what it would
 * have inherited. */
static int read_table_storage_class(floe_call_t *call, const floe_table_row_t *table, floe_StorageClass *out)
{
    floe_resource_t owner = {FLOE_RESOURCE_TABLE, table->id};

    if (floe_settings_storage_class_get(call, &owner, out))
        return FLOE_EFAIL;
    return *out != 0 ? FLOE_OK : floe_bucket_storage_class_read(call, table->bucket.id, out);
}

int floe_handle_GetTableStorageClass(floe_call_t *call, const floe_GetTableStorageClassRequest *in,
                                     floe_GetTableStorageClassResponse *out)
{
    floe_table_row_t table;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    out->storageClassConfiguration = floe_StorageClassConfiguration_new(call);
    return read_table_storage_class(call, &table, &out->storageClassConfiguration->storageClass);
}
