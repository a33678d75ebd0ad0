/*
 * The selection of snapshot_select.h. Snapshot ids go through floe_iceberg_json_int64 and sorted
 * id sets (iceberg_metadata.h), so a table with thousands of snapshots is walked in O(n log n).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "maintenance/snapshot_select.h"

#define PROPERTY_MAX_REF_AGE "history.expire.max-ref-age-ms"
#define NO_LIMIT INT64_MAX

/* One snapshot, by index in md->snapshots. */
typedef struct snap {
    int64_t id;
    int64_t parent; /* -1: none */
    bool has_parent;
    int64_t timestamp_ms;
    bool is_retained;
    bool is_in_ancestry; /* reached by a remaining ref's ancestry (rule 4) */
} snap_t;

typedef struct walk {
    snap_t *snaps;
    size_t n;
    int64_t *sorted_ids; /* ids sorted, and index_of_sorted[i] the snap index of sorted_ids[i] */
    size_t *index_of_sorted;
} walk_t;

static int64_t member_int(const cJSON *o, const char *key, int64_t fallback)
{
    int64_t v;
    return floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(o, key), &v) == 0 ? v : fallback;
}

static int compare_by_id(const void *a, const void *b, void *arg)
{
    const walk_t *w = arg;
    int64_t x = w->snaps[*(const size_t *)a].id, y = w->snaps[*(const size_t *)b].id;
    return x < y ? -1 : x > y;
}

static void build_walk(const floe_iceberg_metadata_t *md, walk_t *w)
{
    const cJSON *s;
    size_t i = 0;

    w->n = (size_t)cJSON_GetArraySize(md->snapshots);
    w->snaps = floe_xcalloc(w->n + 1, sizeof(*w->snaps));
    w->index_of_sorted = floe_xcalloc(w->n + 1, sizeof(size_t));
    w->sorted_ids = floe_xcalloc(w->n + 1, sizeof(int64_t));
    cJSON_ArrayForEach(s, md->snapshots)
    {
        snap_t *p = &w->snaps[i];
        p->id = member_int(s, "snapshot-id", 0);
        p->has_parent = floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(s, "parent-snapshot-id"),
                                                &p->parent) == 0;
        p->timestamp_ms = member_int(s, "timestamp-ms", 0);
        w->index_of_sorted[i] = i;
        i++;
    }
    qsort_r(w->index_of_sorted, w->n, sizeof(size_t), compare_by_id, w);
    for (i = 0; i < w->n; i++)
        w->sorted_ids[i] = w->snaps[w->index_of_sorted[i]].id;
}

/* The snapshot with `id`, or NULL. */
static snap_t *find(walk_t *w, int64_t id)
{
    size_t lo = 0, hi = w->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->sorted_ids[mid] == id)
            return &w->snaps[w->index_of_sorted[mid]];
        if (w->sorted_ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Rule 1 for one branch, and the ancestry marks of rule 4. */
static void retain_branch(walk_t *w, snap_t *head, int64_t min_keep, int64_t cutoff_ms)
{
    int64_t kept = 0;
    bool is_retaining = true;

    for (snap_t *a = head; a != NULL; a = a->has_parent ? find(w, a->parent) : NULL) {
        if (a->is_in_ancestry && !is_retaining)
            break; /* walked before by another branch: the rest is marked already */
        a->is_in_ancestry = true;
        if (is_retaining && (kept < min_keep || a->timestamp_ms >= cutoff_ms || a == head)) {
            a->is_retained = true;
            kept++;
        } else {
            is_retaining = false;
        }
    }
}

static bool is_tag(const cJSON *ref)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ref, "type");
    return cJSON_IsString(type) && strcmp(type->valuestring, "tag") == 0;
}

static int64_t table_max_ref_age(const floe_iceberg_metadata_t *md)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(md->properties, PROPERTY_MAX_REF_AGE);
    char *end;
    long long v;

    if (!cJSON_IsString(p))
        return NO_LIMIT;
    v = strtoll(p->valuestring, &end, 10);
    return *end == '\0' && v > 0 ? (int64_t)v : NO_LIMIT;
}

