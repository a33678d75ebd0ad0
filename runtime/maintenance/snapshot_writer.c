/*
 * The snapshot writer of snapshot_writer.h: ids, manifests, the manifest list and the updates a
 * maintenance job commits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/ids.h"
#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/row_lineage.h"
#include "maintenance/snapshot_writer.h"

#define AVRO_ERR_MAX 256
/** Snapshot ids stay below 2^53 (design note 1). */
#define SNAPSHOT_ID_MASK ((UINT64_C(1) << 53) - 1)

/* A random snapshot id below 2^53 that the table does not use yet (design note 1). */
static int64_t fresh_snapshot_id(const floe_iceberg_metadata_t *md)
{
    for (;;) {
        uint64_t x = 0;
        floe_random_bytes(&x, sizeof(x));
        x &= SNAPSHOT_ID_MASK;
        if (x != 0 && floe_iceberg_metadata_snapshot(md, (int64_t)x) == NULL)
            return (int64_t)x;
    }
}

void floe_snapshot_writer_init(floe_snapshot_writer_t *w, floe_job_t *job, const floe_iceberg_metadata_t *md,
                               int64_t parent_id, const char *dir)
{
    memset(w, 0, sizeof(*w));
    w->job = job;
    w->dir = dir;
    w->id = fresh_snapshot_id(md);
    w->parent_id = parent_id;
    w->sequence_number = md->last_sequence_number + 1;
    w->schema_id = md->current_schema_id;
    w->is_v3 = md->format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION;
    w->next_row_id = md->next_row_id;
}

/* Writes `bytes` as a fresh object "<dir>metadata/<name><uuid><suffix>" (design note 2). */
static int write_metadata_file(const floe_snapshot_writer_t *w, const char *name, const char *suffix,
                               const uint8_t *bytes, size_t len, char **location)
{
    size_t n = strlen(w->dir) + sizeof("metadata/") + strlen(name);
    char *prefix = floe_xmalloc(n), *key;
    int rc;

    snprintf(prefix, n, "%smetadata/%s", w->dir, name);
    key = floe_job_fresh_key(prefix, suffix);
    rc = floe_job_write_object(w->job, key, bytes, len, location);
    free(key);
    free(prefix);
    return rc;
}

int floe_snapshot_write_manifest(const floe_snapshot_writer_t *w, floe_iceberg_manifest_t *m, char **location,
                                 int64_t *len)
{
    char err[AVRO_ERR_MAX] = "";
    uint8_t *bytes = NULL;
    size_t n = 0;
    int rc;

    m->format_version = w->is_v3 ? FLOE_ICEBERG_ROW_LINEAGE_VERSION : 2; /* v3 keeps first_row_id */
    if (floe_iceberg_manifest_write(m, &bytes, &n, err, sizeof(err)) != 0)
        return floe_job_fail(w->job, "cannot write a manifest: %s", err);
    rc = write_metadata_file(w, "", "-m0.avro", bytes, n, location);
    free(bytes);
    *len = (int64_t)n;
    return rc;
}

void floe_snapshot_count_entries(const floe_snapshot_writer_t *w, const floe_iceberg_manifest_t *m,
                                 floe_iceberg_manifest_file_t *mf)
{
    mf->partition_spec_id = m->partition_spec_id;
    mf->content = m->content;
    mf->sequence_number = mf->min_sequence_number = w->sequence_number;
    mf->added_snapshot_id = w->id;
    mf->added_files_count = mf->existing_files_count = mf->deleted_files_count = 0;
    mf->added_rows_count = mf->existing_rows_count = mf->deleted_rows_count = 0;
    for (size_t k = 0; k < m->n_entries; k++) {
        const floe_iceberg_manifest_entry_t *e = &m->entries[k];
        int64_t rows = e->file.record_count;
        if (e->status == FLOE_ICEBERG_ENTRY_ADDED) {
            mf->added_files_count++;
            mf->added_rows_count += rows;
        } else if (e->status == FLOE_ICEBERG_ENTRY_EXISTING) {
            mf->existing_files_count++;
            mf->existing_rows_count += rows;
            if (e->sequence_number < mf->min_sequence_number)
                mf->min_sequence_number = e->sequence_number;
        } else {
            mf->deleted_files_count++;
            mf->deleted_rows_count += rows;
        }
    }
}

/* Design note 3: m's live entries with what they inherit from mf written out, the removed ones
 * DELETED in this snapshot and moved last, the ones already DELETED gone. */
