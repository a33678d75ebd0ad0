/*
 * The compaction job (icebergCompaction, issue #12): rewrites the small data files of a table's
 * current snapshot into files near targetFileSizeMB and commits the result as a `replace`
 * snapshot. The pure half (which files go together, how a new file is laid out, its merged
 * statistics) is iceberg/compact.h; this file does the job's I/O through maintenance/job.h: it
 * reads the manifest list, the manifests and the candidates' Parquet footers, writes each new
 * file with kernel copies of the inputs' column chunks, writes the new manifests and manifest
 * list, and commits through floe_job_commit's compare-and-swap.
 *
 * Not for scheduling, status or HTTP (the runner and route), nor for deleting the replaced files:
 * they stay until snapshot expiration finds them unreachable.
 *
 * Design notes
 * ------------
 * 1. One plan per commit attempt (job.h design note 2): everything is re-read from the metadata
 *    the attempt sees, and a lost attempt's new files are deleted by floe_job_commit. Nothing
 *    survives from one attempt to the next.
 * 2. The new snapshot, with sequence number last-sequence-number + 1:
 *      - one new manifest per partition spec holds the new files as ADDED;
 *      - each manifest that held a replaced file is rewritten: replaced files DELETED (keeping
 *        their sequence numbers), the other live files EXISTING, earlier DELETED entries gone;
 *      - every other manifest (delete manifests included) is carried over unchanged.
 *    The new files' sequence numbers are inherited from the new manifest (Iceberg's rule for
 *    ADDED entries). Replacing data files with the same rows by a newer sequence number is safe
 *    only when no delete file could apply to them, which is why partitions with delete files are
 *    skipped (compact.h design note 1).
 * 3. Summary counts are computed from the manifests, not carried from the previous summary:
 *    added/deleted files, records and sizes from the bins, total-* from the live entries after
 *    the replace.
 * 4. Snapshot ids are random and below 2^53, so JavaScript readers (icebird, iceberg-js) that
 *    parse metadata.json with JSON.parse keep them exact.
 * 5. sort, z-order and auto run as binpack; the job's message says so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "iceberg/compact.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_footer.h"
#include "maintenance/job.h"
#include "xalloc.h"

#define MIB ((uint64_t)1024 * 1024)
#define AVRO_ERR_MAX 256
/** Snapshot ids stay below 2^53 (design note 4). */
#define SNAPSHOT_ID_MASK ((UINT64_C(1) << 53) - 1)

/** The job's state for one commit attempt (design note 1). */
typedef struct run {
    floe_job_t *job;
    floe_iceberg_metadata_t md;
    int64_t parent_id;
    floe_iceberg_schema_index_t schema;
    floe_compact_field_type_t *types;
    char (*type_text)[FLOE_ICEBERG_TYPE_TEXT_MAX];
    size_t n_types;
    char *table_dir; /* the table location's key prefix: "" or "<path>/" */
    /* the current snapshot */
    floe_iceberg_manifest_list_t list;
    floe_iceberg_manifest_t *manifests; /* one per list.files */
    floe_compact_file_t *files;         /* every live entry */
    size_t *file_manifest, *file_entry; /* where each one is */
    size_t n_files;
    /* the plan */
    floe_compact_plan_t plan;
    floe_parquet_file_metadata_t *footers;
    uint64_t *footer_offsets;
    bool *is_replaced;
    /* what it wrote */
    floe_compact_layout_t *layouts; /* one per bin: the new files' split offsets live here */
    floe_iceberg_data_file_t *added;
    char **owned; /* locations of new objects */
    size_t n_owned;
    floe_parquet_arena_t *arena; /* merged statistics, new manifests' entries and summaries */
    floe_iceberg_manifest_file_t *out_files;
    size_t n_out_files;
    int64_t snapshot_id, seq;
} run_t;

static char *own(run_t *r, char *s)
{
    r->owned = floe_xrealloc(r->owned, (r->n_owned + 1) * sizeof(*r->owned));
    r->owned[r->n_owned++] = s;
    return s;
}

static void *arena_alloc(run_t *r, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(r->arena, n == 0 ? 1 : n, size);

    if (p == NULL)
        abort(); /* the arena has no limit: only an overflow fails, as with floe_xmalloc */
    return p;
}

