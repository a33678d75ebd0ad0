/*
 * The computed counts of computed_summary.h. A manifest's counts are kept by path for the request:
 * each snapshot of a table of appends lists every manifest before it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "console/computed_summary.h"
#include "console/table_file.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/snapshot_counts.h"

typedef struct seen_manifest {
    const char *path;
    uint64_t hash; /* of the path: paths share a long warehouse prefix, so compare this first */
    floe_iceberg_manifest_counts_t counts;
} seen_manifest_t;

typedef struct reader {
    floe_console_req_t *r;
    const floe_table_row_t *table;
    seen_manifest_t *seen;
    size_t n_seen, cap_seen;
    size_t bytes_read; /* against FLOE_CONSOLE_COMPUTED_BYTES */
    const char *why;   /* set when a step fails: the snapshot's "error" */
} reader_t;

/* Reads the file at `location` (in the request's pool), within the request's budget; FLOE_EFAIL
 * with d->why set. */
static int read_file(reader_t *d, const char *location, char **data, size_t *len)
{
    floe_call_t *call = &d->r->call;

    switch (floe_console_read_table_file(d->r, d->table, location, FLOE_CONSOLE_COMPUTED_BYTES - d->bytes_read, data,
                                         len)) {
    case FLOE_OK:
        d->bytes_read += *len;
        return FLOE_OK;
    case FLOE_EINVAL:
        d->why = floe_call_printf(call, "The file '%.200s' is not inside the table's warehouse.", location);
        return FLOE_EFAIL;
    case FLOE_ESTATE:
        d->why = floe_call_printf(call, "The table's manifests hold more than the %zu MiB the page reads to count.",
                                  FLOE_CONSOLE_COMPUTED_BYTES >> 20);
        return FLOE_EFAIL;
    default:
        d->why = floe_call_printf(call, "The file '%.200s' cannot be read.", location);
        return FLOE_EFAIL;
    }
}

/* FNV-1a. */
static uint64_t path_hash(const char *path)
{
    uint64_t h = 14695981039346656037u;

    for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

static const seen_manifest_t *find_seen(const reader_t *d, const char *path, uint64_t hash)
{
    for (size_t i = 0; i < d->n_seen; i++) {
        if (d->seen[i].hash == hash && strcmp(d->seen[i].path, path) == 0)
            return &d->seen[i];
    }
    return NULL;
}

/* The counts of the manifest at `path`, read once per request. */
static int manifest_counts(reader_t *d, const char *path, const floe_iceberg_manifest_counts_t **out)
{
    floe_iceberg_manifest_t m;
    char err[256], *data;
    size_t len;
    seen_manifest_t *grown;
    uint64_t hash = path_hash(path);
    const seen_manifest_t *seen = find_seen(d, path, hash);

    if (seen != NULL) {
        *out = &seen->counts;
        return FLOE_OK;
    }
    if (read_file(d, path, &data, &len))
        return FLOE_EFAIL;
    if (floe_iceberg_manifest_read((const uint8_t *)data, len, &m, err, sizeof(err))) {
        d->why = floe_call_printf(&d->r->call, "The manifest '%.200s' cannot be read: %s", path, err);
        return FLOE_EFAIL;
    }
    if (d->n_seen == d->cap_seen) {
        d->cap_seen = d->cap_seen ? 2 * d->cap_seen : 64;
        grown = floe_call_alloc(&d->r->call, d->cap_seen * sizeof(*grown));
        if (d->n_seen > 0)
            memcpy(grown, d->seen, d->n_seen * sizeof(*grown));
        d->seen = grown;
    }
    d->seen[d->n_seen].path = floe_call_strdup(&d->r->call, path);
    d->seen[d->n_seen].hash = hash;
    floe_iceberg_manifest_counts(&m, &d->seen[d->n_seen].counts);
    floe_iceberg_manifest_dispose(&m);
    *out = &d->seen[d->n_seen++].counts;
    return FLOE_OK;
}

/* The counts of the snapshot `id` whose manifest list is at `list_location`. */
static int snapshot_counts(reader_t *d, int64_t id, const char *list_location, floe_iceberg_snapshot_counts_t *out)
{
    floe_iceberg_manifest_list_t list;
    const floe_iceberg_manifest_counts_t *counts;
    char err[256], *data;
    size_t len;
    int rc = FLOE_OK;

    memset(out, 0, sizeof(*out));
    if (read_file(d, list_location, &data, &len))
        return FLOE_EFAIL;
    if (floe_iceberg_manifest_list_read((const uint8_t *)data, len, &list, err, sizeof(err))) {
        d->why = floe_call_printf(&d->r->call, "The manifest list cannot be read: %s", err);
        return FLOE_EFAIL;
    }
    for (size_t i = 0; i < list.n_files && rc == FLOE_OK; i++) {
        if ((rc = manifest_counts(d, list.files[i].manifest_path, &counts)) == FLOE_OK)
            floe_iceberg_snapshot_counts_add(out, id, &list.files[i], counts);
    }
    floe_iceberg_manifest_list_dispose(&list);
    return rc;
}

/* Whether the summary lacks the totals every Iceberg Java summary has. */
static bool lacks_counts(const cJSON *snapshot)
{
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(snapshot, "summary");

    return !cJSON_IsObject(summary) || cJSON_GetObjectItemCaseSensitive(summary, "total-records") == NULL;
}

static void write_snapshot(reader_t *d, floe_json_t *json, const cJSON *snapshot, int64_t id)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(snapshot, "manifest-list");
    floe_iceberg_snapshot_counts_t counts;
    char key[24];

    snprintf(key, sizeof(key), "%" PRId64, id);
    floe_json_key(json, key);
    floe_json_object_begin(json);
    d->why = "The snapshot names no manifest list (format version 1 manifests).";
    if (cJSON_IsString(list) && snapshot_counts(d, id, list->valuestring, &counts) == FLOE_OK) {
        floe_json_key(json, "computedFrom");
        floe_json_string(json, "manifests");
        floe_iceberg_snapshot_counts_write(json, &counts);
    } else {
        floe_json_key(json, "error");
        floe_json_string(json, d->why);
    }
    floe_json_object_end(json);
}

void floe_console_write_computed_summaries(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t,
                                           const cJSON *metadata)
{
    reader_t d = {.r = r, .table = t};
    const cJSON *snapshot;
    int64_t id;

    floe_json_key(json, "computedSummaries");
    floe_json_object_begin(json);
    cJSON_ArrayForEach(snapshot, cJSON_GetObjectItemCaseSensitive(metadata, "snapshots"))
    {
        if (lacks_counts(snapshot) &&
            floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(snapshot, "snapshot-id"), &id) == 0)
            write_snapshot(&d, json, snapshot, id);
    }
    floe_json_object_end(json);
}