static void add_removed_ref(floe_expire_plan_t *out, const char *name)
{
    out->refs_removed = floe_xrealloc(out->refs_removed, (out->n_refs_removed + 1) * sizeof(char *));
    out->refs_removed[out->n_refs_removed++] = floe_xstrdup(name);
}

void floe_expire_select(const floe_iceberg_metadata_t *md, int32_t min_snapshots_to_keep, int64_t max_snapshot_age_ms,
                        int64_t now_ms, floe_expire_plan_t *out)
{
    int64_t default_max_ref_age = table_max_ref_age(md);
    const cJSON *ref;
    walk_t w = {0};
    snap_t *current;

    memset(out, 0, sizeof(*out));
    build_walk(md, &w);
    cJSON_ArrayForEach(ref, md->refs)
    {
        snap_t *head = find(&w, member_int(ref, "snapshot-id", -1));
        int64_t max_ref_age = member_int(ref, "max-ref-age-ms", default_max_ref_age);
        if (head == NULL)
            continue;
        if (strcmp(ref->string, FLOE_ICEBERG_MAIN_BRANCH) != 0 && max_ref_age != NO_LIMIT &&
            now_ms - head->timestamp_ms > max_ref_age) { /* rule 3 */
            add_removed_ref(out, ref->string);
            continue;
        }
        if (is_tag(ref)) { /* rule 2 */
            head->is_retained = true;
            head->is_in_ancestry = true;
            continue;
        }
        retain_branch(&w, head, member_int(ref, "min-snapshots-to-keep", min_snapshots_to_keep),
                      now_ms - member_int(ref, "max-snapshot-age-ms", max_snapshot_age_ms));
    }
    if ((current = find(&w, md->current_snapshot_id)) != NULL)
        current->is_retained = true; /* rule 5 */
    out->expired = floe_xcalloc(w.n + 1, sizeof(int64_t));
    for (size_t i = 0; i < w.n; i++) {
        snap_t *s = &w.snaps[i];
        if (!s->is_in_ancestry && s->timestamp_ms >= now_ms - max_snapshot_age_ms) /* rule 4 */
            s->is_retained = true;
        if (!s->is_retained)
            out->expired[out->n_expired++] = s->id;
    }
    free(w.snaps);
    free(w.sorted_ids);
    free(w.index_of_sorted);
}

cJSON *floe_expire_updates(const floe_expire_plan_t *plan)
{
    cJSON *updates, *ids, *u;

    if (plan->n_expired == 0 && plan->n_refs_removed == 0)
        return NULL;
    updates = cJSON_CreateArray();
    for (size_t i = 0; i < plan->n_refs_removed; i++) {
        u = cJSON_CreateObject();
        cJSON_AddStringToObject(u, "action", "remove-snapshot-ref");
        cJSON_AddStringToObject(u, "ref-name", plan->refs_removed[i]);
        cJSON_AddItemToArray(updates, u);
    }
    if (plan->n_expired > 0) {
        u = cJSON_CreateObject();
        ids = cJSON_CreateArray();
        cJSON_AddStringToObject(u, "action", "remove-snapshots");
        for (size_t i = 0; i < plan->n_expired; i++)
            cJSON_AddItemToArray(ids, floe_iceberg_json_new_int(plan->expired[i]));
        cJSON_AddItemToObject(u, "snapshot-ids", ids);
        cJSON_AddItemToArray(updates, u);
    }
    return updates;
}

void floe_expire_plan_dispose(floe_expire_plan_t *plan)
{
    for (size_t i = 0; i < plan->n_refs_removed; i++)
        free(plan->refs_removed[i]);
    free(plan->refs_removed);
    free(plan->expired);
    memset(plan, 0, sizeof(*plan));
}