static void run_dispose(run_t *r)
{
    for (size_t b = 0; r->layouts != NULL && b < r->plan.n_bins; b++)
        floe_compact_layout_dispose(&r->layouts[b]);
    floe_compact_plan_dispose(&r->plan);
    for (size_t i = 0; r->footers != NULL && i < r->n_files; i++)
        floe_parquet_file_metadata_dispose(&r->footers[i]);
    for (size_t i = 0; r->manifests != NULL && i < r->list.n_files; i++)
        floe_iceberg_manifest_dispose(&r->manifests[i]);
    for (size_t i = 0; i < r->n_owned; i++)
        free(r->owned[i]);
    floe_iceberg_manifest_list_dispose(&r->list);
    floe_iceberg_schema_index_dispose(&r->schema);
    floe_iceberg_metadata_dispose(&r->md);
    floe_parquet_arena_free(r->arena);
    free(r->owned);
    free(r->layouts);
    free(r->added);
    free(r->out_files);
    free(r->footers);
    free(r->footer_offsets);
    free(r->is_replaced);
    free(r->files);
    free(r->file_manifest);
    free(r->file_entry);
    free(r->manifests);
    free(r->types);
    free(r->type_text);
    free(r->table_dir);
}

/* ---- reading the snapshot ---------------------------------------------------------------- */

/* Reads `len` bytes at `offset` of fd. */
static int read_at(int fd, uint8_t *buf, size_t len, uint64_t offset)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = pread(fd, buf + done, len - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FLOE_EFAIL;
        done += (size_t)n;
    }
    return FLOE_OK;
}

