/*
 * Object files ("blobs") of blob.h: written in <data_dir>/tmp/, made durable, then published by
 * rename into <data_dir>/objects/<first two id characters>/<id>. Ids are 128 random bits in hex,
 * so names never come from keys and never collide. This file only moves bytes and names; which
 * row names which file is object.c's and upload.c's business (design note 2 in store.c).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "base/failure.h"
#include "base/ids.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "store/blob.h"

#define FANOUT_LEN 2                    /* objects/ab/ab...: 256 directories of moderate size */
#define COPY_CHUNK ((size_t)8 << 20)    /* copy_file_range step */
#define FALLBACK_BUF ((size_t)256 << 10) /* read/write step where copy_file_range is refused */
#define WRITEBACK_STEP ((uint64_t)8 << 20) /* start writeback this often, so fdatasync has little left */

static void tmp_path(const char *data_dir, const char *id, char *buf, size_t size)
{
    snprintf(buf, size, "%s/tmp/obj-%s", data_dir, id);
}

static void fanout_dir(const char *data_dir, const char *id, char *buf, size_t size)
{
    snprintf(buf, size, "%s/objects/%.*s", data_dir, FANOUT_LEN, id);
}

void floe_store_file_path(const char *data_dir, const char *file_id, char *buf, size_t size)
{
    snprintf(buf, size, "%s/objects/%.*s/%s", data_dir, FANOUT_LEN, file_id, file_id);
}

