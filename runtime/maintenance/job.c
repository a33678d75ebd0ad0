/*
 * The helpers of job.h: object reads, writes and deletes inside a table's warehouse, the table's
 * current metadata, and the commit loop (design notes 1-3 in job.h).
 *
 * Each helper that touches a row is a small step run on the serving thread through the warehouse's
 * object door (object_door.h); the bytes are read and written here, on the maintenance thread,
 * through the door and the store's file layer (store/blob.h), which never modifies a published
 * file. So a file opened here stays readable even if a client replaces or deletes its object
 * meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "background/object_door.h"
#include "base/ids.h"
#include "base/xalloc.h"
#include "catalog/lookup.h"
#include "catalog/maintenance_job.h"
#include "catalog/table.h"
#include "iceberg/iceberg_commit.h"
#include "iceberg/iceberg_metadata.h"
#include "maintenance/job.h"
#include "store/store.h"

#define S3_SCHEME "s3://"
#define OBJECT_CONTENT_TYPE "application/octet-stream"
#define METADATA_CONTENT_TYPE "application/json"
#define METADATA_DIR "metadata/"

/* The runner's part of a job: objects written during the current commit attempt (deleted again if
 * its swap loses, design note 2), and whether a plan is running. */
struct floe_job_private {
    char **attempt_written;
    size_t n_attempt_written;
    bool in_plan;
    volatile int *stopping; /* the maintenance thread's stop flag (thread.c) */
};

static const char *const type_names[FLOE_JOB_TYPE_COUNT + 1] = {
    NULL, "icebergCompaction", "icebergSnapshotManagement", "icebergUnreferencedFileRemoval",
    FLOE_MAINTENANCE_RECORD_EXPIRATION_JOB,
};

const char *floe_job_type_name(floe_job_type_t type)
{
    return (int)type >= 1 && (int)type <= FLOE_JOB_TYPE_COUNT ? type_names[type] : "unknown";
}

floe_job_type_t floe_job_type_from_name(const char *name)
{
    for (int i = 1; name != NULL && i <= FLOE_JOB_TYPE_COUNT; i++) {
        if (strcmp(type_names[i], name) == 0)
            return (floe_job_type_t)i;
    }
    return 0;
}

int floe_job_fail(floe_job_t *job, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->stats.message, sizeof(job->stats.message), fmt, ap);
    va_end(ap);
    return FLOE_EFAIL;
}

void floe_job_init(floe_job_t *job, volatile int *stopping)
{
    job->priv = floe_xcalloc(1, sizeof(*job->priv));
    job->priv->stopping = stopping;
}

void floe_job_dispose(floe_job_t *job)
{
    if (job->priv != NULL) {
        for (size_t i = 0; i < job->priv->n_attempt_written; i++)
            free(job->priv->attempt_written[i]);
        free(job->priv->attempt_written);
        free(job->priv);
        job->priv = NULL;
    }
    free(job->new_metadata_location);
    job->new_metadata_location = NULL;
}

bool floe_job_is_stopping(floe_job_t *job)
{
    return floe_background_is_stopping(job->bg) ||
           (job->priv != NULL && job->priv->stopping != NULL && *job->priv->stopping);
}

/* ---- locations ---- */

const char *floe_job_key_of(const floe_job_t *job, const char *location)
{
    size_t n = strlen(job->warehouse);

    if (location == NULL || strncmp(location, S3_SCHEME, strlen(S3_SCHEME)) != 0)
        return NULL;
    location += strlen(S3_SCHEME);
    if (strncmp(location, job->warehouse, n) != 0 || location[n] != '/' || location[n + 1] == '\0')
        return NULL;
    return location + n + 1;
}

char *floe_job_location_of(const floe_job_t *job, const char *key)
{
    size_t len = strlen(S3_SCHEME) + strlen(job->warehouse) + 1 + strlen(key) + 1;
    char *s = floe_xmalloc(len);
    snprintf(s, len, S3_SCHEME "%s/%s", job->warehouse, key);
    return s;
}

char *floe_job_fresh_key(const char *dir, const char *suffix)
{
    char uuid[FLOE_UUID_LEN + 1];
    size_t len;
    char *s;

    floe_uuid_v4(uuid);
    len = strlen(dir) + FLOE_UUID_LEN + strlen(suffix) + 1;
    s = floe_xmalloc(len);
    snprintf(s, len, "%s%s%s", dir, uuid, suffix);
    return s;
}

/* ---- finding and reading objects ---- */

