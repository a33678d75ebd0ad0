/*
 * The path rewriting of rewrite.h, over cJSON trees of Iceberg table metadata
 * (https://iceberg.apache.org/spec/#table-metadata-fields) and the delete files that name data
 * files (Puffin footers, Parquet position delete rows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "iceberg/puffin.h"
#include "replication/rewrite.h"

const char *floe_rewrite_key(const char *location, const char *path)
{
    size_t n = strlen(location);

    if (path == NULL || strncmp(path, location, n) != 0 || path[n] != '/' || path[n + 1] == '\0')
        return NULL;
    return path + n + 1;
}

char *floe_rewrite_path(const floe_rewrite_t *rw, const char *path)
{
    const char *key = floe_rewrite_key(rw->from, path);
    size_t n_to, n_key;
    char *out;

    if (key == NULL)
        return NULL;
    n_to = strlen(rw->to);
    n_key = strlen(key);
    out = floe_xmalloc(n_to + 1 + n_key + 1);
    memcpy(out, rw->to, n_to);
    out[n_to] = '/';
    memcpy(out + n_to + 1, key, n_key + 1);
    return out;
}

/* Calls fn for member `name` of every object of array `list` when it is a string. */
static void visit_member(cJSON *list, const char *name, floe_rewrite_visit_fn fn, void *arg)
{
    cJSON *item;

    cJSON_ArrayForEach(item, list)
    {
        cJSON *node = cJSON_GetObjectItemCaseSensitive(item, name);
        if (cJSON_IsString(node))
            fn(node, arg);
    }
}

void floe_rewrite_visit_manifest_lists(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg)
{
    visit_member(cJSON_GetObjectItemCaseSensitive(metadata, "snapshots"), "manifest-list", fn, arg);
}

void floe_rewrite_visit_manifests(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg)
{
    cJSON *snapshot, *path;

    cJSON_ArrayForEach(snapshot, cJSON_GetObjectItemCaseSensitive(metadata, "snapshots"))
    {
        cJSON_ArrayForEach(path, cJSON_GetObjectItemCaseSensitive(snapshot, "manifests"))
        {
            if (cJSON_IsString(path))
                fn(path, arg);
        }
    }
}

void floe_rewrite_visit_statistics(cJSON *metadata, floe_rewrite_visit_fn fn, void *arg)
{
    visit_member(cJSON_GetObjectItemCaseSensitive(metadata, "statistics"), "statistics-path", fn, arg);
    visit_member(cJSON_GetObjectItemCaseSensitive(metadata, "partition-statistics"), "statistics-path", fn, arg);
}

/* Replaces a string node's path when it lies in the source warehouse. */
static void rewrite_node(cJSON *node, void *arg)
{
    char *path = floe_rewrite_path(arg, cJSON_GetStringValue(node));

    if (path != NULL)
        cJSON_SetValuestring(node, path);
    free(path);
}

void floe_rewrite_metadata(const floe_rewrite_t *rw, cJSON *metadata)
{
    cJSON *location = cJSON_GetObjectItemCaseSensitive(metadata, "location");

    if (cJSON_IsString(location) && strcmp(location->valuestring, rw->from) == 0)
        cJSON_SetValuestring(location, rw->to);
    else if (cJSON_IsString(location))
        rewrite_node(location, (void *)rw);
    floe_rewrite_visit_manifest_lists(metadata, rewrite_node, (void *)rw);
    floe_rewrite_visit_manifests(metadata, rewrite_node, (void *)rw);
    floe_rewrite_visit_statistics(metadata, rewrite_node, (void *)rw);
    visit_member(cJSON_GetObjectItemCaseSensitive(metadata, "metadata-log"), "metadata-file", rewrite_node,
                 (void *)rw);
}

int floe_rewrite_puffin(const floe_rewrite_t *rw, const uint8_t *file, size_t len, uint8_t **out, size_t *out_len,
                        char *err, size_t err_size)
{
    floe_puffin_t p;
    int rc;

    if (floe_puffin_read(file, len, &p, err, err_size) != 0)
        return FLOE_EFAIL;
    for (size_t i = 0; i < p.n_blobs; i++) {
        char *path;
        if (strcmp(p.blobs[i].type, FLOE_PUFFIN_DELETION_VECTOR) != 0)
            continue;
        path = floe_rewrite_path(rw, floe_puffin_blob_property(&p.blobs[i], "referenced-data-file"));
        if (path != NULL)
            floe_puffin_set_blob_property(&p, i, "referenced-data-file", path);
        free(path);
    }
    rc = floe_puffin_write(file, len, &p, out, out_len, err, err_size);
    floe_puffin_dispose(&p);
    return rc == 0 ? FLOE_OK : FLOE_EFAIL;
}

/* A file_path value moved to the replica's warehouse (floe_parquet_map_fn), or NULL to keep it. */
static uint8_t *move_path(const uint8_t *value, size_t len, size_t *out_len, void *arg)
{
    char *path, *moved;

    if (memchr(value, '\0', len) != NULL)
        return NULL; /* not a path; rewrite_path would read a shorter one */
    path = floe_xmalloc(len + 1);
    memcpy(path, value, len);
    path[len] = '\0';
    moved = floe_rewrite_path(arg, path);
    free(path);
    if (moved != NULL)
        *out_len = strlen(moved);
    return (uint8_t *)moved;
}

int floe_rewrite_position_deletes(const floe_rewrite_t *rw, const uint8_t *file, size_t len,
                                  floe_parquet_mapped_t *out, char *err, size_t err_size)
{
    floe_iceberg_error_t e = {0};

    if (floe_parquet_map_column(file, len, FLOE_REWRITE_DELETE_FILE_PATH_ID, move_path, (void *)rw, out, &e) == 0)
        return FLOE_OK;
    snprintf(err, err_size, "%s", e.message);
    return FLOE_EFAIL;
}

/* A bound moved to the replica's warehouse, or NULL when it does not lie in the source's. */
static char *move_bound(const floe_rewrite_t *rw, const floe_iceberg_bytes_t *b)
{
    if (b == NULL || b->data == NULL || strlen((const char *)b->data) != b->len)
        return NULL; /* manifest.h design note 1: a bound is NUL-terminated; one holding a NUL is no path */
    return floe_rewrite_path(rw, (const char *)b->data);
}

bool floe_rewrite_path_bounds(const floe_rewrite_t *rw, const floe_iceberg_bytes_t *lower,
                              const floe_iceberg_bytes_t *upper, char **new_lower, char **new_upper)
{
    *new_lower = move_bound(rw, lower);
    *new_upper = move_bound(rw, upper);
    if (*new_lower != NULL && *new_upper != NULL)
        return true;
    free(*new_lower);
    free(*new_upper);
    *new_lower = *new_upper = NULL;
    return false;
}
