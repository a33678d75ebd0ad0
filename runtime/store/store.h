/*
 * The object store behind the S3 data plane: buckets, objects and multipart uploads. Object bytes
 * live in files under <data_dir>/objects/ named by generated ids; everything else (which key names
 * which file, sizes, ETags, metadata) lives in SQLite. This module owns both and the order in which
 * they change, so a crash at any point leaves a consistent store (see the design notes in
 * store.c). It knows nothing of HTTP or XML: runtime/s3/ turns requests into these calls, and the
 * S3 Tables handlers call the first block of functions below to manage warehouse buckets.
 *
 * Threads: every function takes the calling thread's floe_state_t; files are shared by all
 * threads and are never modified after they are published, only replaced and removed.
 */
#ifndef FLOE_STORE_H
#define FLOE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>

#include "catalog/state.h"

typedef enum floe_store_rc {
    FLOE_STORE_OK = 0,
    FLOE_STORE_NOT_FOUND = 1,
    FLOE_STORE_EXISTS = 2,
    FLOE_STORE_ERROR = -1
} floe_store_rc_t;

/* ---- The API other modules call (a contract with the S3 Tables handlers) ---- */

/** Creates bucket `name`. is_warehouse: the bucket backs an S3 Tables table: reachable by name over S3, never listed by
 * ListBuckets, not deletable over S3. Joins the caller's transaction when one is open (it must not BEGIN/COMMIT itself
 * then). FLOE_STORE_EXISTS if the name is taken. */
floe_store_rc_t floe_store_create_bucket(floe_state_t *st, const char *name, bool is_warehouse, int64_t now_ms);

/** Writes a whole object from memory: temp file, fsync, rename, then the row; returns the ETag (32 hex digits, no
 * quotes) in etag. Must NOT be called inside an open transaction (it fsyncs). FLOE_STORE_NOT_FOUND if the bucket
 * does not exist. */
floe_store_rc_t floe_store_put_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                      const void *data, size_t len, const char *content_type, int64_t now_ms,
                                      char etag[33] /* OUT */);

/** Reads a whole object into a malloc'ed buffer the caller frees. FLOE_STORE_NOT_FOUND if the bucket or key does not
 * exist. An empty object gives a non-NULL buffer of length 0. */
floe_store_rc_t floe_store_read_object(floe_state_t *st, const char *data_dir, const char *bucket, const char *key,
                                       char **data /* OUT */, size_t *len /* OUT */);

/** FLOE_STORE_OK if the object exists, FLOE_STORE_NOT_FOUND if not. */
floe_store_rc_t floe_store_head_object(floe_state_t *st, const char *bucket, const char *key,
                                       size_t *len /* OUT, may be NULL */);

/** Deletes every object of the bucket (rows, then files), its multipart uploads, and the bucket. For the asynchronous
 * deletion of a table's warehouse. Idempotent: a missing bucket is FLOE_STORE_OK. Called inside an open transaction
 * it deletes the rows in that transaction and leaves the files to the start-up sweep (a rollback must not find its
 * objects' files gone). */
floe_store_rc_t floe_store_delete_bucket_recursive(floe_state_t *st, const char *data_dir, const char *bucket);

/* ---- Start-up ---- */

/**
 * Makes the data directory ready for the store and removes what a crash left behind: creates
 * objects/ and tmp/, deletes every file in tmp/ (temp objects and h2o's body spills; no request is
 * in flight at start-up) and every file in objects/ that no row names, on the caller's connection
 * `st` (the first worker's, opened before any thread starts). 0 or -1 (logged).
 */
int floe_store_recover(floe_state_t *st, const char *data_dir);

/* ---- Buckets, for the S3 data plane ---- */

typedef struct floe_store_bucket {
    int64_t id;
    bool is_warehouse;
    char *region;     /* the LocationConstraint it was created with; "" for us-east-1 */
    int64_t created_ms;
} floe_store_bucket_t;

/** Creates a bucket with a LocationConstraint ("" for none). As floe_store_create_bucket otherwise. */
floe_store_rc_t floe_store_bucket_create(floe_state_t *st, const char *name, bool is_warehouse, const char *region,
                                         int64_t now_ms);
/** Looks bucket `name` up; strings in `pool`. FLOE_STORE_NOT_FOUND if absent. */
floe_store_rc_t floe_store_bucket_get(floe_state_t *st, h2o_mem_pool_t *pool, const char *name,
                                      floe_store_bucket_t *out /* OUT */);
