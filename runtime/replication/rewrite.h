/*
 * Moving Iceberg files from a source table's warehouse into a replica's: the paths inside
 * metadata.json, manifest lists and manifests are absolute ("s3://<warehouse>/<key>"), so a
 * replica needs its own copies whose paths name its own warehouse. So do delete files, whose
 * contents name data files: a Puffin deletion-vector file (each blob's referenced-data-file) and
 * a Parquet position delete file (its file_path column), which readers such as PyIceberg and
 * Iceberg Java match against the data file paths of the manifests. This file only rewrites bytes
 * in memory; reading and writing objects is replica.c's. Paths outside the source warehouse are
 * left as they are (a writer may point at files elsewhere).
 */
#ifndef FLOE_REPLICATION_REWRITE_H
#define FLOE_REPLICATION_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/manifest.h"
#include "iceberg/parquet_map.h"

/** The field id of a position delete file's file_path column (Iceberg spec, "Position Delete Files"). */
#define FLOE_REWRITE_DELETE_FILE_PATH_ID 2147483546

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

/**
 * The Puffin file file[0..len) with the referenced-data-file property of every deletion-vector-v1
 * blob moved to the replica's warehouse, the blobs unchanged and at their offsets
 * (floe_puffin_write). FLOE_OK with *out malloc'ed (the caller frees it), or FLOE_EFAIL with the
 * reason in err: the file does not read as Puffin (floe_puffin_read: malformed, or an
 * LZ4-compressed footer).
 */
int floe_rewrite_puffin(const floe_rewrite_t *rw, const uint8_t *file, size_t len, uint8_t **out /* OUT */,
                        size_t *out_len /* OUT */, char *err, size_t err_size);

/**
 * The Parquet position delete file file[0..len) with its file_path column's paths moved to the
 * replica's warehouse, positions and row order unchanged (floe_parquet_map_column). FLOE_OK with
 * *out filled (release with floe_parquet_mapped_dispose), or FLOE_EFAIL with the reason in err:
 * not Parquet, no file_path column, or a codec or encoding Floe does not decode (parquet_filter.h
 * design note 1).
 */
int floe_rewrite_position_deletes(const floe_rewrite_t *rw, const uint8_t *file, size_t len,
                                  floe_parquet_mapped_t *out /* OUT */, char *err, size_t err_size);

/**
 * A position delete file's file_path bounds (lower and upper, single-value strings) for the
 * replica's copy: true with both moved (malloc'ed, the caller frees them) when both lie in the
 * source warehouse, since then so does every path between them and moving keeps their order;
 * false otherwise, and the bounds are to be dropped (a missing bound costs a reader a file it
 * could have skipped, a wrong one loses rows).
 */
bool floe_rewrite_path_bounds(const floe_rewrite_t *rw, const floe_iceberg_bytes_t *lower,
                              const floe_iceberg_bytes_t *upper, char **new_lower /* OUT */,
                              char **new_upper /* OUT */);

#endif
