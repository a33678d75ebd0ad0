/*
 * The store's multipart uploads: the rows of s3_upload and s3_part, from CreateMultipartUpload
 * to Complete or Abort (the life cycle is drawn in upload.c). Each transition is one transaction
 * of its own that re-checks the upload still exists. Not for the bytes of parts (blob.c) or the
 * XML of the operations (runtime/s3/multipart.c).
 */
#ifndef FLOE_STORE_UPLOAD_H
#define FLOE_STORE_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "db/sql.h"
#include "store/blob.h"
#include "store/object.h"

#define FLOE_STORE_UPLOAD_ID_LEN 48

typedef struct floe_store_upload {
    int64_t id;
    char *upload_id;
    char *key;
    char *content_type;
    char *headers;
    char *checksum_algorithm;
    char *checksum_type; /* "FULL_OBJECT", "COMPOSITE", or NULL (no algorithm, or an upload from before) */
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

/** Starts an upload: fills up->upload_id (in pool) and up->id. FLOE_ENOTFOUND: the bucket was deleted
 * meanwhile. */
int floe_store_upload_create(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                             floe_store_upload_t *up /* IN: key, metadata; OUT: ids */, int64_t now_ms);
/** The upload `upload_id` of (bucket_id, key); FLOE_ENOTFOUND if there is none. */
int floe_store_upload_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                          const char *upload_id, floe_store_upload_t *out /* OUT */);
/** Records a published part blob, replacing (and then removing) an earlier part with its number.
 * FLOE_ENOTFOUND: the upload was completed or aborted meanwhile (the blob is the caller's). */
int floe_store_part_commit(floe_state_t *st, const char *data_dir, int64_t upload_row_id,
                           const floe_store_part_t *part);
/** Parts with number > after, in order, at most max (array and strings in pool). */
int floe_store_part_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t upload_row_id, int after, size_t max,
                         floe_store_part_t **out /* OUT */, size_t *n_out /* OUT */);
/**
 * Completes an upload: in one transaction, checks the upload still exists, makes the published
 * blob obj->file_id the object, deletes the upload and its parts; then removes every part file
 * (but the one the object now names) and the replaced object file. FLOE_ENOTFOUND: the
 * upload is gone (the blob is the caller's). With `is_part_file`, obj->file_id is one of the
 * upload's part files, adopted as the object's file as it is (no copy, already durable);
 * FLOE_ECHANGED: a concurrent UploadPart replaced that part meanwhile (nothing changed).
 */
int floe_store_upload_complete(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                               int64_t upload_row_id, const floe_store_object_t *obj, bool is_part_file);
/** Aborts an upload: rows, then part files. FLOE_ENOTFOUND if it is gone. */
int floe_store_upload_abort(floe_state_t *st, const char *data_dir, int64_t upload_row_id);

/** In-progress uploads of a bucket ordered by (key, initiation), starting after (key_marker, upload_id_marker)
 * (NULL: from the start), keys starting with prefix (NULL: any); at most max. */
int floe_store_upload_list(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *prefix,
                           const char *key_marker, const char *upload_id_marker, size_t max,
                           floe_store_upload_t **out /* OUT */, size_t *n_out /* OUT */);

#endif