static int read_list(run_t *r, const char *location)
{
    uint8_t *data = NULL;
    size_t len = 0;
    char err[AVRO_ERR_MAX] = "";
    int rc;

    if (floe_job_read_object(r->job, location, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_list_read(data, len, &r->list, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(r->job, "cannot read the manifest list %s: %s", location, err);
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

/* Reads manifest i and adds its live entries to the run's files. */
static int read_manifest(run_t *r, size_t i)
{
    const floe_iceberg_manifest_file_t *mf = &r->list.files[i];
    floe_iceberg_manifest_t *m = &r->manifests[i];
    uint8_t *data = NULL;
    size_t len = 0;
    char err[AVRO_ERR_MAX] = "";
    int rc;

    if (floe_job_read_object(r->job, mf->manifest_path, &data, &len))
        return FLOE_EFAIL;
    rc = floe_iceberg_manifest_read(data, len, m, err, sizeof(err));
    free(data);
    if (rc != 0)
        return floe_job_fail(r->job, "cannot read the manifest %s: %s", mf->manifest_path, err);
    r->files = floe_xrealloc(r->files, (r->n_files + m->n_entries + 1) * sizeof(*r->files));
    r->file_manifest = floe_xrealloc(r->file_manifest, (r->n_files + m->n_entries + 1) * sizeof(size_t));
    r->file_entry = floe_xrealloc(r->file_entry, (r->n_files + m->n_entries + 1) * sizeof(size_t));
    for (size_t k = 0; k < m->n_entries; k++) {
        inherit(&m->entries[k], mf);
        if (m->entries[k].status == FLOE_ICEBERG_ENTRY_DELETED)
            continue;
        r->files[r->n_files] = (floe_compact_file_t){&m->entries[k].file, mf->partition_spec_id};
        r->file_manifest[r->n_files] = i;
        r->file_entry[r->n_files++] = k;
    }
    return FLOE_OK;
}

/* The current snapshot's manifest list location, or NULL when the table has no snapshot. */
static int current_manifest_list(run_t *r, const char **location)
{
    const cJSON *snap, *list;

    *location = NULL;
    if (!floe_iceberg_metadata_current_snapshot_id(&r->md, &r->parent_id))
        return FLOE_OK;
    snap = floe_iceberg_metadata_snapshot(&r->md, r->parent_id);
    list = snap != NULL ? cJSON_GetObjectItemCaseSensitive(snap, "manifest-list") : NULL;
    if (!cJSON_IsString(list))
        return floe_job_fail(r->job, "the current snapshot %" PRId64 " has no manifest list (a v1 table with "
                                     "inline manifests is not compacted)", r->parent_id);
    *location = list->valuestring;
    return FLOE_OK;
}

static int read_snapshot(run_t *r, const char *list_location)
{
    if (read_list(r, list_location))
        return FLOE_EFAIL;
    r->manifests = floe_xcalloc(r->list.n_files + 1, sizeof(*r->manifests));
    for (size_t i = 0; i < r->list.n_files; i++) {
        if (read_manifest(r, i))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Iceberg types by field id of the current schema, for ordering bounds. */
static int index_schema(run_t *r)
{
    cJSON *schema = floe_iceberg_metadata_schema(&r->md, r->md.current_schema_id);
    floe_iceberg_error_t err;

    if (schema == NULL || floe_iceberg_schema_index(schema, &r->schema, &err) != 0)
        return floe_job_fail(r->job, "the table's current schema cannot be read");
    r->types = floe_xcalloc(r->schema.n_fields + 1, sizeof(*r->types));
    r->type_text = floe_xcalloc(r->schema.n_fields + 1, sizeof(*r->type_text));
    for (size_t i = 0; i < r->schema.n_fields; i++) {
        const floe_iceberg_field_t *f = &r->schema.fields[i];
        if (!f->is_primitive)
            continue;
        floe_iceberg_primitive_format(&f->primitive, r->type_text[r->n_types], sizeof(r->type_text[0]));
        r->types[r->n_types] = (floe_compact_field_type_t){f->id, r->type_text[r->n_types]};
        r->n_types++;
    }
    return FLOE_OK;
}

static const char *type_of(const run_t *r, int32_t field_id)
{
    for (size_t i = 0; i < r->n_types; i++) {
        if (r->types[i].field_id == field_id)
            return r->types[i].type;
    }
    return NULL;
}

/* The key prefix of the table's location inside the warehouse ("" for its root). */
static int find_table_dir(run_t *r)
{
    const char *key = floe_job_key_of(r->job, r->md.location);
    char *root = floe_job_location_of(r->job, "");
    bool is_root = strncmp(r->md.location, root, strlen(root) - 1) == 0 && strlen(r->md.location) <= strlen(root);

    free(root);
    if (key == NULL && !is_root)
        return floe_job_fail(r->job, "the table location %s is outside its warehouse", r->md.location);
    r->table_dir = floe_xmalloc((key != NULL ? strlen(key) : 0) + 2);
    sprintf(r->table_dir, "%s%s", key != NULL ? key : "", key != NULL && key[strlen(key) - 1] != '/' ? "/" : "");
    return FLOE_OK;
}

/* ---- footers ----------------------------------------------------------------------------- */

/* Decodes the footer of candidate i, counting only the bytes read. */
static int read_footer(run_t *r, size_t i)
{
    const char *path = r->files[i].file->file_path;
    floe_job_stats_t saved = r->job->stats;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err = {0};
    uint64_t size = 0;
    uint8_t *tail = NULL, *footer = NULL;
    size_t tail_len;
    int fd = -1, rc = FLOE_EFAIL;

    if (floe_job_open_object(r->job, path, &fd, &size))
        return FLOE_EFAIL;
    r->job->stats = saved;
    tail_len = size < FLOE_PARQUET_TAIL_HINT ? (size_t)size : FLOE_PARQUET_TAIL_HINT;
    tail = floe_xmalloc(tail_len + 1);
    if (read_at(fd, tail, tail_len, size - tail_len)) {
        floe_job_fail(r->job, "cannot read the data file %s: %s", path, strerror(errno));
        goto Exit;
    }
    r->job->stats.bytes_read += (int64_t)tail_len;
    if (floe_parquet_footer_locate(tail, tail_len, size, &ft, &err) != 0)
        goto Corrupt;
    if (ft.in_tail == NULL) {
        footer = floe_xmalloc(ft.length + 1);
        if (read_at(fd, footer, ft.length, ft.offset)) {
            floe_job_fail(r->job, "cannot read the footer of %s", path);
            goto Exit;
        }
        r->job->stats.bytes_read += ft.length;
    }
    if (floe_parquet_decode(ft.in_tail != NULL ? ft.in_tail : footer, ft.length, &r->footers[i], &err) != 0)
        goto Corrupt;
    r->footer_offsets[i] = ft.offset;
    rc = FLOE_OK;
    goto Exit;
Corrupt:
    floe_job_fail(r->job, "the data file %s has a bad Parquet footer: %s", path, err.message);
Exit:
    close(fd);
    free(tail);
    free(footer);
    return rc;
}

static int read_footers(run_t *r)
{
    const floe_parquet_file_metadata_t **ptrs;

    r->footers = floe_xcalloc(r->n_files + 1, sizeof(*r->footers));
    r->footer_offsets = floe_xcalloc(r->n_files + 1, sizeof(*r->footer_offsets));
    for (size_t i = 0; i < r->n_files; i++) {
        if (r->plan.is_candidate[i] && read_footer(r, i))
            return FLOE_EFAIL;
        if (floe_job_is_stopping(r->job))
            return floe_job_fail(r->job, "stopped: the server is shutting down");
    }
    ptrs = floe_xcalloc(r->n_files + 1, sizeof(*ptrs));
    for (size_t i = 0; i < r->n_files; i++)
        ptrs[i] = r->plan.is_candidate[i] ? &r->footers[i] : NULL;
    floe_compact_pack(&r->plan, r->files, ptrs);
    free(ptrs);
    return FLOE_OK;
}

/* ---- writing the new files --------------------------------------------------------------- */

/* One bin's open inputs. */
typedef struct bin_io {
    int *fds;
    uint8_t **index;
    floe_compact_source_t *sources;
    const floe_iceberg_data_file_t **inputs;
    size_t n;
} bin_io_t;

static void bin_io_dispose(bin_io_t *io)
{
    for (size_t k = 0; k < io->n; k++) {
        if (io->fds[k] >= 0)
            close(io->fds[k]);
        free(io->index[k]);
    }
    free(io->fds);
    free(io->index);
    free(io->sources);
    free(io->inputs);
}

/* Opens input k of the bin and reads its page indexes and bloom filters (compact.h note 2). */
static int open_input(run_t *r, bin_io_t *io, size_t k, size_t i)
{
    floe_compact_source_t *src = &io->sources[k];
    floe_parquet_range_t range;
    uint64_t size = 0;

    io->inputs[k] = r->files[i].file;
    if (floe_job_open_object(r->job, r->files[i].file->file_path, &io->fds[k], &size))
        return FLOE_EFAIL;
    src->footer = &r->footers[i];
    src->footer_offset = r->footer_offsets[i];
    range = floe_compact_index_range(src->footer, src->footer_offset);
    if (range.length == 0)
        return FLOE_OK;
    io->index[k] = floe_xmalloc((size_t)range.length);
    if (read_at(io->fds[k], io->index[k], (size_t)range.length, range.offset))
        return floe_job_fail(r->job, "cannot read %s: %s", r->files[i].file->file_path, strerror(errno));
    src->index_bytes = io->index[k];
    src->index_offset = range.offset;
    src->index_len = (size_t)range.length;
    return FLOE_OK;
}

/* Writes the layout's pieces as a new data file; *location is its s3:// location. */
static int write_layout(run_t *r, const bin_io_t *io, const floe_compact_layout_t *l, char **location)
{
    floe_job_writer_t w;
    char *dir = floe_xmalloc(strlen(r->table_dir) + sizeof("data/"));
    char *key;
    int rc;

    sprintf(dir, "%sdata/", r->table_dir);
    key = floe_job_fresh_key(dir, ".parquet");
    free(dir);
    if (floe_job_writer_open(r->job, &w)) {
        free(key);
        return FLOE_EFAIL;
    }
    for (size_t p = 0; p < l->n_pieces; p++) {
        const floe_compact_piece_t *piece = &l->pieces[p];
        uint64_t off = piece->offset;
        rc = piece->source == FLOE_COMPACT_LITERAL
                 ? floe_job_writer_append(&w, piece->data, (size_t)piece->length)
                 : floe_job_writer_copy_fd(&w, io->fds[piece->source], &off, piece->length);
        if (rc != FLOE_OK) {
            floe_job_writer_discard(&w);
            free(key);
            return FLOE_EFAIL;
        }
    }
    rc = floe_job_writer_finish(&w, key, location);
    free(key);
    return rc;
}

static int write_bin(run_t *r, size_t b)
{
    const floe_compact_bin_t *bin = &r->plan.bins[b];
    bin_io_t io = {.n = bin->n_files};
    floe_iceberg_error_t err = {0};
    char *location = NULL;
    int rc = FLOE_EFAIL;

    io.fds = floe_xmalloc(io.n * sizeof(*io.fds));
    for (size_t k = 0; k < io.n; k++)
        io.fds[k] = -1;
    io.index = floe_xcalloc(io.n, sizeof(*io.index));
    io.sources = floe_xcalloc(io.n, sizeof(*io.sources));
    io.inputs = floe_xcalloc(io.n, sizeof(*io.inputs));
    for (size_t k = 0; k < io.n; k++) {
        if (open_input(r, &io, k, bin->files[k]))
            goto Exit;
    }
    if (floe_compact_stitch(io.sources, io.n, &r->layouts[b], &err) != 0) {
        floe_job_fail(r->job, "cannot stitch %s and %zu other files: %s", io.inputs[0]->file_path, io.n - 1,
                      err.message);
        goto Exit;
    }
    if (write_layout(r, &io, &r->layouts[b], &location))
        goto Exit;
    own(r, location);
    if (floe_compact_merge(io.inputs, io.n, r->types, r->n_types, &r->layouts[b], location, r->arena, &r->added[b],
                           &err) != 0) {
        floe_job_fail(r->job, "%s", err.message);
        goto Exit;
    }
    for (size_t k = 0; k < io.n; k++)
        r->is_replaced[bin->files[k]] = true;
    rc = FLOE_OK;
Exit:
    bin_io_dispose(&io);
    return rc;
}

static int write_bins(run_t *r)
{
    r->layouts = floe_xcalloc(r->plan.n_bins + 1, sizeof(*r->layouts));
    r->added = floe_xcalloc(r->plan.n_bins + 1, sizeof(*r->added));
    r->is_replaced = floe_xcalloc(r->n_files + 1, sizeof(*r->is_replaced));
    for (size_t b = 0; b < r->plan.n_bins; b++) {
        if (floe_job_is_stopping(r->job))
            return floe_job_fail(r->job, "stopped: the server is shutting down");
        if (write_bin(r, b))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* ---- manifests --------------------------------------------------------------------------- */

/* The Iceberg type of each partition field of spec `spec_id` (transform result types), or NULL. */
static void partition_types(const run_t *r, int32_t spec_id, const char **types, size_t n)
{
    const cJSON *spec = floe_iceberg_metadata_spec(&r->md, spec_id);
    const cJSON *fields = spec != NULL ? cJSON_GetObjectItemCaseSensitive(spec, "fields") : NULL;

    for (size_t j = 0; j < n; j++) {
        const cJSON *f = cJSON_GetArrayItem(fields, (int)j);
        const cJSON *t = f != NULL ? cJSON_GetObjectItemCaseSensitive(f, "transform") : NULL;
        floe_iceberg_transform_t tr;
        types[j] = NULL;
        if (!cJSON_IsString(t) || floe_iceberg_transform_parse(t->valuestring, &tr) != 0)
            continue;
        if (tr.kind == FLOE_ICEBERG_IDENTITY || tr.kind == FLOE_ICEBERG_TRUNCATE || tr.kind == FLOE_ICEBERG_VOID)
            types[j] = type_of(r, (int32_t)floe_iceberg_metadata_int(f, "source-id", -1));
        else
            types[j] = "int";
    }
}

/* The partition field summaries of a manifest's entries (manifest list field 507). */
static void summarize_partitions(run_t *r, const floe_iceberg_manifest_t *m, floe_iceberg_manifest_file_t *mf)
{
    size_t n = m->n_entries > 0 ? m->entries[0].file.n_partition : 0;
    const char **types = floe_xcalloc(n + 1, sizeof(*types));

    partition_types(r, m->partition_spec_id, types, n);
    mf->partitions = arena_alloc(r, n, sizeof(*mf->partitions));
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

/* Counts a written manifest's entries into its list entry. */
static void count_entries(run_t *r, const floe_iceberg_manifest_t *m, floe_iceberg_manifest_file_t *mf)
{
    mf->partition_spec_id = m->partition_spec_id;
    mf->content = m->content;
    mf->sequence_number = r->seq;
    mf->min_sequence_number = r->seq;
    mf->added_snapshot_id = r->snapshot_id;
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
    summarize_partitions(r, m, mf);
}

/* Writes m as a new manifest and appends its list entry. */
static int write_manifest(run_t *r, const floe_iceberg_manifest_t *m)
{
    floe_iceberg_manifest_file_t *mf;
    uint8_t *bytes = NULL;
    size_t len = 0;
    char err[AVRO_ERR_MAX] = "", *dir, *key, *location = NULL;
    int rc;

    if (floe_iceberg_manifest_write(m, &bytes, &len, err, sizeof(err)) != 0)
        return floe_job_fail(r->job, "cannot write a manifest: %s", err);
    dir = floe_xmalloc(strlen(r->table_dir) + sizeof("metadata/"));
    sprintf(dir, "%smetadata/", r->table_dir);
    key = floe_job_fresh_key(dir, "-m0.avro");
    rc = floe_job_write_object(r->job, key, bytes, len, &location);
    free(dir);
    free(key);
    free(bytes);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    mf = &r->out_files[r->n_out_files++];
    memset(mf, 0, sizeof(*mf));
    mf->manifest_path = own(r, location);
    mf->manifest_length = (int64_t)len;
    count_entries(r, m, mf);
    return FLOE_OK;
}

/* A manifest with old's header and room for n entries. */
static void manifest_like(run_t *r, const floe_iceberg_manifest_t *old, size_t n, floe_iceberg_manifest_t *m)
{
    *m = *old;
    m->format_version = 2;
    m->entries = arena_alloc(r, n, sizeof(*m->entries));
    m->n_entries = 0;
    m->arena = NULL;
}

/* Rewrites manifest i with its replaced files DELETED and its other live files EXISTING. */
static int rewrite_manifest(run_t *r, size_t i)
{
    const floe_iceberg_manifest_t *old = &r->manifests[i];
    floe_iceberg_manifest_t m;

    manifest_like(r, old, old->n_entries, &m);
    for (size_t f = 0; f < r->n_files; f++) {
        floe_iceberg_manifest_entry_t *e;
        if (r->file_manifest[f] != i)
            continue;
        e = &m.entries[m.n_entries++];
        *e = old->entries[r->file_entry[f]];
        e->status = r->is_replaced[f] ? FLOE_ICEBERG_ENTRY_DELETED : FLOE_ICEBERG_ENTRY_EXISTING;
        if (r->is_replaced[f])
            e->snapshot_id = r->snapshot_id;
    }
    return write_manifest(r, &m);
}

/* Writes one manifest of ADDED entries for the new files of spec `spec_id`. */
static int write_added(run_t *r, int32_t spec_id)
{
    floe_iceberg_manifest_t m;
    const floe_iceberg_manifest_t *header = NULL;

    for (size_t b = 0; b < r->plan.n_bins && header == NULL; b++) {
        size_t f = r->plan.bins[b].files[0];
        if (r->files[f].spec_id == spec_id)
            header = &r->manifests[r->file_manifest[f]];
    }
    manifest_like(r, header, r->plan.n_bins, &m);
    for (size_t b = 0; b < r->plan.n_bins; b++) {
        floe_iceberg_manifest_entry_t *e;
        if (r->files[r->plan.bins[b].files[0]].spec_id != spec_id)
            continue;
        e = &m.entries[m.n_entries++];
        memset(e, 0, sizeof(*e));
        e->status = FLOE_ICEBERG_ENTRY_ADDED;
        e->has_snapshot_id = true;
        e->snapshot_id = r->snapshot_id;
        e->file = r->added[b];
    }
    return write_manifest(r, &m);
}

/* Whether an earlier bin than b has the same spec (so its manifest is already written). */
static bool spec_seen(const run_t *r, size_t b)
{
    int32_t spec = r->files[r->plan.bins[b].files[0]].spec_id;

    for (size_t a = 0; a < b; a++) {
        if (r->files[r->plan.bins[a].files[0]].spec_id == spec)
            return true;
    }
    return false;
}

static bool manifest_has_replaced(const run_t *r, size_t i)
{
    for (size_t f = 0; f < r->n_files; f++) {
        if (r->file_manifest[f] == i && r->is_replaced[f])
            return true;
    }
    return false;
}

/* The new snapshot's manifests, new ones first (design note 2). */
static int write_manifests(run_t *r)
{
    r->out_files = floe_xcalloc(r->list.n_files + r->plan.n_bins + 1, sizeof(*r->out_files));
    for (size_t b = 0; b < r->plan.n_bins; b++) {
        if (!spec_seen(r, b) && write_added(r, r->files[r->plan.bins[b].files[0]].spec_id))
            return FLOE_EFAIL;
    }
    for (size_t i = 0; i < r->list.n_files; i++) {
        if (manifest_has_replaced(r, i)) {
            if (rewrite_manifest(r, i))
                return FLOE_EFAIL;
        } else {
            r->out_files[r->n_out_files++] = r->list.files[i];
        }
    }
    return FLOE_OK;
}

static int write_list(run_t *r, char **location)
{
    floe_iceberg_manifest_list_t l = {
        .snapshot_id = r->snapshot_id, .has_parent_snapshot_id = true, .parent_snapshot_id = r->parent_id,
        .sequence_number = r->seq, .format_version = 2, .files = r->out_files, .n_files = r->n_out_files,
    };
    uint8_t *bytes = NULL;
    size_t len = 0;
    char err[AVRO_ERR_MAX] = "", dir[96], *key;
    int rc;

    if (floe_iceberg_manifest_list_write(&l, &bytes, &len, err, sizeof(err)) != 0)
        return floe_job_fail(r->job, "cannot write the manifest list: %s", err);
    snprintf(dir, sizeof(dir), "snap-%" PRId64 "-1-", r->snapshot_id);
    key = floe_xmalloc(strlen(r->table_dir) + strlen("metadata/") + strlen(dir) + 1);
    sprintf(key, "%smetadata/%s", r->table_dir, dir);
    {
        char *fresh = floe_job_fresh_key(key, ".avro");
        free(key);
        key = fresh;
    }
    rc = floe_job_write_object(r->job, key, bytes, len, location);
    free(key);
    free(bytes);
    return rc;
}

/* ---- the snapshot ------------------------------------------------------------------------ */

typedef struct totals {
    int64_t data_files, delete_files, records, files_size, position_deletes, equality_deletes;
} totals_t;

static void add_total(totals_t *t, const floe_iceberg_data_file_t *f)
{
    t->files_size += f->file_size_in_bytes;
    if (f->content == FLOE_ICEBERG_CONTENT_DATA) {
        t->data_files++;
        t->records += f->record_count;
    } else {
        t->delete_files++;
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

/* Number of distinct partitions among the bins. */
static int64_t changed_partitions(const run_t *r)
{
    int64_t n = 0;

    for (size_t b = 0; b < r->plan.n_bins; b++) {
        bool is_new = true;
        for (size_t a = 0; a < b && is_new; a++) {
            const floe_compact_file_t *x = &r->files[r->plan.bins[a].files[0]];
            const floe_compact_file_t *y = &r->files[r->plan.bins[b].files[0]];
            is_new = !floe_compact_same_partition(x, y);
        }
        n += is_new;
    }
    return n;
}

/* The snapshot summary (design note 3). */
static cJSON *summary(const run_t *r)
{
    cJSON *s = cJSON_CreateObject();
    totals_t after = {0}, added = {0}, removed = {0};

    for (size_t f = 0; f < r->n_files; f++) {
        if (r->is_replaced[f])
            add_total(&removed, r->files[f].file);
        else
            add_total(&after, r->files[f].file);
    }
    for (size_t b = 0; b < r->plan.n_bins; b++) {
        add_total(&added, &r->added[b]);
        add_total(&after, &r->added[b]);
    }
    cJSON_AddStringToObject(s, "operation", "replace");
    set_count(s, "added-data-files", added.data_files);
    set_count(s, "deleted-data-files", removed.data_files);
    set_count(s, "added-records", added.records);
    set_count(s, "deleted-records", removed.records);
    set_count(s, "added-files-size", added.files_size);
    set_count(s, "removed-files-size", removed.files_size);
    set_count(s, "changed-partition-count", changed_partitions(r));
    set_count(s, "total-records", after.records);
    set_count(s, "total-files-size", after.files_size);
    set_count(s, "total-data-files", after.data_files);
    set_count(s, "total-delete-files", after.delete_files);
    set_count(s, "total-position-deletes", after.position_deletes);
    set_count(s, "total-equality-deletes", after.equality_deletes);
    return s;
}

/* add-snapshot and set-snapshot-ref, guarded by main still being the snapshot read. */
static void make_updates(const run_t *r, const char *list_location, cJSON **updates, cJSON **requirements)
{
    cJSON *snap = cJSON_CreateObject(), *add = cJSON_CreateObject(), *ref = cJSON_CreateObject();
    cJSON *req = cJSON_CreateObject();

    floe_iceberg_json_set_int(snap, "snapshot-id", r->snapshot_id);
    floe_iceberg_json_set_int(snap, "parent-snapshot-id", r->parent_id);
    floe_iceberg_json_set_int(snap, "sequence-number", r->seq);
    floe_iceberg_json_set_int(snap, "timestamp-ms", (int64_t)time(NULL) * 1000);
    cJSON_AddStringToObject(snap, "manifest-list", list_location);
    cJSON_AddItemToObject(snap, "summary", summary(r));
    floe_iceberg_json_set_int(snap, "schema-id", r->md.current_schema_id);
    cJSON_AddStringToObject(add, "action", "add-snapshot");
    cJSON_AddItemToObject(add, "snapshot", snap);
    cJSON_AddStringToObject(ref, "action", "set-snapshot-ref");
    cJSON_AddStringToObject(ref, "ref-name", FLOE_ICEBERG_MAIN_BRANCH);
    cJSON_AddStringToObject(ref, "type", "branch");
    floe_iceberg_json_set_int(ref, "snapshot-id", r->snapshot_id);
    *updates = cJSON_CreateArray();
    cJSON_AddItemToArray(*updates, add);
    cJSON_AddItemToArray(*updates, ref);
    cJSON_AddStringToObject(req, "type", "assert-ref-snapshot-id");
    cJSON_AddStringToObject(req, "ref", FLOE_ICEBERG_MAIN_BRANCH);
    floe_iceberg_json_set_int(req, "snapshot-id", r->parent_id);
    *requirements = cJSON_CreateArray();
    cJSON_AddItemToArray(*requirements, req);
}

/* A random snapshot id below 2^53 that the table does not use yet (design note 4). */
static int64_t fresh_snapshot_id(const run_t *r)
{
    for (;;) {
        uint64_t v = 0;
        if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
            v = (uint64_t)time(NULL) ^ (uint64_t)clock();
        v &= SNAPSHOT_ID_MASK;
        if (v != 0 && floe_iceberg_metadata_snapshot(&r->md, (int64_t)v) == NULL)
            return (int64_t)v;
    }
}

/* ---- the job ----------------------------------------------------------------------------- */

/* What the job says on success: what it did, what it skipped, how it ran the strategy. */
static void note(run_t *r, size_t n_replaced)
{
    floe_job_t *job = r->job;
    const char *strategy = job->settings.strategy;
    size_t used;

    if (r->plan.n_bins == 0)
        used = (size_t)snprintf(job->stats.message, sizeof(job->stats.message), "nothing to compact");
    else
        used = (size_t)snprintf(job->stats.message, sizeof(job->stats.message),
                                "compacted %zu data files into %zu", n_replaced, r->plan.n_bins);
    if (strategy != NULL && strcasecmp(strategy, "binpack") != 0 && used < sizeof(job->stats.message))
        used += (size_t)snprintf(job->stats.message + used, sizeof(job->stats.message) - used,
                                 "; strategy %s ran as binpack", strategy);
    for (size_t i = 0; i < r->plan.n_skipped && used < sizeof(job->stats.message); i++)
        used += (size_t)snprintf(job->stats.message + used, sizeof(job->stats.message) - used, "; %s",
                                 r->plan.skipped[i].reason);
}

static int load(run_t *r, const char *json, bool *has_snapshot)
{
    floe_iceberg_error_t err;
    const char *list_location = NULL;

    if (floe_iceberg_metadata_parse(json, strlen(json), &r->md, &err) != 0)
        return floe_job_fail(r->job, "the table's metadata cannot be read: %s", err.message);
    if (current_manifest_list(r, &list_location))
        return FLOE_EFAIL;
    *has_snapshot = list_location != NULL;
    if (list_location == NULL)
        return FLOE_OK;
    if (find_table_dir(r) || index_schema(r) || read_snapshot(r, list_location))
        return FLOE_EFAIL;
    return FLOE_OK;
}

static int compact(run_t *r, const char *json, cJSON **updates, cJSON **requirements)
{
    uint64_t target = (uint64_t)(r->job->settings.target_file_size_mb > 0 ? r->job->settings.target_file_size_mb : 512) * MIB;
    char *list_location = NULL;
    bool has_snapshot = false;
    size_t n_replaced = 0;

    if (load(r, json, &has_snapshot))
        return FLOE_EFAIL;
    if (has_snapshot) {
        floe_compact_select(r->files, r->n_files, target, &r->plan);
        if (read_footers(r))
            return FLOE_EFAIL;
    }
    for (size_t b = 0; b < r->plan.n_bins; b++)
        n_replaced += r->plan.bins[b].n_files;
    note(r, n_replaced);
    if (r->plan.n_bins == 0)
        return FLOE_OK;
    r->arena = floe_parquet_arena_new(SIZE_MAX);
    r->snapshot_id = fresh_snapshot_id(r);
    r->seq = r->md.last_sequence_number + 1;
    if (write_bins(r) || write_manifests(r) || write_list(r, &list_location))
        return FLOE_EFAIL;
    make_updates(r, own(r, list_location), updates, requirements);
    return FLOE_OK;
}

/* floe_job_plan_fn: one attempt's plan (design note 1). */
static int plan(floe_job_t *job, const char *json, const char *location, cJSON **updates, cJSON **requirements,
                void *arg)
{
    run_t r = {.job = job};
    int rc;

    (void)location;
    (void)arg;
    *updates = NULL;
    rc = compact(&r, json, updates, requirements);
    run_dispose(&r);
    return rc;
}

int floe_maintenance_compaction_run(floe_job_t *job)
{
    return floe_job_commit(job, plan, NULL, NULL);
}
