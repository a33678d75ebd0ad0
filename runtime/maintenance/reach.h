/*
 * What a table's snapshots reach, computed from its files (never guessed from names): each
 * snapshot's manifest list, the manifests it lists, and the data and delete files those manifests
 * hold. Snapshot expiration deletes what only expired snapshots reach; unreferenced file removal
 * keeps everything any snapshot reaches; replication prunes a replica's warehouse with it
 * (replication/prune.h). Reads objects through a reader: the job's (job.h) for maintenance, on the
 * maintenance thread, or the caller's own (floe_reach_snapshots_from).
 */
#ifndef FLOE_MAINTENANCE_REACH_H
#define FLOE_MAINTENANCE_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* The job (maintenance/job.h); only its pointer is needed here, so replication, which has no job,
 * can include this header without the job's. */
typedef struct floe_job floe_job_t;

/** A set of locations (malloc'ed strings): a sorted, duplicate-free prefix paths[0..n_sorted) and
 * a short unsorted tail, sorted in whenever it grows past a few dozen. */
typedef struct floe_reach_set {
    char **paths;
    size_t n, cap, n_sorted;
} floe_reach_set_t;

/** Adds a copy of path (duplicates are dropped when the tail is sorted in). */
void floe_reach_set_add(floe_reach_set_t *set, const char *path);
/** Sorts everything and removes duplicates: afterwards paths[0..n) is the set, in order. */
void floe_reach_set_seal(floe_reach_set_t *set);
/** True when the set holds path. */
bool floe_reach_set_has(const floe_reach_set_t *set, const char *path);
void floe_reach_set_dispose(floe_reach_set_t *set);

/** What a group of snapshots reaches, by kind. */
typedef struct floe_reach {
    floe_reach_set_t lists;     /* manifest lists */
    floe_reach_set_t manifests; /* manifests (data and delete) */
    floe_reach_set_t files;     /* data and delete files */
} floe_reach_t;

/** Where the reach reads manifest lists and manifests from. */
typedef struct floe_reach_reader floe_reach_reader_t;
struct floe_reach_reader {
    /** Reads locations[0..n) whole: data[i] (malloc'ed, the reach frees it) and len[i]; data[i] may be
     * NULL for an object that does not exist, when the reader tolerates that (the reach then skips
     * it). FLOE_EFAIL, nothing left allocated, after recording why. */
    int (*read)(floe_reach_reader_t *rd, const char *const *locations, size_t n, uint8_t **data /* OUT */,
                size_t *len /* OUT */);
    /** Records why the reach failed (a file that is not a manifest list or manifest). */
    void (*fail)(floe_reach_reader_t *rd, const char *message);
};

/** Which manifest entries count as reaching their file. Iceberg counts only live entries (ADDED,
 * EXISTING) as what a snapshot keeps (ManifestFiles.readPaths reads liveEntries(), as
 * ExpireSnapshots and DeleteOrphanFiles do): a DELETED entry records a file a snapshot dropped, so a
 * file that only DELETED entries name is kept by no snapshot. What an expired snapshot may free is
 * everything its manifests name, DELETED entries included: that is how the files a compaction
 * replaced become deletable once the snapshots that still held them live expire. */
typedef enum floe_reach_entries {
    FLOE_REACH_LIVE_ENTRIES, /* what retained snapshots keep */
    FLOE_REACH_EVERY_ENTRY   /* what expired (or dropped) snapshots may free */
} floe_reach_entries_t;

/** floe_reach_snapshots reading through `rd` instead of a job; FLOE_EFAIL after rd->fail or a failed
 * rd->read. */
int floe_reach_snapshots_from(floe_reach_reader_t *rd, const cJSON *const *snapshots, size_t n,
                              floe_reach_entries_t entries, const floe_reach_t *skip, floe_reach_t *r);

/**
 * Adds what snapshots[0..n) (Snapshot objects of metadata.json) reach to *r: their manifest lists,
 * then the manifests not yet known, many to a serving-thread step, and the files of the manifest
 * entries `entries` counts. A manifest already in r->manifests, or in skip->manifests (skip may be
 * NULL), is not read again: a manifest is immutable, so its files are already in one of the two (a
 * skipped manifest's DELETED entries were counted by none when skip is a live-entries reach: the
 * files they name are kept by no snapshot, and unreferenced file removal frees them). A v1 snapshot
 * with an inline "manifests" list instead of a manifest list is followed too. FLOE_EFAIL with the
 * job's message naming the file when a manifest list or manifest cannot be read.
 */
int floe_reach_snapshots(floe_job_t *job, const cJSON *const *snapshots, size_t n, floe_reach_entries_t entries,
                         const floe_reach_t *skip, floe_reach_t *r);

void floe_reach_dispose(floe_reach_t *r);

#endif
