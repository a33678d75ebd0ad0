/*
 * The path rewriting of rewrite.h, over cJSON trees of Iceberg table metadata
 * (https://iceberg.apache.org/spec/#table-metadata-fields).
 */
#include <stdlib.h>
#include <string.h>

#include "replication/rewrite.h"
#include "base/xalloc.h"

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
