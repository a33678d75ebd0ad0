/*
 * A maintenance job as the jobs see it: which table it works on and with which
 * settings, the clock its age rules use, the figures it fills in, and the helpers it uses to reach
 * the table's objects and metadata from the maintenance thread. Each job is one room of this wing
 * (snapshots.c, unreferenced.c, expiration.c, compaction.c) with one entry point below; the
 * runner (runner.c) builds the job, runs the entry point on the maintenance thread and records
 * the outcome as the job's status (catalog/maintenance_job.h).
 *
 * Not for scheduling (thread.c) or HTTP (route.c), and not for Iceberg's file formats, which are
 * the pure iceberg wing's (iceberg/manifest.h, iceberg/parquet_*.h, iceberg/iceberg_commit.h).
 *
 * Design notes:
 *  1. Threads. Every function here runs on the maintenance thread and may block. Object bytes are
 *     read and written on that thread; every SQL step (object rows, the table row, the metadata
 *     pointer) runs on the serving thread through floe_background_call (background.h), so a job
 *     never opens SQLite and a request never waits for a job's I/O.
 *  2. Commits. floe_job_commit moves the table's metadata pointer through the same
 *     compare-and-swap clients use (catalog/table.h: floe_table_swap_metadata on the version
 *     token). The job's plan runs against the metadata it read; if a client commits first, the
 *     swap fails as stale, the objects the attempt wrote are deleted, and the plan runs again on
 *     the client's metadata. A client's commit is never overwritten.
 *  3. Deletes. A job deletes an object only after the commit that stops referencing it has
 *     returned (the pointer row is committed and the metadata file fsynced), so kill -9 at any
 *     point leaves every referenced file in place. An interrupted job leaves at worst unreferenced
 *     files, which the next run (or unreferenced file removal) removes.
 *  4. Locations are Iceberg's: "s3://<warehouse bucket>/<key>". A job may only read, write and
 *     delete inside its own table's warehouse; anything else fails the job.
 */
#ifndef FLOE_MAINTENANCE_JOB_H
#define FLOE_MAINTENANCE_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "background/background.h"
#include "background/object_door.h"
#include "base/scope.h"

#define FLOE_JOB_MESSAGE_MAX 512

/** The job types, as POST /_floe/maintenance/run names them (floe_job_type_name). */
typedef enum floe_job_type {
    FLOE_JOB_COMPACTION = 1,           /* "icebergCompaction" (table) */
    FLOE_JOB_SNAPSHOT_MANAGEMENT,      /* "icebergSnapshotManagement" (table) */
    FLOE_JOB_UNREFERENCED_FILE_REMOVAL, /* "icebergUnreferencedFileRemoval" (the bucket's setting, run per table) */
    FLOE_JOB_RECORD_EXPIRATION,        /* "recordExpiration" (table) */
} floe_job_type_t;

#define FLOE_JOB_TYPE_COUNT 4

/** The job's settings: each type reads its own fields (the table's or bucket's configuration,
 * with AWS's defaults filled in). */
typedef struct floe_job_settings {
    int32_t target_file_size_mb;    /* icebergCompaction */
    const char *strategy;           /* icebergCompaction: "auto", "binpack", "sort", "z-order" */
    int32_t min_snapshots_to_keep;  /* icebergSnapshotManagement */
    int32_t max_snapshot_age_hours; /* icebergSnapshotManagement */
    int32_t unreferenced_days;      /* icebergUnreferencedFileRemoval */
    int32_t non_current_days;       /* icebergUnreferencedFileRemoval */
    int32_t expiration_days;        /* recordExpiration: days to keep records */
} floe_job_settings_t;

/** What a run did; the job adds to it as it goes. */
typedef struct floe_job_stats {
    int64_t files_read, bytes_read;
    int64_t files_written, bytes_written;
    int64_t files_deleted, bytes_deleted;
    int64_t snapshots_expired;
    int64_t records_removed;   /* recordExpiration: rows in the data files it removed */
    int64_t files_marked;      /* icebergUnreferencedFileRemoval: objects newly marked noncurrent */
    char message[FLOE_JOB_MESSAGE_MAX]; /* why it failed, or a note on a success ("nothing to do", a skipped partition) */
} floe_job_stats_t;

