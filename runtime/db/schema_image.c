/*
 * The database file of a fresh data directory, written from the image made at build time
 * (schema_snapshot.h) instead of being created by running the schema script: SQLite parses every
 * CREATE of a script twice (to run it and to load the new object), which was most of a fresh
 * start's cost; the image costs a few writes, and SQLite reads its schema once, as it does on any
 * existing data directory.
 *
 * Design notes:
 *  1. The file appears whole or not at all: it is written unnamed (O_TMPFILE) in the data
 *     directory, made durable, and only then linked as path; linkat fails when path exists, so a
 *     file another opener made first is never replaced.
 *  2. It is synced before it is named: a power cut must not leave a named file of zeros, which
 *     SQLite would refuse to open, under a WAL that holds the first commits.
 *  3. Anything this cannot do (no O_TMPFILE, no /proc) falls back to SQLite creating the file;
 *     floe_schema_migrate then runs the script, to the same schema (a unit test compares them).
 *  4. A WAL or rollback journal left without its database (someone removed floe.db alone) also
 *     falls back: SQLite discards such a file beside an empty database, but would apply it to
 *     the image, pages of another database over this one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/failure.h"
#include "db/schema_snapshot.h"

#define IOV_BATCH 256 /* iovecs per pwritev, well under IOV_MAX */

static const unsigned char zeros[4096];

/* The iovecs of one pwritev call and the file offset where they start. */
typedef struct image_batch {
    struct iovec iov[IOV_BATCH];
    int n;
    off_t start, end; /* end: the offset just past the last iovec */
} image_batch_t;

static int flush(int fd, image_batch_t *b)
{
    ssize_t want = (ssize_t)(b->end - b->start);

    if (b->n > 0 && pwritev(fd, b->iov, b->n, b->start) != want)
        return FLOE_EFAIL;
    b->n = 0;
    b->start = b->end;
    return FLOE_OK;
}

static int append(int fd, image_batch_t *b, const void *bytes, size_t length)
{
    if (b->n == IOV_BATCH && flush(fd, b) != 0)
        return FLOE_EFAIL;
    b->iov[b->n++] = (struct iovec){(void *)bytes, length};
    b->end += (off_t)length;
    return FLOE_OK;
}

/* Zeros from the batch's end up to `to`, from the one zero page. */
static int append_zeros(int fd, image_batch_t *b, off_t to)
{
    while (b->end < to) {
        size_t length = (size_t)(to - b->end) < sizeof(zeros) ? (size_t)(to - b->end) : sizeof(zeros);
        if (append(fd, b, zeros, length) != 0)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Writes the whole image into fd in a few system calls: a pwritev of each run's bytes and of the
 * zeros between runs. FLOE_OK or FLOE_EFAIL. */
static int write_image(int fd)
{
    image_batch_t batch = {.n = 0};
    const unsigned char *bytes = floe_schema_image_bytes;

    for (size_t i = 0; i < floe_schema_image_n_runs; i++) {
        const floe_schema_image_run_t *run = &floe_schema_image_runs[i];
        if (append_zeros(fd, &batch, run->offset) != 0 || append(fd, &batch, bytes, run->length) != 0)
            return FLOE_EFAIL;
        bytes += run->length;
    }
    if (append_zeros(fd, &batch, (off_t)floe_schema_image_size) != 0)
        return FLOE_EFAIL;
    return flush(fd, &batch);
}

/* 1 when path, or SQLite's WAL or rollback journal beside it, exists (or cannot be checked). */
static int database_is_there(const char *path)
{
    static const char *const suffixes[] = {"", "-wal", "-journal"};
    char name[PATH_MAX];

    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        if (snprintf(name, sizeof(name), "%s%s", path, suffixes[i]) >= (int)sizeof(name) ||
            access(name, F_OK) == 0 || errno != ENOENT)
            return 1;
    }
    return 0;
}

int floe_schema_image_write(const char *path)
{
    char dir[PATH_MAX], fd_path[64];
    const char *slash = strrchr(path, '/');
    int fd = -1, rc = FLOE_EFAIL;

    if (slash == NULL || (size_t)(slash - path) >= sizeof(dir) || database_is_there(path))
        return FLOE_EFAIL;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if ((fd = open(slash == path ? "/" : dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644)) < 0)
        return FLOE_EFAIL;
    if (write_image(fd) != 0 || fdatasync(fd) != 0)
        goto Exit;
    snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
    rc = linkat(AT_FDCWD, fd_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? FLOE_OK : FLOE_EFAIL;
Exit:
    close(fd);
    return rc;
}
