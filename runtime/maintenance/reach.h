/*
 * What a table's snapshots reach, computed from its files (never guessed from names): each
 * snapshot's manifest list, the manifests it lists, and the data and delete files those manifests
 * hold. Snapshot expiration deletes what only expired snapshots reach; unreferenced file removal
 * keeps everything any snapshot reaches. Reads objects through the job (job.h), so it runs on the
 * maintenance thread.
 */
#ifndef FLOE_MAINTENANCE_REACH_H
#define FLOE_MAINTENANCE_REACH_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "maintenance/job.h"

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

/**
 * Adds what `snapshot` (a Snapshot object of metadata.json) reaches to *r. A manifest already in
 * r->manifests, or in skip->manifests (skip may be NULL), is not read again: a manifest is
 * immutable, so its files are already in one of the two. A v1 snapshot with an inline "manifests"
 * list instead of a manifest list is followed too. FLOE_EFAIL with the job's message naming the
 * file when a manifest list or manifest cannot be read.
 */
int floe_reach_snapshot(floe_job_t *job, const cJSON *snapshot, const floe_reach_t *skip, floe_reach_t *r);

/** floe_reach_snapshot for snapshots[0..n), reading their manifest lists, then the manifests not
 * yet known, many to a serving-thread step. */
int floe_reach_snapshots(floe_job_t *job, const cJSON *const *snapshots, size_t n, const floe_reach_t *skip,
                         floe_reach_t *r);

void floe_reach_dispose(floe_reach_t *r);

#endif
