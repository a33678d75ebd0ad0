/*
 * Phase 2 of the compaction job, one commit attempt (compaction_commit.h): which new files still
 * apply, the manifests that add them and remove their inputs, and the `replace` snapshot.
 *
 * Design notes cited are compaction.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_footer.h"
#include "maintenance/compaction_commit.h"
#include "maintenance/compaction_plan.h"
#include "maintenance/job.h"
#include "maintenance/snapshot_writer.h"

/** One commit attempt's state (design note 1). */
typedef struct attempt {
    floe_compaction_t *c;
    floe_compaction_view_t view;
    bool *is_replaced; /* per view file */
    bool *is_kept;     /* per output */
    size_t n_kept;
    floe_parquet_arena_t *arena; /* new manifests' entries and summaries */
    floe_iceberg_manifest_file_t *out_files;
    size_t n_out_files;
    char **owned;
    size_t n_owned;
    floe_snapshot_writer_t w; /* the new snapshot (design notes 3, 5 and 7) */
} attempt_t;

typedef struct path_index {
    const char *path;
    size_t file;
} path_index_t;

static int compare_paths(const void *a, const void *b)
{
    return strcmp(((const path_index_t *)a)->path, ((const path_index_t *)b)->path);
}

/* Whether the view has an equality delete file that may apply to `f`'s partition. */
static bool has_equality_deletes_for(const floe_compaction_view_t *v, const floe_compact_file_t *f)
{
    for (size_t i = 0; i < v->n_files; i++) {
        const floe_compact_file_t *d = &v->files[i];
        if (d->file->content == FLOE_ICEBERG_CONTENT_EQUALITY_DELETES &&
            (d->file->n_partition == 0 || floe_compact_same_partition(d, f)))
            return true;
    }
    return false;
}

/* Whether input k of o is named in the view by exactly the vector phase 1 applied, or by none
 * when none was (design note 8). */
static bool same_vector(const floe_compaction_view_t *v, const floe_compaction_output_t *o, size_t k)
{
    long d = floe_compaction_vector_of(v, o->inputs[k]);

    if (o->dv_paths[k] == NULL)
        return d == -1;
    return d >= 0 && strcmp(v->files[d].file->file_path, o->dv_paths[k]) == 0 &&
           v->files[d].file->content_offset == o->dv_offsets[k];
}

/* Whether the position delete files that apply to input k of o (view file i) are exactly those
 * phase 1 applied (design note 9): a client that deleted more rows meanwhile wins. */
static bool same_position_deletes(const floe_compaction_view_t *v, const floe_compaction_output_t *o, size_t k,
                                  size_t i)
{
    size_t n = 0;

    for (size_t d = 0; d < v->n_files; d++) {
        bool is_known = false;
        if (!floe_compaction_pos_applies(v, d, i))
            continue;
        for (size_t j = 0; j < o->n_pd[k] && !is_known; j++)
            is_known = strcmp(o->pd_paths[k][j], v->files[d].file->file_path) == 0;
        if (!is_known)
            return false;
        n++;
    }
    return n == o->n_pd[k];
}

/* Keeps output o when all its inputs are live data files of the view (design note 1). */
static bool keep_output(attempt_t *a, const floe_compaction_output_t *o, const path_index_t *paths)
{
    for (size_t k = 0; k < o->n_inputs; k++) {
        path_index_t key = {o->inputs[k], 0};
        const path_index_t *hit = bsearch(&key, paths, a->view.n_files, sizeof(*paths), compare_paths);
        if (hit == NULL || a->view.files[hit->file].file->content != FLOE_ICEBERG_CONTENT_DATA ||
            !same_vector(&a->view, o, k) || !same_position_deletes(&a->view, o, k, hit->file))
            return false;
    }
    return !has_equality_deletes_for(&a->view, o->first);
}

/* Design note 9: a position delete file phase 1 read leaves the table when every data file it names
 * is replaced by this commit. Otherwise it stays: its rows for replaced files then name files no
 * snapshot from now on holds, which readers ignore (the spec's rule matches rows by file_path). */
static void remove_position_deletes(attempt_t *a, const path_index_t *paths)
{
    for (size_t d = 0; d < a->view.n_files; d++) {
        const floe_iceberg_data_file_t *f = a->view.files[d].file;
        const floe_compaction_posdel_t *p;
        bool is_all = true;
        if (f->content != FLOE_ICEBERG_CONTENT_POSITION_DELETES || floe_compact_is_deletion_vector(f))
            continue;
        p = floe_compaction_find_posdel(a->c, f->file_path);
        if (p == NULL || !p->is_read || p->rows.n_targets == 0)
            continue;
        for (size_t t = 0; t < p->rows.n_targets && is_all; t++) {
            path_index_t key = {p->rows.targets[t].path, 0};
            const path_index_t *hit = bsearch(&key, paths, a->view.n_files, sizeof(*paths), compare_paths);
            is_all = hit != NULL && a->is_replaced[hit->file];
        }
        a->is_replaced[d] = is_all;
    }
}