/** Deletes an empty bucket (and its abandoned multipart uploads). FLOE_STORE_EXISTS if it holds objects. */
floe_store_rc_t floe_store_bucket_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id);

typedef struct floe_store_bucket_entry {
    char *name;
    int64_t created_ms;
} floe_store_bucket_entry_t;

/** Every bucket that is not a warehouse, by name; array and strings in `pool`. */
floe_store_rc_t floe_store_bucket_list(floe_state_t *st, h2o_mem_pool_t *pool, floe_store_bucket_entry_t **out /* OUT */,
                                       size_t *n_out /* OUT */);

/* ---- Object files ("blobs") ---- */

#define FLOE_STORE_ID_LEN 32

/** A file being written in tmp/, published into objects/ by floe_store_blob_finish. */
typedef struct floe_store_blob {
    const char *data_dir;
    char id[FLOE_STORE_ID_LEN + 1];
    int fd;
    uint64_t size;
    uint64_t flushed; /* bytes already handed to writeback (blob.c) */
    bool is_published;
} floe_store_blob_t;

/** Creates an empty temp file with a fresh id. 0 or -1 (logged). */
int floe_store_blob_open(const char *data_dir, floe_store_blob_t *b /* OUT */);
/** Appends len bytes. 0 or -1 (logged). */
int floe_store_blob_write(floe_store_blob_t *b, const void *data, size_t len);
/** Appends len bytes read from src_fd at *src_off (advanced), copied inside the kernel. 0 or -1. */
int floe_store_blob_copy_fd(floe_store_blob_t *b, int src_fd, uint64_t *src_off, uint64_t len);
/** fsyncs the file, renames it into objects/ and fsyncs that directory. 0 or -1 (logged). */
int floe_store_blob_finish(floe_store_blob_t *b);
/** Removes the blob, published or not (a write that will not be committed). Safe after a failed open. */
void floe_store_blob_discard(floe_store_blob_t *b);

/** Writes the path of the published file `file_id` into buf. */
void floe_store_file_path(const char *data_dir, const char *file_id, char *buf, size_t size);
/** Opens the published file `file_id` read-only; -1 with errno set (ENOENT: replaced meanwhile). */
int floe_store_file_open(const char *data_dir, const char *file_id);
/** Removes a published file whose row is gone; a missing file is fine. */
void floe_store_file_remove(const char *data_dir, const char *file_id);

/* ---- Objects ---- */

typedef struct floe_store_object {
    char *key;
    char file_id[FLOE_STORE_ID_LEN + 1];
    int64_t size;
    char *etag;               /* no quotes: 32 hex digits, or "<hex>-N" after a multipart upload */
    char *content_type;       /* NULL: none stored */
    char *headers;            /* JSON object of other response headers (x-amz-meta-*, cache-control, ...); NULL: none */
    char *checksum_algorithm; /* "CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256" or NULL */
    char *checksum;           /* base64; "-N" suffix for a composite (multipart) checksum */
    int64_t last_modified_ms;
} floe_store_object_t;

/** What the object being replaced must look like for a write to go ahead (conditional writes). */
typedef struct floe_store_precondition {
    bool must_not_exist;   /* If-None-Match: * */
    const char *etag;      /* If-Match: the current ETag (no quotes), or NULL */
} floe_store_precondition_t;

/**
 * Looks a bucket and one of its objects up in one read (GetObject's hot path): FLOE_STORE_NOT_FOUND
 * when the bucket does not exist; otherwise FLOE_STORE_OK with *bucket filled and *obj filled, or
 * obj->key NULL when the bucket has no such key. Strings in `pool`.
 */
floe_store_rc_t floe_store_object_find(floe_state_t *st, h2o_mem_pool_t *pool, const char *bucket_name, const char *key,
                                       floe_store_bucket_t *bucket /* OUT */, floe_store_object_t *obj /* OUT */);

/** FLOE_STORE_OK and the object row (strings in `pool`), or FLOE_STORE_NOT_FOUND. */
floe_store_rc_t floe_store_object_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                                      floe_store_object_t *out /* OUT */);

/**
 * Makes the published blob obj->file_id the content of (bucket_id, obj->key) in one transaction,
 * then removes the file it replaced. `pre` (may be NULL) is checked inside the transaction:
 * FLOE_STORE_EXISTS when it does not hold. On any result but FLOE_STORE_OK the blob still belongs
 * to the caller (discard it). FLOE_STORE_NOT_FOUND: the bucket was deleted meanwhile.
 */
