/*
 * Object files named by more than one row. Replication copies a data file into a replica's
 * warehouse by giving it a second object row that names the same immutable file (runtime/
 * replication/), so a table of any size replicates without copying bytes. A file then belongs to
 * every row that names it, and goes only when the last of them does: every store mutation that
 * removes or replaces rows asks, inside its own transaction and after its row changes, which of
 * their files a row still names (the index s3_object_by_file keeps that cheap), and removes the
 * others after COMMIT (row_ids.h holds that check). Not for writing files (blob.h) or rows (object.h).
 *
 * Design notes:
 *  1. A file is never written after it is published (store.c), so two rows naming it never see
 *     two writers: each row's replacement is a new file.
 *  2. A share copies the file id from a row that exists in the share's own write transaction, and
 *     a removal decides inside its write transaction that no row names the file. Writers are
 *     serialised, so either the share committed first (the removal sees its row and keeps the
 *     file) or it runs after the removal committed (it finds no row to copy the file from).
 *  3. The decision reads the database before COMMIT, so a failing read fails the mutation (rolled
 *     back, the caller answers 500) instead of leaving a file a row names.
 */
#ifndef FLOE_STORE_SHARE_H
#define FLOE_STORE_SHARE_H

#include <stdint.h>

#include "db/sql.h"
#include "store/blob.h"

/**
 * Makes (dst_bucket_id, dst_key) name the file of (src_bucket_id, src_key), with its size, ETag,
 * content type, headers and checksum, in one transaction of its own (the caller holds none); the
 * file the destination named before goes after COMMIT when no row names it any more.
 * FLOE_ENOTFOUND when the source object or the destination bucket does not exist; sharing an
 * object with the row it already has changes nothing (a replayed share is harmless).
 */
int floe_store_object_share(floe_state_t *st, const char *data_dir, int64_t src_bucket_id,
                            const char *src_key, int64_t dst_bucket_id, const char *dst_key,
                            int64_t now_ms);

#endif
