/*
 * The compaction job (icebergCompaction): rewrites the small data files of a table's
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
 * 1. Two phases, as Iceberg's RewriteFiles: first the new data files are planned and written
 *    from the snapshot current when the job starts (the slow part, done once); then
 *    floe_job_commit runs the commit plan, which only writes manifests, once per attempt. Each
 *    attempt re-reads the snapshot the attempt sees (job.h design note 2) and keeps a new file
 *    only when every file it replaces is still live there, its partition still has no equality
 *    delete file and the same deletes apply to its inputs (design notes 8 and 9); so clients
 *    that append while the job runs cost it a manifest rewrite, not a rewrite of the data, and a
 *    client that deleted or rewrote those files meanwhile wins.
 * 2. New files that end up in no commit (their inputs changed, or the job failed) are deleted
 *    after the commit: nothing ever referenced them. A kill -9 leaves them behind as
 *    unreferenced files, which unreferenced-file removal collects.
 * 3. The new snapshot, with sequence number last-sequence-number + 1:
 *      - one new manifest per partition spec holds the new files as ADDED;
 *      - each manifest that held a replaced file is rewritten: replaced files DELETED (keeping
 *        their sequence numbers), the other live files EXISTING, earlier DELETED entries gone;
 *      - every other manifest (delete manifests included) is carried over unchanged.
 *    The new files' sequence numbers are inherited from the new manifest (Iceberg's rule for
 *    ADDED entries). Replacing data files by a newer sequence number takes them out of every
 *    existing delete file's reach, which is why the deletes that apply to them are applied
 *    first (design notes 8 and 9) and partitions with equality delete files are skipped
 *    (compact.h design note 1) and checked again at commit.
 * 4. Summary counts are computed from the manifests, not carried from the previous summary:
 *    added/deleted files, records and sizes from the kept files, total-* from the live entries
 *    after the replace.
 * 5. The new snapshot's id, manifests and manifest list are written by the snapshot writer
 *    (snapshot_writer.h), which record expiration shares: a random id below 2^53, manifests
 *    rewritten as Iceberg's ManifestWriter does.
 * 6. sort, z-order and auto run as binpack; the job's message says so when AWS would have done
 *    otherwise (sort and z-order always; auto when the table has a sort order, which AWS's auto
 *    then sorts by).
 * 7. Format version 3 (row lineage): the view writes out the first row id each file inherits
 *    (row_lineage.h), so rewritten manifests keep every file's row ids; new files carry their
 *    rows' _row_id and _last_updated_sequence_number as columns (compact.h design note 4), so
 *    they need no first row id of their own. A file whose rows have no row id (written before
 *    the upgrade to v3) or whose lineage columns hold nulls stays as it is, and the message says
 *    so. The new manifest list gives its new manifests first row ids from next-row-id and the
 *    snapshot says so (first-row-id, added-rows).
 * 8. Deletion vectors (compact.h design note 5): a candidate named by exactly one live vector
 *    has it read and decoded in phase 1; the row groups it deletes whole are left out of the new
 *    file (a bin whose every row goes writes no file, and only removes), those it deletes part of
 *    are written again without its rows (compact.h design note 5), and a vector that deletes
 *    part of a row group the filter cannot decode (or a file named by several) keeps its file
 *    out of the plan, which the message counts. The commit removes each applied vector
 *    (DELETED in its rewritten delete manifest) with its data file, and keeps a new file only
 *    while each of its inputs is still named by exactly the vector phase 1 applied (same Puffin
 *    file and offset) or, if none was applied, by none: a client that deleted more rows
 *    meanwhile wins. The new file's entry has no counts for inputs that lost rows (bounds stay:
 *    they still hold). The Puffin files go once no live entry points into them (snapshot
 *    expiration, unreferenced-file removal).
 * 9. Position delete files (compact.h design note 6): phase 1 reads and decodes (whole, up to
 *    POSDEL_BYTES_MAX each and FLOE_COMPACT_LINEAGE_ROWS_MAX rows in all) every one that applies
 *    to a candidate, and a candidate's positions from all of them (and its vector) go through
 *    design note 8's machinery. A candidate one of whose position delete files cannot be read
 *    (not Parquet, a codec or encoding the filter cannot decode, over the limits) is left alone,
 *    and the message counts it with the first reason. The commit keeps a new file only while the
 *    position delete files that apply to each input are exactly those phase 1 applied, and
 *    removes a position delete file (DELETED in its rewritten delete manifest) only when every
 *    data file it names is replaced by this commit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "iceberg/compact.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/parquet_filter.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_types.h"
#include "iceberg/manifest.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/position_deletes.h"
#include "iceberg/row_lineage.h"
#include "maintenance/job.h"
#include "maintenance/snapshot_writer.h"
#include "base/xalloc.h"

#define MIB ((uint64_t)1024 * 1024)
#define AVRO_ERR_MAX 256
/** AWS's default targetFileSizeMB, for a configuration that has none. */
#define DEFAULT_TARGET_MB 512
/** The largest position delete file read (whole, in memory: design note 9). */
#define POSDEL_BYTES_MAX (128 * MIB)

/** A table's current snapshot as some metadata shows it: its live files and where they are. */
typedef struct view {
    floe_iceberg_metadata_t md;
    bool has_snapshot;
    int64_t snapshot_id;
    floe_iceberg_manifest_list_t list;
    floe_iceberg_manifest_t *manifests; /* one per list.files */
    floe_compact_file_t *files;         /* every live entry */
    size_t *file_manifest, *file_entry; /* where each one is */
    size_t n_files;
} view_t;

/** One new data file, written in phase 1 (design note 1). */
typedef struct output {
    const floe_compact_file_t *first; /* its first input, in the job's first view (its partition) */
    const char **inputs;              /* the paths of the files it replaces */
    const char **dv_paths;            /* per input: the Puffin file of the vector applied, or NULL */
    int64_t *dv_offsets;              /*   and its blob's offset (design note 8) */
    const char ***pd_paths;           /* per input: the position delete files that apply to it */
    size_t *n_pd;                     /*   (design note 9) */
    size_t n_inputs;
    floe_compact_layout_t layout;     /* the new file's split offsets live here */
    floe_iceberg_data_file_t file;    /* its manifest entry's data */
    char *location;
    bool is_committed;
    bool is_empty; /* its inputs' vectors deleted every row: no file, only removals (design note 8) */
} output_t;

