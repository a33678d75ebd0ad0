/*
 * What table_bucket.c lends other handler files: a bucket's storage class, which CreateTable
 * takes as its table's default unless it gives its own.
 */
#ifndef FLOE_TABLE_BUCKET_H
#define FLOE_TABLE_BUCKET_H

#include <stdint.h>

#include "floe_api.h"

#ifdef FLOE_HAS_OP_PutTableBucketStorageClass
/** The storage class in effect for the bucket with row id `bucket_id`: the one set, or STANDARD. */
int floe_bucket_storage_class_read(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out /* OUT */);
/** Makes `storage_class` the bucket's default storage class. */
int floe_bucket_storage_class_write(floe_call_t *call, int64_t bucket_id, floe_StorageClass storage_class);
#endif

#endif
