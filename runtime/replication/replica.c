/*
 * The replication work of replica.h: taking a queued source commit, preparing each destination's
 * replica, copying what it lacks, and moving its metadata pointer (design notes in replica.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "background/object_door.h"
#include "base/failure.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "call/transaction.h"
#include "catalog/lookup.h"
#include "catalog/namespace.h"
#include "catalog/replication.h"
#include "catalog/replication_queue.h"
#include "catalog/table.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_schema.h"
#include "replication/prune.h"
#include "replication/replica.h"
#include "replication/rewrite.h"
#include "store/store.h"

#define TABLE_FORMAT "ICEBERG"
#define METADATA_CONTENT_TYPE "application/json"
#define ERR_MAX 512
#define FILE_MAX ((size_t)1 << 30) /* metadata files read into memory; larger ones are refused */
#define FILE_COLUMN_ID 2147483646  /* the _file metadata column (spec: Reserved Field IDs) */

/* The queued commit being replicated; strings malloc'ed (a step's pool dies with the step). */
typedef struct job {
    floe_background_t *bg;
    const floe_config_t *config;
    int64_t work_id;
    char *metadata_location; /* the source state to replicate */
    bool is_skipped;         /* the source is gone, or nothing covers it any more */
    int64_t table_id;
    char *source_arn, *namespace_name, *name, *warehouse, *location; /* location: "s3://<warehouse>" */
    int64_t store_bucket;    /* the source warehouse's store bucket id */
    char **destinations;
    size_t n_destinations;
} job_t;

/* One destination's replica while it is copied. */
typedef struct copy {
    job_t *job;
    const char *destination;
    floe_scope_t scope;      /* the destination's account and region */
    bool is_current;         /* the replica already holds the job's state */
    char *replica_arn, *replica_warehouse;
    char *replica_pointer;   /* the replica's metadata location before this copy; NULL for none */
    int64_t replica_store_bucket;
    floe_rewrite_t rw;
    const cJSON *metadata;   /* the source metadata being copied */
    char **copied;           /* Puffin files copied by this copy (one holds many vectors), and */
    int64_t *copied_sizes;   /* their sizes */
    size_t n_copied;
    bool is_failed, is_aborted;
    char err[ERR_MAX];
} copy_t;

/* Records why the copy failed (the first reason wins). */
static int copy_fail(copy_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int copy_fail(copy_t *c, const char *fmt, ...)
{
    va_list ap;

    if (!c->is_failed) {
        va_start(ap, fmt);
        vsnprintf(c->err, sizeof(c->err), fmt, ap);
        va_end(ap);
    }
    c->is_failed = true;
    return FLOE_EFAIL;
}

/* Records why a step failed, and notes a stopping server (design note 1). */
static int step_failed(copy_t *c, const char *message)
{
    if (floe_background_is_stopping(c->job->bg))
        c->is_aborted = true;
    return copy_fail(c, "%s", message);
}

/* Runs a step; on failure records its message (step_failed). */
static int run_step(copy_t *c, const floe_scope_t *scope, floe_background_fn fn, void *arg)
{
    floe_background_error_t err;

    if (floe_background_call(c->job->bg, scope, fn, arg, &err) == FLOE_OK)
        return 0;
    return step_failed(c, err.message);
}

/* The door to a warehouse's objects by store bucket id (object_door.h). */
static floe_object_door_t door_to(const copy_t *c, int64_t bucket_id)
{
    return (floe_object_door_t){.bg = c->job->bg, .data_dir = c->job->config->data_dir, .bucket_id = bucket_id,
                                .who = "replication"};
}

/* ---- taking work ---- */

/* Adds the destinations of one configuration, each once. */
static void add_destinations(job_t *job, const floe_replication_rule_t *rules, size_t n_rules)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            const char *arn = rules[r].destination_arns[i];
            size_t k = 0;
            while (k < job->n_destinations && strcmp(job->destinations[k], arn) != 0)
                k++;
            if (k < job->n_destinations)
                continue;
            job->destinations = floe_xrealloc(job->destinations, (job->n_destinations + 1) * sizeof(char *));
            job->destinations[job->n_destinations++] = floe_xstrdup(arn);
        }
    }
}