static void rewrite_entries(const floe_snapshot_writer_t *w, floe_iceberg_manifest_t *m,
                            const floe_iceberg_manifest_file_t *mf, const bool *removed)
{
    floe_iceberg_manifest_entry_t *gone = floe_xcalloc(m->n_entries + 1, sizeof(*gone));
    size_t kept = 0, n_gone = 0;

    for (size_t k = 0; k < m->n_entries; k++) {
        floe_iceberg_manifest_entry_t e = m->entries[k];
        if (e.status == FLOE_ICEBERG_ENTRY_DELETED)
            continue;
        if (!e.has_snapshot_id)
            e.snapshot_id = mf->added_snapshot_id, e.has_snapshot_id = true;
        if (!e.has_sequence_number)
            e.sequence_number = mf->sequence_number, e.has_sequence_number = true;
        if (!e.has_file_sequence_number)
            e.file_sequence_number = mf->sequence_number, e.has_file_sequence_number = true;
        if (removed[k]) {
            e.status = FLOE_ICEBERG_ENTRY_DELETED;
            e.snapshot_id = w->id;
            gone[n_gone++] = e;
        } else {
            e.status = FLOE_ICEBERG_ENTRY_EXISTING;
            m->entries[kept++] = e;
        }
    }
    memcpy(m->entries + kept, gone, n_gone * sizeof(*gone));
    m->n_entries = kept + n_gone;
    free(gone);
}

int floe_snapshot_rewrite_manifest(const floe_snapshot_writer_t *w, floe_iceberg_manifest_t *m,
                                   const floe_iceberg_manifest_file_t *mf, const bool *removed,
                                   floe_iceberg_manifest_file_t *out)
{
    char *location = NULL;
    int64_t len = 0;

    rewrite_entries(w, m, mf, removed);
    if (floe_snapshot_write_manifest(w, m, &location, &len) != FLOE_OK)
        return FLOE_EFAIL;
    *out = *mf;
    out->manifest_path = location;
    out->manifest_length = len;
    out->has_first_row_id = false; /* a new manifest: the list assigns it one (design note 4) */
    out->has_key_metadata = false; /* written unencrypted */
    floe_snapshot_count_entries(w, m, out);
    return FLOE_OK;
}

int floe_snapshot_write_list(floe_snapshot_writer_t *w, floe_iceberg_manifest_file_t *files, size_t n,
                             char **location)
{
    floe_iceberg_manifest_list_t l = {
        .snapshot_id = w->id, .has_parent_snapshot_id = true, .parent_snapshot_id = w->parent_id,
        .sequence_number = w->sequence_number, .format_version = w->is_v3 ? FLOE_ICEBERG_ROW_LINEAGE_VERSION : 2,
        .files = files, .n_files = n,
    };
    char err[AVRO_ERR_MAX] = "", name[64];
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc;

    if (w->is_v3) {
        int64_t next = w->next_row_id;
        w->first_row_id = next;
        w->added_rows = floe_iceberg_row_ids_assign(files, n, &next);
    }
    if (floe_iceberg_manifest_list_write(&l, &bytes, &len, err, sizeof(err)) != 0)
        return floe_job_fail(w->job, "cannot write the manifest list: %s", err);
    snprintf(name, sizeof(name), "snap-%" PRId64 "-1-", w->id); /* Iceberg's own name */
    rc = write_metadata_file(w, name, ".avro", bytes, len, location);
    free(bytes);
    return rc;
}

cJSON *floe_snapshot_updates(const floe_snapshot_writer_t *w, const char *list_location, cJSON *summary)
{
    cJSON *snap = cJSON_CreateObject(), *add = cJSON_CreateObject(), *ref = cJSON_CreateObject();
    cJSON *updates = cJSON_CreateArray();

    floe_iceberg_json_set_int(snap, "snapshot-id", w->id);
    floe_iceberg_json_set_int(snap, "parent-snapshot-id", w->parent_id);
    floe_iceberg_json_set_int(snap, "sequence-number", w->sequence_number);
    floe_iceberg_json_set_int(snap, "timestamp-ms", (int64_t)time(NULL) * 1000);
    cJSON_AddStringToObject(snap, "manifest-list", list_location);
    cJSON_AddItemToObject(snap, "summary", summary);
    floe_iceberg_json_set_int(snap, "schema-id", w->schema_id);
    if (w->is_v3) {
        floe_iceberg_json_set_int(snap, "first-row-id", w->first_row_id);
        floe_iceberg_json_set_int(snap, "added-rows", w->added_rows);
    }
    cJSON_AddStringToObject(add, "action", "add-snapshot");
    cJSON_AddItemToObject(add, "snapshot", snap);
    cJSON_AddItemToArray(updates, add);
    cJSON_AddStringToObject(ref, "action", "set-snapshot-ref");
    cJSON_AddStringToObject(ref, "ref-name", FLOE_ICEBERG_MAIN_BRANCH);
    cJSON_AddStringToObject(ref, "type", "branch");
    floe_iceberg_json_set_int(ref, "snapshot-id", w->id);
    cJSON_AddItemToArray(updates, ref);
    return updates;
}