/** The deletion vector phase 1 applied to one file (design note 8). */
typedef struct applied {
    long dv;          /* its index in `first`'s files, or -1 */
    bool *is_dropped; /* per row group of the file */
    bool *is_partial; /* per row group: written again without some rows */
    uint64_t *positions; /* the vector's and the position delete files', ascending, unique */
    size_t n_positions;
    int64_t dropped_rows; /* every row they delete */
    size_t *pd;           /* the position delete files that apply to it: indexes in posdels (design note 9) */
    size_t n_pd;
} applied_t;

/** A position delete file that applies to some candidate, read in phase 1 (design note 9). */
typedef struct posdel {
    size_t file;                    /* its index in `first`'s files */
    const char *path;               /* its file_path there */
    bool is_read;                   /* decoded; else `why` says why not */
    floe_iceberg_pos_deletes_t rows;
    char why[FLOE_COMPACT_REASON_MAX];
} posdel_t;

/** A row group written again without the rows its vector deletes (compact.h design note 5). */
typedef struct group_rewrite {
    floe_compact_rewrite_t rw;
    floe_parquet_filtered_t *columns;
    uint64_t *kept;
    uint32_t n_columns;
} group_rewrite_t;

/** The job's state across attempts. */
typedef struct compaction {
    floe_job_t *job;
    view_t first; /* the snapshot phase 1 planned from; the outputs borrow from it */
    floe_iceberg_schema_index_t schema;
    floe_compact_field_type_t *types;
    char (*type_text)[FLOE_ICEBERG_TYPE_TEXT_MAX];
    size_t n_types;
    char *table_dir; /* the table location's key prefix: "" or "<path>/" */
    floe_compact_plan_t plan;
    floe_parquet_file_metadata_t *footers; /* per file of `first` */
    uint64_t *footer_offsets;
    output_t *outputs; /* one per bin */
    size_t n_outputs;
    floe_parquet_arena_t *arena; /* merged statistics */
    size_t n_kept, n_replaced;   /* of the attempt that committed */
    size_t n_written;            /* its kept outputs that are files (not empty) */
    bool is_v3;                  /* format version 3: row lineage (design note 7) */
    size_t n_no_lineage;         /* v3 files left alone: their lineage cannot be kept */
    struct applied *applied;     /* per file of `first`: the deletion vector applied (design note 8) */
    size_t n_partial_dv;         /* files left alone: their vector cannot be applied */
    char partial_reason[FLOE_COMPACT_REASON_MAX]; /* why, for the first of them */
    size_t n_dv_kept;            /* vectors the attempt that committed removed */
    posdel_t *posdels;           /* by path (design note 9) */
    size_t n_posdels;
    int64_t posdel_rows;         /* their rows decoded, under FLOE_COMPACT_LINEAGE_ROWS_MAX */
    size_t n_partial_pd;         /* files left alone: their position deletes cannot be applied */
    char pd_reason[FLOE_COMPACT_REASON_MAX]; /* why, for the first of them */
    size_t n_pd_removed;         /* position delete files the attempt that committed removed */
    size_t n_pd_applied;         /* its replaced files that position delete files applied to */
} compaction_t;