static void new_id(char out[FLOE_STORE_ID_LEN + 1])
{
    unsigned char raw[FLOE_STORE_ID_LEN / 2];
    floe_random_bytes(raw, sizeof(raw));
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

int floe_store_blob_open(const char *data_dir, floe_store_blob_t *b)
{
    char path[PATH_MAX];

    memset(b, 0, sizeof(*b));
    b->data_dir = data_dir;
    new_id(b->id);
    tmp_path(data_dir, b->id, path, sizeof(path));
    if ((b->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0) {
        floe_log("store: cannot create %s: %s", path, strerror(errno));
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Starts writeback of what was written since the last call (without waiting), so the disk works
 * while the caller hashes the next slice and the final fdatasync finds little left to do. */
static void start_writeback(floe_store_blob_t *b)
{
    if (b->size - b->flushed < WRITEBACK_STEP)
        return;
    sync_file_range(b->fd, (off_t)b->flushed, (off_t)(b->size - b->flushed), SYNC_FILE_RANGE_WRITE);
    b->flushed = b->size;
}

int floe_store_blob_write(floe_store_blob_t *b, const void *data, size_t len)
{
    const char *p = data;

    assert(b->fd >= 0 && !b->is_published); /* a published blob is immutable (design note 4) */
    while (len > 0) {
        ssize_t n = write(b->fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            floe_log("store: cannot write object file %s: %s", b->id, strerror(errno));
            return FLOE_EFAIL;
        }
        p += n;
        len -= (size_t)n;
        b->size += (uint64_t)n;
    }
    start_writeback(b);
    return FLOE_OK;
}

/* The portable copy, for file systems where copy_file_range is refused. */
static int copy_by_reading(floe_store_blob_t *b, int src_fd, uint64_t *src_off, uint64_t len)
{
    /* on the heap for this call only: a thread-local array would be resident in every thread
     * from the start, used or not */
    char *buf = floe_xmalloc(FALLBACK_BUF);
    int rc = -1;

    while (len > 0) {
        ssize_t n = pread(src_fd, buf, len < FALLBACK_BUF ? (size_t)len : FALLBACK_BUF, (off_t)*src_off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || floe_store_blob_write(b, buf, (size_t)n))
            goto Exit;
        *src_off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    rc = 0;
Exit:
    free(buf);
    return rc;
}

int floe_store_blob_copy_fd(floe_store_blob_t *b, int src_fd, uint64_t *src_off, uint64_t len)
{
    assert(b->fd >= 0 && !b->is_published);
    while (len > 0) {
        loff_t in = (loff_t)*src_off;
        ssize_t n = copy_file_range(src_fd, &in, b->fd, NULL, len < COPY_CHUNK ? (size_t)len : COPY_CHUNK, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP))
            return copy_by_reading(b, src_fd, src_off, len);
        if (n <= 0) {
            floe_log("store: cannot copy into object file %s: %s", b->id, n < 0 ? strerror(errno) : "short source");
            return FLOE_EFAIL;
        }
        *src_off += (uint64_t)n;
        b->size += (uint64_t)n;
        len -= (uint64_t)n;
        start_writeback(b);
    }
    return FLOE_OK;
}

static int fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;
    if (fd < 0)
        return FLOE_EFAIL;
    rc = fsync(fd);
    close(fd);
    return rc;
}

/* mkdir objects/xx; a directory made now must itself reach the disk (fsync objects/). */
static int ensure_fanout_dir(const char *data_dir, const char *dir)
{
    char parent[PATH_MAX];

    if (mkdir(dir, 0755) != 0)
        return errno == EEXIST ? FLOE_OK : FLOE_EFAIL;
    snprintf(parent, sizeof(parent), "%s/objects", data_dir);
    return fsync_dir(parent);
}

int floe_store_blob_finish(floe_store_blob_t *b)
{
    char from[PATH_MAX], to[PATH_MAX], dir[PATH_MAX];

    assert(b->fd >= 0 && !b->is_published);
    tmp_path(b->data_dir, b->id, from, sizeof(from));
    floe_store_file_path(b->data_dir, b->id, to, sizeof(to));
    fanout_dir(b->data_dir, b->id, dir, sizeof(dir));
    if (fdatasync(b->fd) != 0 || close(b->fd) != 0) {
        floe_log("store: cannot sync %s: %s", from, strerror(errno));
        b->fd = -1;
        return FLOE_EFAIL;
    }
    b->fd = -1;
    if (ensure_fanout_dir(b->data_dir, dir) != 0 || rename(from, to) != 0 || fsync_dir(dir) != 0) {
        floe_log("store: cannot publish %s as %s: %s", from, to, strerror(errno));
        return FLOE_EFAIL;
    }
    b->is_published = true;
    return FLOE_OK;
}

int floe_store_blob_put(const char *data_dir, const void *data, size_t len, floe_store_blob_t *b, char md5_hex[33])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;

    if (floe_store_blob_open(data_dir, b))
        return FLOE_EFAIL;
    if (floe_store_blob_write(b, data, len) || floe_store_blob_finish(b)) {
        floe_store_blob_discard(b);
        return FLOE_EFAIL;
    }
    EVP_Digest(data, len, digest, &n, EVP_md5(), NULL);
    for (unsigned int i = 0; i < n; i++)
        snprintf(md5_hex + 2 * i, 3, "%02x", digest[i]);
    return FLOE_OK;
}

void floe_store_blob_discard(floe_store_blob_t *b)
{
    char path[PATH_MAX];

    if (b->id[0] == '\0')
        return;
    if (b->fd >= 0)
        close(b->fd);
    b->fd = -1;
    if (b->is_published)
        floe_store_file_path(b->data_dir, b->id, path, sizeof(path));
    else
        tmp_path(b->data_dir, b->id, path, sizeof(path));
    unlink(path);
    b->id[0] = '\0';
}

int floe_store_file_open(const char *data_dir, const char *file_id)
{
    char path[PATH_MAX];
    floe_store_file_path(data_dir, file_id, path, sizeof(path));
    return open(path, O_RDONLY | O_CLOEXEC);
}

void floe_store_file_remove(const char *data_dir, const char *file_id)
{
    char path[PATH_MAX];

    floe_store_file_path(data_dir, file_id, path, sizeof(path));
    if (unlink(path) != 0 && errno != ENOENT)
        floe_log("store: cannot remove %s: %s (the start-up sweep will)", path, strerror(errno));
}

void floe_store_ids_add(floe_store_ids_t *list, const char *id)
{
    assert(strlen(id) == FLOE_STORE_ID_LEN); /* every row names a file blob.c made */
    if (list->n == list->cap) {
        list->cap = list->cap ? list->cap * 2 : 16;
        list->ids = floe_xrealloc(list->ids, list->cap * sizeof(*list->ids));
    }
    memcpy(list->ids[list->n++], id, FLOE_STORE_ID_LEN + 1);
}

void floe_store_ids_remove_files(floe_store_ids_t *list, const char *data_dir)
{
    for (size_t i = 0; i < list->n; i++)
        floe_store_file_remove(data_dir, list->ids[i]);
    floe_store_ids_dispose(list);
}

void floe_store_ids_dispose(floe_store_ids_t *list)
{
    free(list->ids);
    memset(list, 0, sizeof(*list));
}
