/*
 * A table's storage class, for CreateTable (table.c), which fixes it when it creates the table:
 * the one CreateTable gives, or else its bucket's. GetTableStorageClass reads it back.
 */
#ifndef FLOE_HANDLERS_S3TABLES_TABLE_STORAGE_CLASS_H
#define FLOE_HANDLERS_S3TABLES_TABLE_STORAGE_CLASS_H

#include <stdint.h>

#include "floe_api.h"

/**
 * Gives the new table with row id `table_id` its storage class: `given`'s if not NULL, else the
 * one in effect for its bucket `bucket_id` now. Run it inside CreateTable's transaction and roll
 * back when it fails.
 */
int floe_table_storage_class_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                    const floe_StorageClassConfiguration *given);

#endif
