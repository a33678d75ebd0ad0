/*
 * The prune of prune.h: reading the replica's previous and current metadata, what the dropped
 * snapshots alone reached (maintenance/reach.h over the replica's own files), and deleting it
 * children first (design notes in prune.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "background/object_door.h"
#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "maintenance/reach.h"
#include "replication/prune.h"
#include "replication/rewrite.h"

static int prune_fail(floe_prune_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int prune_fail(floe_prune_t *p, const char *fmt, ...)
{
    va_list ap;

    if (p->message[0] == '\0') {
        va_start(ap, fmt);
        vsnprintf(p->message, sizeof(p->message), fmt, ap);
        va_end(ap);
    }
    return FLOE_EFAIL;
}

/* ---- reading the replica's files ---- */

/* The door to the replica's warehouse (object_door.h). */
static floe_object_door_t door_of(const floe_prune_t *p)
{
    return (floe_object_door_t){.bg = p->bg, .data_dir = p->data_dir, .bucket_id = p->store_bucket,
                                .who = "replication"};
}

/* A reach reader over the replica's warehouse; a tolerant one reads a missing object as NULL. */
typedef struct replica_reader {
    floe_reach_reader_t super;
    floe_prune_t *p;
    bool is_missing_ok;
} replica_reader_t;

/* Reads locations[0..n) of the replica's warehouse (design note 3: data[i] NULL for a missing one
 * when is_missing_ok). */
static int read_objects(floe_prune_t *p, bool is_missing_ok, const char *const *locations, size_t n, uint8_t **data,
                        size_t *len)
{
    floe_object_door_t door = door_of(p);
    const char **keys = floe_xcalloc(n + 1, sizeof(char *));
    floe_background_error_t err;
    size_t at;
    int rc = FLOE_OK;

    for (size_t k = 0; k < n && rc == FLOE_OK; k++) {
        if ((keys[k] = floe_rewrite_key(p->location, locations[k])) == NULL)
            rc = prune_fail(p, "%s lies outside the replica's warehouse", locations[k]);
    }
    if (rc == FLOE_OK) {
        switch (floe_object_door_read_all(&door, keys, n, is_missing_ok, data, len, &at, &err)) {
        case FLOE_OK: break;
        case FLOE_EFAIL:
            rc = prune_fail(p, "cannot look the replica's files up: %s", err.message);
            break;
        case FLOE_ENOTFOUND: rc = prune_fail(p, "the replica's file %s is missing", locations[at]); break;
        default: rc = prune_fail(p, "the replica's file %s could not be read", locations[at]); break;
        }
    }
    free(keys);
    return rc;
}

static int reader_read(floe_reach_reader_t *rd, const char *const *locations, size_t n, uint8_t **data, size_t *len)
{
    replica_reader_t *r = (replica_reader_t *)rd;
    return read_objects(r->p, r->is_missing_ok, locations, n, data, len);
}

static void reader_fail(floe_reach_reader_t *rd, const char *message)
{
    prune_fail(((replica_reader_t *)rd)->p, "%s", message);
}

/* Reads and parses a metadata file; *md NULL when it is missing and is_missing_ok. */
static int read_metadata(floe_prune_t *p, const char *location, bool is_missing_ok, cJSON **md)
{
    uint8_t *data;
    size_t len;

    *md = NULL;
    if (read_objects(p, is_missing_ok, &location, 1, &data, &len))
        return FLOE_EFAIL;
    if (data == NULL)
        return FLOE_OK;
    *md = cJSON_ParseWithLength((const char *)data, len);
    free(data);
    return *md != NULL ? FLOE_OK : prune_fail(p, "the replica's metadata file %s is not JSON", location);
}

/* ---- what the dropped snapshots alone reach ---- */

typedef struct plan {
    floe_reach_t current, dropped;
    floe_reach_set_t current_other, dropped_other; /* statistics and metadata files */
} plan_t;

static void plan_dispose(plan_t *pl)
{
    floe_reach_dispose(&pl->current);
    floe_reach_dispose(&pl->dropped);
    floe_reach_set_dispose(&pl->current_other);
    floe_reach_set_dispose(&pl->dropped_other);
}

static bool has_snapshot(const cJSON *md, int64_t id)
{
    const cJSON *s;
    int64_t other;

    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(md, "snapshots"))
    {
        if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(s, "snapshot-id"), &other) == 0 && other == id)
            return true;
    }
    return false;
}

/* The snapshots of `md` (all, or those `other` lacks), in order. The caller frees the array. */
static const cJSON **pick(const cJSON *md, const cJSON *other, size_t *n)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(md, "snapshots"), *s;
    const cJSON **out = floe_xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(*out));
    int64_t id;

    *n = 0;
    cJSON_ArrayForEach(s, list)
    {
        if (other == NULL ||
            (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(s, "snapshot-id"), &id) == 0 &&
             !has_snapshot(other, id)))
            out[(*n)++] = s;
    }
    return out;
}

/* Adds the strings at `field` of each element of md[array] (statistics paths, metadata-log files). */
static void add_paths(floe_reach_set_t *set, const cJSON *md, const char *array, const char *field)
{
    const cJSON *e, *path;

    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(md, array))
    {
        if (cJSON_IsString(path = cJSON_GetObjectItemCaseSensitive(e, field)))
            floe_reach_set_add(set, path->valuestring);
    }
}