static int step_take(floe_call_t *call, void *arg)
{
    job_t *job = arg;
    floe_replication_work_t work;
    floe_replication_source_t src;
    floe_replication_rule_t *rules;
    floe_store_bucket_t warehouse;
    size_t n_rules;
    bool found;

    if (floe_replication_queue_next(call, &work, &found))
        return FLOE_EFAIL;
    if (!found)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REPLICATION, "The replication queue is empty.");
    job->work_id = work.id;
    job->metadata_location = floe_xstrdup(work.metadata_location);
    if (floe_replication_source_read(call, work.table_id, &src, &found))
        return FLOE_EFAIL;
    if (!found || floe_store_bucket_get(call->state, call->pool, src.warehouse, &warehouse) != FLOE_OK) {
        job->is_skipped = true; /* the source was deleted: its replicas stay as they are */
        return FLOE_OK;
    }
    job->table_id = src.table_id;
    job->source_arn = floe_xstrdup(src.arn);
    job->namespace_name = floe_xstrdup(src.namespace_name);
    job->name = floe_xstrdup(src.name);
    job->warehouse = floe_xstrdup(src.warehouse);
    job->store_bucket = warehouse.id;
    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_TABLE, src.table_id, &rules, &n_rules))
        return FLOE_EFAIL;
    add_destinations(job, rules, n_rules);
    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, src.bucket_id, &rules, &n_rules))
        return FLOE_EFAIL;
    add_destinations(job, rules, n_rules);
    job->is_skipped = job->n_destinations == 0; /* the configuration was deleted meanwhile */
    return FLOE_OK;
}

static int step_done(floe_call_t *call, void *arg)
{
    return floe_replication_queue_done(call, *(int64_t *)arg);
}

static void job_dispose(job_t *job)
{
    free(job->metadata_location);
    free(job->source_arn);
    free(job->namespace_name);
    free(job->name);
    free(job->warehouse);
    free(job->location);
    for (size_t i = 0; i < job->n_destinations; i++)
        free(job->destinations[i]);
    free(job->destinations);
}

/* ---- preparing a destination's replica (design note 2) ---- */

static int on_replica_created(floe_call_t *call, int64_t table_row_id, int64_t bucket_row_id, const void *ctx)
{
    (void)bucket_row_id;
    return floe_replication_mark_replica(call, table_row_id, ((const copy_t *)ctx)->job->source_arn);
}

/* Clears a miss the step has handled, so it does not read as the step's failure. */
static void clear_miss(floe_call_t *call)
{
    floe_call_clear_failure(call);
}

/* The destination's namespace, created when it is missing. */
static int ensure_namespace(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                            floe_namespace_row_t *ns)
{
    bool is_taken;

    if (floe_lookup_namespace(call, bucket, name, ns) == FLOE_OK)
        return FLOE_OK;
    if (call->failure.code != FLOE_ENOTFOUND)
        return FLOE_EFAIL;
    clear_miss(call);
    if (floe_namespace_insert(call, bucket->id, name, ns, &is_taken))
        return FLOE_EFAIL;
    return is_taken ? floe_lookup_namespace(call, bucket, name, ns) : FLOE_OK;
}

/* The replica table, created when it is missing; refused when the name holds another table. */
static int ensure_replica(floe_call_t *call, copy_t *c, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                          floe_table_row_t *t)
{
    floe_table_draft_t draft;
    char *source_arn;

    if (floe_lookup_table_in(call, bucket, ns, c->job->name, t) == FLOE_OK) {
        if (floe_replication_source_of(call, t->id, &source_arn))
            return FLOE_EFAIL;
        if (source_arn == NULL || strcmp(source_arn, c->job->source_arn) != 0)
            return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE,
                             "The destination table bucket already has a table %s.%s that is not a replica of the "
                             "source table.", ns->name, c->job->name);
        return FLOE_OK;
    }
    if (call->failure.code != FLOE_ENOTFOUND)
        return FLOE_EFAIL;
    clear_miss(call);
    switch (floe_table_draft(call, bucket, ns, c->job->name, TABLE_FORMAT, &draft)) {
    case FLOE_OK: break;
    case FLOE_EFAIL: return FLOE_EFAIL;
    default: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, "The replica table's name was taken meanwhile.");
    }
    switch (floe_table_insert(call, &draft, on_replica_created, c)) {
    case FLOE_OK: break;
    case FLOE_EFAIL: return FLOE_EFAIL;
    default: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, "The replica table's name was taken meanwhile.");
    }
    return floe_lookup_table_in(call, bucket, ns, c->job->name, t);
}