/** One run of one job on one table. Built by the runner; the job reads everything but `stats`
 * and `new_metadata_location` as input. */
typedef struct floe_job {
    floe_job_type_t type;
    floe_scope_t scope;            /* account and region of the table */
    int64_t bucket_id;             /* table_bucket row id */
    int64_t table_id;              /* s3table row id */
    char *bucket_arn;
    char *table_arn;
    char *namespace_name;
    char *table_name;
    char *warehouse;               /* the warehouse bucket's name */
    floe_job_settings_t settings;
    int64_t now_ms;                /* the clock the age rules use (the request's "now", else the wall clock) */
    const char *data_dir;
    floe_background_t *bg;         /* the serving thread's door (design note 1) */
    floe_job_stats_t stats;        /* OUT */
    char *new_metadata_location;   /* OUT: malloc'ed by floe_job_commit; NULL when nothing was committed */
    struct floe_job_private *priv; /* the runner's; jobs leave it alone */
} floe_job_t;

/* ---- entry points: one per job (design note 1: called on the maintenance thread) ---- */

/** Each returns FLOE_OK (the job succeeded, perhaps doing nothing) or FLOE_EFAIL with
 * job->stats.message saying why (floe_job_fail). The runner records the status either way. */
int floe_maintenance_compaction_run(floe_job_t *job);
int floe_maintenance_snapshots_run(floe_job_t *job);
int floe_maintenance_unreferenced_run(floe_job_t *job);
int floe_maintenance_expiration_run(floe_job_t *job);

/* ---- helpers a job uses ---- */