/** One commit attempt's state (design note 1). */
typedef struct attempt {
    compaction_t *c;
    view_t view;
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

static void *arena_alloc(floe_parquet_arena_t *arena, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(arena, n == 0 ? 1 : n, size);

    if (p == NULL)
        abort(); /* the arena has no limit: only an overflow fails, as with floe_xmalloc */
    return p;
}

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

/* ---- reading a snapshot ------------------------------------------------------------------ */

static void view_dispose(view_t *v)
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

static int read_list(floe_job_t *job, view_t *v, const char *location)
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
static int add_manifest(floe_job_t *job, view_t *v, size_t i, const uint8_t *data, size_t len)
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
static int read_manifests(floe_job_t *job, view_t *v)
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
static int view_load(floe_job_t *job, const char *json, view_t *v)
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

/* Iceberg types by field id of the current schema, for ordering bounds. */
static int index_schema(compaction_t *c)
{
    cJSON *schema = floe_iceberg_metadata_schema(&c->first.md, c->first.md.current_schema_id);
    floe_iceberg_error_t err;

    if (schema == NULL || floe_iceberg_schema_index(schema, &c->schema, &err) != 0)
        return floe_job_fail(c->job, "the table's current schema cannot be read");
    c->types = floe_xcalloc(c->schema.n_fields + 1, sizeof(*c->types));
    c->type_text = floe_xcalloc(c->schema.n_fields + 1, sizeof(*c->type_text));
    for (size_t i = 0; i < c->schema.n_fields; i++) {
        const floe_iceberg_field_t *f = &c->schema.fields[i];
        if (!f->is_primitive)
            continue;
        floe_iceberg_primitive_format(&f->primitive, c->type_text[c->n_types], sizeof(c->type_text[0]));
        c->types[c->n_types] = (floe_compact_field_type_t){f->id, c->type_text[c->n_types]};
        c->n_types++;
    }
    return FLOE_OK;
}

static const char *type_of(const compaction_t *c, int32_t field_id)
{
    for (size_t i = 0; i < c->n_types; i++) {
        if (c->types[i].field_id == field_id)
            return c->types[i].type;
    }
    return NULL;
}

/* The key prefix of the table's location inside the warehouse ("" for its root). */
static int find_table_dir(compaction_t *c)
{
    const char *location = c->first.md.location;
    const char *key = floe_job_key_of(c->job, location);
    char *root = floe_job_location_of(c->job, "");
    bool is_root = strncmp(location, root, strlen(root) - 1) == 0 && strlen(location) <= strlen(root);

    free(root);
    if (key == NULL && !is_root)
        return floe_job_fail(c->job, "the table location %s is outside its warehouse", location);
    c->table_dir = floe_xmalloc((key != NULL ? strlen(key) : 0) + 2);
    sprintf(c->table_dir, "%s%s", key != NULL ? key : "", key != NULL && key[strlen(key) - 1] != '/' ? "/" : "");
    return FLOE_OK;
}

/* ---- phase 1: footers and the plan ------------------------------------------------------- */

/* Decodes the footer of candidate i, counting only the bytes read. */
static int read_footer(compaction_t *c, size_t i)
{
    const char *path = c->first.files[i].file->file_path;
    floe_job_stats_t saved = c->job->stats;
    floe_parquet_footer_t ft;
    floe_iceberg_error_t err = {0};
    uint64_t size = 0;
    uint8_t *tail = NULL, *footer = NULL;
    size_t tail_len;
    int fd = -1, rc = FLOE_EFAIL;

    if (floe_job_open_object(c->job, path, &fd, &size))
        return FLOE_EFAIL;
    c->job->stats = saved;
    tail_len = size < FLOE_PARQUET_TAIL_HINT ? (size_t)size : FLOE_PARQUET_TAIL_HINT;
    tail = floe_xmalloc(tail_len + 1);
    if (read_at(fd, tail, tail_len, size - tail_len)) {
        floe_job_fail(c->job, "cannot read the data file %s: %s", path, strerror(errno));
        goto Exit;
    }
    c->job->stats.bytes_read += (int64_t)tail_len;
    if (floe_parquet_footer_locate(tail, tail_len, size, &ft, &err) != 0)
        goto Corrupt;
    if (ft.in_tail == NULL) {
        footer = floe_xmalloc(ft.length + 1);
        if (read_at(fd, footer, ft.length, ft.offset)) {
            floe_job_fail(c->job, "cannot read the footer of %s", path);
            goto Exit;
        }
        c->job->stats.bytes_read += ft.length;
    }
    if (floe_parquet_decode(ft.in_tail != NULL ? ft.in_tail : footer, ft.length, &c->footers[i], &err) != 0)
        goto Corrupt;
    c->footer_offsets[i] = ft.offset;
    rc = FLOE_OK;
    goto Exit;
Corrupt:
    floe_job_fail(c->job, "the data file %s has a bad Parquet footer: %s", path, err.message);
Exit:
    close(fd);
    free(tail);
    free(footer);
    return rc;
}

/* Whether file i of a v3 table can move with its rows' lineage (design note 7): it inherits row
 * ids (then the stitch writes them out) or carries both columns without nulls. */
static bool keeps_lineage(const compaction_t *c, size_t i)
{
    bool has_both = false, is_complete = false;

    floe_compact_lineage_inspect(&c->footers[i], &has_both, &is_complete);
    if (has_both)
        return is_complete;
    return !floe_compact_lineage_has_any(&c->footers[i]) && c->first.files[i].file->has_first_row_id;
}

/* Whether view file d is a live deletion vector of the data file at `path`. */
static bool is_vector_of(const view_t *v, size_t d, const char *path)
{
    const floe_iceberg_data_file_t *f = v->files[d].file;

    return floe_compact_is_deletion_vector(f) && strcmp(f->referenced_data_file, path) == 0;
}

/* The one live deletion vector of `path` in the view: its index, -1 for none, -2 for several. */
static long vector_of(const view_t *v, const char *path)
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

/* Reads and decodes the deletion vector `dv` (its blob in its Puffin file), counting the bytes. */
static int read_vector(compaction_t *c, const floe_iceberg_data_file_t *dv, int64_t max_rows, floe_iceberg_dv_t *out)
{
    floe_job_stats_t saved = c->job->stats;
    uint64_t size = 0;
    uint8_t *blob = NULL;
    char err[AVRO_ERR_MAX] = "";
    int fd = -1, rc = FLOE_EFAIL;

    if (!dv->has_content_offset || !dv->has_content_size_in_bytes || dv->content_offset < 0 ||
        dv->content_size_in_bytes <= 0 || dv->content_size_in_bytes > (int64_t)FLOE_COMPACT_INDEX_MAX)
        return floe_job_fail(c->job, "the deletion vector in %s has no valid content_offset and "
                                     "content_size_in_bytes", dv->file_path);
    if (floe_job_open_object(c->job, dv->file_path, &fd, &size))
        return FLOE_EFAIL;
    c->job->stats = saved;
    if ((uint64_t)dv->content_offset > size ||
        (uint64_t)dv->content_size_in_bytes > size - (uint64_t)dv->content_offset) {
        floe_job_fail(c->job, "the deletion vector at offset %" PRId64 " lies outside %s", dv->content_offset,
                      dv->file_path);
        goto Exit;
    }
    blob = floe_xmalloc((size_t)dv->content_size_in_bytes);
    if (read_at(fd, blob, (size_t)dv->content_size_in_bytes, (uint64_t)dv->content_offset)) {
        floe_job_fail(c->job, "cannot read %s: %s", dv->file_path, strerror(errno));
        goto Exit;
    }
    c->job->stats.bytes_read += dv->content_size_in_bytes;
    if (floe_iceberg_dv_decode(blob, (size_t)dv->content_size_in_bytes, (size_t)(max_rows > 0 ? max_rows : 1), out,
                               err, sizeof(err)) != 0) {
        floe_job_fail(c->job, "the deletion vector at offset %" PRId64 " of %s is bad: %s", dv->content_offset,
                      dv->file_path, err);
        goto Exit;
    }
    rc = FLOE_OK;
Exit:
    close(fd);
    free(blob);
    return rc;
}

static void group_rewrite_dispose(group_rewrite_t *g)
{
    for (uint32_t c = 0; g->columns != NULL && c < g->n_columns; c++)
        free(g->columns[c].bytes);
    free(g->columns);
    free(g->kept);
    memset(g, 0, sizeof(*g));
}

/* Writes row group `g` of file i again without the rows its vector deletes (compact.h design note
 * 5), reading its chunks from fd. FLOE_OK; FLOE_EFAIL with the reason in `why` when a chunk
 * cannot be read or decoded (the file is then left alone). */
static int rewrite_group(const compaction_t *c, size_t i, int fd, uint32_t g, group_rewrite_t *out, char *why,
                         size_t why_len)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    const applied_t *ap = &c->applied[i];
    const floe_parquet_row_group_t *rg = &footer->row_groups[g];
    uint64_t start = 0, *deleted = floe_xcalloc(ap->n_positions + 1, sizeof(*deleted));
    size_t n_deleted = 0;
    floe_iceberg_error_t err = {0};
    int rc = FLOE_OK;

    memset(out, 0, sizeof(*out));
    if (rg->num_rows < 0 || rg->num_rows > FLOE_COMPACT_LINEAGE_ROWS_MAX) {
        snprintf(why, why_len, "row group %u has %" PRId64 " rows", g, rg->num_rows);
        free(deleted);
        return FLOE_EFAIL;
    }
    for (uint32_t k = 0; k < g; k++)
        start += (uint64_t)footer->row_groups[k].num_rows;
    for (size_t k = 0; k < ap->n_positions; k++) {
        if (ap->positions[k] >= start && ap->positions[k] - start < (uint64_t)rg->num_rows)
            deleted[n_deleted++] = ap->positions[k] - start;
    }
    out->n_columns = rg->n_columns;
    out->columns = floe_xcalloc(rg->n_columns + 1, sizeof(*out->columns));
    out->kept = floe_xcalloc((size_t)rg->num_rows - n_deleted + 1, sizeof(*out->kept));
    for (uint64_t row = 0, k = 0, n = 0; row < (uint64_t)rg->num_rows; row++) {
        if (k < n_deleted && deleted[k] == row)
            k++;
        else
            out->kept[n++] = row;
    }
    for (uint32_t col = 0; col < rg->n_columns && rc == FLOE_OK; col++) {
        const floe_parquet_column_meta_data_t *m = &rg->columns[col].meta_data;
        floe_parquet_filter_column_t fc = {m->type, floe_parquet_leaf_element(footer, col)->type_length, m->codec,
                                           footer->leaves[col].max_definition_level,
                                           footer->leaves[col].max_repetition_level, footer, col};
        floe_parquet_range_t r;
        uint8_t *bytes = NULL;
        if (floe_parquet_chunk_range(footer, g, col, c->footer_offsets[i], &r, &err) != 0 ||
            r.length > FLOE_PARQUET_FILTER_PAGE_MAX) {
            snprintf(why, why_len, "column %u: %.200s", col,
                     err.message[0] ? err.message : "its chunk is too large");
            rc = FLOE_EFAIL;
            break;
        }
        bytes = floe_xmalloc((size_t)r.length + 1);
        if (read_at(fd, bytes, (size_t)r.length, r.offset)) {
            snprintf(why, why_len, "column %u cannot be read: %s", col, strerror(errno));
            rc = FLOE_EFAIL;
        } else if (floe_parquet_filter_chunk(bytes, (size_t)r.length, &fc, rg->num_rows, deleted, n_deleted,
                                             &out->columns[col], &err) != 0) {
            snprintf(why, why_len, "column %u: %.200s", col, err.message); /* the reason fits the job note */
            rc = FLOE_EFAIL;
        }
        free(bytes);
    }
    out->rw = (floe_compact_rewrite_t){out->columns, rg->num_rows - (int64_t)n_deleted, out->kept};
    free(deleted);
    return rc;
}

