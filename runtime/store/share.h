/*
 * Object files named by more than one row. Replication copies a data file into a replica's
 * warehouse by giving it a second object row that names the same immutable file (runtime/
 * replication/), so a table of any size replicates without copying bytes. A file then belongs to
 * every row that names it, and goes only when the last of them does: every removal in the store
 * goes through floe_store_file_release, which asks SQLite whether a row still names the file
 * (the index s3_object_by_file keeps that cheap). Not for writing files (blob.h) or rows
 * (object.h).
 *
 * Design notes:
 *  1. A file is never written after it is published (store.c), so two rows naming it never see
 *     two writers: each row's replacement is a new file.
 *  2. A share copies the file id from a row that exists in the share's own write transaction, and
 *     a release looks for rows after the removing transaction has committed. Writers are
 *     serialised, so either the share committed first (the release sees its row and keeps the
 *     file) or it began after the removal (it finds no row to copy from).
 */
#ifndef FLOE_STORE_SHARE_H
#define FLOE_STORE_SHARE_H

#include <stdint.h>

#include "store/blob.h"
#include "store/sql.h"

/** Removes published file `file_id` unless an object or part row still names it. Call after the
 * transaction that removed (or replaced) a row naming it has committed. */
void floe_store_file_release(floe_state_t *st, const char *data_dir, const char *file_id);

/** floe_store_file_release for every listed file, then releases the list. */
void floe_store_ids_release(floe_state_t *st, floe_store_ids_t *list, const char *data_dir);

/**
 * Makes (dst_bucket_id, dst_key) name the file of (src_bucket_id, src_key), with its size, ETag,
 * content type, headers and checksum, in one transaction of its own (the caller holds none); the
 * file the destination named before is released after COMMIT. FLOE_STORE_NOT_FOUND when the source
 * object or the destination bucket does not exist; sharing an object with the row it already has
 * changes nothing (a replayed share is harmless).
 */
floe_store_rc_t floe_store_object_share(floe_state_t *st, const char *data_dir, int64_t src_bucket_id,
                                        const char *src_key, int64_t dst_bucket_id, const char *dst_key,
                                        int64_t now_ms);

#endif
