/*
 * The start-up sweep of recover.h (floe_store_recover): removes what a crash can leave behind
 * (design note 2 in store.c). Everything in tmp/ is a write that never finished or one of h2o's
 * unlinked body spills, so all of it goes; a file in objects/ goes when no object or part row
 * names it. Runs once, before any thread serves, so nothing it removes can be in use.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "db/sql.h"
#include "store/recover.h"

FLOE_SQL(sql_file_is_named,
    "SELECT 1 FROM s3_object WHERE file_id = ?1 UNION ALL SELECT 1 FROM s3_part WHERE file_id = ?1 LIMIT 1");

static int ensure_dir(const char *data_dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", data_dir, name);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        floe_log("cannot create %s: %s", path, strerror(errno));
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static bool is_dot(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* Removes every plain file in dir; returns how many. */
static size_t empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[PATH_MAX];
    size_t n = 0;

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (is_dot(e->d_name))
            continue;
        if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path) && unlink(path) == 0)
            n++;
    }
    closedir(d);
    return n;
}

/* Whether a row names file `id`: FLOE_OK if one does, FLOE_ENOTFOUND if none,
 * FLOE_EFAIL (logged) when SQLite fails; only a definite "none" lets the file go. */
static int file_is_named(floe_state_t *st, const char *id)
{
    return floe_db_probe(st, sql_file_is_named, "t", id);
}

/* Removes the unnamed files of one fan-out directory; returns how many. */
static size_t sweep_fanout_dir(floe_state_t *st, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[PATH_MAX];
    size_t n = 0;

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (is_dot(e->d_name) || file_is_named(st, e->d_name) != FLOE_ENOTFOUND)
            continue;
        if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path) && unlink(path) == 0)
            n++;
    }
    closedir(d);
    return n;
}

static size_t sweep_objects(floe_state_t *st, const char *data_dir)
{
    char root[PATH_MAX], dir[PATH_MAX];
    DIR *d;
    struct dirent *e;
    size_t n = 0;

    snprintf(root, sizeof(root), "%s/objects", data_dir);
    if ((d = opendir(root)) == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (is_dot(e->d_name))
            continue;
        if (snprintf(dir, sizeof(dir), "%s/%s", root, e->d_name) < (int)sizeof(dir))
            n += sweep_fanout_dir(st, dir);
    }
    closedir(d);
    return n;
}

int floe_store_recover(floe_state_t *st, const char *data_dir)
{
    char tmp[PATH_MAX];
    size_t n_tmp, n_orphans;

    if (ensure_dir(data_dir, "objects") || ensure_dir(data_dir, "tmp"))
        return FLOE_EFAIL;
    snprintf(tmp, sizeof(tmp), "%s/tmp", data_dir);
    n_tmp = empty_dir(tmp);
    n_orphans = sweep_objects(st, data_dir);
    floe_state_end_call(st);
    if (n_tmp > 0 || n_orphans > 0)
        floe_log("recovered the object store: removed %zu unfinished and %zu orphaned files", n_tmp, n_orphans);
    return FLOE_OK;
}
