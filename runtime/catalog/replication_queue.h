/*
 * Replication's state in the catalog: the durable queue of source commits to copy, the outcome of
 * each (source table, destination bucket) pair that GetTableReplicationStatus reports, and the
 * mark that makes a table a replica (read-only; its own maintenance does not run). The worker that
 * drains the queue is runtime/replication/; the configurations are catalog/replication.h's.
 *
 * Design notes:
 *  1. Commits are queued by SQLite triggers (schema migration 9) in the transaction that moves a
 *     covered table's metadata pointer, whichever API moved it; a new configuration queues the
 *     current state of the tables it covers (floe_replication_queue_table / _bucket). The queue
 *     is taken in id order, so each source's commits replicate in commit order.
 *  2. A queue row leaves only when every destination has been handled (floe_replication_queue_done),
 *     so after a crash the row is taken again; every step of the worker is idempotent.
 *  3. A pair's status is derived when it is read: failed while its last attempt failed; completed
 *     when the replica holds the source's current metadata location; pending otherwise.
 *  4. Every function fails the call with a failure inside (FLOE_EFAIL) (a 500) when SQLite fails.
 */
#ifndef FLOE_CATALOG_REPLICATION_QUEUE_H
#define FLOE_CATALOG_REPLICATION_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"

/** One queued source commit. */
typedef struct floe_replication_work {
    int64_t id;
    int64_t table_id;        /* the source's s3table row id */
    char *metadata_location; /* in the call's pool */
} floe_replication_work_t;

/** The outcome of one (source, destination) pair. */
typedef struct floe_replication_status_row {
    bool is_known;                /* false: nothing was attempted yet (the rest is NULL/0) */
    bool is_failed;
    char *failure_message;
    char *replica_table_arn;
    char *last_metadata_location; /* the source state the replica holds, NULL for none */
    floe_timestamp_t last_replicated_at;
} floe_replication_status_row_t;

/** What the worker needs of a source table, found by its row id. */
typedef struct floe_replication_source {
    int64_t table_id;
    int64_t bucket_id;   /* its table bucket's row id */
    char *arn;
    char *namespace_name;
    char *name;
    char *warehouse;     /* its warehouse bucket */
    char *metadata_location; /* its current one, NULL without metadata */
} floe_replication_source_t;

/** The source table of row id `table_id` (strings in the call's pool); *found false when it was
 * deleted. */
int floe_replication_source_read(floe_call_t *call, int64_t table_id, floe_replication_source_t *out /* OUT */,
                                 bool *found /* OUT */);

/** Queues the current state of table `table_id` (nothing when it has no metadata yet). */
int floe_replication_queue_table(floe_call_t *call, int64_t table_id);

/** Queues the current state of every table of bucket `bucket_id` that is not a replica. */
int floe_replication_queue_bucket(floe_call_t *call, int64_t bucket_id);

/** The oldest queued work: *found false when the queue is empty. */
int floe_replication_queue_next(floe_call_t *call, floe_replication_work_t *out /* OUT */, bool *found /* OUT */);

/** Removes queued work `work_id` (nothing when it is already gone). */
int floe_replication_queue_done(floe_call_t *call, int64_t work_id);

/** The pair's status row (strings in the call's pool). */
int floe_replication_status_read(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                 floe_replication_status_row_t *out /* OUT */);

/** Records that the replica `replica_arn` now holds source state `metadata_location`, at `at`. */
int floe_replication_status_complete(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                     const char *replica_arn, const char *metadata_location, floe_timestamp_t at);

/** Records that the pair's last attempt failed with `message` (keeping its last success). */
int floe_replication_status_failed(floe_call_t *call, int64_t table_id, const char *destination_arn,
                                 const char *message);

/** Marks table `table_id` as a replica of `source_arn` (inside the transaction that creates it). */
int floe_replication_mark_replica(floe_call_t *call, int64_t table_id, const char *source_arn);

/** The ARN of the table that `table_id` is a replica of, in the call's pool; NULL when it is no
 * replica. */
int floe_replication_source_of(floe_call_t *call, int64_t table_id, char **source_arn /* OUT */);

/**
 * Whether table `table_id` is a replica (read-only: clients cannot commit to it, and its own
 * maintenance does not run, as on AWS). When SQLite fails the call is failed and the answer is
 * true, so a caller about to write errs on the side of not writing.
 */
bool floe_replication_is_replica(floe_call_t *call, int64_t table_id);

#endif