/* Whether the replica holds the job's state already (a replayed step, design note 4). */
static int is_current(floe_call_t *call, copy_t *c, const floe_table_row_t *t, bool *out)
{
    floe_replication_status_row_t status;
    const char *key = floe_rewrite_key(c->job->location, c->job->metadata_location);

    *out = false;
    if (floe_replication_status_read(call, c->job->table_id, c->destination, &status))
        return FLOE_EFAIL;
    if (!status.is_known || status.is_failed || status.last_metadata_location == NULL || key == NULL ||
        t->metadata_location == NULL || strcmp(status.last_metadata_location, c->job->metadata_location) != 0)
        return FLOE_OK;
    *out = strcmp(t->metadata_location, floe_call_printf(call, "s3://%s/%s", t->warehouse_bucket, key)) == 0;
    return FLOE_OK;
}

static int step_prepare(floe_call_t *call, void *arg)
{
    copy_t *c = arg;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t t;
    floe_store_bucket_t warehouse;

    if (floe_lookup_bucket(call, c->destination, &bucket)) {
        if (call->failure.code != FLOE_ENOTFOUND)
            return FLOE_EFAIL;
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_BUCKET,
                         "The destination table bucket %s does not exist on this server.", c->destination);
    }
    if (ensure_namespace(call, &bucket, c->job->namespace_name, &ns) || ensure_replica(call, c, &bucket, &ns, &t) ||
        is_current(call, c, &t, &c->is_current))
        return FLOE_EFAIL;
    if (floe_store_bucket_get(call->state, call->pool, t.warehouse_bucket, &warehouse) != FLOE_OK)
        return floe_fail_internal(call, "the replica's warehouse bucket is missing");
    c->replica_arn = floe_xstrdup(t.arn);
    c->replica_warehouse = floe_xstrdup(t.warehouse_bucket);
    c->replica_pointer = t.metadata_location != NULL ? floe_xstrdup(t.metadata_location) : NULL;
    c->replica_store_bucket = warehouse.id;
    return FLOE_OK;
}

/* ---- the store steps ---- */

typedef struct share_step {
    int64_t from, to;
    char **keys;
    size_t n;
} share_step_t;

static int step_share(floe_call_t *call, void *arg)
{
    share_step_t *s = arg;

    for (size_t i = 0; i < s->n; i++) {
        switch (floe_store_object_share(call->state, call->config->data_dir, s->from, s->keys[i], s->to, s->keys[i],
                                        floe_call_now(call))) {
        case FLOE_OK: break;
        case FLOE_ENOTFOUND:
            return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_OBJECT,
                             "The source table's file %s is missing.", s->keys[i]);
        default: return floe_fail_internal(call, "cannot share a data file");
        }
    }
    return FLOE_OK;
}

/* ---- reading and writing files (off the event loop) ---- */

/* Looks key up in a warehouse. 0, or -1 with the copy failed. */
static int find(copy_t *c, int64_t bucket_id, const char *key, floe_object_door_found_t *f)
{
    floe_object_door_t door = door_to(c, bucket_id);
    floe_background_error_t err;

    if (floe_object_door_find(&door, &key, 1, f, &err) != FLOE_OK)
        return step_failed(c, err.message);
    return 0;
}

/* Reads a source file whole (NUL-terminated). *found false when no object has the key. */
static int read_source(copy_t *c, const char *key, uint8_t **data, size_t *len, bool *found)
{
    floe_object_door_t door = door_to(c, c->job->store_bucket);
    floe_object_door_found_t f;

    if (find(c, c->job->store_bucket, key, &f))
        return FLOE_EFAIL;
    *found = f.is_found;
    if (!f.is_found)
        return FLOE_OK;
    if ((size_t)f.size > FILE_MAX)
        return copy_fail(c, "The source table's file %s could not be read.", key);
    switch (floe_object_door_read(&door, &f, data)) {
    case FLOE_OK: break;
    case FLOE_EIO:
        if (errno != 0) /* 0: shorter than its row, which says nothing more */
            return copy_fail(c, "The source table's file %s could not be read: %s", key, strerror(errno));
        return copy_fail(c, "The source table's file %s could not be read.", key);
    default: return copy_fail(c, "The source table's file %s could not be read.", key);
    }
    *len = (size_t)f.size;
    return FLOE_OK;
}

/* Writes a new replica file under `key`: published here, committed by a step (design note 4). */
static int publish(copy_t *c, const char *key, const void *data, size_t len, const char *content_type)
{
    floe_object_door_t door = door_to(c, c->replica_store_bucket);
    floe_store_object_t obj = {0};
    floe_store_blob_t blob;
    int rc;
    floe_background_error_t err;
    char etag[33];
    int ret = 0;

    if (floe_store_blob_put(c->job->config->data_dir, data, len, &blob, etag))
        return copy_fail(c, "A replica file could not be written.");
    obj.key = (char *)key;
    memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
    obj.size = (int64_t)len;
    obj.etag = etag;
    obj.content_type = (char *)content_type;
    if (floe_object_door_commit(&door, &obj, false, &rc, &err) != FLOE_OK)
        ret = step_failed(c, err.message);
    else if (rc == FLOE_ENOTFOUND)
        ret = step_failed(c, "The replica's warehouse is gone.");
    if (ret != 0)
        floe_store_blob_discard(&blob);
    return ret;
}

