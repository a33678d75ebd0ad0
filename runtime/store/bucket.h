/*
 * The store's buckets: the rows of s3_bucket, for the S3 data plane (CreateBucket, HeadBucket,
 * DeleteBucket, ListBuckets) and for store.c's contract with the S3 Tables handlers (warehouse
 * buckets). Deleting a bucket deletes its rows children first and removes their files after
 * COMMIT (design notes 3 and 7 in store.c). Not for objects (object.c) or uploads (upload.c).
 */
#ifndef FLOE_STORE_BUCKET_H
#define FLOE_STORE_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

#include "db/sql.h"
#include "store/blob.h"

typedef struct floe_store_bucket {
    int64_t id;
    bool is_warehouse;
    char *region;     /* the LocationConstraint it was created with; "" for us-east-1 */
    int64_t created_ms;
    char *owner;      /* the account that created it; "" for a warehouse */
} floe_store_bucket_t;

typedef struct floe_store_bucket_entry {
    char *name;
    int64_t created_ms;
} floe_store_bucket_entry_t;

/**
 * Creates bucket `name` with a LocationConstraint ("" or NULL for none). is_warehouse: the bucket
 * backs an S3 Tables table (see floe_store_create_bucket). One INSERT: inside the caller's
 * transaction it simply joins it. `owner` is the creating account (NULL for a warehouse, which no
 * account lists). FLOE_EEXISTS if the name is taken, in any account: S3 names are global.
 */
int floe_store_bucket_create(floe_state_t *st, const char *name, bool is_warehouse, const char *region,
                             const char *owner, int64_t now_ms);
/** Looks bucket `name` up; strings in `pool`. FLOE_ENOTFOUND if absent. */
int floe_store_bucket_get(floe_state_t *st, h2o_mem_pool_t *pool, const char *name,
                          floe_store_bucket_t *out /* OUT */);
/** Deletes an empty bucket (and its abandoned multipart uploads). FLOE_EEXISTS if it holds objects. Joins the
 * caller's transaction when one is open, leaving the files to the start-up sweep then. */
int floe_store_bucket_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id);
/** Deletes the bucket with every object and multipart upload in it, rows first, then files. Joins the caller's
 * transaction as floe_store_bucket_delete does. */
int floe_store_bucket_purge(floe_state_t *st, const char *data_dir, int64_t bucket_id);
/** Inside the caller's open transaction: deletes the bucket's rows with every object and multipart upload in it,
 * and adds to `files` those of their files no row names any more, for the caller to remove once it has committed
 * (floe_store_ids_remove_files), or to forget if it rolls back (floe_store_ids_dispose). FLOE_OK or FLOE_EFAIL. */
int floe_store_bucket_purge_rows(floe_state_t *st, int64_t bucket_id, floe_store_ids_t *files /* IN/OUT */);
/** Renames bucket `from` to `to` (the janitor retires warehouses this way). FLOE_ENOTFOUND
 * if there is no bucket `from`. Joins the caller's transaction. */
int floe_store_bucket_rename(floe_state_t *st, const char *from, const char *to);
/** Every bucket of account `owner` that is not a warehouse, by name; array and strings in `pool`. */
int floe_store_bucket_list(floe_state_t *st, h2o_mem_pool_t *pool, const char *owner,
                           floe_store_bucket_entry_t **out /* OUT */, size_t *n_out /* OUT */);

#endif