floe_object_door_t floe_job_door(floe_job_t *job)
{
    return (floe_object_door_t){.bg = job->bg, .scope = &job->scope, .data_dir = job->data_dir,
                                .warehouse = job->warehouse, .who = "maintenance"};
}

/* Looks the object at `location` up; FLOE_EFAIL (message set) when the location is outside the
 * warehouse or the server fails. */
static int find_location(floe_job_t *job, const char *location, floe_object_door_found_t *f)
{
    floe_object_door_t door = floe_job_door(job);
    const char *key = floe_job_key_of(job, location);
    floe_background_error_t err;

    if (key == NULL)
        return floe_job_fail(job, "%s is outside the table's warehouse s3://%s", location, job->warehouse);
    if (floe_object_door_find(&door, &key, 1, f, &err))
        return floe_job_fail(job, "cannot look up %s: %s", key, err.message);
    return FLOE_OK;
}

int floe_job_open_object(floe_job_t *job, const char *location, int *fd, uint64_t *size)
{
    floe_object_door_found_t f;
    int fd_;

    if (find_location(job, location, &f))
        return FLOE_EFAIL;
    if (!f.is_found)
        return floe_job_fail(job, "%s does not exist", location);
    if ((fd_ = floe_store_file_open(job->data_dir, f.file_id)) < 0)
        return floe_job_fail(job, "cannot open %s: %s", location, strerror(errno));
    *fd = fd_;
    *size = (uint64_t)f.size;
    job->stats.files_read++;
    job->stats.bytes_read += f.size;
    return FLOE_OK;
}

/* Reads the objects at locations[0..n) (keys: theirs) whole, counting each one read; is_one words a
 * failed look-up for a single object. FLOE_EFAIL (message set, nothing left allocated) on failure. */
static int read_locations(floe_job_t *job, const char *const *locations, const char *const *keys, size_t n,
                          bool is_one, uint8_t **data, size_t *len)
{
    floe_object_door_t door = floe_job_door(job);
    floe_background_error_t err;
    size_t at;
    int rc = floe_object_door_read_all(&door, keys, n, false, data, len, &at, &err);

    for (size_t i = 0; i < at; i++) {
        job->stats.files_read++;
        job->stats.bytes_read += (int64_t)len[i];
    }
    switch (rc) {
    case FLOE_OK: return FLOE_OK;
    case FLOE_EFAIL:
        return is_one ? floe_job_fail(job, "cannot look up %s: %s", keys[0], err.message)
                      : floe_job_fail(job, "cannot look objects up: %s", err.message);
    case FLOE_ENOTFOUND: return floe_job_fail(job, "%s does not exist", locations[at]);
    default:
        return floe_job_fail(job, "cannot read %s: %s", locations[at], errno != 0 ? strerror(errno) : "truncated");
    }
}

int floe_job_read_objects(floe_job_t *job, const char *const *locations, size_t n, uint8_t **data, size_t *len)
{
    const char **keys = floe_xcalloc(n + 1, sizeof(*keys));
    int rc = FLOE_OK;

    for (size_t i = 0; i < n && rc == FLOE_OK; i++) {
        if ((keys[i] = floe_job_key_of(job, locations[i])) == NULL)
            rc = floe_job_fail(job, "%s is outside the table's warehouse s3://%s", locations[i], job->warehouse);
    }
    if (rc == FLOE_OK)
        rc = read_locations(job, locations, keys, n, false, data, len);
    free(keys);
    return rc;
}

int floe_job_read_object(floe_job_t *job, const char *location, uint8_t **data, size_t *len)
{
    const char *key = floe_job_key_of(job, location);

    if (key == NULL)
        return floe_job_fail(job, "%s is outside the table's warehouse s3://%s", location, job->warehouse);
    return read_locations(job, &location, &key, 1, true, data, len);
}

/* ---- writing an object ---- */

typedef struct writer_state {
    floe_store_blob_t blob;
    EVP_MD_CTX *md5;
    bool has_copies; /* bytes copied in the kernel are not hashed: the ETag is then random */
} writer_state_t;

int floe_job_writer_open(floe_job_t *job, floe_job_writer_t *w)
{
    writer_state_t *ws = floe_xcalloc(1, sizeof(*ws));

    memset(w, 0, sizeof(*w));
    if (floe_store_blob_open(job->data_dir, &ws->blob)) {
        free(ws);
        return floe_job_fail(job, "cannot create a temporary file for a new object");
    }
    ws->md5 = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ws->md5, EVP_md5(), NULL);
    w->job = job;
    w->blob = ws;
    return FLOE_OK;
}