/* Marks the outputs this attempt keeps and the view files they replace. */
static void match_outputs(attempt_t *a)
{
    const floe_compaction_t *c = a->c;
    path_index_t *paths = floe_xcalloc(a->view.n_files + 1, sizeof(*paths));

    for (size_t i = 0; i < a->view.n_files; i++)
        paths[i] = (path_index_t){a->view.files[i].file->file_path, i};
    qsort(paths, a->view.n_files, sizeof(*paths), compare_paths);
    a->is_replaced = floe_xcalloc(a->view.n_files + 1, sizeof(*a->is_replaced));
    a->is_kept = floe_xcalloc(c->n_outputs + 1, sizeof(*a->is_kept));
    for (size_t o = 0; o < c->n_outputs; o++) {
        if (!keep_output(a, &c->outputs[o], paths))
            continue;
        a->is_kept[o] = true;
        a->n_kept++;
        for (size_t k = 0; k < c->outputs[o].n_inputs; k++) {
            path_index_t key = {c->outputs[o].inputs[k], 0};
            long d = floe_compaction_vector_of(&a->view, c->outputs[o].inputs[k]);
            a->is_replaced[((const path_index_t *)bsearch(&key, paths, a->view.n_files, sizeof(*paths),
                                                          compare_paths))->file] = true;
            if (d >= 0)
                a->is_replaced[d] = true; /* the applied vector goes with its file (design note 8) */
        }
    }
    remove_position_deletes(a, paths);
    free(paths);
}

/* ---- manifests ---------------------------------------------------------------------------- */

static char *own(attempt_t *a, char *s)
{
    a->owned = floe_xrealloc(a->owned, (a->n_owned + 1) * sizeof(*a->owned));
    a->owned[a->n_owned++] = s;
    return s;
}

/* The Iceberg type of each partition field of spec `spec_id` (transform result types), or NULL. */
static void partition_types(const attempt_t *a, int32_t spec_id, const char **types, size_t n)
{
    const cJSON *spec = floe_iceberg_metadata_spec(&a->view.md, spec_id);
    const cJSON *fields = spec != NULL ? cJSON_GetObjectItemCaseSensitive(spec, "fields") : NULL;

    for (size_t j = 0; j < n; j++) {
        const cJSON *f = cJSON_GetArrayItem(fields, (int)j);
        const cJSON *t = f != NULL ? cJSON_GetObjectItemCaseSensitive(f, "transform") : NULL;
        floe_iceberg_transform_t tr;
        types[j] = NULL;
        if (!cJSON_IsString(t) || floe_iceberg_transform_parse(t->valuestring, &tr) != 0)
            continue;
        if (tr.kind == FLOE_ICEBERG_IDENTITY || tr.kind == FLOE_ICEBERG_TRUNCATE || tr.kind == FLOE_ICEBERG_VOID)
            types[j] = floe_compaction_type_of(a->c, (int32_t)floe_iceberg_metadata_int(f, "source-id", -1));
        else
            types[j] = "int";
    }
}

/* The partition field summaries of a manifest's entries (manifest list field 507). */
static void summarize_partitions(attempt_t *a, const floe_iceberg_manifest_t *m, floe_iceberg_manifest_file_t *mf)
{
    size_t n = m->n_entries > 0 ? m->entries[0].file.n_partition : 0;
    const char **types = floe_xcalloc(n + 1, sizeof(*types));

    partition_types(a, m->partition_spec_id, types, n);
    mf->partitions = floe_compaction_arena_alloc(a->arena, n, sizeof(*mf->partitions));
    mf->n_partitions = n;
    for (size_t j = 0; j < n; j++) {
        floe_iceberg_field_summary_t *s = &mf->partitions[j];
        for (size_t k = 0; k < m->n_entries; k++) {
            const floe_iceberg_partition_value_t *v = &m->entries[k].file.partition[j];
            if (v->is_null) {
                s->contains_null = true;
                continue;
            }
            if (types[j] == NULL)
                continue;
            if (!s->has_lower_bound || floe_iceberg_value_compare(types[j], v->value, s->lower_bound) < 0)
                s->lower_bound = v->value;
            if (!s->has_upper_bound || floe_iceberg_value_compare(types[j], v->value, s->upper_bound) > 0)
                s->upper_bound = v->value;
            s->has_lower_bound = s->has_upper_bound = true;
        }
    }
    free(types);
}

