/*
 * The store's objects: look-ups, the commit that publishes a blob as an object (conditional
 * writes included), deletes, and the ordered cursor that listings read. Each mutation is one
 * transaction of its own; files named by the rows it removed are unlinked after COMMIT (design
 * notes 2-4 in store.c). Not for bytes (blob.c) or multipart uploads (upload.c).
 */
#ifndef FLOE_STORE_OBJECT_H
#define FLOE_STORE_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/sql.h"
#include "store/blob.h"
#include "store/bucket.h"

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
 * Looks a bucket and one of its objects up in one read (GetObject's hot path): FLOE_ENOTFOUND
 * when the bucket does not exist; otherwise FLOE_OK with *bucket filled and *obj filled, or
 * obj->key NULL when the bucket has no such key. Strings in `pool`.
 */
int floe_store_object_find(floe_state_t *st, h2o_mem_pool_t *pool, const char *bucket_name, const char *key,
                           floe_store_bucket_t *bucket /* OUT */, floe_store_object_t *obj /* OUT */);

/** FLOE_OK and the object row (strings in `pool`), or FLOE_ENOTFOUND. */
int floe_store_object_get(floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id, const char *key,
                          floe_store_object_t *out /* OUT */);

/**
 * Makes the published blob obj->file_id the content of (bucket_id, obj->key) in one transaction,
 * then removes the file it replaced. `pre` (may be NULL) is checked inside the transaction:
 * FLOE_EEXISTS when it does not hold. On any result but FLOE_OK the blob still belongs
 * to the caller (discard it). FLOE_ENOTFOUND: the bucket was deleted meanwhile. The caller
 * holds no transaction.
 */
int floe_store_object_commit(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                             const floe_store_object_t *obj, const floe_store_precondition_t *pre);

/** Deletes the object if present (then its file). FLOE_OK either way, as S3's DeleteObject. */
int floe_store_object_delete(floe_state_t *st, const char *data_dir, int64_t bucket_id, const char *key);

/** Deletes several keys in one transaction, then their files. */
int floe_store_object_delete_many(floe_state_t *st, const char *data_dir, int64_t bucket_id,
                                  const char *const *keys, size_t n_keys);

/** A cursor over a bucket's objects in key (UTF-8 byte) order, for listings. */
typedef struct floe_store_cursor {
    floe_state_t *st;
    void *stmt;
    int64_t bucket_id;
    char *upper; /* exclusive upper bound (prefix + 0xFF), or NULL */
} floe_store_cursor_t;

/** Starts a cursor at the first key > after (NULL: from the start) that starts with prefix (NULL: any). */
int floe_store_cursor_open(floe_store_cursor_t *c, floe_state_t *st, h2o_mem_pool_t *pool, int64_t bucket_id,
                           const char *prefix, const char *after);
/** Moves the cursor to the first key >= from (still within the prefix): skips a common prefix. */
int floe_store_cursor_seek(floe_store_cursor_t *c, const char *from);
/** The next object (strings in pool): FLOE_OK, or FLOE_ENOTFOUND at the end. */
int floe_store_cursor_next(floe_store_cursor_t *c, h2o_mem_pool_t *pool, floe_store_object_t *out /* OUT */);
/** Releases the cursor's read snapshot. */
void floe_store_cursor_close(floe_store_cursor_t *c);

/* ---- For the store's own files (upload.c completes an upload inside its own transaction) ---- */

/** Upserts an object row; the caller holds the transaction. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_object_upsert(floe_state_t *st, int64_t bucket_id, const floe_store_object_t *obj);
/**
 * Reads the current file id and ETag of (bucket_id, key) inside the caller's transaction:
 * FLOE_OK found, FLOE_ENOTFOUND absent, FLOE_EFAIL (logged). etag (may be NULL) gets a malloc'ed copy the caller frees.
 */
int floe_store_object_current(floe_state_t *st, int64_t bucket_id, const char *key,
                              char file_id[FLOE_STORE_ID_LEN + 1] /* OUT */, char **etag /* OUT */);

#endif