/** Sets job->stats.message from the format and returns FLOE_EFAIL, so `return floe_job_fail(...)`. */
int floe_job_fail(floe_job_t *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The wire name of a type ("icebergCompaction", ...). */
const char *floe_job_type_name(floe_job_type_t type);
/** The type a wire name names; 0 when none. */
floe_job_type_t floe_job_type_from_name(const char *name);

/** The key of `location` inside the job's warehouse ("metadata/x.avro"), pointing into location;
 * NULL when the location is not inside the warehouse (design note 4). */
const char *floe_job_key_of(const floe_job_t *job, const char *location);

/** "s3://<warehouse>/<key>", malloc'ed; the caller frees. */
char *floe_job_location_of(const floe_job_t *job, const char *key);

/** The door to the job's warehouse (object_door.h: looked up by name in every step, in the job's
 * account and region), for the steps a job takes on its objects beyond the helpers below. */
floe_object_door_t floe_job_door(floe_job_t *job);

/**
 * Reads the whole object at `location` into *data (malloc'ed, the caller frees; followed by a
 * NUL, so an empty object gives a non-NULL buffer), counting it in stats.files_read/bytes_read. FLOE_EFAIL with the job's
 * message set when the object does not exist or cannot be read.
 */
int floe_job_read_object(floe_job_t *job, const char *location, uint8_t **data /* OUT */, size_t *len /* OUT */);

/**
 * Reads the objects at locations[0..n) whole, with one serving-thread step for all of them (many
 * small files, such as a table's manifests): data[i] (malloc'ed, the caller frees each) and
 * len[i]. FLOE_EFAIL (message set, nothing left allocated) when one does not exist or cannot be read.
 */
int floe_job_read_objects(floe_job_t *job, const char *const *locations, size_t n, uint8_t **data /* OUT */,
                          size_t *len /* OUT */);

/**
 * Opens the object at `location` for reading: *fd (the caller closes it) and *size, for kernel
 * copies into a floe_job_writer_t. Counts the file and its size as read. The file stays readable
 * through the fd even if the object is deleted meanwhile (store files are never modified).
 */
int floe_job_open_object(floe_job_t *job, const char *location, int *fd /* OUT */, uint64_t *size /* OUT */);

/** A new object being written (from a buffer, or by kernel copies from other objects' fds). */
typedef struct floe_job_writer {
    floe_job_t *job;
    void *blob; /* the store's temp file (store/blob.h) */
    uint64_t size;
} floe_job_writer_t;

/** Starts a new object in the job's warehouse. FLOE_EFAIL (message set) when no temp file can be made. */
int floe_job_writer_open(floe_job_t *job, floe_job_writer_t *w /* OUT */);
/** Appends len bytes. */
int floe_job_writer_append(floe_job_writer_t *w, const void *data, size_t len);
/** Appends len bytes of src_fd from *src_off (advanced), copied in the kernel (floe_store_blob_copy_fd). */
int floe_job_writer_copy_fd(floe_job_writer_t *w, int src_fd, uint64_t *src_off, uint64_t len);
/**
 * Makes the bytes durable and publishes them as object `key` of the warehouse (which must not
 * exist yet: keys are fresh names). *location (malloc'ed, the caller frees; may be NULL) is its
 * s3:// location. Counts the file as written. Inside floe_job_commit's plan, the object is
 * remembered and deleted again if the attempt's swap loses (design note 2). Releases w either way.
 */
int floe_job_writer_finish(floe_job_writer_t *w, const char *key, char **location /* OUT, may be NULL */);
/** Drops an unfinished writer. */
void floe_job_writer_discard(floe_job_writer_t *w);

/** floe_job_writer_open + append + finish in one. */
int floe_job_write_object(floe_job_t *job, const char *key, const void *data, size_t len,
                          char **location /* OUT, may be NULL */);

/** A fresh key under `dir` ("data/", "metadata/"): "<dir><uuid><suffix>", malloc'ed. */
char *floe_job_fresh_key(const char *dir, const char *suffix);

/**
 * Deletes the objects at locations[0..n) (missing ones are fine), in one step on the serving
 * thread, counting files_deleted and bytes_deleted. Only after the commit that unreferenced them
 * (design note 3).
 */
int floe_job_delete_objects(floe_job_t *job, const char *const *locations, size_t n);

/**
 * The table's current metadata: its text (*json, malloc'ed, NULL when the table has none), its
 * location and its version token (both malloc'ed; the caller frees all three).
 */
int floe_job_read_metadata(floe_job_t *job, char **json /* OUT */, char **location /* OUT */,
                           char **version_token /* OUT */);

/**
 * A commit's plan: from the table's current metadata (`json`, stored at `location`), the REST
 * updates (and optional requirements) that make the next metadata (iceberg/iceberg_commit.h).
 * Sets *updates to a new cJSON array (floe_job_commit frees it), or to NULL for "nothing to
 * commit". May write objects (new manifests, data files) with the writer above. Returns FLOE_OK
 * or FLOE_EFAIL (message set: the job fails). Runs again after a lost race (design note 2), so it
 * must not keep state from an earlier attempt that the new metadata invalidates.
 */
typedef int (*floe_job_plan_fn)(floe_job_t *job, const char *json, const char *location, cJSON **updates /* OUT */,
                                cJSON **requirements /* OUT, starts NULL */, void *arg);

/**
 * Reads the metadata, runs `plan`, computes the next metadata.json with floe_iceberg_commit,
 * writes it as the next metadata file and swaps the table's pointer with the compare-and-swap
 * clients use; a stale token starts over after a growing, jittered pause (up to
 * FLOE_JOB_COMMIT_ATTEMPTS, then the job fails with "gave up after N concurrent commits"): a
 * background job yields to clients committing in a tight loop instead of losing every race to
 * them, as Iceberg's own commit retries back off. On success job->new_metadata_location is set, or stays
 * NULL when the plan had nothing to commit; *committed (may be NULL) says which.
 */
int floe_job_commit(floe_job_t *job, floe_job_plan_fn plan, void *arg, bool *committed /* OUT, may be NULL */);

#define FLOE_JOB_COMMIT_ATTEMPTS 16
#define FLOE_JOB_COMMIT_PAUSE_MIN_MS 5   /* the first pause; doubled per lost race */
#define FLOE_JOB_COMMIT_PAUSE_MAX_MS 500

/* ---- for the runner (runner.c) ---- */

/** Prepares job->priv; `stopping` (may be NULL) is the maintenance thread's stop flag. */
void floe_job_init(floe_job_t *job, volatile int *stopping);
/** Frees job->priv and job->new_metadata_location. */
void floe_job_dispose(floe_job_t *job);

/** True once the server is stopping: long jobs check it between steps and fail with "stopped". */
bool floe_job_is_stopping(floe_job_t *job);

#endif