/* Writes m as a new manifest and appends its list entry. */
static int write_manifest(attempt_t *a, floe_iceberg_manifest_t *m)
{
    floe_iceberg_manifest_file_t *mf;
    char *location = NULL;
    int64_t len = 0;

    if (floe_snapshot_write_manifest(&a->w, m, &location, &len))
        return FLOE_EFAIL;
    mf = &a->out_files[a->n_out_files++];
    memset(mf, 0, sizeof(*mf));
    mf->manifest_path = own(a, location);
    mf->manifest_length = len;
    floe_snapshot_count_entries(&a->w, m, mf);
    summarize_partitions(a, m, mf);
    return FLOE_OK;
}

/* The table schema a rewritten manifest's header carries: old's, unless it is not an Iceberg schema
 * (DuckDB 1.4 writes its delete manifests' "schema" key in a form Floe's writer refuses), then the
 * table's schema of old's schema-id, else its current schema. */
static char *header_schema(attempt_t *a, const floe_iceberg_manifest_t *old)
{
    floe_iceberg_error_t err;
    floe_iceberg_schema_index_t idx = {0};
    cJSON *parsed = old->schema_json != NULL ? floe_iceberg_json_parse(old->schema_json, strlen(old->schema_json), &err)
                                             : NULL;
    bool is_schema = parsed != NULL && floe_iceberg_schema_index(parsed, &idx, &err) == 0;
    const cJSON *table;

    floe_iceberg_schema_index_dispose(&idx);
    cJSON_Delete(parsed);
    if (is_schema)
        return old->schema_json;
    table = floe_iceberg_metadata_schema(&a->view.md, old->schema_id);
    if (table == NULL)
        table = floe_iceberg_metadata_schema(&a->view.md, a->view.md.current_schema_id);
    return table != NULL ? own(a, cJSON_PrintUnformatted(table)) : old->schema_json;
}

/* A manifest with old's header and room for n entries. */
static void manifest_like(attempt_t *a, const floe_iceberg_manifest_t *old, size_t n, floe_iceberg_manifest_t *m)
{
    *m = *old;
    m->schema_json = header_schema(a, old);
    m->entries = floe_compaction_arena_alloc(a->arena, n, sizeof(*m->entries));
    m->n_entries = 0;
    m->arena = NULL;
}

/* Rewrites manifest i with its replaced files DELETED and its other live files EXISTING (the
 * snapshot writer's rewrite, design note 3), then appends its list entry. */
static int rewrite_manifest(attempt_t *a, size_t i)
{
    const floe_compaction_view_t *v = &a->view;
    const floe_iceberg_manifest_t *old = &v->manifests[i];
    floe_iceberg_manifest_file_t *mf = &a->out_files[a->n_out_files];
    bool *removed = floe_compaction_arena_alloc(a->arena, old->n_entries, sizeof(bool));
    floe_iceberg_manifest_t m;

    manifest_like(a, old, old->n_entries, &m);
    memcpy(m.entries, old->entries, old->n_entries * sizeof(*m.entries));
    m.n_entries = old->n_entries;
    for (size_t f = 0; f < v->n_files; f++) {
        if (v->file_manifest[f] == i)
            removed[v->file_entry[f]] = a->is_replaced[f];
    }
    if (floe_snapshot_rewrite_manifest(&a->w, &m, &v->list.files[i], removed, mf))
        return FLOE_EFAIL;
    a->n_out_files++;
    own(a, mf->manifest_path);
    summarize_partitions(a, &m, mf);
    return FLOE_OK;
}

static int32_t spec_of(const floe_compaction_t *c, size_t o)
{
    return c->outputs[o].first->spec_id;
}

/* Whether kept output o adds a data file (an empty one only removes its inputs). */
static bool adds_file(const attempt_t *a, size_t o)
{
    return a->is_kept[o] && !a->c->outputs[o].is_empty;
}