int floe_job_writer_append(floe_job_writer_t *w, const void *data, size_t len)
{
    writer_state_t *ws = w->blob;

    if (floe_store_blob_write(&ws->blob, data, len))
        return floe_job_fail(w->job, "cannot write a new object: %s", strerror(errno));
    EVP_DigestUpdate(ws->md5, data, len);
    w->size += len;
    return FLOE_OK;
}

int floe_job_writer_copy_fd(floe_job_writer_t *w, int src_fd, uint64_t *src_off, uint64_t len)
{
    writer_state_t *ws = w->blob;

    if (floe_store_blob_copy_fd(&ws->blob, src_fd, src_off, len))
        return floe_job_fail(w->job, "cannot copy into a new object: %s", strerror(errno));
    ws->has_copies = true;
    w->size += len;
    return FLOE_OK;
}

static void release_writer(floe_job_writer_t *w, bool discard)
{
    writer_state_t *ws = w->blob;

    if (ws == NULL)
        return;
    if (discard)
        floe_store_blob_discard(&ws->blob);
    EVP_MD_CTX_free(ws->md5);
    free(ws);
    w->blob = NULL;
}

void floe_job_writer_discard(floe_job_writer_t *w)
{
    release_writer(w, true);
}

static void etag_of(writer_state_t *ws, char hex[33])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;

    EVP_DigestFinal_ex(ws->md5, digest, &n);
    if (ws->has_copies)
        floe_random_bytes(digest, n = 16);
    for (unsigned int i = 0; i < n && i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* Remembers a location written during a commit attempt (design note 2). */
static void remember_written(floe_job_t *job, const char *location)
{
    struct floe_job_private *p = job->priv;

    if (p == NULL || !p->in_plan)
        return;
    p->attempt_written = floe_xrealloc(p->attempt_written, (p->n_attempt_written + 1) * sizeof(char *));
    p->attempt_written[p->n_attempt_written++] = floe_xstrdup(location);
}

int floe_job_writer_finish(floe_job_writer_t *w, const char *key, char **location)
{
    writer_state_t *ws = w->blob;
    floe_job_t *job = w->job;
    floe_object_door_t door = floe_job_door(job);
    floe_store_object_t obj = {0};
    int rc;
    floe_background_error_t err;
    char hex[33];
    char *loc;

    if (floe_store_blob_finish(&ws->blob)) {
        release_writer(w, true);
        return floe_job_fail(job, "cannot make a new object durable");
    }
    etag_of(ws, hex);
    obj.key = (char *)key;
    memcpy(obj.file_id, ws->blob.id, sizeof(obj.file_id));
    obj.size = (int64_t)w->size;
    obj.etag = hex;
    obj.content_type = (char *)OBJECT_CONTENT_TYPE;
    obj.last_modified_ms = (int64_t)time(NULL) * 1000;
    if (floe_object_door_commit(&door, &obj, true, &rc, &err) || rc != FLOE_OK) {
        release_writer(w, true);
        return floe_job_fail(job, "cannot publish %s: %s", key,
                             rc == FLOE_EEXISTS ? "the key is taken" : rc == FLOE_ENOTFOUND
                                                                                ? "the warehouse is gone"
                                                                                : err.message);
    }
    job->stats.files_written++;
    job->stats.bytes_written += (int64_t)w->size;
    release_writer(w, false);
    loc = floe_job_location_of(job, key);
    remember_written(job, loc);
    if (location != NULL)
        *location = loc;
    else
        free(loc);
    return FLOE_OK;
}

int floe_job_write_object(floe_job_t *job, const char *key, const void *data, size_t len, char **location)
{
    floe_job_writer_t w;

    if (floe_job_writer_open(job, &w))
        return FLOE_EFAIL;
    if (floe_job_writer_append(&w, data, len)) {
        floe_job_writer_discard(&w);
        return FLOE_EFAIL;
    }
    return floe_job_writer_finish(&w, key, location);
}

/* ---- deleting objects ---- */

int floe_job_delete_objects(floe_job_t *job, const char *const *locations, size_t n)
{
    floe_object_door_t door = floe_job_door(job);
    const char **keys = floe_xcalloc(FLOE_OBJECT_DOOR_DELETE_BATCH, sizeof(*keys));
    floe_background_error_t err;
    int rc = FLOE_OK;

    /* a batch's keys are checked just before its step, so a bad location stops the delete there */
    for (size_t at = 0; at < n && rc == FLOE_OK; at += FLOE_OBJECT_DOOR_DELETE_BATCH) {
        size_t n_keys = 0;
        for (size_t i = at; i < n && i < at + FLOE_OBJECT_DOOR_DELETE_BATCH; i++) {
            const char *key = floe_job_key_of(job, locations[i]);
            if (key == NULL) {
                rc = floe_job_fail(job, "%s is outside the table's warehouse s3://%s", locations[i], job->warehouse);
                break;
            }
            keys[n_keys++] = key;
        }
        if (rc == FLOE_OK && floe_object_door_delete(&door, keys, n_keys, &job->stats.files_deleted,
                                                     &job->stats.bytes_deleted, &err))
            rc = floe_job_fail(job, "cannot delete objects: %s", err.message);
    }
    free(keys);
    return rc;
}

/* ---- the table's metadata ---- */

typedef struct table_step {
    const char *table_arn;
    char *location; /* malloc'ed copies */
    char *token;
    const char *new_location; /* for do_swap */
    int swap_rc;
} table_step_t;

static int do_read_table(floe_call_t *call, void *arg)
{
    table_step_t *s = arg;
    floe_table_row_t t;

    if (floe_lookup_table_by_arn(call, s->table_arn, &t))
        return FLOE_EFAIL;
    s->location = t.metadata_location != NULL ? floe_xstrdup(t.metadata_location) : NULL;
    s->token = floe_xstrdup(t.version_token);
    return FLOE_OK;
}

int floe_job_read_metadata(floe_job_t *job, char **json, char **location, char **version_token)
{
    table_step_t s = {.table_arn = job->table_arn};
    floe_background_error_t err;
    uint8_t *data = NULL;
    size_t len = 0;

    if (floe_background_call(job->bg, &job->scope, do_read_table, &s, &err))
        return floe_job_fail(job, "cannot read the table: %s", err.message);
    if (s.location != NULL && floe_job_read_object(job, s.location, &data, &len)) {
        free(s.location);
        free(s.token);
        return FLOE_EFAIL;
    }
    *json = (char *)data; /* NUL-terminated by floe_job_read_object */
    *location = s.location;
    *version_token = s.token;
    return FLOE_OK;
}

static int do_swap(floe_call_t *call, void *arg)
{
    table_step_t *s = arg;
    floe_table_row_t t;
    char *new_token;

    if (floe_lookup_table_by_arn(call, s->table_arn, &t)) {
        if (call->failure.code == FLOE_ENOTFOUND) {
            s->swap_rc = FLOE_ENOTFOUND;
            return FLOE_OK;
        }
        return FLOE_EFAIL;
    }
    s->swap_rc = floe_table_swap_metadata(call, &t, s->token, s->new_location, &new_token);
    return s->swap_rc == FLOE_EFAIL ? FLOE_EFAIL : FLOE_OK;
}

/* Deletes what a lost attempt wrote (design note 2) and forgets it. */
static void drop_attempt(floe_job_t *job, bool delete_objects)
{
    struct floe_job_private *p = job->priv;
    int64_t files = job->stats.files_deleted, bytes = job->stats.bytes_deleted;

    if (delete_objects && p->n_attempt_written > 0) {
        floe_job_delete_objects(job, (const char *const *)p->attempt_written, p->n_attempt_written);
        /* what a lost attempt wrote and removed again is not what the job deleted */
        job->stats.files_deleted = files;
        job->stats.bytes_deleted = bytes;
    }
    for (size_t i = 0; i < p->n_attempt_written; i++)
        free(p->attempt_written[i]);
    p->n_attempt_written = 0;
}

/* An attempt ends FLOE_OK (committed), FLOE_ENOTFOUND (the plan found nothing to change),
 * FLOE_ECHANGED (a client committed first) or FLOE_EFAIL (the job holds why). */

/* Runs the plan on `json` and the commit engine on its updates; *next (malloc'ed) is the result. */
static int plan_next(floe_job_t *job, floe_job_plan_fn plan, void *arg, const char *json,
                     const char *location, char **next)
{
    cJSON *updates = NULL, *requirements = NULL;
    floe_iceberg_error_t ierr;
    floe_iceberg_commit_input_t ci = {.current_json = json, .current_location = location};
    int rc;

    job->priv->in_plan = true;
    rc = plan(job, json, location, &updates, &requirements, arg);
    job->priv->in_plan = false;
    if (rc != FLOE_OK) {
        cJSON_Delete(updates);
        cJSON_Delete(requirements);
        return FLOE_EFAIL;
    }
    if (updates == NULL) {
        cJSON_Delete(requirements);
        return FLOE_ENOTFOUND;
    }
    ci.requirements = requirements;
    ci.updates = updates;
    ci.now_ms = (int64_t)time(NULL) * 1000; /* the commit's own wall-clock time, not the job's age clock */
    rc = floe_iceberg_commit(&ci, next, &ierr);
    cJSON_Delete(updates);
    cJSON_Delete(requirements);
    if (rc == FLOE_ICEBERG_ECONFLICT)
        return FLOE_ECHANGED;
    if (rc != FLOE_ICEBERG_OK) {
        floe_job_fail(job, "cannot compute the next metadata: %s", ierr.message);
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* One attempt of floe_job_commit. */
static int attempt(floe_job_t *job, floe_job_plan_fn plan, void *arg)
{
    char *json = NULL, *location = NULL, *token = NULL, *next = NULL, *file_name = NULL, *key = NULL;
    char *written = NULL;
    char uuid[FLOE_UUID_LEN + 1];
    table_step_t s = {.table_arn = job->table_arn};
    floe_background_error_t err;
    int rc;

    if (floe_job_read_metadata(job, &json, &location, &token))
        return FLOE_EFAIL;
    if (json == NULL) {
        rc = FLOE_EFAIL;
        floe_job_fail(job, "the table has no metadata yet");
        goto Exit;
    }
    if ((rc = plan_next(job, plan, arg, json, location, &next)) != FLOE_OK)
        goto Exit;
    floe_uuid_v4(uuid);
    file_name = floe_iceberg_metadata_next_file_name(location, uuid);
    key = floe_xmalloc(strlen(METADATA_DIR) + strlen(file_name) + 1);
    sprintf(key, METADATA_DIR "%s", file_name);
    job->priv->in_plan = true; /* the metadata file too is the attempt's: deleted if the swap loses */
    if (floe_job_write_object(job, key, next, strlen(next), &written)) {
        job->priv->in_plan = false;
        rc = FLOE_EFAIL;
        goto Exit;
    }
    job->priv->in_plan = false;
    s.new_location = written;
    s.token = token;
    if (floe_background_call(job->bg, &job->scope, do_swap, &s, &err)) {
        rc = FLOE_EFAIL;
        floe_job_fail(job, "cannot move the metadata pointer: %s", err.message);
    } else if (s.swap_rc == FLOE_OK) {
        rc = FLOE_OK;
        job->new_metadata_location = (char *)s.new_location;
        s.new_location = NULL;
    } else if (s.swap_rc == FLOE_ENOTFOUND) {
        rc = FLOE_EFAIL;
        floe_job_fail(job, "the table was deleted while the job ran");
    } else {
        rc = FLOE_ECHANGED;
    }
Exit:
    free((char *)s.new_location);
    free(json);
    free(location);
    free(token);
    free(next);
    free(file_name);
    free(key);
    return rc;
}

/* Waits before the next attempt after `lost` lost races: exponential, capped, with jitter so that
 * a job and a client retrying in step do not collide again. Runs on the maintenance thread. */
static void pause_after_lost_race(int lost)
{
    long ms = FLOE_JOB_COMMIT_PAUSE_MIN_MS;
    uint32_t r;
    struct timespec ts;

    for (int i = 1; i < lost && ms < FLOE_JOB_COMMIT_PAUSE_MAX_MS; i++)
        ms *= 2;
    if (ms > FLOE_JOB_COMMIT_PAUSE_MAX_MS)
        ms = FLOE_JOB_COMMIT_PAUSE_MAX_MS;
    floe_random_bytes(&r, sizeof(r));
    ms = ms / 2 + (long)(r % (uint32_t)(ms / 2 + 1));
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

int floe_job_commit(floe_job_t *job, floe_job_plan_fn plan, void *arg, bool *committed)
{
    if (committed != NULL)
        *committed = false;
    for (int i = 0; i < FLOE_JOB_COMMIT_ATTEMPTS; i++) {
        int rc;
        if (floe_job_is_stopping(job))
            return floe_job_fail(job, "stopped: the server is shutting down");
        rc = attempt(job, plan, arg);
        drop_attempt(job, rc == FLOE_ECHANGED || rc == FLOE_EFAIL);
        switch (rc) {
        case FLOE_OK:
            if (committed != NULL)
                *committed = true;
            return FLOE_OK;
        case FLOE_ENOTFOUND: return FLOE_OK;
        case FLOE_EFAIL: return FLOE_EFAIL;
        case FLOE_ECHANGED: /* a client committed first: re-read and re-plan (design note 2) */
            if (i + 1 < FLOE_JOB_COMMIT_ATTEMPTS)
                pause_after_lost_race(i + 1);
            break;
        }
    }
    return floe_job_fail(job, "gave up after %d concurrent commits", FLOE_JOB_COMMIT_ATTEMPTS);
}
