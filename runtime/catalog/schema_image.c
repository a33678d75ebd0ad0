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
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/schema_snapshot.h"

/* Writes the image's runs into fd, leaving the zeros between them as holes. 0 or -1. */
static int write_runs(int fd)
{
    const unsigned char *bytes = floe_schema_image_bytes;

    if (ftruncate(fd, (off_t)floe_schema_image_size) != 0)
        return -1;
    for (size_t i = 0; i < floe_schema_image_n_runs; i++) {
        const floe_schema_image_run_t *run = &floe_schema_image_runs[i];
        if (pwrite(fd, bytes, run->length, run->offset) != (ssize_t)run->length)
            return -1;
        bytes += run->length;
    }
    return 0;
}

int floe_schema_image_write(const char *path)
{
    char dir[PATH_MAX], fd_path[64];
    const char *slash = strrchr(path, '/');
    int fd = -1, rc = -1;

    if (slash == NULL || (size_t)(slash - path) >= sizeof(dir) || access(path, F_OK) == 0 || errno != ENOENT)
        return -1;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if ((fd = open(slash == path ? "/" : dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644)) < 0)
        return -1;
    if (write_runs(fd) != 0 || fdatasync(fd) != 0)
        goto Exit;
    snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
    rc = linkat(AT_FDCWD, fd_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : -1;
Exit:
    close(fd);
    return rc;
}