floe_store_rc_t floe_store_object_commit(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                                         const floe_store_object_t *obj, const floe_store_precondition_t *pre);

/** Deletes the object if present (then its file). FLOE_STORE_OK either way, as S3's DeleteObject. */
floe_store_rc_t floe_store_object_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id, const char *key);

/** Deletes several keys in one transaction, then their files. */
floe_store_rc_t floe_store_object_delete_many(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                                              const char *const *keys, size_t n_keys);

/** A cursor over a bucket's objects in key (UTF-8 byte) order, for listings. */
typedef struct floe_store_cursor {
    floe_state_t *st;
    void *stmt;
    int64_t bucket_id;
    char *upper; /* exclusive upper bound (prefix + 0xFF), or NULL */
} floe_store_cursor_t;

/** Starts a cursor at the first key > after (NULL: from the start) that starts with prefix (NULL: any). */
floe_store_rc_t floe_store_cursor_open(floe_store_cursor_t *c, floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                                       const char *prefix, const char *after);
/** Moves the cursor to the first key >= from (still within the prefix): skips a common prefix. */
floe_store_rc_t floe_store_cursor_seek(floe_store_cursor_t *c, const char *from);
/** The next object (strings in pool): FLOE_STORE_OK, or FLOE_STORE_NOT_FOUND at the end. */
floe_store_rc_t floe_store_cursor_next(floe_store_cursor_t *c, h2o_mem_pool_t *pool, floe_store_object_t *out /* OUT */);
/** Releases the cursor's read snapshot. */
void floe_store_cursor_close(floe_store_cursor_t *c);

/* ---- Multipart uploads ---- */

#define FLOE_STORE_UPLOAD_ID_LEN 48

typedef struct floe_store_upload {
    int64_t id;
    char *upload_id;
    char *key;
    char *content_type;
    char *headers;
    char *checksum_algorithm;
    int64_t initiated_ms;
} floe_store_upload_t;

typedef struct floe_store_part {
    int part_number;
    char file_id[FLOE_STORE_ID_LEN + 1];
    int64_t size;
    char *etag;     /* 32 hex digits, no quotes */
    char *checksum; /* base64 in the upload's algorithm, or NULL */
    int64_t last_modified_ms;
} floe_store_part_t;

/** Starts an upload: fills up->upload_id (in pool) and up->id. */
floe_store_rc_t floe_store_upload_create(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                                         floe_store_upload_t *up /* IN: key, metadata; OUT: ids */, int64_t now_ms);
/** The upload `upload_id` of (bucket_id, key); FLOE_STORE_NOT_FOUND if there is none. */
floe_store_rc_t floe_store_upload_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                                      const char *upload_id, floe_store_upload_t *out /* OUT */);
/** Records a published part blob, replacing (and then removing) an earlier part with its number.
 * FLOE_STORE_NOT_FOUND: the upload was completed or aborted meanwhile (the blob is the caller's). */
floe_store_rc_t floe_store_part_commit(floe_state_t *st, const char *data_dir, int64_t upload_row_id,
                                       const floe_store_part_t *part);
/** Parts with number > after, in order, at most max (array and strings in pool). */
floe_store_rc_t floe_store_part_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t upload_row_id, int after, size_t max,
                                     floe_store_part_t **out /* OUT */, size_t *n_out /* OUT */);
/**
 * Completes an upload: in one transaction, checks the upload still exists, makes the published
 * blob obj->file_id the object, deletes the upload and its parts; then removes every part file
 * and the replaced object file. FLOE_STORE_NOT_FOUND: the upload is gone (the blob is the
 * caller's).
 */
floe_store_rc_t floe_store_upload_complete(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                                           int64_t upload_row_id, const floe_store_object_t *obj);
/** Aborts an upload: rows, then part files. FLOE_STORE_NOT_FOUND if it is gone. */
floe_store_rc_t floe_store_upload_abort(floe_state_t *st, const char *data_dir, int64_t upload_row_id);

/** In-progress uploads of a bucket ordered by (key, initiation), starting after (key_marker, upload_id_marker)
 * (NULL: from the start), keys starting with prefix (NULL: any); at most max. */
floe_store_rc_t floe_store_upload_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *prefix,
                                       const char *key_marker, const char *upload_id_marker, size_t max,
                                       floe_store_upload_t **out /* OUT */, size_t *n_out /* OUT */);

#endif
