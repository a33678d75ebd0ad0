/*
 * Helpers shared by the iceberg_*.c unit tests: parse JSON text exactly, walk a tree by a path
 * such as "schemas[1].fields[0].id", and run a commit from JSON text. Every helper is static
 * inline so a test file that does not use one does not warn.
 */
#ifndef FLOE_TEST_ICEBERG_SUPPORT_H
#define FLOE_TEST_ICEBERG_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_commit.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"

/* Returned by ice_int when the path does not lead to an integer. */
#define ICE_NO_INT (INT64_MIN + 7)

/* A real-world v2 file in the shape of Java's TableMetadataV2Valid.json test resource, with
 * snapshot ids beyond 2^53 and members Floe does not model (summary keys, a top-level extra). */
static const char ice_sample_v2[] =
    "{\n"
    "  \"format-version\" : 2,\n"
    "  \"table-uuid\" : \"9c12d441-03fe-4693-9a96-a0705ddf69c1\",\n"
    "  \"location\" : \"s3://bucket/test/location\",\n"
    "  \"last-sequence-number\" : 34,\n"
    "  \"last-updated-ms\" : 1602638573590,\n"
    "  \"last-column-id\" : 3,\n"
    "  \"current-schema-id\" : 1,\n"
    "  \"schemas\" : [ {\"type\" : \"struct\", \"schema-id\" : 0, \"fields\" : [ {\"id\" : 1, \"name\" : \"x\", "
    "\"required\" : true, \"type\" : \"long\"} ]},\n"
    "    {\"type\" : \"struct\", \"schema-id\" : 1, \"identifier-field-ids\" : [ 1, 2 ], \"fields\" : [\n"
    "      {\"id\" : 1, \"name\" : \"x\", \"required\" : true, \"type\" : \"long\"},\n"
    "      {\"id\" : 2, \"name\" : \"y\", \"required\" : true, \"type\" : \"long\", \"doc\" : \"comment\"},\n"
    "      {\"id\" : 3, \"name\" : \"z\", \"required\" : true, \"type\" : \"long\"} ]} ],\n"
    "  \"default-spec-id\" : 0,\n"
    "  \"partition-specs\" : [ {\"spec-id\" : 0, \"fields\" : [ {\"name\" : \"x\", \"transform\" : \"identity\", "
    "\"source-id\" : 1, \"field-id\" : 1000} ]} ],\n"
    "  \"last-partition-id\" : 1000,\n"
    "  \"default-sort-order-id\" : 3,\n"
    "  \"sort-orders\" : [ {\"order-id\" : 3, \"fields\" : [\n"
    "      {\"transform\" : \"identity\", \"source-id\" : 2, \"direction\" : \"asc\", \"null-order\" : "
    "\"nulls-first\"},\n"
    "      {\"transform\" : \"bucket[4]\", \"source-id\" : 3, \"direction\" : \"desc\", \"null-order\" : "
    "\"nulls-last\"} ]} ],\n"
    "  \"properties\" : { \"write.format.default\" : \"parquet\" },\n"
    "  \"current-snapshot-id\" : 3055729675574597004,\n"
    "  \"refs\" : { \"main\" : { \"snapshot-id\" : 3055729675574597004, \"type\" : \"branch\" } },\n"
    "  \"snapshots\" : [ {\"snapshot-id\" : 3051729675574597004, \"timestamp-ms\" : 1515100955770, "
    "\"sequence-number\" : 0, \"summary\" : {\"operation\" : \"append\"}, \"manifest-list\" : \"s3://a/b/1.avro\"},\n"
    "    {\"snapshot-id\" : 3055729675574597004, \"parent-snapshot-id\" : 3051729675574597004, "
    "\"timestamp-ms\" : 1555100955770, \"sequence-number\" : 1, \"summary\" : {\"operation\" : \"append\", "
    "\"added-data-files\" : \"4\", \"total-records\" : \"100\"}, \"manifest-list\" : \"s3://a/b/2.avro\", "
    "\"schema-id\" : 1} ],\n"
    "  \"statistics\" : [ ],\n"
    "  \"partition-statistics\" : [ ],\n"
    "  \"snapshot-log\" : [ {\"timestamp-ms\" : 1515100955770, \"snapshot-id\" : 3051729675574597004},\n"
    "    {\"timestamp-ms\" : 1555100955770, \"snapshot-id\" : 3055729675574597004} ],\n"
    "  \"metadata-log\" : [ {\"timestamp-ms\" : 1515100000000, \"metadata-file\" : "
    "\"s3://bucket/test/location/metadata/00000-aa.metadata.json\"} ],\n"
    "  \"x-vendor-extension\" : {\"kept\" : [1, 2, 3]}\n"
    "}\n";

