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

static bool knows_manifest(const floe_reach_t *skip, const floe_reach_t *r, const char *path)
{
    return floe_reach_set_has(&r->manifests, path) || (skip != NULL && floe_reach_set_has(&skip->manifests, path));
}

/* Adds a manifest and the files it holds (every entry: a deleted entry's file was reachable from
 * the snapshots this manifest belonged to, and expiring them is what may free it). */
static int reach_manifest(floe_job_t *job, const char *path, const floe_reach_t *skip, floe_reach_t *r)
{
    floe_iceberg_manifest_t m;
    char err[ERR_MAX];
    uint8_t *data;
    size_t len;
    int rc;

    if (knows_manifest(skip, r, path))
        return FLOE_OK;
    if (floe_job_read_object(job, path, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_read(data, len, &m, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(job, "cannot read the manifest %s: %s", path, err);
    floe_reach_set_add(&r->manifests, path);
    for (size_t i = 0; i < m.n_entries; i++)
        floe_reach_set_add(&r->files, m.entries[i].file.file_path);
    floe_iceberg_manifest_dispose(&m);
    return FLOE_OK;
}

static int reach_list(floe_job_t *job, const char *path, const floe_reach_t *skip, floe_reach_t *r)
{
    floe_iceberg_manifest_list_t l;
    char err[ERR_MAX];
    uint8_t *data;
    size_t len;
    int rc = FLOE_OK;

    if (floe_job_read_object(job, path, &data, &len))
        return FLOE_EFAIL;
    if (floe_iceberg_manifest_list_read(data, len, &l, err, sizeof(err)) != 0) {
        free(data);
        return floe_job_fail(job, "cannot read the manifest list %s: %s", path, err);
    }
    free(data);
    floe_reach_set_add(&r->lists, path);
    for (size_t i = 0; i < l.n_files && rc == FLOE_OK; i++)
        rc = reach_manifest(job, l.files[i].manifest_path, skip, r);
    floe_iceberg_manifest_list_dispose(&l);
    return rc;
}

int floe_reach_snapshot(floe_job_t *job, const cJSON *snapshot, const floe_reach_t *skip, floe_reach_t *r)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(snapshot, "manifest-list");
    const cJSON *manifests = cJSON_GetObjectItemCaseSensitive(snapshot, "manifests");
    const cJSON *m;

    if (cJSON_IsString(list))
        return reach_list(job, list->valuestring, skip, r);
    cJSON_ArrayForEach(m, manifests)
    {
        if (cJSON_IsString(m) && reach_manifest(job, m->valuestring, skip, r))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}
