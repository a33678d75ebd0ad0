/*
 * The unreferenced file removal job (icebergUnreferencedFileRemoval, the table bucket's setting,
 * run per table). AWS: an object in a table's storage that no snapshot, metadata file
 * or statistics file references becomes noncurrent `unreferencedDays` after it was written, and
 * is deleted `nonCurrentDays` after that
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-table-buckets-maintenance.html).
 *
 * Design notes:
 *  1. Referenced: the current metadata file and every file in its metadata-log; every snapshot's
 *     manifest list, manifests, and the data and delete files of their live entries (reach.h: a
 *     file only DELETED entries name is kept by no snapshot); every statistics and partition
 *     statistics file. Computed from the files, never from names.
 *  2. The noncurrent mark is kept in SQLite (catalog/maintenance_job.h) with the job's clock;
 *     an object referenced again (or gone) loses its mark.
 *  3. The references are read before the objects are listed, and the table's version token is read
 *     again just before deleting: if a client committed meanwhile, the run starts over, so a file a
 *     commit has just referenced is never deleted. A corrupt manifest fails the job with nothing
 *     marked or deleted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background/object_door.h"
#include "base/xalloc.h"
#include "call/transaction.h"
#include "catalog/maintenance_job.h"
#include "iceberg/iceberg_metadata.h"
#include "maintenance/job.h"
#include "maintenance/reach.h"

#define MS_PER_DAY (24LL * 3600 * 1000)
#define LIST_BATCH 1000
#define RUN_ATTEMPTS 4

/* The references of design note 1. */
typedef struct refs {
    floe_reach_t reach;
    floe_reach_set_t other; /* metadata files and statistics files */
    char *token;
} refs_t;

static void refs_dispose(refs_t *r)
{
    floe_reach_dispose(&r->reach);
    floe_reach_set_dispose(&r->other);
    free(r->token);
    memset(r, 0, sizeof(*r));
}

static void add_paths(floe_reach_set_t *set, const cJSON *list, const char *key)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, key);
        if (cJSON_IsString(p))
            floe_reach_set_add(set, p->valuestring);
    }
}

static int read_refs(floe_job_t *job, refs_t *r)
{
    char *json = NULL, *location = NULL;
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    const cJSON *s;
    int rc = FLOE_OK;

    if (floe_job_read_metadata(job, &json, &location, &r->token))
        return FLOE_EFAIL;
    if (location != NULL)
        floe_reach_set_add(&r->other, location);
    if (json != NULL) {
        if (floe_iceberg_metadata_parse(json, strlen(json), &md, &err) != 0) {
            rc = floe_job_fail(job, "cannot read the table's metadata: %s", err.message);
        } else {
            add_paths(&r->other, md.metadata_log, "metadata-file");
            add_paths(&r->other, md.statistics, "statistics-path");
            add_paths(&r->other, md.partition_statistics, "statistics-path");
            size_t n = 0;
            const cJSON **all = floe_xcalloc((size_t)cJSON_GetArraySize(md.snapshots) + 1, sizeof(*all));
            cJSON_ArrayForEach(s, md.snapshots)
                all[n++] = s;
            rc = floe_reach_snapshots(job, all, n, FLOE_REACH_LIVE_ENTRIES, NULL, &r->reach);
            free(all);
            floe_iceberg_metadata_dispose(&md);
        }
    }
    free(json);
    free(location);
    floe_reach_set_seal(&r->other);
    floe_reach_set_seal(&r->reach.lists);
    floe_reach_set_seal(&r->reach.manifests);
    floe_reach_set_seal(&r->reach.files);
    return rc;
}

static bool is_referenced(const refs_t *r, const char *location)
{
    return floe_reach_set_has(&r->other, location) || floe_reach_set_has(&r->reach.files, location) ||
           floe_reach_set_has(&r->reach.manifests, location) || floe_reach_set_has(&r->reach.lists, location);
}

/* ---- the noncurrent marks (serving thread) ---- */

