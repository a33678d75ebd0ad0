/*
 * The record expiration job (the table's record-expiration configuration): data files
 * whose records are all older than the retention are removed from the table in a `delete`
 * snapshot, committed through the clients' compare-and-swap (job.h).
 *
 * Which column: AWS picks it from the schema and offers record expiration only on AWS-managed
 * tables: S3 Storage Lens tables expire by `report_time`, the SageMaker Catalog ASSET table by
 * `snapshot_time` (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-record-expiration.html,
 * "How record expiration works"). Floe accepts record expiration on every table, so it picks the
 * same way: a top-level `report_time`, else `snapshot_time`, else the first top-level column of
 * a timestamp or date type in the current schema. A table without one fails the job with a message.
 *
 * Design notes:
 *  1. A data file goes when the upper bound of that column in its manifest statistics is before
 *     the cutoff (now - days). A file without an upper bound, or whose bound is at or after the
 *     cutoff, stays: a file that straddles the cutoff keeps its old records. AWS rewrites such
 *     files; Floe does not (a documented difference, docs/maintenance.md).
 *  2. Only manifests that lose a file are rewritten (snapshot_writer.h, as compaction rewrites
 *     them): removed entries become DELETED, the others EXISTING with their inherited sequence
 *     numbers and snapshot id written out, as Iceberg's ManifestWriter does; entries already
 *     DELETED are dropped. Other manifests, delete manifests included, are carried into the new
 *     manifest list unchanged.
 *  3. The removed files stay in storage until snapshot management expires the snapshots that
 *     still reference them. The job's figures count the files and bytes removed from the table.
 *  4. Format version 2 or 3: version 1 has no sequence numbers and no delete snapshots of this
 *     shape.
 *  5. Version 3 (row lineage, deletion vectors): a rewritten manifest writes out the first row id
 *     each kept file inherited (row_lineage.h), so no row changes its id, and puts its DELETED
 *     entries last; the new list's manifests without a first row id get ids from next-row-id and
 *     the snapshot says so (first-row-id, added-rows). A deletion vector whose data file goes
 *     leaves the table with it (its delete manifest is rewritten the same way), so no live
 *     vector points at a removed file; its deleted rows are not counted as records removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/manifest.h"
#include "iceberg/row_lineage.h"
#include "maintenance/job.h"
#include "maintenance/snapshot_writer.h"

#define MS_PER_DAY (24LL * 3600 * 1000)
#define ERR_MAX 256

/* The unit of a column's values, which the cutoff is converted to. */
typedef enum column_unit { UNIT_DAYS, UNIT_MICROS, UNIT_NANOS } column_unit_t;

typedef struct column {
    int32_t field_id;
    column_unit_t unit;
    const char *name;
} column_t;

static bool unit_of(const char *type, column_unit_t *unit)
{
    if (strcmp(type, "date") == 0)
        *unit = UNIT_DAYS;
    else if (strcmp(type, "timestamp") == 0 || strcmp(type, "timestamptz") == 0)
        *unit = UNIT_MICROS;
    else if (strcmp(type, "timestamp_ns") == 0 || strcmp(type, "timestamptz_ns") == 0)
        *unit = UNIT_NANOS;
    else
        return false;
    return true;
}

static bool field_as_column(const cJSON *f, column_t *out)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(f, "type");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(f, "id");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");

    if (!cJSON_IsString(type) || !cJSON_IsNumber(id) || !cJSON_IsString(name) || !unit_of(type->valuestring, &out->unit))
        return false;
    out->field_id = (int32_t)id->valuedouble;
    out->name = name->valuestring;
    return true;
}