/* ---- copying manifests, manifest lists and metadata (design notes 3 and 5) ---- */

/* Strings a rewrite allocated, freed once the rewritten file is written. */
typedef struct owned {
    char **items;
    size_t n;
} owned_t;

static char *own(owned_t *o, char *s)
{
    o->items = floe_xrealloc(o->items, (o->n + 1) * sizeof(char *));
    o->items[o->n++] = s;
    return s;
}

static void owned_free(owned_t *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->items[i]);
    free(o->items);
}

/* A v3 deletion vector names its data file (referenced_data_file): under the replica's warehouse
 * too. */
static void rewrite_referenced_file(copy_t *c, floe_iceberg_data_file_t *f, owned_t *o)
{
    char *path;

    if (f->referenced_data_file != NULL && (path = floe_rewrite_path(&c->rw, f->referenced_data_file)) != NULL)
        f->referenced_data_file = own(o, path);
}

/* ---- delete files that name data files (design note 7) ---- */

/* Writes the replica's own copy of a delete file under `key` unless the replica holds exactly
 * these bytes (a replay, or another manifest naming the same file: the copy is made from the
 * immutable source the same way each time). A copy that differs, such as one an older Floe
 * shared unchanged, is replaced. */
static int publish_copy(copy_t *c, const char *key, const uint8_t *bytes, size_t len)
{
    floe_object_door_t door = door_to(c, c->replica_store_bucket);
    floe_object_door_found_t f;
    uint8_t *held = NULL;
    bool is_same;

    if (find(c, c->replica_store_bucket, key, &f))
        return FLOE_EFAIL;
    if (f.is_found && (size_t)f.size == len && floe_object_door_read(&door, &f, &held) == FLOE_OK) {
        is_same = memcmp(held, bytes, len) == 0;
        free(held);
        if (is_same)
            return FLOE_OK;
    }
    return publish(c, key, bytes, len, NULL);
}

/* Index of field_id's bound, or -1. */
static long bound_of(const floe_iceberg_bound_t *bounds, size_t n, int32_t field_id)
{
    for (size_t i = 0; i < n; i++) {
        if (bounds[i].field_id == field_id)
            return (long)i;
    }
    return -1;
}

static void drop_bound(floe_iceberg_bound_t *bounds, size_t *n, long i)
{
    if (i < 0)
        return;
    memmove(&bounds[i], &bounds[i + 1], (*n - (size_t)i - 1) * sizeof(*bounds));
    (*n)--;
}

/* Moves or drops (floe_rewrite_path_bounds) the bounds of field id `id`, which hold data file paths. */
static void move_path_bounds(copy_t *c, floe_iceberg_data_file_t *f, int32_t id, owned_t *o)
{
    long lo = bound_of(f->lower_bounds, f->n_lower_bounds, id), hi = bound_of(f->upper_bounds, f->n_upper_bounds, id);
    char *lower, *upper;

    if (lo >= 0 && hi >= 0 &&
        floe_rewrite_path_bounds(&c->rw, &f->lower_bounds[lo].value, &f->upper_bounds[hi].value, &lower, &upper)) {
        f->lower_bounds[lo].value = (floe_iceberg_bytes_t){(uint8_t *)own(o, lower), strlen(lower)};
        f->upper_bounds[hi].value = (floe_iceberg_bytes_t){(uint8_t *)own(o, upper), strlen(upper)};
    } else {
        drop_bound(f->lower_bounds, &f->n_lower_bounds, lo);
        drop_bound(f->upper_bounds, &f->n_upper_bounds, hi);
    }
}

/* The entry of a rewritten position delete file: the new column sizes (a column the new file
 * lacks loses its entry), the file_path bounds moved or dropped. DuckDB 1.4 keys those bounds by
 * 2147483646 (the _file metadata column's id), so bounds of that id move or drop too. */
