/*
 * The door of object_door.h: the steps it runs on the serving thread (find, commit, delete, list,
 * each through store/ once the door's bucket is known), and the whole-file reads it does on the
 * caller's thread.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "background/object_door.h"
#include "base/xalloc.h"

/* ---- on the serving thread ---- */

/* A step's work once its bucket is known; is_gone: the warehouse the door names was deleted. */
typedef int (*body_fn)(floe_call_t *call, const floe_object_door_t *d, int64_t bucket_id, bool is_gone, void *arg);

typedef struct step {
    const floe_object_door_t *d;
    body_fn body;
    void *arg;
} step_t;

/* Fails the step as a 500, logging what it could not do and for whom. */
static int step_fail(floe_call_t *call, const floe_object_door_t *d, const char *what)
{
    return floe_fail_internal(call, floe_call_printf(call, "%s: %s", d->who, what));
}

/* Finds the door's bucket (design note 1), then runs the step's body. */
static int do_step(floe_call_t *call, void *arg)
{
    step_t *s = arg;
    floe_store_bucket_t bucket;

    if (s->d->warehouse == NULL)
        return s->body(call, s->d, s->d->bucket_id, false, s->arg);
    switch (floe_store_bucket_get(floe_call_state(call), call->pool, s->d->warehouse, &bucket)) {
    case FLOE_OK: return s->body(call, s->d, bucket.id, false, s->arg);
    case FLOE_ENOTFOUND: return s->body(call, s->d, 0, true, s->arg);
    default: return step_fail(call, s->d, "cannot find a warehouse");
    }
}

/* Runs body on the serving thread and waits for it. */
static int run(const floe_object_door_t *d, body_fn body, void *arg, floe_background_error_t *err)
{
    step_t s = {.d = d, .body = body, .arg = arg};
    return floe_background_call(d->bg, d->scope, do_step, &s, err);
}

typedef struct find_step {
    const char *const *keys;
    size_t n;
    floe_object_door_found_t *found; /* zeroed by the caller: a gone warehouse finds nothing */
} find_step_t;

static int find_body(floe_call_t *call, const floe_object_door_t *d, int64_t bucket_id, bool is_gone, void *arg)
{
    find_step_t *s = arg;
    floe_store_object_t obj;

    for (size_t i = 0; !is_gone && i < s->n; i++) {
        switch (floe_store_object_get(floe_call_state(call), call->pool, bucket_id, s->keys[i], &obj)) {
        case FLOE_OK:
            s->found[i].is_found = true;
            memcpy(s->found[i].file_id, obj.file_id, sizeof(s->found[i].file_id));
            s->found[i].size = obj.size;
            break;
        case FLOE_ENOTFOUND: s->found[i].is_found = false; break;
        default: return step_fail(call, d, "cannot look an object up");
        }
    }
    return FLOE_OK;
}

typedef struct commit_step {
    const floe_store_object_t *obj;
    bool must_not_exist;
    int rc;
} commit_step_t;

static int commit_body(floe_call_t *call, const floe_object_door_t *d, int64_t bucket_id, bool is_gone, void *arg)
{
    commit_step_t *s = arg;
    floe_store_precondition_t pre = {.must_not_exist = true};

    s->rc = is_gone ? FLOE_ENOTFOUND
                    : floe_store_object_commit(floe_call_state(call), d->data_dir, bucket_id, s->obj,
                                               s->must_not_exist ? &pre : NULL);
    if (s->rc == FLOE_EFAIL)
        return step_fail(call, d, "cannot publish a new object");
    return FLOE_OK;
}

typedef struct delete_step {
    const char *const *keys;
    size_t n;
    bool is_counted;
    int64_t files, bytes;
} delete_step_t;

static int delete_body(floe_call_t *call, const floe_object_door_t *d, int64_t bucket_id, bool is_gone, void *arg)
{
    delete_step_t *s = arg;
    floe_state_t *st = floe_call_state(call);
    floe_store_object_t obj;
    int rc;

    if (is_gone)
        return FLOE_OK;
    for (size_t i = 0; s->is_counted && i < s->n; i++) {
        if ((rc = floe_store_object_get(st, call->pool, bucket_id, s->keys[i], &obj)) == FLOE_OK) {
            s->files++;
            s->bytes += obj.size;
        } else if (rc != FLOE_ENOTFOUND) {
            return step_fail(call, d, "cannot look an object up");
        }
    }
    if (floe_store_object_delete_many(st, d->data_dir, bucket_id, s->keys, s->n) != FLOE_OK)
        return step_fail(call, d, "cannot delete objects");
    return FLOE_OK;
}

typedef struct list_step {
    const char *after;
    size_t max;
    floe_object_door_entry_t **entries;
    size_t *n, n_listed;
} list_step_t;

