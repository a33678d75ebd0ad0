/*
 * The snapshot management job (icebergSnapshotManagement): expires snapshots by the
 * rules of snapshot_select.h, commits the new metadata through the clients' compare-and-swap
 * (job.h, design note 2), then deletes the manifest lists, manifests, data and delete files and
 * statistics files that only the expired snapshots reached (job.h, design note 3).
 *
 * Design notes:
 *  1. The plan reads every manifest list and manifest the snapshots reach before anything is
 *     committed, so a corrupt file fails the job with the table untouched. The retained
 *     snapshots are read first; an expired snapshot's manifest that a retained one also lists is
 *     not read again (its files are retained). Retained snapshots keep only their manifests' live
 *     entries; expired ones may free every entry's file, DELETED included (reach.h), so the files a
 *     compaction replaced go once the snapshots that still held them live expire.
 *  2. What to delete is computed from the metadata the commit was made on (the compare-and-swap
 *     guarantees the committed metadata is that one minus the expired snapshots), as
 *     reached-by-expired minus reached-by-retained, per kind of file.
 *  3. Deletes run only after the commit returned; a crash before them leaves unreferenced files,
 *     which unreferenced file removal collects later.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "maintenance/job.h"
#include "maintenance/reach.h"
#include "maintenance/snapshot_select.h"

#define MS_PER_HOUR (3600LL * 1000)

typedef struct expire_ctx {
    floe_expire_plan_t plan;
    floe_reach_t retained, expired;
    floe_reach_set_t stats_retained, stats_expired; /* statistics files */
} expire_ctx_t;

static void reset(expire_ctx_t *c)
{
    floe_expire_plan_dispose(&c->plan);
    floe_reach_dispose(&c->retained);
    floe_reach_dispose(&c->expired);
    floe_reach_set_dispose(&c->stats_retained);
    floe_reach_set_dispose(&c->stats_expired);
}

static bool is_expired(const floe_expire_plan_t *plan, int64_t id)
{
    for (size_t i = 0; i < plan->n_expired; i++) {
        if (plan->expired[i] == id)
            return true;
    }
    return false;
}

static bool snapshot_is_expired(const floe_expire_plan_t *plan, const cJSON *s)
{
    int64_t id;
    return floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(s, "snapshot-id"), &id) == 0 &&
           is_expired(plan, id);
}

/* Sorts the statistics files of `list` into retained and expired by their snapshot. */
static void sort_statistics(expire_ctx_t *c, const cJSON *list)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, list)
    {
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(f, "statistics-path");
        if (cJSON_IsString(path))
            floe_reach_set_add(snapshot_is_expired(&c->plan, f) ? &c->stats_expired : &c->stats_retained,
                               path->valuestring);
    }
}

/* The snapshots of md that are (or are not) expired, in order. Caller frees the array. */
static const cJSON **pick(const expire_ctx_t *c, const floe_iceberg_metadata_t *md, bool expired, size_t *n)
{
    const cJSON **out = floe_xcalloc((size_t)cJSON_GetArraySize(md->snapshots) + 1, sizeof(*out));
    const cJSON *s;

    *n = 0;
    cJSON_ArrayForEach(s, md->snapshots)
    {
        if (snapshot_is_expired(&c->plan, s) == expired)
            out[(*n)++] = s;
    }
    return out;
}

/* Design note 1: reads what the retained snapshots reach, then what the expired ones add. */
static int read_reach(floe_job_t *job, expire_ctx_t *c, const floe_iceberg_metadata_t *md)
{
    size_t n_retained, n_expired;
    const cJSON **retained = pick(c, md, false, &n_retained), **expired = pick(c, md, true, &n_expired);
    int rc = floe_reach_snapshots(job, retained, n_retained, FLOE_REACH_LIVE_ENTRIES, NULL, &c->retained);

    floe_reach_set_seal(&c->retained.manifests);
    if (rc == FLOE_OK)
        rc = floe_reach_snapshots(job, expired, n_expired, FLOE_REACH_EVERY_ENTRY, &c->retained, &c->expired);
    sort_statistics(c, md->statistics);
    sort_statistics(c, md->partition_statistics);
    free(retained);
    free(expired);
    return rc;
}

static int plan(floe_job_t *job, const char *json, const char *location, cJSON **updates, cJSON **requirements,
                void *arg)
{
    expire_ctx_t *c = arg;
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    int rc;
    (void)location;
    (void)requirements;

    reset(c); /* a new attempt plans from scratch (job.h, floe_job_plan_fn) */
    if (floe_iceberg_metadata_parse(json, strlen(json), &md, &err) != 0)
        return floe_job_fail(job, "cannot read the table's metadata: %s", err.message);
    floe_expire_select(&md, job->settings.min_snapshots_to_keep,
                       (int64_t)job->settings.max_snapshot_age_hours * MS_PER_HOUR, job->now_ms, &c->plan);
    rc = c->plan.n_expired > 0 ? read_reach(job, c, &md) : FLOE_OK;
    if (rc == FLOE_OK)
        *updates = floe_expire_updates(&c->plan);
    floe_iceberg_metadata_dispose(&md);
    return rc;
}

/* Appends to *out the paths of `expired` that `retained` does not hold (design note 2). */
static void only_expired(const floe_reach_set_t *expired, floe_reach_set_t *retained, char ***out, size_t *n)
{
    floe_reach_set_seal(retained);
    for (size_t i = 0; i < expired->n; i++) {
        if (!floe_reach_set_has(retained, expired->paths[i])) {
            *out = floe_xrealloc(*out, (*n + 1) * sizeof(char *));
            (*out)[(*n)++] = expired->paths[i];
        }
    }
}

/* Design note 3: files first, then manifests, then manifest lists and statistics. */
static int delete_unreachable(floe_job_t *job, expire_ctx_t *c)
{
    char **paths = NULL;
    size_t n = 0;
    int rc;

    floe_reach_set_seal(&c->expired.files);
    floe_reach_set_seal(&c->expired.manifests);
    floe_reach_set_seal(&c->expired.lists);
    floe_reach_set_seal(&c->stats_expired);
    only_expired(&c->expired.files, &c->retained.files, &paths, &n);
    only_expired(&c->expired.manifests, &c->retained.manifests, &paths, &n);
    only_expired(&c->expired.lists, &c->retained.lists, &paths, &n);
    only_expired(&c->stats_expired, &c->stats_retained, &paths, &n);
    rc = n > 0 ? floe_job_delete_objects(job, (const char *const *)paths, n) : FLOE_OK;
    free(paths);
    return rc;
}

int floe_maintenance_snapshots_run(floe_job_t *job)
{
    expire_ctx_t c;
    bool committed;
    int rc;

    memset(&c, 0, sizeof(c));
    if (job->settings.min_snapshots_to_keep < 1)
        job->settings.min_snapshots_to_keep = 1; /* AWS's minimum; the current snapshot always stays */
    rc = floe_job_commit(job, plan, &c, &committed);
    if (rc == FLOE_OK && committed) {
        job->stats.snapshots_expired = (int64_t)c.plan.n_expired;
        rc = delete_unreachable(job, &c);
    } else if (rc == FLOE_OK) {
        snprintf(job->stats.message, sizeof(job->stats.message), "no snapshot is due to expire");
    }
    reset(&c);
    return rc;
}