static void describe_position_deletes(copy_t *c, floe_iceberg_data_file_t *f, const floe_parquet_mapped_t *m,
                                      owned_t *o)
{
    size_t kept = 0;

    for (size_t i = 0; i < f->n_column_sizes; i++) {
        for (size_t j = 0; j < m->n_sizes; j++) {
            if (m->field_ids[j] == f->column_sizes[i].field_id) {
                f->column_sizes[kept++] = (floe_iceberg_count_t){m->field_ids[j], m->sizes[j]};
                break;
            }
        }
    }
    f->n_column_sizes = kept;
    move_path_bounds(c, f, FLOE_REWRITE_DELETE_FILE_PATH_ID, o);
    move_path_bounds(c, f, FILE_COLUMN_ID, o);
    f->n_split_offsets = 0; /* the row groups moved; an offset is optional, a wrong one is not */
}

/* Makes the replica's own copy of the position delete file `key` (its entry f), whose contents
 * name data files of the source's warehouse, and describes it in f. */
static int copy_delete_file(copy_t *c, const char *key, floe_iceberg_data_file_t *f, owned_t *o)
{
    const char *format = f->file_format != NULL ? f->file_format : "";
    bool is_puffin = strcasecmp(format, "PUFFIN") == 0;
    floe_parquet_mapped_t mapped = {0};
    uint8_t *data = NULL, *out = NULL;
    size_t len = 0, out_len = 0;
    bool found;
    char err[ERR_MAX];
    int rc = FLOE_EFAIL;

    if (!is_puffin && strcasecmp(format, "PARQUET") != 0)
        return copy_fail(c, "The source table's position delete file %s is in %s format, whose data file paths "
                         "replication cannot rewrite.", key, format);
    for (size_t i = 0; is_puffin && i < c->n_copied; i++) {
        if (strcmp(c->copied[i], key) == 0) {
            f->file_size_in_bytes = c->copied_sizes[i];
            return FLOE_OK;
        }
    }
    if (read_source(c, key, &data, &len, &found))
        return FLOE_EFAIL;
    if (!found)
        return copy_fail(c, "The source table's file %s is missing.", key);
    if (is_puffin && floe_rewrite_puffin(&c->rw, data, len, &out, &out_len, err, sizeof(err)) != 0) {
        copy_fail(c, "The deletion vector file %s could not be rewritten for the replica: %s", key, err);
        goto Exit;
    }
    if (!is_puffin) {
        if (floe_rewrite_position_deletes(&c->rw, data, len, &mapped, err, sizeof(err)) != 0) {
            copy_fail(c, "The position delete file %s could not be rewritten for the replica: %s", key, err);
            goto Exit;
        }
        out_len = mapped.len;
        describe_position_deletes(c, f, &mapped, o);
    }
    if (publish_copy(c, key, is_puffin ? out : mapped.bytes, out_len) == FLOE_OK) {
        f->file_size_in_bytes = (int64_t)out_len;
        rc = FLOE_OK;
    }
    if (rc == FLOE_OK && is_puffin) {
        c->copied = floe_xrealloc(c->copied, (c->n_copied + 1) * sizeof(*c->copied));
        c->copied_sizes = floe_xrealloc(c->copied_sizes, (c->n_copied + 1) * sizeof(*c->copied_sizes));
        c->copied[c->n_copied] = floe_xstrdup(key);
        c->copied_sizes[c->n_copied++] = (int64_t)out_len;
    }
Exit:
    floe_parquet_mapped_dispose(&mapped);
    free(data);
    free(out);
    return rc;
}

/* Shares the data files of a manifest and points its entries at the replica's copies; a position
 * delete file gets a copy of its own (design note 7). A deleted entry's file is neither shared nor
 * copied: no reader opens it, and the source may have removed it already (snapshot expiration);
 * the snapshot in which it was live brings it through its own manifest. */
static int share_entries(copy_t *c, floe_iceberg_manifest_t *m, owned_t *o)
{
    share_step_t s = {.from = c->job->store_bucket, .to = c->replica_store_bucket};
    char *path;
    int rc = 0;

    s.keys = floe_xcalloc(m->n_entries + 1, sizeof(char *));
    for (size_t i = 0; i < m->n_entries && rc == 0; i++) {
        floe_iceberg_data_file_t *f = &m->entries[i].file;
        const char *key = floe_rewrite_key(c->rw.from, f->file_path);
        if (key == NULL || (path = floe_rewrite_path(&c->rw, f->file_path)) == NULL)
            continue;
        if (m->entries[i].status != FLOE_ICEBERG_ENTRY_DELETED && f->content == FLOE_ICEBERG_CONTENT_POSITION_DELETES)
            rc = copy_delete_file(c, key, f, o);
        else if (m->entries[i].status != FLOE_ICEBERG_ENTRY_DELETED)
            s.keys[s.n++] = (char *)key;
        f->file_path = own(o, path);
        rewrite_referenced_file(c, f, o);
    }
    if (rc == 0 && s.n > 0)
        rc = run_step(c, NULL, step_share, &s);
    free(s.keys);
    return rc;
}

