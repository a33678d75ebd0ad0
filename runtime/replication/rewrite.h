/*
 * Moving Iceberg files from a source table's warehouse into a replica's: the paths inside
 * metadata.json, manifest lists and manifests are absolute ("s3://<warehouse>/<key>"), so a
 * replica needs its own copies whose paths name its own warehouse. This file only rewrites bytes
 * in memory; reading and writing objects is replica.c's. Paths outside the source warehouse are
 * left as they are (a writer may point at files elsewhere).
 */
#ifndef FLOE_REPLICATION_REWRITE_H
#define FLOE_REPLICATION_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/** The two warehouse locations, "s3://<bucket>" (no trailing slash). */
typedef struct floe_rewrite {
    const char *from;
    const char *to;
} floe_rewrite_t;

/** The key of `path` inside warehouse `location` ("s3://<bucket>/<key>" -> "<key>"), or NULL when the
 * path lies elsewhere. Points into `path`. */
const char *floe_rewrite_key(const char *location, const char *path);

/** `path` with the source warehouse replaced by the replica's (malloc'ed; the caller frees), or
 * NULL when the path lies outside the source warehouse. */
char *floe_rewrite_path(const floe_rewrite_t *rw, const char *path);

/** Every file path of a parsed metadata.json that the replica needs: the manifest lists (and v1
 * manifest lists of paths), statistics files. Calls fn for each path string node, in place. */
typedef void (*floe_rewrite_visit_fn)(cJSON *path_node, void *arg);

/** Visits the metadata's manifest-list paths (snapshots[].manifest-list). */
void floe_rewrite_visit_manifest_lists(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg);
/** Visits v1 snapshots' manifest paths (snapshots[].manifests[]). */
void floe_rewrite_visit_manifests(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg);
/** Visits statistics and partition-statistics file paths. */
void floe_rewrite_visit_statistics(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg);

/** Rewrites every warehouse path of a parsed metadata.json in place: location, the paths the
 * visitors above find, and metadata-log entries. */
void floe_rewrite_metadata(const floe_rewrite_t *rw, cJSON *metadata);

#endif
