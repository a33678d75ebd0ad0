/*
 * A table's storage class: GetTableStorageClass (TableResource in the model; it has a file of its
 * own here, like the table's other settings, so that table.c holds only the table itself).
 *
 * The storage class is fixed when the table is created (floe_table_storage_class_create, called
 * by CreateTable): the storageClassConfiguration CreateTable gives, or else its bucket's. The
 * model says so on both sides: CreateTable's "If not specified, the table inherits the storage
 * class configuration from its table bucket", and PutTableBucketStorageClass sets "the default
 * storage class for all new tables created in the bucket", so a later change to the bucket leaves
 * existing tables alone. The row lives in table_storage_class and goes with the table (ON DELETE
 * CASCADE). Recorded only: Floe stores every object the same way.
 */
#include "floe_api.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "catalog/state.h"
#include "table_bucket.h"
#include "table_storage_class.h"

#ifdef FLOE_HAS_MEMBER_CreateTableRequest_storageClassConfiguration
FLOE_SQL(sql_put_table_storage_class,
    "INSERT INTO table_storage_class (table_id, storage_class) VALUES (?1, ?2)"
    " ON CONFLICT (table_id) DO UPDATE SET storage_class = excluded.storage_class");

int floe_table_storage_class_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                    const floe_StorageClassConfiguration *given)
{
    floe_state_t *st = floe_call_state(call);
    floe_StorageClass storage_class;
    sqlite3_stmt *stmt;

    if (given != NULL)
        storage_class = given->storageClass;
    else if (floe_bucket_storage_class_read(call, bucket_id, &storage_class))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_put_table_storage_class)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_text(stmt, 2, floe_StorageClass_values[storage_class], -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#ifdef FLOE_HAS_OP_GetTableStorageClass
FLOE_SQL(sql_get_table_storage_class, "SELECT storage_class FROM table_storage_class WHERE table_id = ?1");

/* The table's storage class. Every table gets a row at creation (or from the migration that added
 * them); a table without one could only come from a path that forgot, and reports what it would
 * have inherited. */
static int read_table_storage_class(floe_call_t *call, const floe_table_row_t *table, floe_StorageClass *out)
{
    sqlite3_stmt *stmt;

    switch (floe_owned_row(call, sql_get_table_storage_class, table->id, &stmt)) {
    case 0:
        return floe_bucket_storage_class_read(call, table->bucket.id, out);
    case 1:
        *out = floe_StorageClass_from_string((const char *)sqlite3_column_text(stmt, 0));
        return FLOE_OK;
    default:
        return FLOE_EFAIL;
    }
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
#endif