/* Whether the replica lacks `key` (a manifest or manifest list, named `what`): FLOE_OK when it
 * does, with *data the source's copy (the caller frees it); FLOE_EEXISTS when the replica holds it
 * (f->size: its length); FLOE_EFAIL with the copy failed, also when the source lacks it too. */
static int fetch_lacking(copy_t *c, const char *key, const char *what, floe_object_door_found_t *f, uint8_t **data,
                         size_t *len)
{
    bool found;

    if (find(c, c->replica_store_bucket, key, f))
        return FLOE_EFAIL;
    if (f->is_found)
        return FLOE_EEXISTS;
    if (read_source(c, key, data, len, &found))
        return FLOE_EFAIL;
    if (!found)
        return copy_fail(c, "The source table's %s %s is missing.", what, key);
    return FLOE_OK;
}

/* A manifest's "schema" header is the table's schema (spec: Manifests); DuckDB 1.4 writes the
 * manifest entry's own schema there instead, which the writer cannot bind the partition spec to.
 * Such a manifest is written with the table metadata's schema of its schema-id, when it has one
 * (otherwise the write fails with the reason). */
static void use_table_schema(copy_t *c, floe_iceberg_manifest_t *m, owned_t *o)
{
    floe_iceberg_partition_field_t *fields = NULL;
    size_t n = 0;
    const cJSON *s;
    int64_t id;
    char ignored[ERR_MAX];

    if (m->schema_json != NULL && m->partition_spec_json != NULL &&
        floe_iceberg_partition_fields(m->schema_json, m->partition_spec_json, &fields, &n, ignored,
                                      sizeof(ignored)) == 0) {
        floe_iceberg_partition_fields_free(fields, n);
        return;
    }
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(c->metadata, "schemas"))
    {
        if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(s, "schema-id"), &id) == 0 && id == m->schema_id) {
            m->schema_json = own(o, floe_iceberg_json_print(s));
            return;
        }
    }
}

/* Makes the replica's copy of manifest `path` and gives its length. */
static int copy_manifest(copy_t *c, const char *path, int64_t *length)
{
    const char *key = floe_rewrite_key(c->rw.from, path);
    floe_iceberg_manifest_t m = {0};
    owned_t o = {0};
    uint8_t *data = NULL, *out = NULL;
    size_t len, out_len;
    floe_object_door_found_t f;
    int held;
    char err[ERR_MAX];
    int rc = -1;

    if (key == NULL)
        return 0; /* outside the warehouse: the replica reads it where it is */
    if ((held = fetch_lacking(c, key, "manifest", &f, &data, &len)) != FLOE_OK) {
        if (held == FLOE_EEXISTS)
            *length = f.size;
        return held == FLOE_EEXISTS ? FLOE_OK : FLOE_EFAIL;
    }
    if (floe_iceberg_manifest_read(data, len, &m, err, sizeof(err))) {
        copy_fail(c, "The source table's manifest %s could not be read: %s", key, err);
        goto Exit;
    }
    if (share_entries(c, &m, &o))
        goto Exit;
    use_table_schema(c, &m, &o);
    if (floe_iceberg_manifest_write(&m, &out, &out_len, err, sizeof(err))) {
        copy_fail(c, "The manifest %s could not be rewritten: %s", key, err);
        goto Exit;
    }
    if (publish(c, key, out, out_len, NULL) == 0) {
        *length = (int64_t)out_len;
        rc = 0;
    }
Exit:
    floe_iceberg_manifest_dispose(&m);
    owned_free(&o);
    free(data);
    free(out);
    return rc;
}