/* Writes one manifest of ADDED entries for the kept outputs of spec `spec_id`. */
static int write_added(attempt_t *a, int32_t spec_id)
{
    const floe_compaction_t *c = a->c;
    floe_iceberg_manifest_t m;
    const floe_iceberg_manifest_t *header = NULL;

    for (size_t o = 0; o < c->n_outputs && header == NULL; o++) {
        if (adds_file(a, o) && spec_of(c, o) == spec_id)
            header = &c->first.manifests[c->first.file_manifest[c->outputs[o].first - c->first.files]];
    }
    manifest_like(a, header, c->n_outputs, &m);
    for (size_t o = 0; o < c->n_outputs; o++) {
        floe_iceberg_manifest_entry_t *e;
        if (!adds_file(a, o) || spec_of(c, o) != spec_id)
            continue;
        e = &m.entries[m.n_entries++];
        memset(e, 0, sizeof(*e));
        e->status = FLOE_ICEBERG_ENTRY_ADDED;
        e->has_snapshot_id = true;
        e->snapshot_id = a->w.id;
        e->file = c->outputs[o].file;
    }
    return write_manifest(a, &m);
}

/* Whether a kept output before o has the same spec (so its manifest is already written). */
static bool spec_seen(const attempt_t *a, size_t o)
{
    for (size_t p = 0; p < o; p++) {
        if (adds_file(a, p) && spec_of(a->c, p) == spec_of(a->c, o))
            return true;
    }
    return false;
}

static bool manifest_has_replaced(const attempt_t *a, size_t i)
{
    for (size_t f = 0; f < a->view.n_files; f++) {
        if (a->view.file_manifest[f] == i && a->is_replaced[f])
            return true;
    }
    return false;
}

/* The new snapshot's manifests, new ones first (design note 3). */
static int write_manifests(attempt_t *a)
{
    const floe_compaction_view_t *v = &a->view;

    a->out_files = floe_xcalloc(v->list.n_files + a->c->n_outputs + 1, sizeof(*a->out_files));
    for (size_t o = 0; o < a->c->n_outputs; o++) {
        if (adds_file(a, o) && !spec_seen(a, o) && write_added(a, spec_of(a->c, o)))
            return FLOE_EFAIL;
    }
    for (size_t i = 0; i < v->list.n_files; i++) {
        if (manifest_has_replaced(a, i)) {
            if (rewrite_manifest(a, i))
                return FLOE_EFAIL;
        } else {
            a->out_files[a->n_out_files++] = v->list.files[i];
        }
    }
    return FLOE_OK;
}

/* ---- the snapshot ------------------------------------------------------------------------- */

typedef struct totals {
    int64_t data_files, delete_files, dvs, records, files_size, position_deletes, equality_deletes;
} totals_t;

static void add_total(totals_t *t, const floe_iceberg_data_file_t *f)
{
    t->files_size += f->file_size_in_bytes;
    if (f->content == FLOE_ICEBERG_CONTENT_DATA) {
        t->data_files++;
        t->records += f->record_count;
    } else {
        t->delete_files++;
        t->dvs += floe_compact_is_deletion_vector(f);
        if (f->content == FLOE_ICEBERG_CONTENT_POSITION_DELETES)
            t->position_deletes += f->record_count;
        else
            t->equality_deletes += f->record_count;
    }
}

static void set_count(cJSON *summary, const char *key, int64_t v)
{
    char text[24];

    snprintf(text, sizeof(text), "%" PRId64, v);
    cJSON_AddStringToObject(summary, key, text);
}

/* Number of distinct partitions among the kept outputs. */
static int64_t changed_partitions(const attempt_t *a)
{
    const floe_compaction_t *c = a->c;
    int64_t n = 0;

    for (size_t o = 0; o < c->n_outputs; o++) {
        bool is_new = a->is_kept[o];
        for (size_t p = 0; p < o && is_new; p++)
            is_new = !(a->is_kept[p] && floe_compact_same_partition(c->outputs[p].first, c->outputs[o].first));
        n += is_new;
    }
    return n;
}