/* Whether every row group of file i its vector deletes part of can be written again (tried, then
 * dropped: open_input writes them again for the stitch). */
static bool can_rewrite(compaction_t *c, size_t i, char *why, size_t why_len)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    uint64_t size = 0;
    bool ok = true;
    int fd = -1;
    floe_job_stats_t saved = c->job->stats;

    for (uint32_t g = 0; g < footer->n_row_groups && ok; g++) {
        group_rewrite_t rw;
        if (!c->applied[i].is_partial[g])
            continue;
        if (fd < 0 && floe_job_open_object(c->job, c->first.files[i].file->file_path, &fd, &size)) {
            c->job->stats = saved;
            snprintf(why, why_len, "it cannot be opened");
            return false;
        }
        ok = rewrite_group(c, i, fd, g, &rw, why, why_len) == FLOE_OK;
        group_rewrite_dispose(&rw);
    }
    if (fd >= 0)
        close(fd);
    c->job->stats = saved;
    return ok;
}

/* The data sequence number of view file i. */
static int64_t sequence_of(const view_t *v, size_t i)
{
    return v->manifests[v->file_manifest[i]].entries[v->file_entry[i]].sequence_number;
}

/* Whether view file d is a position delete file (not a vector) that applies to view file i. */
static bool pos_applies(const view_t *v, size_t d, size_t i)
{
    return floe_compact_position_deletes_apply(&v->files[d], sequence_of(v, d), &v->files[i], sequence_of(v, i));
}

static int compare_posdels(const void *a, const void *b)
{
    return strcmp(((const posdel_t *)a)->path, ((const posdel_t *)b)->path);
}

static const posdel_t *find_posdel(const compaction_t *c, const char *path)
{
    posdel_t key = {.path = path};

    return c->n_posdels == 0 ? NULL : bsearch(&key, c->posdels, c->n_posdels, sizeof(key), compare_posdels);
}

/* Reads and decodes position delete file p, or says in p->why why it cannot (design note 9). */
static int read_posdel(compaction_t *c, posdel_t *p)
{
    const floe_iceberg_data_file_t *f = c->first.files[p->file].file;
    int64_t budget = FLOE_COMPACT_LINEAGE_ROWS_MAX - c->posdel_rows;
    floe_iceberg_error_t err = {0};
    uint8_t *data = NULL;
    size_t len = 0;

    if (f->file_format == NULL || strcasecmp(f->file_format, "PARQUET") != 0)
        snprintf(p->why, sizeof(p->why), "%.150s is a %.16s file: Floe reads Parquet position delete files",
                 f->file_path, f->file_format != NULL ? f->file_format : "?");
    else if (f->has_key_metadata)
        snprintf(p->why, sizeof(p->why), "%.150s is encrypted", f->file_path);
    else if (f->file_size_in_bytes < 0 || (uint64_t)f->file_size_in_bytes > POSDEL_BYTES_MAX)
        snprintf(p->why, sizeof(p->why), "%.150s is larger than %" PRIu64 " MiB", f->file_path, POSDEL_BYTES_MAX / MIB);
    else if (f->record_count > budget)
        snprintf(p->why, sizeof(p->why), "the position delete files hold more than %" PRId64 " rows",
                 (int64_t)FLOE_COMPACT_LINEAGE_ROWS_MAX);
    if (p->why[0] != '\0')
        return FLOE_OK;
    if (floe_job_read_object(c->job, f->file_path, &data, &len))
        return FLOE_EFAIL;
    if (floe_iceberg_pos_deletes_decode(data, len, budget, &p->rows, &err) != 0) {
        snprintf(p->why, sizeof(p->why), "%.120s: %.120s", f->file_path, err.message);
    } else {
        p->is_read = true;
        c->posdel_rows += p->rows.n_rows;
    }
    free(data);
    return FLOE_OK;
}