/* The expiration column of `schema` (see the file comment); false when it has none. */
static bool pick_column(const cJSON *schema, column_t *out)
{
    static const char *const preferred[] = {"report_time", "snapshot_time"};
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(schema, "fields"), *f;

    for (size_t i = 0; i < sizeof(preferred) / sizeof(preferred[0]); i++) {
        cJSON_ArrayForEach(f, fields)
        {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
            if (cJSON_IsString(name) && strcmp(name->valuestring, preferred[i]) == 0 && field_as_column(f, out))
                return true;
        }
    }
    cJSON_ArrayForEach(f, fields)
    {
        if (field_as_column(f, out))
            return true;
    }
    return false;
}

/* The cutoff in the column's unit (floor for days, so a date equal to the cutoff day stays). */
static int64_t cutoff_in(column_unit_t unit, int64_t cutoff_ms)
{
    switch (unit) {
    case UNIT_DAYS: return cutoff_ms >= 0 ? cutoff_ms / MS_PER_DAY : -((-cutoff_ms + MS_PER_DAY - 1) / MS_PER_DAY);
    case UNIT_MICROS: return cutoff_ms * 1000;
    case UNIT_NANOS: return cutoff_ms * 1000000;
    }
    return 0;
}

/* Design note 1: whether the file's records are all before the cutoff. */
static bool file_is_expired(const floe_iceberg_data_file_t *f, const column_t *col, int64_t cutoff)
{
    for (size_t i = 0; i < f->n_upper_bounds; i++) {
        const floe_iceberg_bound_t *b = &f->upper_bounds[i];
        int64_t v = 0;
        if (b->field_id != col->field_id)
            continue;
        if (col->unit == UNIT_DAYS && b->value.len == 4) {
            int32_t d;
            memcpy(&d, b->value.data, 4); /* little-endian, as the spec's Appendix D; x86 and ARM hosts */
            v = d;
        } else if (col->unit != UNIT_DAYS && b->value.len == 8) {
            memcpy(&v, b->value.data, 8);
        } else {
            return false; /* a bound that does not fit its type: keep the file */
        }
        return v < cutoff;
    }
    return false;
}

/* ---- the plan ---- */

typedef struct expire_ctx {
    column_t column;
    int64_t files, records, bytes; /* what the last plan removes */
    int64_t dvs, dv_records;       /* deletion vectors removed with their data files (design note 5) */
    char **expired;                /* the removed data files' paths, sorted */
    size_t n_expired;
} expire_ctx_t;

/* The new snapshot: its writer, the new list's entries, and its totals. */
typedef struct new_snapshot {
    floe_snapshot_writer_t w;
    floe_iceberg_manifest_list_t list; /* the new list's entries (arena NULL: we own files[]) */
    int64_t total_files, total_records, total_size, total_delete_files;
} new_snapshot_t;

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool path_is_expired(const expire_ctx_t *c, const char *path)
{
    return path != NULL && c->n_expired > 0 &&
           bsearch(&path, c->expired, c->n_expired, sizeof(*c->expired), compare_paths) != NULL;
}

static void forget_expired(expire_ctx_t *c)
{
    for (size_t i = 0; i < c->n_expired; i++)
        free(c->expired[i]);
    free(c->expired);
    c->expired = NULL;
    c->n_expired = 0;
}

/* Whether entry e of a manifest listed as mf leaves the table: an expired data file (design note
 * 1), or a deletion vector of one (design note 5). Counts what it removes. */
static bool entry_expires(expire_ctx_t *c, const floe_iceberg_manifest_entry_t *e,
                          const floe_iceberg_manifest_file_t *mf, int64_t cutoff)
{
    if (mf->content == 0) {
        if (e->file.content != FLOE_ICEBERG_CONTENT_DATA || !file_is_expired(&e->file, &c->column, cutoff))
            return false;
        c->expired = floe_xrealloc(c->expired, (c->n_expired + 1) * sizeof(*c->expired));
        c->expired[c->n_expired++] = floe_xstrdup(e->file.file_path);
        c->files++;
        c->records += e->file.record_count;
        c->bytes += e->file.file_size_in_bytes;
        return true;
    }
    if (!path_is_expired(c, e->file.referenced_data_file))
        return false;
    c->dvs++;
    c->dv_records += e->file.record_count;
    return true;
}