/* The statistics and metadata files `md` (stored at `location`) names. */
static void add_other(floe_reach_set_t *set, const cJSON *md, const char *location)
{
    add_paths(set, md, "statistics", "statistics-path");
    add_paths(set, md, "partition-statistics", "statistics-path");
    add_paths(set, md, "metadata-log", "metadata-file");
    floe_reach_set_add(set, location);
}

/* Design note 1: the current reach strictly, then what the dropped snapshots add, tolerantly. */
static int plan_reach(floe_prune_t *p, const cJSON *previous, const cJSON *current, plan_t *pl)
{
    replica_reader_t strict = {{reader_read, reader_fail}, p, false}, tolerant = {{reader_read, reader_fail}, p, true};
    size_t n_current, n_dropped;
    const cJSON **kept = pick(current, NULL, &n_current), **dropped = pick(previous, current, &n_dropped);
    int rc = FLOE_OK;

    if (n_dropped > 0) {
        rc = floe_reach_snapshots_from(&strict.super, kept, n_current, FLOE_REACH_LIVE_ENTRIES, NULL, &pl->current);
        floe_reach_set_seal(&pl->current.manifests);
        if (rc == FLOE_OK)
            rc = floe_reach_snapshots_from(&tolerant.super, dropped, n_dropped, FLOE_REACH_EVERY_ENTRY, &pl->current,
                                           &pl->dropped);
    }
    free(kept);
    free(dropped);
    return rc;
}

/* ---- deleting ---- */

/* Appends to *keys the warehouse keys of `dropped` that `kept` does not hold. */
static void only_dropped(const floe_prune_t *p, floe_reach_set_t *dropped, floe_reach_set_t *kept, const char ***keys,
                         size_t *n)
{
    const char *key;

    floe_reach_set_seal(dropped);
    floe_reach_set_seal(kept);
    for (size_t i = 0; i < dropped->n; i++) {
        if (floe_reach_set_has(kept, dropped->paths[i]) || (key = floe_rewrite_key(p->location, dropped->paths[i])) == NULL)
            continue;
        *keys = floe_xrealloc(*keys, (*n + 1) * sizeof(char *));
        (*keys)[(*n)++] = key;
    }
}

/* Design note 3: children first, in the door's batches (object_door.h design note 3). */
static int delete_dropped(floe_prune_t *p, plan_t *pl)
{
    floe_object_door_t door = door_of(p);
    const char **keys = NULL;
    size_t n = 0;
    floe_background_error_t err;
    int rc = FLOE_OK;

    only_dropped(p, &pl->dropped.files, &pl->current.files, &keys, &n);
    only_dropped(p, &pl->dropped.manifests, &pl->current.manifests, &keys, &n);
    only_dropped(p, &pl->dropped.lists, &pl->current.lists, &keys, &n);
    only_dropped(p, &pl->dropped_other, &pl->current_other, &keys, &n);
    if (floe_object_door_delete(&door, keys, n, NULL, NULL, &err) != FLOE_OK)
        rc = prune_fail(p, "cannot delete the replica's files: %s", err.message);
    p->n_deleted = rc == FLOE_OK ? (int64_t)n : 0;
    free(keys);
    return rc;
}

/* ---- the prune ---- */

/* Design note 4: the newest metadata-log entry of `current` that exists in the replica. */
static int previous_from_log(floe_prune_t *p, const cJSON *current, char **location, cJSON **md)
{
    const cJSON *log = cJSON_GetObjectItemCaseSensitive(current, "metadata-log");

    *md = NULL;
    for (int i = cJSON_GetArraySize(log) - 1; i >= 0 && *md == NULL; i--) {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(log, i), "metadata-file");
        if (!cJSON_IsString(file) || floe_rewrite_key(p->location, file->valuestring) == NULL ||
            strcmp(file->valuestring, p->current) == 0)
            continue;
        if (read_metadata(p, file->valuestring, true, md))
            return FLOE_EFAIL;
        *location = file->valuestring;
    }
    return FLOE_OK;
}

int floe_replica_prune(floe_prune_t *p)
{
    cJSON *current = NULL, *previous = NULL;
    char *previous_location = (char *)p->previous;
    plan_t pl;
    int rc;

    memset(&pl, 0, sizeof(pl));
    p->message[0] = '\0';
    p->n_deleted = 0;
    if ((rc = read_metadata(p, p->current, false, &current)) != FLOE_OK)
        goto Exit;
    if (previous_location != NULL && strcmp(previous_location, p->current) != 0)
        rc = read_metadata(p, previous_location, true, &previous);
    else
        rc = previous_from_log(p, current, &previous_location, &previous);
    if (rc != FLOE_OK || previous == NULL)
        goto Exit; /* no earlier state left: nothing to prune */
    add_other(&pl.current_other, current, p->current);
    add_other(&pl.dropped_other, previous, previous_location);
    if ((rc = plan_reach(p, previous, current, &pl)) == FLOE_OK)
        rc = delete_dropped(p, &pl);
Exit:
    cJSON_Delete(current);
    cJSON_Delete(previous);
    plan_dispose(&pl);
    return rc;
}