#define ICE_SAMPLE_LOCATION "s3://bucket/test/location/metadata/00001-bb.metadata.json"
#define ICE_SAMPLE_UUID "9c12d441-03fe-4693-9a96-a0705ddf69c1"
#define ICE_SAMPLE_MAIN INT64_C(3055729675574597004)
#define ICE_SAMPLE_FIRST INT64_C(3051729675574597004)
#define ICE_NOW INT64_C(1700000000000)

/* Parses JSON text exactly; a test-writing mistake aborts. The caller deletes the tree. */
static inline cJSON *ice_json(const char *text)
{
    floe_iceberg_error_t err;
    cJSON *j = floe_iceberg_json_parse(text, strlen(text), &err);
    if (j == NULL) {
        fprintf(stderr, "test JSON does not parse: %s\n%s\n", err.message, text);
        abort();
    }
    return j;
}

/* Follows "a.b[2].c" (keys may contain '-'); NULL when a step is missing. */
static inline const cJSON *ice_at(const cJSON *root, const char *path)
{
    char key[128];
    const cJSON *node = root;
    const char *p = path;

    while (node != NULL && *p != '\0') {
        if (*p == '.') {
            p++;
        } else if (*p == '[') {
            int index = atoi(p + 1);
            node = cJSON_GetArrayItem(node, index);
            p = strchr(p, ']');
            p = p != NULL ? p + 1 : "";
        } else {
            size_t n = strcspn(p, ".[");
            if (n >= sizeof(key))
                return NULL;
            memcpy(key, p, n);
            key[n] = '\0';
            node = cJSON_GetObjectItemCaseSensitive(node, key);
            p += n;
        }
    }
    return node;
}

static inline int64_t ice_int(const cJSON *root, const char *path)
{
    int64_t v;
    return floe_iceberg_json_int64(ice_at(root, path), &v) == 0 ? v : ICE_NO_INT;
}

static inline const char *ice_str(const cJSON *root, const char *path)
{
    const cJSON *s = ice_at(root, path);
    return cJSON_IsString(s) ? s->valuestring : NULL;
}

static inline int ice_size(const cJSON *root, const char *path)
{
    const cJSON *a = ice_at(root, path);
    return a != NULL ? cJSON_GetArraySize(a) : -1;
}

static inline bool ice_streq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The result of one commit: the code, the message, and the new metadata as a tree (NULL on
 * failure). Release with ice_result_free. */
typedef struct ice_result {
    int rc;
    floe_iceberg_error_t err;
    char *text;
    cJSON *md;
} ice_result_t;

/* Commits `updates` (and `requirements`, NULL for none) as JSON text against `current`. */
static inline ice_result_t ice_commit_at(const char *current, const char *current_location, const char *requirements,
                                         const char *updates, int64_t now_ms)
{
    ice_result_t r = {0};
    cJSON *req = requirements != NULL ? ice_json(requirements) : NULL;
    cJSON *upd = ice_json(updates);
    floe_iceberg_commit_input_t in = {
        .current_json = current,
        .current_location = current_location,
        .requirements = req,
        .updates = upd,
        .create_location = "s3://warehouse/created",
        .now_ms = now_ms,
    };

    r.rc = floe_iceberg_commit(&in, &r.text, &r.err);
    if (r.rc == FLOE_ICEBERG_OK) {
        r.md = ice_json(r.text);
    } else if (r.text != NULL) {
        fprintf(stderr, "a failed commit returned text\n");
        abort();
    }
    cJSON_Delete(req);
    cJSON_Delete(upd);
    return r;
}

/* Commits against the v2 sample at ICE_NOW. */
static inline ice_result_t ice_commit(const char *requirements, const char *updates)
{
    return ice_commit_at(ice_sample_v2, ICE_SAMPLE_LOCATION, requirements, updates, ICE_NOW);
}

static inline void ice_result_free(ice_result_t *r)
{
    free(r->text);
    cJSON_Delete(r->md);
    memset(r, 0, sizeof(*r));
}

/* Every member the table spec requires of a format-version 2 file, plus the ones Floe always
 * writes. */
static inline bool ice_has_v2_required_fields(const cJSON *md)
{
    static const char *const keys[] = {
        "format-version",
        "table-uuid",
        "location",
        "last-sequence-number",
        "last-updated-ms",
        "last-column-id",
        "schemas",
        "current-schema-id",
        "partition-specs",
        "default-spec-id",
        "last-partition-id",
        "sort-orders",
        "default-sort-order-id",
        "properties",
        "snapshots",
        "refs",
        "snapshot-log",
        "metadata-log",
        NULL,
    };
    for (const char *const *k = keys; *k != NULL; k++) {
        if (cJSON_GetObjectItemCaseSensitive(md, *k) == NULL) {
            fprintf(stderr, "missing required member %s\n", *k);
            return false;
        }
    }
    return ice_int(md, "format-version") == 2;
}

#endif
