/*
 * Reading a snapshot for the compaction job (compaction_view.h): the manifest list and every
 * manifest in one serving-thread step, each live entry indexed.
 *
 * Design notes cited are compaction.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/compact.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/manifest.h"
#include "iceberg/row_lineage.h"
#include "maintenance/compaction_view.h"
#include "maintenance/job.h"

#define AVRO_ERR_MAX 256

void floe_compaction_view_dispose(floe_compaction_view_t *v)
{
    for (size_t i = 0; v->manifests != NULL && i < v->list.n_files; i++)
        floe_iceberg_manifest_dispose(&v->manifests[i]);
    floe_iceberg_manifest_list_dispose(&v->list);
    floe_iceberg_metadata_dispose(&v->md);
    free(v->manifests);
    free(v->files);
    free(v->file_manifest);
    free(v->file_entry);
    memset(v, 0, sizeof(*v));
}

static int read_list(floe_job_t *job, floe_compaction_view_t *v, const char *location)
{
    uint8_t *data = NULL;
    size_t len = 0;
    char err[AVRO_ERR_MAX] = "";
    int rc;

    if (floe_job_read_object(job, location, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_list_read(data, len, &v->list, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(job, "cannot read the manifest list %s: %s", location, err);
    return FLOE_OK;
}

/* Fills in what an entry inherits from its manifest's list entry (Iceberg spec, "Sequence
 * Number Inheritance" and "Snapshot ID Inheritance"). */
static void inherit(floe_iceberg_manifest_entry_t *e, const floe_iceberg_manifest_file_t *mf)
{
    if (!e->has_snapshot_id) {
        e->has_snapshot_id = true;
        e->snapshot_id = mf->added_snapshot_id;
    }
    if (!e->has_sequence_number) {
        e->has_sequence_number = true;
        e->sequence_number = mf->sequence_number;
    }
    if (!e->has_file_sequence_number) {
        e->has_file_sequence_number = true;
        e->file_sequence_number = mf->sequence_number;
    }
}

/* Decodes manifest i (data[i]) and adds its live entries to the view's files. */
static int add_manifest(floe_job_t *job, floe_compaction_view_t *v, size_t i, const uint8_t *data, size_t len)
{
    const floe_iceberg_manifest_file_t *mf = &v->list.files[i];
    floe_iceberg_manifest_t *m = &v->manifests[i];
    char err[AVRO_ERR_MAX] = "";
    size_t n;

    if (floe_iceberg_manifest_read(data, len, m, err, sizeof(err)) != 0)
        return floe_job_fail(job, "cannot read the manifest %s: %s", mf->manifest_path, err);
    floe_iceberg_row_ids_inherit(m, mf); /* design note 7; nothing before v3 */
    n = v->n_files + m->n_entries + 1;
    v->files = floe_xrealloc(v->files, n * sizeof(*v->files));
    v->file_manifest = floe_xrealloc(v->file_manifest, n * sizeof(size_t));
    v->file_entry = floe_xrealloc(v->file_entry, n * sizeof(size_t));
    for (size_t k = 0; k < m->n_entries; k++) {
        inherit(&m->entries[k], mf);
        if (m->entries[k].status == FLOE_ICEBERG_ENTRY_DELETED)
            continue;
        v->files[v->n_files] = (floe_compact_file_t){&m->entries[k].file, mf->partition_spec_id};
        v->file_manifest[v->n_files] = i;
        v->file_entry[v->n_files++] = k;
    }
    return FLOE_OK;
}

/* Reads every manifest of the list in one serving-thread step. */
static int read_manifests(floe_job_t *job, floe_compaction_view_t *v)
{
    size_t n = v->list.n_files;
    const char **paths = floe_xcalloc(n + 1, sizeof(*paths));
    uint8_t **data = floe_xcalloc(n + 1, sizeof(*data));
    size_t *lens = floe_xcalloc(n + 1, sizeof(*lens));
    int rc = FLOE_OK;

    v->manifests = floe_xcalloc(n + 1, sizeof(*v->manifests));
    for (size_t i = 0; i < n; i++)
        paths[i] = v->list.files[i].manifest_path;
    if (n > 0 && floe_job_read_objects(job, paths, n, data, lens))
        rc = FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if (rc == FLOE_OK)
            rc = add_manifest(job, v, i, data[i], lens[i]);
        free(data[i]);
    }
    free(paths);
    free(data);
    free(lens);
    return rc;
}

/* Reads metadata.json and, when it has a current snapshot, that snapshot's manifests. */
int floe_compaction_view_load(floe_job_t *job, const char *json, floe_compaction_view_t *v)
{
    floe_iceberg_error_t err;
    const cJSON *snap, *list;

    if (floe_iceberg_metadata_parse(json, strlen(json), &v->md, &err) != 0)
        return floe_job_fail(job, "the table's metadata cannot be read: %s", err.message);
    v->has_snapshot = floe_iceberg_metadata_current_snapshot_id(&v->md, &v->snapshot_id);
    if (!v->has_snapshot)
        return FLOE_OK;
    snap = floe_iceberg_metadata_snapshot(&v->md, v->snapshot_id);
    list = snap != NULL ? cJSON_GetObjectItemCaseSensitive(snap, "manifest-list") : NULL;
    if (!cJSON_IsString(list))
        return floe_job_fail(job, "the current snapshot %" PRId64 " has no manifest list (a v1 table with inline "
                                  "manifests is not compacted)", v->snapshot_id);
    if (read_list(job, v, list->valuestring))
        return FLOE_EFAIL;
    return read_manifests(job, v);
}

/* Whether view file d is a live deletion vector of the data file at `path`. */
static bool is_vector_of(const floe_compaction_view_t *v, size_t d, const char *path)
{
    const floe_iceberg_data_file_t *f = v->files[d].file;

    return floe_compact_is_deletion_vector(f) && strcmp(f->referenced_data_file, path) == 0;
}

/* The one live deletion vector of `path` in the view: its index, -1 for none, -2 for several. */
long floe_compaction_vector_of(const floe_compaction_view_t *v, const char *path)
{
    long found = -1;

    for (size_t d = 0; d < v->n_files; d++) {
        if (!is_vector_of(v, d, path))
            continue;
        if (found >= 0)
            return -2;
        found = (long)d;
    }
    return found;
}

/* The data sequence number of view file i. */
static int64_t sequence_of(const floe_compaction_view_t *v, size_t i)
{
    return v->manifests[v->file_manifest[i]].entries[v->file_entry[i]].sequence_number;
}

/* Whether view file d is a position delete file (not a vector) that applies to view file i. */
bool floe_compaction_pos_applies(const floe_compaction_view_t *v, size_t d, size_t i)
{
    return floe_compact_position_deletes_apply(&v->files[d], sequence_of(v, d), &v->files[i], sequence_of(v, i));
}