/* The snapshot summary (design note 4). */
static cJSON *summary(const attempt_t *a)
{
    cJSON *s = cJSON_CreateObject();
    totals_t after = {0}, added = {0}, removed = {0};

    for (size_t f = 0; f < a->view.n_files; f++)
        add_total(a->is_replaced[f] ? &removed : &after, a->view.files[f].file);
    for (size_t o = 0; o < a->c->n_outputs; o++) {
        if (!adds_file(a, o))
            continue;
        add_total(&added, &a->c->outputs[o].file);
        add_total(&after, &a->c->outputs[o].file);
    }
    cJSON_AddStringToObject(s, "operation", "replace");
    set_count(s, "added-data-files", added.data_files);
    set_count(s, "deleted-data-files", removed.data_files);
    set_count(s, "added-records", added.records);
    set_count(s, "deleted-records", removed.records);
    set_count(s, "added-files-size", added.files_size);
    set_count(s, "removed-files-size", removed.files_size);
    set_count(s, "changed-partition-count", changed_partitions(a));
    if (removed.delete_files > 0) { /* applied deletion vectors and position delete files (design notes 8, 9) */
        set_count(s, "removed-delete-files", removed.delete_files);
        if (removed.dvs > 0)
            set_count(s, "removed-dvs", removed.dvs);
        if (removed.delete_files > removed.dvs)
            set_count(s, "removed-position-delete-files", removed.delete_files - removed.dvs);
        set_count(s, "removed-position-deletes", removed.position_deletes);
    }
    set_count(s, "total-records", after.records);
    set_count(s, "total-files-size", after.files_size);
    set_count(s, "total-data-files", after.data_files);
    set_count(s, "total-delete-files", after.delete_files);
    set_count(s, "total-position-deletes", after.position_deletes);
    set_count(s, "total-equality-deletes", after.equality_deletes);
    return s;
}

/* add-snapshot and set-snapshot-ref, guarded by main still being the snapshot read. */
static void make_updates(const attempt_t *a, const char *list_location, cJSON **updates, cJSON **requirements)
{
    cJSON *req = cJSON_CreateObject();

    *updates = floe_snapshot_updates(&a->w, list_location, summary(a));
    cJSON_AddStringToObject(req, "type", "assert-ref-snapshot-id");
    cJSON_AddStringToObject(req, "ref", FLOE_ICEBERG_MAIN_BRANCH);
    floe_iceberg_json_set_int(req, "snapshot-id", a->view.snapshot_id);
    *requirements = cJSON_CreateArray();
    cJSON_AddItemToArray(*requirements, req);
}

static void attempt_dispose(attempt_t *a)
{
    for (size_t i = 0; i < a->n_owned; i++)
        free(a->owned[i]);
    free(a->owned);
    free(a->out_files);
    free(a->is_replaced);
    free(a->is_kept);
    floe_parquet_arena_free(a->arena);
    floe_compaction_view_dispose(&a->view);
}

static int commit_attempt(attempt_t *a, const char *json, cJSON **updates, cJSON **requirements)
{
    char *list_location = NULL;

    if (floe_compaction_view_load(a->c->job, json, &a->view))
        return FLOE_EFAIL;
    match_outputs(a);
    a->c->n_kept = a->n_kept;
    a->c->n_written = 0;
    a->c->n_pd_applied = 0;
    for (size_t o = 0; o < a->c->n_outputs; o++) {
        a->c->n_written += adds_file(a, o);
        for (size_t k = 0; a->is_kept[o] && k < a->c->outputs[o].n_inputs; k++)
            a->c->n_pd_applied += a->c->outputs[o].n_pd[k] > 0;
    }
    a->c->n_replaced = a->c->n_dv_kept = a->c->n_pd_removed = 0;
    for (size_t f = 0; f < a->view.n_files; f++) {
        const floe_iceberg_data_file_t *file = a->view.files[f].file;
        bool is_data = file->content == FLOE_ICEBERG_CONTENT_DATA, is_dv = floe_compact_is_deletion_vector(file);
        a->c->n_replaced += a->is_replaced[f] && is_data;
        a->c->n_dv_kept += a->is_replaced[f] && is_dv;
        a->c->n_pd_removed += a->is_replaced[f] && !is_data && !is_dv;
    }
    if (a->n_kept == 0)
        return FLOE_OK;
    a->arena = floe_parquet_arena_new(SIZE_MAX);
    floe_snapshot_writer_init(&a->w, a->c->job, &a->view.md, a->view.snapshot_id, a->c->table_dir);
    if (write_manifests(a))
        return FLOE_EFAIL;
    if (floe_snapshot_write_list(&a->w, a->out_files, a->n_out_files, &list_location))
        return FLOE_EFAIL;
    make_updates(a, own(a, list_location), updates, requirements);
    return FLOE_OK;
}

/* floe_job_plan_fn: one attempt of phase 2. */
int floe_compaction_plan_commit(floe_job_t *job, const char *json, const char *location, cJSON **updates,
                       cJSON **requirements, void *arg)
{
    attempt_t a = {.c = arg};
    int rc;

    (void)job;
    (void)location;
    *updates = NULL;
    rc = commit_attempt(&a, json, updates, requirements);
    if (rc == FLOE_OK && *updates != NULL) {
        for (size_t o = 0; o < a.c->n_outputs; o++)
            a.c->outputs[o].is_committed = a.is_kept[o];
    }
    attempt_dispose(&a);
    return rc;
}
