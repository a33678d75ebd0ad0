/*
 * The reach of reach.h: the sets, the walk over manifest lists and manifests through a reader, and
 * the job's reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/manifest.h"
#include "maintenance/job.h"
#include "maintenance/reach.h"

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

/* Records "<what> <path>: <err>" through the reader and returns FLOE_EFAIL. */
static int reach_fail(floe_reach_reader_t *rd, const char *what, const char *path, const char *err)
{
    char message[ERR_MAX + 512];

    snprintf(message, sizeof(message), "%s %s: %s", what, path, err);
    rd->fail(rd, message);
    return FLOE_EFAIL;
}

static bool knows_manifest(const floe_reach_t *skip, const floe_reach_t *r, const char *path)
{
    return floe_reach_set_has(&r->manifests, path) || (skip != NULL && floe_reach_set_has(&skip->manifests, path));
}

/* One walk: where it reads, what it adds to, and which entries count (reach.h). */
typedef struct walk {
    floe_reach_reader_t *rd;
    floe_reach_entries_t entries;
    const floe_reach_t *skip;
    floe_reach_t *r;
    floe_reach_set_t *queue; /* manifests still to read */
} walk_t;

static bool entry_counts(const walk_t *w, int32_t status)
{
    return w->entries == FLOE_REACH_EVERY_ENTRY || status != FLOE_ICEBERG_ENTRY_DELETED;
}

/* Adds a manifest and the files of the entries that count (reach.h, floe_reach_entries_t). */
static int add_manifest(walk_t *w, const char *path, const uint8_t *data, size_t len)
{
    floe_iceberg_manifest_t m;
    char err[ERR_MAX];

    if (floe_iceberg_manifest_read(data, len, &m, err, sizeof(err)) != 0)
        return reach_fail(w->rd, "cannot read the manifest", path, err);
    floe_reach_set_add(&w->r->manifests, path);
    for (size_t i = 0; i < m.n_entries; i++) {
        if (entry_counts(w, m.entries[i].status))
            floe_reach_set_add(&w->r->files, m.entries[i].file.file_path);
    }
    floe_iceberg_manifest_dispose(&m);
    return FLOE_OK;
}

/* Adds a manifest list and queues the manifests it lists that are not known yet. */
static int add_list(walk_t *w, const char *path, const uint8_t *data, size_t len)
{
    floe_iceberg_manifest_list_t l;
    char err[ERR_MAX];

    if (floe_iceberg_manifest_list_read(data, len, &l, err, sizeof(err)) != 0)
        return reach_fail(w->rd, "cannot read the manifest list", path, err);
    floe_reach_set_add(&w->r->lists, path);
    for (size_t i = 0; i < l.n_files; i++) {
        const char *manifest = l.files[i].manifest_path;
        if (!knows_manifest(w->skip, w->r, manifest) && !floe_reach_set_has(w->queue, manifest))
            floe_reach_set_add(w->queue, manifest);
    }
    floe_iceberg_manifest_list_dispose(&l);
    return FLOE_OK;
}

typedef int (*add_fn)(walk_t *w, const char *path, const uint8_t *data, size_t len);

/* Reads paths[0..n) READ_BATCH at a time and hands each to `add` (a missing one the reader
 * tolerates is skipped). */
static int read_all(walk_t *w, char **paths, size_t n, add_fn add)
{
    uint8_t *data[READ_BATCH];
    size_t len[READ_BATCH];
    int rc = FLOE_OK;

    for (size_t at = 0; at < n && rc == FLOE_OK; at += READ_BATCH) {
        size_t k = n - at < READ_BATCH ? n - at : READ_BATCH;
        if (w->rd->read(w->rd, (const char *const *)paths + at, k, data, len))
            return FLOE_EFAIL;
        for (size_t i = 0; i < k; i++) {
            if (rc == FLOE_OK && data[i] != NULL)
                rc = add(w, paths[at + i], data[i], len[i]);
            free(data[i]);
        }
    }
    return rc;
}

int floe_reach_snapshots_from(floe_reach_reader_t *rd, const cJSON *const *snapshots, size_t n,
                              floe_reach_entries_t entries, const floe_reach_t *skip, floe_reach_t *r)
{
    floe_reach_set_t lists = {0}, manifests = {0};
    walk_t w = {rd, entries, skip, r, &manifests};
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
    rc = read_all(&w, lists.paths, lists.n, add_list);
    floe_reach_set_seal(&manifests);
    if (rc == FLOE_OK)
        rc = read_all(&w, manifests.paths, manifests.n, add_manifest);
    floe_reach_set_dispose(&lists);
    floe_reach_set_dispose(&manifests);
    return rc;
}

/* ---- the job's reader ---- */

typedef struct job_reader {
    floe_reach_reader_t super;
    floe_job_t *job;
} job_reader_t;

static int job_read(floe_reach_reader_t *rd, const char *const *locations, size_t n, uint8_t **data, size_t *len)
{
    return floe_job_read_objects(((job_reader_t *)rd)->job, locations, n, data, len);
}

static void job_fail(floe_reach_reader_t *rd, const char *message)
{
    floe_job_fail(((job_reader_t *)rd)->job, "%s", message);
}

int floe_reach_snapshots(floe_job_t *job, const cJSON *const *snapshots, size_t n, floe_reach_entries_t entries,
                         const floe_reach_t *skip, floe_reach_t *r)
{
    job_reader_t rd = {{job_read, job_fail}, job};
    return floe_reach_snapshots_from(&rd.super, snapshots, n, entries, skip, r);
}