/* Reads one listed manifest and puts it (or its rewrite) in *out; *owned when this job wrote it. */
static int carry_manifest(floe_job_t *job, expire_ctx_t *c, new_snapshot_t *s, int64_t cutoff,
                          const floe_iceberg_manifest_file_t *mf, floe_iceberg_manifest_file_t *out, bool *owned)
{
    floe_iceberg_manifest_t m;
    char err[ERR_MAX];
    uint8_t *data;
    size_t len, n_expired = 0;
    bool *expired;
    int rc = FLOE_OK;

    *owned = false;
    if (floe_job_read_object(job, mf->manifest_path, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_read(data, len, &m, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(job, "cannot read the manifest %s: %s", mf->manifest_path, err);
    if (s->w.is_v3)
        floe_iceberg_row_ids_inherit(&m, mf); /* design note 5 */
    expired = floe_xcalloc(m.n_entries + 1, sizeof(bool));
    for (size_t i = 0; i < m.n_entries; i++) {
        const floe_iceberg_manifest_entry_t *e = &m.entries[i];
        if (e->status == FLOE_ICEBERG_ENTRY_DELETED)
            continue;
        if (entry_expires(c, e, mf, cutoff)) {
            expired[i] = true;
            n_expired++;
        } else if (e->file.content == FLOE_ICEBERG_CONTENT_DATA) {
            s->total_files++;
            s->total_records += e->file.record_count;
            s->total_size += e->file.file_size_in_bytes;
        } else {
            s->total_delete_files++;
        }
    }
    *out = *mf;
    if (n_expired > 0 && (rc = floe_snapshot_rewrite_manifest(&s->w, &m, mf, expired, out)) == FLOE_OK)
        *owned = true; /* design notes 2 and 5 */
    free(expired);
    floe_iceberg_manifest_dispose(&m);
    return rc;
}

/* Carries every manifest of `current` into s->list, data manifests first so that the delete
 * manifests know which data files went (design note 5); the list keeps its order. */
static int carry_all(floe_job_t *job, expire_ctx_t *c, new_snapshot_t *s, int64_t cutoff,
                     const floe_iceberg_manifest_list_t *current, bool *owned)
{
    int rc = FLOE_OK;

    s->list.files = floe_xcalloc(current->n_files + 1, sizeof(*s->list.files));
    s->list.n_files = current->n_files;
    for (int pass = 0; pass < 2 && rc == FLOE_OK; pass++) {
        for (size_t i = 0; i < current->n_files && rc == FLOE_OK; i++) {
            const floe_iceberg_manifest_file_t *mf = &current->files[i];
            if ((mf->content == 0) == (pass == 0))
                rc = carry_manifest(job, c, s, cutoff, mf, &s->list.files[i], &owned[i]);
        }
        if (pass == 0 && c->n_expired > 1)
            qsort(c->expired, c->n_expired, sizeof(*c->expired), compare_paths);
    }
    return rc;
}

/* The delete snapshot's summary. */
static cJSON *summary_of(const new_snapshot_t *s, const expire_ctx_t *c)
{
    cJSON *summary = cJSON_CreateObject();
    char buf[32];

    cJSON_AddStringToObject(summary, "operation", "delete");
#define SUMMARY_INT(key, v) (snprintf(buf, sizeof(buf), "%lld", (long long)(v)), cJSON_AddStringToObject(summary, key, buf))
    SUMMARY_INT("deleted-data-files", c->files);
    SUMMARY_INT("deleted-records", c->records);
    SUMMARY_INT("removed-files-size", c->bytes);
    SUMMARY_INT("total-data-files", s->total_files);
    SUMMARY_INT("total-records", s->total_records);
    SUMMARY_INT("total-files-size", s->total_size);
    if (c->dvs > 0) {
        SUMMARY_INT("removed-delete-files", c->dvs);
        SUMMARY_INT("removed-dvs", c->dvs);
        SUMMARY_INT("removed-position-deletes", c->dv_records);
    }
    SUMMARY_INT("total-delete-files", s->total_delete_files);
#undef SUMMARY_INT
    cJSON_AddStringToObject(summary, "floe.maintenance", floe_job_type_name(FLOE_JOB_RECORD_EXPIRATION));
    return summary;
}

static int plan_on(floe_job_t *job, expire_ctx_t *c, const floe_iceberg_metadata_t *md, cJSON **updates)
{
    const cJSON *snap = floe_iceberg_metadata_snapshot(md, md->current_snapshot_id);
    const cJSON *list_path = cJSON_GetObjectItemCaseSensitive(snap, "manifest-list");
    new_snapshot_t s = {0};
    floe_iceberg_manifest_list_t current;
    int64_t cutoff = cutoff_in(c->column.unit, job->now_ms - (int64_t)job->settings.expiration_days * MS_PER_DAY);
    char err[ERR_MAX];
    char *list_location = NULL;
    bool *owned;
    uint8_t *data;
    size_t len;
    int rc = FLOE_OK;

    if (!cJSON_IsString(list_path))
        return floe_job_fail(job, "the current snapshot has no manifest list");
    floe_snapshot_writer_init(&s.w, job, md, md->current_snapshot_id, "");
    if (floe_job_read_object(job, list_path->valuestring, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_list_read(data, len, &current, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(job, "cannot read the manifest list %s: %s", list_path->valuestring, err);
    owned = floe_xcalloc(current.n_files + 1, sizeof(bool));
    rc = carry_all(job, c, &s, cutoff, &current, owned);
    if (rc == FLOE_OK && c->files > 0 &&
        (rc = floe_snapshot_write_list(&s.w, s.list.files, s.list.n_files, &list_location)) == FLOE_OK)
        *updates = floe_snapshot_updates(&s.w, list_location, summary_of(&s, c));
    for (size_t i = 0; i < s.list.n_files; i++) {
        if (owned[i])
            free(s.list.files[i].manifest_path);
    }
    free(owned);
    free(s.list.files);
    free(list_location);
    floe_iceberg_manifest_list_dispose(&current);
    return rc;
}

static int plan(floe_job_t *job, const char *json, const char *location, cJSON **updates, cJSON **requirements,
                void *arg)
{
    expire_ctx_t *c = arg;
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    int rc = FLOE_OK;
    (void)location;
    (void)requirements;

    c->files = c->records = c->bytes = c->dvs = c->dv_records = 0;
    forget_expired(c);
    if (floe_iceberg_metadata_parse(json, strlen(json), &md, &err) != 0)
        return floe_job_fail(job, "cannot read the table's metadata: %s", err.message);
    if (md.format_version < 2)
        rc = floe_job_fail(job, "record expiration needs a format-version 2 or 3 table"); /* design note 4 */
    else if (!pick_column(floe_iceberg_metadata_schema(&md, md.current_schema_id), &c->column))
        rc = floe_job_fail(job, "the table has no timestamp or date column to expire records by "
                                "(report_time, snapshot_time, or any top-level timestamp or date column)");
    else if (md.current_snapshot_id != FLOE_ICEBERG_NO_SNAPSHOT)
        rc = plan_on(job, c, &md, updates);
    floe_iceberg_metadata_dispose(&md);
    return rc;
}

int floe_maintenance_expiration_run(floe_job_t *job)
{
    expire_ctx_t c = {0};
    bool committed;

    int rc = floe_job_commit(job, plan, &c, &committed);

    forget_expired(&c);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    if (!committed) {
        snprintf(job->stats.message, sizeof(job->stats.message), "no data file is past the retention");
        return FLOE_OK;
    }
    job->stats.records_removed = c.records - c.dv_records; /* rows a vector had deleted were gone already */
    job->stats.files_deleted = c.files; /* design note 3: removed from the table */
    job->stats.bytes_deleted = c.bytes;
    return FLOE_OK;
}