/* Reads the position delete files that apply to some candidate (design note 9). */
static int read_position_deletes(compaction_t *c)
{
    const view_t *v = &c->first;

    for (size_t d = 0; d < v->n_files; d++) {
        bool applies = false;
        posdel_t *p;
        if (v->files[d].file->content != FLOE_ICEBERG_CONTENT_POSITION_DELETES)
            continue;
        for (size_t i = 0; i < v->n_files && !applies; i++)
            applies = c->plan.is_candidate[i] && pos_applies(v, d, i);
        if (!applies)
            continue;
        c->posdels = floe_xrealloc(c->posdels, (c->n_posdels + 1) * sizeof(*c->posdels));
        p = &c->posdels[c->n_posdels++];
        memset(p, 0, sizeof(*p));
        p->file = d;
        p->path = v->files[d].file->file_path;
        if (read_posdel(c, p))
            return FLOE_EFAIL;
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
    }
    if (c->n_posdels > 0)
        qsort(c->posdels, c->n_posdels, sizeof(*c->posdels), compare_posdels);
    return FLOE_OK;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* The deleted positions of file i: its vector's and those its position delete files name, ascending
 * and unique; takes dv's. */
static void merge_positions(compaction_t *c, size_t i, floe_iceberg_dv_t *dv, applied_t *ap)
{
    const char *path = c->first.files[i].file->file_path;
    size_t n = dv->n;

    for (size_t k = 0; k < ap->n_pd; k++) {
        const floe_iceberg_pos_target_t *t = floe_iceberg_pos_deletes_find(&c->posdels[ap->pd[k]].rows, path);
        n += t != NULL ? t->n : 0;
    }
    ap->positions = floe_xrealloc(dv->positions, (n + 1) * sizeof(*ap->positions));
    ap->n_positions = dv->n;
    dv->positions = NULL;
    for (size_t k = 0; k < ap->n_pd; k++) {
        const floe_iceberg_pos_target_t *t = floe_iceberg_pos_deletes_find(&c->posdels[ap->pd[k]].rows, path);
        if (t != NULL && t->n > 0) {
            memcpy(ap->positions + ap->n_positions, t->positions, t->n * sizeof(*t->positions));
            ap->n_positions += t->n;
        }
    }
    if (ap->n_pd == 0)
        return; /* a vector's positions already ascend */
    qsort(ap->positions, ap->n_positions, sizeof(*ap->positions), compare_u64);
    n = 0;
    for (size_t k = 0; k < ap->n_positions; k++) {
        if (n == 0 || ap->positions[n - 1] != ap->positions[k])
            ap->positions[n++] = ap->positions[k];
    }
    ap->n_positions = n;
}

/* Design notes 8 and 9: applies the deletion vector and position delete files of candidate i (whole
 * row groups left out, the others they touch written again), or takes i out of the plan with the
 * reason. */
static int apply_deletes(compaction_t *c, size_t i)
{
    const floe_iceberg_data_file_t *f = c->first.files[i].file;
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    long d = vector_of(&c->first, f->file_path);
    floe_iceberg_dv_t dv = {0};
    applied_t *ap = &c->applied[i];
    char why[FLOE_COMPACT_REASON_MAX] = "it is named by several deletion vectors";
    bool ok = d != -2, by_pd = false;

    ap->pd = floe_xcalloc(c->n_posdels + 1, sizeof(*ap->pd));
    for (size_t k = 0; k < c->n_posdels; k++) {
        if (!pos_applies(&c->first, c->posdels[k].file, i))
            continue;
        ap->pd[ap->n_pd++] = k;
        if (ok && !c->posdels[k].is_read) {
            snprintf(why, sizeof(why), "%s", c->posdels[k].why);
            ok = false;
            by_pd = true;
        }
    }
    if (d == -1 && ap->n_pd == 0) {
        free(ap->pd);
        ap->pd = NULL;
        return FLOE_OK;
    }
    if (ok && f->record_count > FLOE_COMPACT_LINEAGE_ROWS_MAX) { /* bounds the positions decoded */
        snprintf(why, sizeof(why), "it has more than %" PRId64 " rows", (int64_t)FLOE_COMPACT_LINEAGE_ROWS_MAX);
        ok = false;
        by_pd = d < 0;
    }
    if (ok && d >= 0 && read_vector(c, c->first.files[d].file, f->record_count, &dv))
        return FLOE_EFAIL;
    if (ok) {
        merge_positions(c, i, &dv, ap);
        ap->is_dropped = floe_xcalloc(footer->n_row_groups + 1, sizeof(bool));
        ap->is_partial = floe_xcalloc(footer->n_row_groups + 1, sizeof(bool));
        floe_compact_dv_split(footer, ap->positions, ap->n_positions, ap->is_dropped, ap->is_partial,
                              &ap->dropped_rows);
        by_pd = d < 0;
    }
    if (!ok || !can_rewrite(c, i, why, sizeof(why))) {
        size_t *n_skipped = by_pd ? &c->n_partial_pd : &c->n_partial_dv;
        char *reason = by_pd ? c->pd_reason : c->partial_reason;
        c->plan.is_candidate[i] = false;
        if ((*n_skipped)++ == 0)
            snprintf(reason, FLOE_COMPACT_REASON_MAX, "%s", why);
        free(ap->is_dropped);
        free(ap->is_partial);
        free(ap->positions);
        free(ap->pd);
        memset(ap, 0, sizeof(*ap));
        ap->dv = -1;
    } else {
        ap->dv = d;
    }
    return FLOE_OK;
}

/* Reads the candidates' footers and packs them into bins. */
static int plan_bins(compaction_t *c, uint64_t target)
{
    const floe_parquet_file_metadata_t **ptrs;
    size_t n = c->first.n_files;

    floe_compact_select(c->first.files, n, target, &c->plan);
    c->footers = floe_xcalloc(n + 1, sizeof(*c->footers));
    c->footer_offsets = floe_xcalloc(n + 1, sizeof(*c->footer_offsets));
    for (size_t i = 0; i < n; i++) {
        if (c->plan.is_candidate[i] && read_footer(c, i))
            return FLOE_EFAIL;
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
    }
    for (size_t i = 0; i < n && c->is_v3; i++) {
        if (c->plan.is_candidate[i] && !keeps_lineage(c, i)) {
            c->plan.is_candidate[i] = false;
            c->n_no_lineage++;
        }
    }
    if (read_position_deletes(c))
        return FLOE_EFAIL;
    c->applied = floe_xcalloc(n + 1, sizeof(*c->applied));
    for (size_t i = 0; i < n; i++) {
        c->applied[i].dv = -1;
        if (c->plan.is_candidate[i] && apply_deletes(c, i))
            return FLOE_EFAIL;
    }
    ptrs = floe_xcalloc(n + 1, sizeof(*ptrs));
    for (size_t i = 0; i < n; i++)
        ptrs[i] = c->plan.is_candidate[i] ? &c->footers[i] : NULL;
    if (c->is_v3)
        c->plan.max_rows = FLOE_COMPACT_LINEAGE_ROWS_MAX; /* lineage columns are built in memory */
    floe_compact_pack(&c->plan, c->first.files, ptrs);
    free(ptrs);
    return FLOE_OK;
}

/* ---- phase 1: writing the new files ------------------------------------------------------ */

/* One bin's open inputs. */
typedef struct bin_io {
    int *fds;
    uint8_t **index;
    floe_compact_source_t *sources;
    const floe_iceberg_data_file_t **inputs;
    group_rewrite_t **groups;                   /* per input: its rewritten row groups, or NULL */
    const floe_compact_rewrite_t ***rewrites;   /* per input: per row group, for the stitch */
    uint32_t *n_groups;
    size_t n;
} bin_io_t;

static void bin_io_init(bin_io_t *io, size_t n)
{
    io->n = n;
    io->fds = floe_xmalloc((n + 1) * sizeof(*io->fds));
    for (size_t k = 0; k < n; k++)
        io->fds[k] = -1;
    io->index = floe_xcalloc(n + 1, sizeof(*io->index));
    io->sources = floe_xcalloc(n + 1, sizeof(*io->sources));
    io->inputs = floe_xcalloc(n + 1, sizeof(*io->inputs));
    io->groups = floe_xcalloc(n + 1, sizeof(*io->groups));
    io->rewrites = floe_xcalloc(n + 1, sizeof(*io->rewrites));
    io->n_groups = floe_xcalloc(n + 1, sizeof(*io->n_groups));
}

static void bin_io_dispose(bin_io_t *io)
{
    for (size_t k = 0; k < io->n; k++) {
        if (io->fds[k] >= 0)
            close(io->fds[k]);
        free(io->index[k]);
        for (uint32_t g = 0; io->groups[k] != NULL && g < io->n_groups[k]; g++)
            group_rewrite_dispose(&io->groups[k][g]);
        free(io->groups[k]);
        free(io->rewrites[k]);
    }
    free(io->groups);
    free(io->rewrites);
    free(io->n_groups);
    free(io->fds);
    free(io->index);
    free(io->sources);
    free(io->inputs);
}

/* Writes again the row groups of input k (file i) its vector deletes part of (design note 8). */
static int rewrite_groups(compaction_t *c, bin_io_t *io, size_t k, size_t i)
{
    const floe_parquet_file_metadata_t *footer = &c->footers[i];
    char why[FLOE_COMPACT_REASON_MAX] = "";

    io->n_groups[k] = footer->n_row_groups;
    io->groups[k] = floe_xcalloc(footer->n_row_groups + 1, sizeof(*io->groups[k]));
    io->rewrites[k] = floe_xcalloc(footer->n_row_groups + 1, sizeof(*io->rewrites[k]));
    for (uint32_t g = 0; g < footer->n_row_groups; g++) {
        if (!c->applied[i].is_partial[g])
            continue;
        if (rewrite_group(c, i, io->fds[k], g, &io->groups[k][g], why, sizeof(why)))
            return floe_job_fail(c->job, "cannot apply the deletes of %s: %s", io->inputs[k]->file_path, why);
        io->rewrites[k][g] = &io->groups[k][g].rw;
    }
    io->sources[k].rewrites = io->rewrites[k];
    return FLOE_OK;
}

/* Opens input k of the bin and reads its page indexes and bloom filters (compact.h note 2). */
static int open_input(compaction_t *c, bin_io_t *io, size_t k, size_t i)
{
    floe_compact_source_t *src = &io->sources[k];
    floe_parquet_range_t range;
    uint64_t size = 0;

    io->inputs[k] = c->first.files[i].file;
    if (floe_job_open_object(c->job, io->inputs[k]->file_path, &io->fds[k], &size))
        return FLOE_EFAIL;
    src->footer = &c->footers[i];
    src->footer_offset = c->footer_offsets[i];
    if (c->is_v3) {
        bool has_both = false, is_complete = false;
        const floe_iceberg_manifest_entry_t *e =
            &c->first.manifests[c->first.file_manifest[i]].entries[c->first.file_entry[i]];
        floe_compact_lineage_inspect(src->footer, &has_both, &is_complete);
        src->has_lineage = !has_both; /* inherited: write it out (compact.h design note 4) */
        src->first_row_id = e->file.first_row_id;
        src->sequence_number = e->sequence_number;
    }
    src->is_dropped = c->applied[i].is_dropped; /* design note 8 */
    if (c->applied[i].is_partial != NULL && rewrite_groups(c, io, k, i))
        return FLOE_EFAIL;
    range = floe_compact_index_range(src->footer, src->footer_offset);
    if (range.length == 0)
        return FLOE_OK;
    io->index[k] = floe_xmalloc((size_t)range.length);
    if (read_at(io->fds[k], io->index[k], (size_t)range.length, range.offset))
        return floe_job_fail(c->job, "cannot read %s: %s", io->inputs[k]->file_path, strerror(errno));
    src->index_bytes = io->index[k];
    src->index_offset = range.offset;
    src->index_len = (size_t)range.length;
    return FLOE_OK;
}

/* Writes the layout's pieces as a new data file; *location is its s3:// location. */
static int write_layout(compaction_t *c, const bin_io_t *io, const floe_compact_layout_t *l, char **location)
{
    floe_job_writer_t w;
    char *dir = floe_xmalloc(strlen(c->table_dir) + sizeof("data/"));
    char *key;
    int rc = FLOE_OK;

    sprintf(dir, "%sdata/", c->table_dir);
    key = floe_job_fresh_key(dir, ".parquet");
    free(dir);
    if (floe_job_writer_open(c->job, &w)) {
        free(key);
        return FLOE_EFAIL;
    }
    for (size_t p = 0; p < l->n_pieces && rc == FLOE_OK; p++) {
        const floe_compact_piece_t *piece = &l->pieces[p];
        uint64_t off = piece->offset;
        rc = piece->source == FLOE_COMPACT_LITERAL
                 ? floe_job_writer_append(&w, piece->data, (size_t)piece->length)
                 : floe_job_writer_copy_fd(&w, io->fds[piece->source], &off, piece->length);
    }
    if (rc != FLOE_OK)
        floe_job_writer_discard(&w);
    else
        rc = floe_job_writer_finish(&w, key, location);
    free(key);
    return rc;
}

/* Records the vector and position delete files applied to input k (file i) and, when they dropped
 * rows, gives the merge a copy of the input's entry with the rows it keeps and no counts (design
 * notes 8 and 9). */
static void note_vector(compaction_t *c, output_t *out, size_t k, size_t i, const floe_iceberg_data_file_t **input)
{
    const applied_t *ap = &c->applied[i];
    floe_iceberg_data_file_t *kept;

    out->n_pd[k] = ap->n_pd;
    out->pd_paths[k] = floe_xcalloc(ap->n_pd + 1, sizeof(*out->pd_paths[k]));
    for (size_t j = 0; j < ap->n_pd; j++)
        out->pd_paths[k][j] = c->posdels[ap->pd[j]].path;
    if (ap->dv >= 0) {
        out->dv_paths[k] = c->first.files[ap->dv].file->file_path;
        out->dv_offsets[k] = c->first.files[ap->dv].file->content_offset;
    }
    if (ap->dropped_rows == 0)
        return;
    kept = arena_alloc(c->arena, 1, sizeof(*kept));
    *kept = **input;
    kept->record_count -= ap->dropped_rows;
    kept->n_column_sizes = kept->n_value_counts = kept->n_null_value_counts = kept->n_nan_value_counts = 0;
    *input = kept;
}

static int write_output(compaction_t *c, const floe_compact_bin_t *bin, output_t *out)
{
    bin_io_t io;
    floe_iceberg_error_t err = {0};
    int rc = FLOE_EFAIL;

    bin_io_init(&io, bin->n_files);
    out->first = &c->first.files[bin->files[0]];
    out->inputs = floe_xcalloc(bin->n_files + 1, sizeof(*out->inputs));
    out->dv_paths = floe_xcalloc(bin->n_files + 1, sizeof(*out->dv_paths));
    out->dv_offsets = floe_xcalloc(bin->n_files + 1, sizeof(*out->dv_offsets));
    out->pd_paths = floe_xcalloc(bin->n_files + 1, sizeof(*out->pd_paths));
    out->n_pd = floe_xcalloc(bin->n_files + 1, sizeof(*out->n_pd));
    out->n_inputs = bin->n_files;
    for (size_t k = 0; k < io.n; k++) {
        out->inputs[k] = c->first.files[bin->files[k]].file->file_path;
        if (open_input(c, &io, k, bin->files[k]))
            goto Exit;
        note_vector(c, out, k, bin->files[k], &io.inputs[k]);
    }
    if (floe_compact_stitch(io.sources, io.n, &out->layout, &err) != 0) {
        floe_job_fail(c->job, "cannot stitch %s and %zu other files: %s", out->inputs[0], io.n - 1, err.message);
        goto Exit;
    }
    if (out->layout.num_rows == 0) { /* design note 8: nothing left to write */
        out->is_empty = true;
        rc = FLOE_OK;
        goto Exit;
    }
    if (write_layout(c, &io, &out->layout, &out->location))
        goto Exit;
    if (floe_compact_merge(io.inputs, io.n, c->types, c->n_types, &out->layout, out->location, c->arena, &out->file,
                           &err) != 0) {
        floe_job_fail(c->job, "%s", err.message);
        goto Exit;
    }
    rc = FLOE_OK;
Exit:
    bin_io_dispose(&io);
    return rc;
}

static int write_outputs(compaction_t *c)
{
    c->outputs = floe_xcalloc(c->plan.n_bins + 1, sizeof(*c->outputs));
    for (size_t b = 0; b < c->plan.n_bins; b++) {
        if (floe_job_is_stopping(c->job))
            return floe_job_fail(c->job, "stopped: the server is shutting down");
        c->n_outputs++;
        if (write_output(c, &c->plan.bins[b], &c->outputs[b]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* ---- phase 2: which outputs still apply -------------------------------------------------- */

typedef struct path_index {
    const char *path;
    size_t file;
} path_index_t;

static int compare_paths(const void *a, const void *b)
{
    return strcmp(((const path_index_t *)a)->path, ((const path_index_t *)b)->path);
}

/* Whether the view has an equality delete file that may apply to `f`'s partition. */
static bool has_equality_deletes_for(const view_t *v, const floe_compact_file_t *f)
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
static bool same_vector(const view_t *v, const output_t *o, size_t k)
{
    long d = vector_of(v, o->inputs[k]);

    if (o->dv_paths[k] == NULL)
        return d == -1;
    return d >= 0 && strcmp(v->files[d].file->file_path, o->dv_paths[k]) == 0 &&
           v->files[d].file->content_offset == o->dv_offsets[k];
}

/* Whether the position delete files that apply to input k of o (view file i) are exactly those
 * phase 1 applied (design note 9): a client that deleted more rows meanwhile wins. */
static bool same_position_deletes(const view_t *v, const output_t *o, size_t k, size_t i)
{
    size_t n = 0;

    for (size_t d = 0; d < v->n_files; d++) {
        bool is_known = false;
        if (!pos_applies(v, d, i))
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
static bool keep_output(attempt_t *a, const output_t *o, const path_index_t *paths)
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
        const posdel_t *p;
        bool is_all = true;
        if (f->content != FLOE_ICEBERG_CONTENT_POSITION_DELETES || floe_compact_is_deletion_vector(f))
            continue;
        p = find_posdel(a->c, f->file_path);
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
    const compaction_t *c = a->c;
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
            long d = vector_of(&a->view, c->outputs[o].inputs[k]);
            a->is_replaced[((const path_index_t *)bsearch(&key, paths, a->view.n_files, sizeof(*paths),
                                                          compare_paths))->file] = true;
            if (d >= 0)
                a->is_replaced[d] = true; /* the applied vector goes with its file (design note 8) */
        }
    }
    remove_position_deletes(a, paths);
    free(paths);
}

/* ---- phase 2: manifests ------------------------------------------------------------------ */

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
            types[j] = type_of(a->c, (int32_t)floe_iceberg_metadata_int(f, "source-id", -1));
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
    mf->partitions = arena_alloc(a->arena, n, sizeof(*mf->partitions));
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
    m->entries = arena_alloc(a->arena, n, sizeof(*m->entries));
    m->n_entries = 0;
    m->arena = NULL;
}

/* Rewrites manifest i with its replaced files DELETED and its other live files EXISTING (the
 * snapshot writer's rewrite, design note 3), then appends its list entry. */
static int rewrite_manifest(attempt_t *a, size_t i)
{
    const view_t *v = &a->view;
    const floe_iceberg_manifest_t *old = &v->manifests[i];
    floe_iceberg_manifest_file_t *mf = &a->out_files[a->n_out_files];
    bool *removed = arena_alloc(a->arena, old->n_entries, sizeof(bool));
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

static int32_t spec_of(const compaction_t *c, size_t o)
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
    const compaction_t *c = a->c;
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
    const view_t *v = &a->view;

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

/* ---- phase 2: the snapshot --------------------------------------------------------------- */

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
    const compaction_t *c = a->c;
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
    view_dispose(&a->view);
}

static int commit_attempt(attempt_t *a, const char *json, cJSON **updates, cJSON **requirements)
{
    char *list_location = NULL;

    if (view_load(a->c->job, json, &a->view))
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
static int plan_commit(floe_job_t *job, const char *json, const char *location, cJSON **updates,
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

/* ---- the job ----------------------------------------------------------------------------- */

/* Deletes the new files no commit references (design note 2); the job's figures do not count them. */
static void drop_uncommitted(compaction_t *c, bool committed)
{
    const char **drop = floe_xcalloc(c->n_outputs + 1, sizeof(*drop));
    floe_job_stats_t saved = c->job->stats;
    size_t n = 0;

    for (size_t o = 0; o < c->n_outputs; o++) {
        if (c->outputs[o].location != NULL && !(committed && c->outputs[o].is_committed))
            drop[n++] = c->outputs[o].location;
    }
    if (n > 0)
        floe_job_delete_objects(c->job, drop, n);
    c->job->stats.files_deleted = saved.files_deleted;
    c->job->stats.bytes_deleted = saved.bytes_deleted;
    free(drop);
}

/* Whether AWS would run `strategy` otherwise than binpack (design note 6): sort and z-order
 * always, auto when the table has a sort order (AWS's auto then sorts). */
static bool runs_differently(const compaction_t *c, const char *strategy)
{
    const cJSON *order, *fields;

    if (strategy == NULL || strcasecmp(strategy, "binpack") == 0)
        return false;
    if (strcasecmp(strategy, "auto") != 0)
        return true;
    if (!c->first.has_snapshot)
        return false;
    order = floe_iceberg_metadata_sort_order(&c->first.md, c->first.md.default_sort_order_id);
    fields = order != NULL ? cJSON_GetObjectItemCaseSensitive(order, "fields") : NULL;
    return cJSON_GetArraySize(fields) > 0;
}

/* What the job says on success: what it did, what it skipped, how it ran the strategy. */
static void note(compaction_t *c, bool committed)
{
    floe_job_stats_t *st = &c->job->stats;
    const char *strategy = c->job->settings.strategy;
    size_t used, max = sizeof(st->message);

    if (!committed)
        used = (size_t)snprintf(st->message, max, "nothing to compact");
    else
        used = (size_t)snprintf(st->message, max, "compacted %zu data files into %zu", c->n_replaced, c->n_written);
    if (c->n_kept < c->n_outputs && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu new files dropped, their inputs changed while the job ran",
                                 c->n_outputs - c->n_kept);
    if (committed && c->n_dv_kept > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used, "; applied %zu deletion vectors", c->n_dv_kept);
    if (committed && c->n_pd_applied > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; applied the position deletes of %zu data files, %zu position delete files removed",
                                 c->n_pd_applied, c->n_pd_removed);
    if (c->n_partial_dv > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their deletion vectors cannot be applied (%s)", c->n_partial_dv,
                                 c->partial_reason);
    if (c->n_partial_pd > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their position delete files cannot be applied (%s)",
                                 c->n_partial_pd, c->pd_reason);
    if (c->n_no_lineage > 0 && used < max)
        used += (size_t)snprintf(st->message + used, max - used,
                                 "; %zu files skipped, their rows' row ids cannot be kept (no first row id, or "
                                 "row lineage columns with nulls)", c->n_no_lineage);
    if (runs_differently(c, strategy) && used < max)
        used += (size_t)snprintf(st->message + used, max - used, "; strategy %s ran as binpack", strategy);
    for (size_t i = 0; i < c->plan.n_skipped && used < max; i++)
        used += (size_t)snprintf(st->message + used, max - used, "; %s", c->plan.skipped[i].reason);
}

/* Phase 1 (design note 1): reads the current snapshot and writes the new files. */
static int prepare(compaction_t *c)
{
    int32_t mb = c->job->settings.target_file_size_mb > 0 ? c->job->settings.target_file_size_mb : DEFAULT_TARGET_MB;
    char *json = NULL, *location = NULL, *token = NULL;
    int rc;

    if (floe_job_read_metadata(c->job, &json, &location, &token))
        return FLOE_EFAIL;
    rc = json == NULL ? floe_job_fail(c->job, "the table has no metadata yet") : view_load(c->job, json, &c->first);
    free(json);
    free(location);
    free(token);
    if (rc != FLOE_OK || !c->first.has_snapshot)
        return rc;
    c->is_v3 = c->first.md.format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION; /* design note 7 */
    if (find_table_dir(c) || index_schema(c) || plan_bins(c, (uint64_t)mb * MIB))
        return FLOE_EFAIL;
    c->arena = floe_parquet_arena_new(SIZE_MAX);
    return write_outputs(c);
}

static void compaction_dispose(compaction_t *c)
{
    for (size_t o = 0; o < c->n_outputs; o++) {
        floe_compact_layout_dispose(&c->outputs[o].layout);
        free(c->outputs[o].inputs);
        free(c->outputs[o].dv_paths);
        free(c->outputs[o].dv_offsets);
        for (size_t k = 0; c->outputs[o].pd_paths != NULL && k < c->outputs[o].n_inputs; k++)
            free(c->outputs[o].pd_paths[k]);
        free(c->outputs[o].pd_paths);
        free(c->outputs[o].n_pd);
        free(c->outputs[o].location);
    }
    for (size_t i = 0; c->footers != NULL && i < c->first.n_files; i++)
        floe_parquet_file_metadata_dispose(&c->footers[i]);
    for (size_t i = 0; c->applied != NULL && i < c->first.n_files; i++) {
        free(c->applied[i].is_dropped);
        free(c->applied[i].is_partial);
        free(c->applied[i].positions);
        free(c->applied[i].pd);
    }
    free(c->applied);
    for (size_t k = 0; k < c->n_posdels; k++)
        floe_iceberg_pos_deletes_dispose(&c->posdels[k].rows);
    free(c->posdels);
    floe_compact_plan_dispose(&c->plan);
    floe_iceberg_schema_index_dispose(&c->schema);
    floe_parquet_arena_free(c->arena);
    view_dispose(&c->first);
    free(c->outputs);
    free(c->footers);
    free(c->footer_offsets);
    free(c->types);
    free(c->type_text);
    free(c->table_dir);
}

int floe_maintenance_compaction_run(floe_job_t *job)
{
    compaction_t c = {.job = job};
    bool committed = false;
    int rc = prepare(&c);

    if (rc == FLOE_OK && c.n_outputs > 0)
        rc = floe_job_commit(job, plan_commit, &c, &committed);
    drop_uncommitted(&c, rc == FLOE_OK && committed);
    if (rc == FLOE_OK)
        note(&c, committed);
    compaction_dispose(&c);
    return rc;
}