static int list_body(floe_call_t *call, const floe_object_door_t *d, int64_t bucket_id, bool is_gone, void *arg)
{
    list_step_t *s = arg;
    floe_store_cursor_t cursor;
    floe_store_object_t obj;
    int rc = FLOE_OK;

    if (is_gone)
        return FLOE_OK;
    if (floe_store_cursor_open(&cursor, floe_call_state(call), call->pool, bucket_id, NULL, s->after) != FLOE_OK)
        return step_fail(call, d, "cannot list a warehouse");
    while (s->n_listed < s->max && (rc = floe_store_cursor_next(&cursor, call->pool, &obj)) == FLOE_OK) {
        *s->entries = floe_xrealloc(*s->entries, (*s->n + 1) * sizeof(**s->entries));
        (*s->entries)[*s->n].key = floe_xstrdup(obj.key);
        (*s->entries)[*s->n].last_modified_ms = obj.last_modified_ms;
        (*s->n)++;
        s->n_listed++;
    }
    floe_store_cursor_close(&cursor);
    if (rc == FLOE_EFAIL)
        return step_fail(call, d, "cannot list a warehouse");
    return FLOE_OK;
}

/* ---- on the background thread ---- */

int floe_object_door_find(const floe_object_door_t *d, const char *const *keys, size_t n,
                          floe_object_door_found_t *found, floe_background_error_t *err)
{
    find_step_t s = {.keys = keys, .n = n, .found = found};

    memset(found, 0, n * sizeof(*found));
    return run(d, find_body, &s, err);
}

int floe_object_door_read(const floe_object_door_t *d, const floe_object_door_found_t *f,
                                                 uint8_t **data)
{
    size_t done = 0, size = (size_t)f->size;
    uint8_t *buf;
    int fd, saved;

    if ((fd = floe_store_file_open(d->data_dir, f->file_id)) < 0)
        return FLOE_EIO;
    buf = floe_xmalloc(size + 1);
    while (done < size) {
        ssize_t n = pread(fd, buf + done, size - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            saved = n < 0 ? errno : 0;
            close(fd);
            free(buf);
            errno = saved;
            return FLOE_EIO;
        }
        done += (size_t)n;
    }
    close(fd);
    buf[size] = '\0';
    *data = buf;
    return FLOE_OK;
}

int floe_object_door_read_all(const floe_object_door_t *d, const char *const *keys, size_t n,
                                                     bool is_missing_ok, uint8_t **data, size_t *len, size_t *at,
                                                     floe_background_error_t *err)
{
    floe_object_door_found_t *found = floe_xcalloc(n + 1, sizeof(*found));
    int rc = FLOE_OK;
    size_t i = 0;
    int saved;

    if (floe_object_door_find(d, keys, n, found, err) != FLOE_OK)
        rc = FLOE_EFAIL;
    for (; i < n && rc == FLOE_OK; i++) {
        data[i] = NULL;
        len[i] = 0;
        if (!found[i].is_found && !is_missing_ok)
            rc = FLOE_ENOTFOUND;
        else if (found[i].is_found && (rc = floe_object_door_read(d, &found[i], &data[i])) == FLOE_OK)
            len[i] = (size_t)found[i].size;
        if (rc != FLOE_OK)
            break;
    }
    *at = rc == FLOE_OK ? n : i;
    saved = errno;
    for (size_t k = 0; rc != FLOE_OK && k < i; k++) /* nothing left allocated on failure */
        free(data[k]);
    free(found);
    errno = saved;
    return rc;
}

int floe_object_door_commit(const floe_object_door_t *d, const floe_store_object_t *obj, bool must_not_exist,
                            int *rc, floe_background_error_t *err)
{
    commit_step_t s = {.obj = obj, .must_not_exist = must_not_exist, .rc = FLOE_EFAIL};
    int ret = run(d, commit_body, &s, err);

    *rc = s.rc;
    return ret;
}

int floe_object_door_delete(const floe_object_door_t *d, const char *const *keys, size_t n, int64_t *files,
                            int64_t *bytes, floe_background_error_t *err)
{
    assert((files == NULL) == (bytes == NULL));
    for (size_t at = 0; at < n; at += FLOE_OBJECT_DOOR_DELETE_BATCH) {
        delete_step_t s = {.keys = keys + at, .is_counted = files != NULL};
        int rc;

        s.n = n - at < FLOE_OBJECT_DOOR_DELETE_BATCH ? n - at : FLOE_OBJECT_DOOR_DELETE_BATCH;
        rc = run(d, delete_body, &s, err);
        if (files != NULL) {
            *files += s.files;
            *bytes += s.bytes;
        }
        if (rc != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_object_door_list(const floe_object_door_t *d, const char *after, size_t max,
                          floe_object_door_entry_t **entries, size_t *n, size_t *n_listed,
                          floe_background_error_t *err)
{
    list_step_t s = {.after = after, .max = max, .entries = entries, .n = n};
    int rc = run(d, list_body, &s, err);

    *n_listed = s.n_listed;
    return rc;
}