/* Makes the replica's copy of manifest list `path`, its manifests first. */
static int copy_manifest_list(copy_t *c, const char *path)
{
    const char *key = floe_rewrite_key(c->rw.from, path);
    floe_iceberg_manifest_list_t l = {0};
    owned_t o = {0};
    uint8_t *data = NULL, *out = NULL;
    size_t len, out_len;
    floe_object_door_found_t f;
    int held;
    char err[ERR_MAX], *new_path;
    int rc = -1;

    if (key == NULL)
        return 0;
    /* A list the replica holds is complete, with its manifests (design note 5). */
    if ((held = fetch_lacking(c, key, "manifest list", &f, &data, &len)) != FLOE_OK)
        return held == FLOE_EEXISTS ? FLOE_OK : FLOE_EFAIL;
    if (floe_iceberg_manifest_list_read(data, len, &l, err, sizeof(err))) {
        copy_fail(c, "The source table's manifest list %s could not be read: %s", key, err);
        goto Exit;
    }
    for (size_t i = 0; i < l.n_files; i++) {
        if (copy_manifest(c, l.files[i].manifest_path, &l.files[i].manifest_length))
            goto Exit;
        if ((new_path = floe_rewrite_path(&c->rw, l.files[i].manifest_path)) != NULL)
            l.files[i].manifest_path = own(&o, new_path);
    }
    if (floe_iceberg_manifest_list_write(&l, &out, &out_len, err, sizeof(err))) {
        copy_fail(c, "The manifest list %s could not be rewritten: %s", key, err);
        goto Exit;
    }
    rc = publish(c, key, out, out_len, NULL);
Exit:
    floe_iceberg_manifest_list_dispose(&l);
    owned_free(&o);
    free(data);
    free(out);
    return rc;
}

static void on_manifest_list(cJSON *node, void *arg)
{
    copy_t *c = arg;
    if (!c->is_failed)
        copy_manifest_list(c, node->valuestring);
}

static void on_v1_manifest(cJSON *node, void *arg)
{
    copy_t *c = arg;
    int64_t ignored = 0;
    if (!c->is_failed)
        copy_manifest(c, node->valuestring, &ignored);
}

static void on_statistics(cJSON *node, void *arg)
{
    copy_t *c = arg;
    const char *key = floe_rewrite_key(c->rw.from, node->valuestring);
    share_step_t s = {.from = c->job->store_bucket, .to = c->replica_store_bucket, .keys = (char **)&key, .n = 1};

    if (!c->is_failed && key != NULL)
        run_step(c, NULL, step_share, &s);
}

/* Copies everything metadata.json `md` names, then writes the replica's metadata.json at `key`. */
static int copy_metadata(copy_t *c, cJSON *md, const char *key)
{
    char *json;
    int rc;

    c->metadata = md;
    floe_rewrite_visit_manifest_lists(md, on_manifest_list, c);
    floe_rewrite_visit_manifests(md, on_v1_manifest, c);
    floe_rewrite_visit_statistics(md, on_statistics, c);
    if (c->is_failed)
        return FLOE_EFAIL;
    floe_rewrite_metadata(&c->rw, md);
    json = floe_iceberg_json_print(md); /* ids of 2^53 and more stay exact (iceberg_json.h) */
    rc = publish(c, key, json, strlen(json), METADATA_CONTENT_TYPE);
    free(json);
    return rc;
}

/* ---- moving the replica's pointer ---- */

typedef struct point_step {
    copy_t *c;
    const char *location; /* the replica's new metadata location */
} point_step_t;

static int point_body(floe_call_t *call, void *arg)
{
    point_step_t *p = arg;
    floe_table_row_t t;
    char *token;

    if (floe_lookup_table_by_arn(call, p->c->replica_arn, &t))
        return FLOE_EFAIL;
    if (t.metadata_location == NULL || strcmp(t.metadata_location, p->location) != 0) {
        switch (floe_table_swap_metadata(call, &t, t.version_token, p->location, &token)) {
        case FLOE_OK: break;
        case FLOE_EFAIL: return FLOE_EFAIL;
        default: return floe_fail(call, FLOE_ECHANGED, FLOE_SUBJECT_TABLE,
                                  "The replica table changed while it was updated.");
        }
    }
    return floe_replication_status_complete(call, p->c->job->table_id, p->c->destination, t.arn,
                                            p->c->job->metadata_location, floe_call_now(call));
}

static int step_point(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, point_body, arg);
}

/* ---- pruning what the source dropped (prune.h) ---- */

/* Prunes the replica once its pointer is at `current` (previous: the pointer before, NULL when
 * unknown). A failed prune only leaves files behind: it is logged, and the replication stands. */
static void prune(copy_t *c, const char *previous, const char *current)
{
    floe_prune_t p = {.bg = c->job->bg, .data_dir = c->job->config->data_dir,
                      .store_bucket = c->replica_store_bucket, .previous = previous, .current = current};
    char *location = floe_xmalloc(strlen(c->replica_warehouse) + 6);

    sprintf(location, "s3://%s", c->replica_warehouse);
    p.location = location;
    if (floe_replica_prune(&p) != FLOE_OK) {
        if (floe_background_is_stopping(c->job->bg))
            c->is_aborted = true; /* the work stays queued: the replay prunes (prune.h design note 3) */
        else
            floe_log("replication: pruning the replica %s failed: %s", c->replica_arn, p.message);
    }
    free(location);
}

