/*
 * Object files ("blobs") of the store: written in <data_dir>/tmp/, made durable, published into
 * <data_dir>/objects/ under a generated id, opened for reading, and removed once no row names
 * them. Also the list of file ids a deletion gathers, to remove after it commits. Knows nothing
 * of rows or SQL: which row names which file is object.c's and upload.c's business (design note
 * 2 in store.c).
 */
#ifndef FLOE_STORE_BLOB_H
#define FLOE_STORE_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** Creates an empty temp file with a fresh id. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_blob_open(const char *data_dir, floe_store_blob_t *b /* OUT */);
/** Appends len bytes. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_blob_write(floe_store_blob_t *b, const void *data, size_t len);
/** Appends len bytes read from src_fd at *src_off (advanced), copied inside the kernel. FLOE_OK or FLOE_EFAIL. */
int floe_store_blob_copy_fd(floe_store_blob_t *b, int src_fd, uint64_t *src_off, uint64_t len);
/** fsyncs the file, renames it into objects/ and fsyncs that directory. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_blob_finish(floe_store_blob_t *b);
/** Writes `len` bytes as a new published file (open, write, finish) and gives its MD5 in hex, the
 * ETag S3 answers. 0, or -1 with nothing left behind (logged). */
int floe_store_blob_put(const char *data_dir, const void *data, size_t len, floe_store_blob_t *b /* OUT */,
                        char md5_hex[33] /* OUT */);
/** Removes the blob, published or not (a write that will not be committed). Safe after a failed open. */
void floe_store_blob_discard(floe_store_blob_t *b);

/** Writes the path of the published file `file_id` into buf. */
void floe_store_file_path(const char *data_dir, const char *file_id, char *buf, size_t size);
/** Opens the published file `file_id` read-only; -1 with errno set (ENOENT: replaced meanwhile). */
int floe_store_file_open(const char *data_dir, const char *file_id);
/** Removes a published file whose row is gone; a missing file is fine. */
void floe_store_file_remove(const char *data_dir, const char *file_id);

/* ---- For the store's own files ---- */

/** File ids collected while rows are deleted, removed only once the deletion has committed
 * (design note 3 in store.c). Zero-initialise; release with one of the two functions below. */
typedef struct floe_store_ids {
    char (*ids)[FLOE_STORE_ID_LEN + 1];
    size_t n;
    size_t cap;
} floe_store_ids_t;

/** Appends a file id to the list. */
void floe_store_ids_add(floe_store_ids_t *list, const char *id);
/** Removes every listed file and releases the list. */
void floe_store_ids_remove_files(floe_store_ids_t *list, const char *data_dir);
/** Releases the list without touching the files. */
void floe_store_ids_dispose(floe_store_ids_t *list);

#endif
