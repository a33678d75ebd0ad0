/*
 * The reach of reach.h.
 */
#include <stdlib.h>
#include <string.h>

#include "iceberg/manifest.h"
#include "maintenance/reach.h"
#include "xalloc.h"

#define ERR_MAX 256

#define UNSORTED_TAIL_MAX 64

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void floe_reach_set_seal(floe_reach_set_t *set)
{
    size_t out = 0;

    if (set->n_sorted == set->n)
        return;
    qsort(set->paths, set->n, sizeof(*set->paths), compare_paths);
    for (size_t i = 0; i < set->n; i++) {
        if (out > 0 && strcmp(set->paths[out - 1], set->paths[i]) == 0) {
            free(set->paths[i]);
            continue;
        }
        set->paths[out++] = set->paths[i];
    }
    set->n = set->n_sorted = out;
}

void floe_reach_set_add(floe_reach_set_t *set, const char *path)
{
    if (set->n == set->cap) {
        set->cap = set->cap ? set->cap * 2 : 64;
        set->paths = floe_xrealloc(set->paths, set->cap * sizeof(*set->paths));
    }
    set->paths[set->n++] = floe_xstrdup(path);
    if (set->n - set->n_sorted > UNSORTED_TAIL_MAX)
        floe_reach_set_seal(set);
}

bool floe_reach_set_has(const floe_reach_set_t *set, const char *path)
{
    if (set->n_sorted > 0 && bsearch(&path, set->paths, set->n_sorted, sizeof(*set->paths), compare_paths) != NULL)
        return true;
    for (size_t i = set->n_sorted; i < set->n; i++) {
        if (strcmp(set->paths[i], path) == 0)
            return true;
    }
    return false;
}

void floe_reach_set_dispose(floe_reach_set_t *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->paths[i]);
    free(set->paths);
    memset(set, 0, sizeof(*set));
}

void floe_reach_dispose(floe_reach_t *r)
{
    floe_reach_set_dispose(&r->lists);
    floe_reach_set_dispose(&r->manifests);
    floe_reach_set_dispose(&r->files);
}

#define READ_BATCH 128 /* objects read per serving-thread step */

static bool knows_manifest(const floe_reach_t *skip, const floe_reach_t *r, const char *path)
{
    return floe_reach_set_has(&r->manifests, path) || (skip != NULL && floe_reach_set_has(&skip->manifests, path));
}

/* Adds a manifest's files (every entry: a deleted entry's file was reachable from the snapshots
 * this manifest belonged to, and expiring them is what may free it). */
static int add_manifest(floe_job_t *job, const char *path, const uint8_t *data, size_t len, floe_reach_t *r)
{
    floe_iceberg_manifest_t m;
    char err[ERR_MAX];

    if (floe_iceberg_manifest_read(data, len, &m, err, sizeof(err)) != 0)
        return floe_job_fail(job, "cannot read the manifest %s: %s", path, err);
    floe_reach_set_add(&r->manifests, path);
    for (size_t i = 0; i < m.n_entries; i++)
        floe_reach_set_add(&r->files, m.entries[i].file.file_path);
    floe_iceberg_manifest_dispose(&m);
    return FLOE_OK;
}

/* Adds a manifest list and queues the manifests it lists that are not known yet. */
static int add_list(floe_job_t *job, const char *path, const uint8_t *data, size_t len, const floe_reach_t *skip,
                    floe_reach_t *r, floe_reach_set_t *queue)
{
    floe_iceberg_manifest_list_t l;
    char err[ERR_MAX];

    if (floe_iceberg_manifest_list_read(data, len, &l, err, sizeof(err)) != 0)
        return floe_job_fail(job, "cannot read the manifest list %s: %s", path, err);
    floe_reach_set_add(&r->lists, path);
    for (size_t i = 0; i < l.n_files; i++) {
        if (!knows_manifest(skip, r, l.files[i].manifest_path) && !floe_reach_set_has(queue, l.files[i].manifest_path))
            floe_reach_set_add(queue, l.files[i].manifest_path);
    }
    floe_iceberg_manifest_list_dispose(&l);
    return FLOE_OK;
}

typedef int (*add_fn)(floe_job_t *job, const char *path, const uint8_t *data, size_t len, const floe_reach_t *skip,
                      floe_reach_t *r, floe_reach_set_t *queue);

static int add_manifest_fn(floe_job_t *job, const char *path, const uint8_t *data, size_t len,
                           const floe_reach_t *skip, floe_reach_t *r, floe_reach_set_t *queue)
{
    (void)skip;
    (void)queue;
    return add_manifest(job, path, data, len, r);
}

/* Reads paths[0..n) READ_BATCH at a time and hands each to `add`. */
static int read_all(floe_job_t *job, char **paths, size_t n, add_fn add, const floe_reach_t *skip, floe_reach_t *r,
                    floe_reach_set_t *queue)
{
    uint8_t *data[READ_BATCH];
    size_t len[READ_BATCH];
    int rc = FLOE_OK;

    for (size_t at = 0; at < n && rc == FLOE_OK; at += READ_BATCH) {
        size_t k = n - at < READ_BATCH ? n - at : READ_BATCH;
        if (floe_job_read_objects(job, (const char *const *)paths + at, k, data, len))
            return FLOE_EFAIL;
        for (size_t i = 0; i < k; i++) {
            if (rc == FLOE_OK)
                rc = add(job, paths[at + i], data[i], len[i], skip, r, queue);
            free(data[i]);
        }
    }
    return rc;
}

int floe_reach_snapshots(floe_job_t *job, const cJSON *const *snapshots, size_t n, const floe_reach_t *skip,
                         floe_reach_t *r)
{
    floe_reach_set_t lists = {0}, manifests = {0};
    const cJSON *m;
    int rc;

    for (size_t i = 0; i < n; i++) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(snapshots[i], "manifest-list");
        if (cJSON_IsString(list)) {
            floe_reach_set_add(&lists, list->valuestring);
            continue;
        }
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(snapshots[i], "manifests"))
        {
            if (cJSON_IsString(m) && !knows_manifest(skip, r, m->valuestring))
                floe_reach_set_add(&manifests, m->valuestring); /* a v1 snapshot without a manifest list */
        }
    }
    floe_reach_set_seal(&lists);
    rc = read_all(job, lists.paths, lists.n, add_list, skip, r, &manifests);
    floe_reach_set_seal(&manifests);
    if (rc == FLOE_OK)
        rc = read_all(job, manifests.paths, manifests.n, add_manifest_fn, skip, r, NULL);
    floe_reach_set_dispose(&lists);
    floe_reach_set_dispose(&manifests);
    return rc;
}

int floe_reach_snapshot(floe_job_t *job, const cJSON *snapshot, const floe_reach_t *skip, floe_reach_t *r)
{
    return floe_reach_snapshots(job, &snapshot, 1, skip, r);
}