typedef struct marks_step {
    int64_t table_id;
    char **keys;
    int64_t *marked_at;
    size_t n;
    /* for do_set_marks: */
    const char *const *mark; size_t n_mark; int64_t now_ms;
    const char *const *clear; size_t n_clear;
} marks_step_t;

static int do_get_marks(floe_call_t *call, void *arg)
{
    marks_step_t *s = arg;
    char **keys;
    int64_t *at;

    if (floe_maintenance_noncurrent_list(call, s->table_id, &keys, &at, &s->n))
        return FLOE_EFAIL;
    s->keys = floe_xcalloc(s->n + 1, sizeof(char *));
    s->marked_at = floe_xcalloc(s->n + 1, sizeof(int64_t));
    for (size_t i = 0; i < s->n; i++) {
        s->keys[i] = floe_xstrdup(keys[i]);
        s->marked_at[i] = at[i];
    }
    return FLOE_OK;
}

static int set_marks(floe_call_t *call, void *arg)
{
    marks_step_t *s = arg;
    for (size_t i = 0; i < s->n_mark; i++) {
        if (floe_maintenance_noncurrent_mark(call, s->table_id, s->mark[i], s->now_ms))
            return FLOE_EFAIL;
    }
    for (size_t i = 0; i < s->n_clear; i++) {
        if (floe_maintenance_noncurrent_clear(call, s->table_id, s->clear[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int do_set_marks(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, set_marks, arg);
}

/* ---- one run ---- */

typedef struct plan {
    floe_object_door_entry_t *objects;
    size_t n_objects;
    marks_step_t marks;
    char **to_mark, **to_clear, **to_delete; /* keys (borrowed) / locations (owned) */
    size_t n_mark, n_clear, n_delete;
} plan_t;

static void plan_dispose(plan_t *p)
{
    for (size_t i = 0; i < p->n_objects; i++)
        free(p->objects[i].key);
    free(p->objects);
    for (size_t i = 0; i < p->marks.n; i++)
        free(p->marks.keys[i]);
    free(p->marks.keys);
    free(p->marks.marked_at);
    for (size_t i = 0; i < p->n_delete; i++)
        free(p->to_delete[i]);
    free(p->to_mark);
    free(p->to_clear);
    free(p->to_delete);
    memset(p, 0, sizeof(*p));
}

static void push(char ***list, size_t *n, char *item)
{
    *list = floe_xrealloc(*list, (*n + 1) * sizeof(char *));
    (*list)[(*n)++] = item;
}

static int list_objects(floe_job_t *job, plan_t *p)
{
    floe_object_door_t door = floe_job_door(job);
    floe_background_error_t err;
    size_t n_listed;

    do {
        const char *after = p->n_objects > 0 ? p->objects[p->n_objects - 1].key : NULL;
        if (floe_object_door_list(&door, after, LIST_BATCH, &p->objects, &p->n_objects, &n_listed, &err))
            return floe_job_fail(job, "cannot list the warehouse: %s", err.message);
    } while (n_listed == LIST_BATCH);
    return FLOE_OK;
}

/* The mark of `key`, or 0 (marks are sorted by key). */
static int64_t mark_of(const marks_step_t *m, const char *key)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->keys[mid], key);
        if (c == 0)
            return m->marked_at[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* Decides each object's fate; marks of objects that are gone or referenced again are cleared. */
static void decide(floe_job_t *job, const refs_t *r, plan_t *p)
{
    int64_t unreferenced_ms = (int64_t)job->settings.unreferenced_days * MS_PER_DAY;
    int64_t noncurrent_ms = (int64_t)job->settings.non_current_days * MS_PER_DAY;
    floe_reach_set_t seen = {0};

    for (size_t i = 0; i < p->n_objects; i++) {
        floe_object_door_entry_t *o = &p->objects[i];
        char *location = floe_job_location_of(job, o->key);
        int64_t mark = mark_of(&p->marks, o->key);

        floe_reach_set_add(&seen, o->key);
        if (is_referenced(r, location)) {
            if (mark != 0)
                push(&p->to_clear, &p->n_clear, o->key);
            free(location);
        } else if (mark != 0 && job->now_ms >= mark + noncurrent_ms) {
            push(&p->to_delete, &p->n_delete, location);
        } else {
            if (mark == 0 && job->now_ms >= o->last_modified_ms + unreferenced_ms)
                push(&p->to_mark, &p->n_mark, o->key);
            free(location);
        }
    }
    floe_reach_set_seal(&seen);
    for (size_t i = 0; i < p->marks.n; i++) {
        if (!floe_reach_set_has(&seen, p->marks.keys[i]))
            push(&p->to_clear, &p->n_clear, p->marks.keys[i]);
    }
    floe_reach_set_dispose(&seen);
}

/* Whether the table's version token is still `token` (design note 3). */
static int token_unchanged(floe_job_t *job, const char *token, bool *unchanged)
{
    char *json = NULL, *location = NULL, *now_token = NULL;

    if (floe_job_read_metadata(job, &json, &location, &now_token))
        return FLOE_EFAIL;
    *unchanged = strcmp(now_token, token) == 0;
    free(json);
    free(location);
    free(now_token);
    return FLOE_OK;
}

/* One pass; *again when a client committed meanwhile and the pass must be redone. */
static int run_once(floe_job_t *job, bool *again)
{
    refs_t r = {0};
    plan_t p = {0};
    floe_background_error_t err;
    bool unchanged = true;
    int64_t files = job->stats.files_read, bytes = job->stats.bytes_read;
    int rc;

    *again = false;
    p.marks.table_id = job->table_id;
    rc = read_refs(job, &r);
    if (rc == FLOE_OK)
        rc = list_objects(job, &p);
    if (rc == FLOE_OK && floe_background_call(job->bg, &job->scope, do_get_marks, &p.marks, &err))
        rc = floe_job_fail(job, "cannot read the noncurrent marks: %s", err.message);
    if (rc == FLOE_OK) {
        decide(job, &r, &p);
        rc = p.n_delete > 0 ? token_unchanged(job, r.token, &unchanged) : FLOE_OK;
    }
    if (rc == FLOE_OK && !unchanged) {
        *again = true;
        job->stats.files_read = files; /* the redone pass counts its own reads */
        job->stats.bytes_read = bytes;
    } else if (rc == FLOE_OK) {
        if (p.n_delete > 0)
            rc = floe_job_delete_objects(job, (const char *const *)p.to_delete, p.n_delete);
        for (size_t i = 0; rc == FLOE_OK && i < p.n_delete; i++) /* deleted objects lose their marks */
            push(&p.to_clear, &p.n_clear, (char *)floe_job_key_of(job, p.to_delete[i]));
        p.marks.mark = (const char *const *)p.to_mark;
        p.marks.n_mark = p.n_mark;
        p.marks.now_ms = job->now_ms;
        p.marks.clear = (const char *const *)p.to_clear;
        p.marks.n_clear = p.n_clear;
        if (rc == FLOE_OK && (p.n_mark > 0 || p.n_clear > 0) &&
            floe_background_call(job->bg, &job->scope, do_set_marks, &p.marks, &err))
            rc = floe_job_fail(job, "cannot record the noncurrent marks: %s", err.message);
        if (rc == FLOE_OK)
            job->stats.files_marked = (int64_t)p.n_mark;
    }
    plan_dispose(&p);
    refs_dispose(&r);
    return rc;
}

int floe_maintenance_unreferenced_run(floe_job_t *job)
{
    for (int i = 0; i < RUN_ATTEMPTS; i++) {
        bool again;
        if (floe_job_is_stopping(job))
            return floe_job_fail(job, "stopped: the server is shutting down");
        if (run_once(job, &again))
            return FLOE_EFAIL;
        if (!again)
            return FLOE_OK;
    }
    return floe_job_fail(job, "gave up after %d concurrent commits", RUN_ATTEMPTS);
}
