/*
 * What the store's own files share and nobody else sees: lists of file ids gathered inside a
 * transaction and removed after it commits, a copy of a text column into a request pool, and
 * the transaction helpers that let a store function join a transaction its caller opened.
 */
#ifndef FLOE_STORE_INTERNAL_H
#define FLOE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store/store.h"

/** File ids collected while rows are deleted, removed only once the deletion has committed. */
typedef struct floe_store_ids {
    char (*ids)[FLOE_STORE_ID_LEN + 1];
    size_t n;
    size_t cap;
} floe_store_ids_t;

/** Appends a file id to the list. */
void floe_store_ids_add(floe_store_ids_t *list, const char *id);
/** Appends the text of column `col` (a file id) to the list. */
void floe_store_ids_add_column(floe_store_ids_t *list, sqlite3_stmt *stmt, int col);
/** Removes every listed file and releases the list. */
void floe_store_ids_remove_files(floe_store_ids_t *list, const char *data_dir);
/** Releases the list without touching the files. */
void floe_store_ids_dispose(floe_store_ids_t *list);

/** A copy of text column `col` in `pool`, or NULL for SQL NULL. */
char *floe_store_column_dup(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, int col);
/** Copies a file-id column into a fixed buffer ("" for NULL). */
void floe_store_column_id(sqlite3_stmt *stmt, int col, char out[FLOE_STORE_ID_LEN + 1]);

/** Binds s as text (NULL binds SQL NULL). */
void floe_store_bind_text(sqlite3_stmt *stmt, int i, const char *s);

/** Steps a statement that returns no row; 0 or -1 (logged). */
int floe_store_exec_stmt(floe_state_t *st, sqlite3_stmt *stmt);

/** Begins a write transaction; *is_own tells whether the caller's was joined (0) or one begun (1). */
int floe_store_begin(floe_state_t *st, int *is_own /* OUT */);
/** Commits a transaction begun by floe_store_begin, when it is ours. 0 or -1. */
int floe_store_commit(floe_state_t *st, int is_own);
/** Rolls back a transaction begun by floe_store_begin, when it is ours. */
void floe_store_rollback(floe_state_t *st, int is_own);

/** The object-row columns every SELECT of s3_object lists, in this order. */
#define FLOE_STORE_OBJECT_COLUMNS                                                                                       \
    "key, file_id, size, etag, content_type, headers, checksum_algorithm, checksum, last_modified"
/** Reads one row of FLOE_STORE_OBJECT_COLUMNS (starting at column 0) into out; strings in pool. */
void floe_store_read_object_row(h2o_mem_pool_t *pool, sqlite3_stmt *stmt, floe_store_object_t *out /* OUT */);
/** Binds FLOE_STORE_OBJECT_COLUMNS (minus nothing) as parameters ?2..?10 after bucket_id ?1. */
void floe_store_bind_object_row(sqlite3_stmt *stmt, int64_t bucket_id, const floe_store_object_t *obj);

/** Upserts an object row (the caller holds the transaction); 0 or -1. */
int floe_store_object_upsert(floe_state_t *st, int64_t bucket_id, const floe_store_object_t *obj);
/** Reads the current file id and ETag of (bucket_id, key) inside the caller's transaction:
 * 1 found, 0 absent, -1 error. etag (may be NULL) gets a malloc'ed copy the caller frees. */
int floe_store_object_current(floe_state_t *st, int64_t bucket_id, const char *key, char file_id[FLOE_STORE_ID_LEN + 1],
                              char **etag);

#endif