static int step_record_failure(floe_call_t *call, void *arg)
{
    const copy_t *c = arg;
    return floe_replication_status_failed(call, c->job->table_id, c->destination, c->err);
}

/* ---- one destination ---- */

/* Copies the job's state into the prepared replica. FLOE_OK done; FLOE_ENOTFOUND when the source
 * state is gone (a later commit replaced it and the metadata file was removed: nothing to do);
 * FLOE_EFAIL failed (recorded on c). */
static int copy_state(copy_t *c)
{
    const char *key = floe_rewrite_key(c->job->location, c->job->metadata_location);
    char *replica_location, *location;
    uint8_t *data = NULL;
    size_t len;
    bool found;
    cJSON *md;
    floe_iceberg_error_t jerr;
    int rc;

    if (key == NULL)
        return copy_fail(c, "The source metadata location %s is outside the source table's warehouse.",
                         c->job->metadata_location);
    if (read_source(c, key, &data, &len, &found))
        return FLOE_EFAIL;
    if (!found)
        return FLOE_ENOTFOUND;
    md = floe_iceberg_json_parse((const char *)data, len, &jerr);
    free(data);
    if (md == NULL)
        return copy_fail(c, "The source metadata file %s is not JSON: %s", key, jerr.message);
    replica_location = floe_xmalloc(strlen(c->replica_warehouse) + 6);
    sprintf(replica_location, "s3://%s", c->replica_warehouse);
    c->rw.from = c->job->location;
    c->rw.to = replica_location;
    rc = copy_metadata(c, md, key);
    cJSON_Delete(md);
    if (rc == 0) {
        location = floe_rewrite_path(&c->rw, c->job->metadata_location);
        point_step_t p = {c, location};
        rc = run_step(c, &c->scope, step_point, &p);
        if (rc == 0)
            prune(c, c->replica_pointer, location);
        free(location);
    }
    free(replica_location);
    return rc;
}

/* Replicates the job's state to one destination; a failure is recorded as the pair's status.
 * -1 only when the server is stopping. */
static int replicate_to(job_t *job, const char *destination)
{
    copy_t c = {.job = job, .destination = destination};
    int rc = 0;

    floe_scope_from_arn(job->config, destination, &c.scope);
    if (run_step(&c, &c.scope, step_prepare, &c) == 0) {
        if (!c.is_current)
            copy_state(&c);
        else if (c.replica_pointer != NULL)
            prune(&c, NULL, c.replica_pointer); /* a replay: finish what a crash may have cut short */
    }
    if (c.is_aborted)
        rc = -1;
    else if (c.is_failed && floe_background_call(job->bg, NULL, step_record_failure, &c, NULL) != FLOE_OK)
        rc = floe_background_is_stopping(job->bg) ? -1 : 0;
    if (c.is_failed && !c.is_aborted)
        floe_log("replication of %s to %s failed: %s", job->source_arn, destination, c.err);
    free(c.replica_arn);
    free(c.replica_warehouse);
    free(c.replica_pointer);
    for (size_t i = 0; i < c.n_copied; i++)
        free(c.copied[i]);
    free(c.copied);
    free(c.copied_sizes);
    return rc;
}

int floe_replica_take_one(floe_background_t *bg, const floe_config_t *config)
{
    job_t job = {.bg = bg, .config = config};
    floe_background_error_t err;
    int rc = 1;

    if (floe_background_call(bg, NULL, step_take, &job, &err) != FLOE_OK) {
        job_dispose(&job);
        if (err.code == FLOE_ENOTFOUND && !floe_background_is_stopping(bg))
            return FLOE_OK;
        if (!floe_background_is_stopping(bg))
            floe_log("replication: cannot take work: %s", err.message);
        return FLOE_EFAIL;
    }
    if (!job.is_skipped) {
        job.location = floe_xmalloc(strlen(job.warehouse) + 6);
        sprintf(job.location, "s3://%s", job.warehouse);
        for (size_t i = 0; i < job.n_destinations && rc > 0; i++) {
            if (replicate_to(&job, job.destinations[i]) < 0)
                rc = -1;
        }
    }
    if (rc > 0 && floe_background_call(bg, NULL, step_done, &job.work_id, NULL) != FLOE_OK)
        rc = -1;
    job_dispose(&job);
    return rc;
}
