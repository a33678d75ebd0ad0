/*
 * The object store behind the S3 data plane: buckets, objects and multipart uploads. Object bytes
 * live in files under <data_dir>/objects/ named by generated ids; everything else (which key names
 * which file, sizes, ETags, metadata) lives in SQLite. This wing owns both and the order in which
 * they change, so a crash at any point leaves a consistent store (see the design notes in
 * store.c). It knows nothing of HTTP or XML: runtime/s3/ turns requests into these calls, and the
 * S3 Tables handlers call the contract functions below to manage warehouse buckets.
 *
 * This is the wing's front header: it declares the contract and brings in the rest of the API,
 * one header per concern, from the bottom up: blob.h (object files), row_ids.h (file ids read
 * from rows, and whether a row still names a file), bucket.h, object.h, upload.h (the rows),
 * share.h (a second row naming a file: replicas), recover.h (the start-up sweep). Their SQL runs
 * through db/sql.h (checked statements) and they answer in the house codes of failure.h
 * (FLOE_ENOTFOUND, FLOE_EEXISTS, ...).
 * Files inside the wing include the headers they use, never this one.
 *
 * Threads: every function takes the calling thread's floe_state_t; files are shared by all
 * threads and are never modified after they are published, only replaced and removed.
 */
#ifndef FLOE_STORE_H
#define FLOE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/sql.h"
#include "store/blob.h"
#include "store/bucket.h"
#include "store/object.h"
#include "store/recover.h"
#include "store/share.h"
#include "store/upload.h"

/* ---- The API other modules call (a contract with the S3 Tables handlers) ---- */

/** Creates bucket `name`. is_warehouse: the bucket backs an S3 Tables table: reachable by name over S3, never listed by
 * ListBuckets, not deletable over S3. Joins the caller's transaction when one is open (it must not BEGIN/COMMIT itself
 * then). FLOE_EEXISTS if the name is taken. */
int floe_store_create_bucket(floe_state_t *st, const char *name, bool is_warehouse, int64_t now_ms);

/** Writes a whole object from memory: temp file, fsync, rename, then the row; returns the ETag (32 hex digits, no
 * quotes) in etag. Must NOT be called inside an open transaction (it fsyncs). FLOE_ENOTFOUND if the bucket
 * does not exist. */
int floe_store_put_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                          const void *data, size_t len, const char *content_type, int64_t now_ms,
                          char etag[33] /* OUT */);

/** Reads a whole object into a malloc'ed buffer the caller frees. FLOE_ENOTFOUND if the bucket or key does not
 * exist. An empty object gives a non-NULL buffer of length 0. */
int floe_store_read_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                           char **data /* OUT */, size_t *len /* OUT */);

/** Reads at most max bytes of an object from offset into a malloc'ed, NUL-terminated buffer the caller frees: *len
 * bytes, fewer at its end, none past it; *size is the whole object's. FLOE_ENOTFOUND as floe_store_read_object. */
int floe_store_read_object_range(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                 uint64_t offset, size_t max, char **data /* OUT */, size_t *len /* OUT */,
                                 uint64_t *size /* OUT */);

/** FLOE_OK if the object exists, FLOE_ENOTFOUND if not. */
int floe_store_head_object(floe_state_t *st, const char *bucket, const char *key,
                           size_t *len /* OUT, may be NULL */);

/** Deletes every object of the bucket (rows, then files), its multipart uploads, and the bucket. For the asynchronous
 * deletion of a table's warehouse. Idempotent: a missing bucket is FLOE_OK. Called inside an open transaction
 * it deletes the rows in that transaction and leaves the files to the start-up sweep (a rollback must not find its
 * objects' files gone). */
int floe_store_delete_bucket_recursive(floe_state_t *st, const char *data_dir, const char *bucket);

/** The rows half of floe_store_delete_bucket_recursive, for a caller that deletes several buckets in one transaction
 * of its own (the janitor): inside that open transaction, deletes the bucket's rows and adds to `files` the files to
 * remove once it has committed (floe_store_bucket_purge_rows). Idempotent: a missing bucket is FLOE_OK. */
int floe_store_delete_bucket_rows(floe_state_t *st, const char *bucket, floe_store_ids_t *files /* IN/OUT */);

#endif
