/* Tests of runtime/maintenance/snapshot_select.c: which snapshots expire, by Iceberg's
 * ExpireSnapshots rules, for a table's metadata, settings and clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "maintenance/snapshot_select.h"

#define HOUR_MS (3600LL * 1000)

/* A v2 metadata.json with snapshots 1..n (each the parent of the next, snapshot i at hour i),
 * main at n, and `refs_extra` (",\"name\":{...}" or "") added to refs. */
static int metadata_of(int n, const char *refs_extra, floe_iceberg_metadata_t *md)
{
    char *json = malloc(4096 + (size_t)n * 256), *p = json;
    floe_iceberg_error_t err;
    int rc;

    p += sprintf(p, "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
                    "\"location\":\"s3://w\",\"last-sequence-number\":%d,\"last-updated-ms\":1,\"last-column-id\":1,"
                    "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,"
                    "\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}],\"default-spec-id\":0,"
                    "\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
                    "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
                    "\"current-snapshot-id\":%d,\"refs\":{\"main\":{\"snapshot-id\":%d,\"type\":\"branch\"}%s},"
                    "\"snapshots\":[",
                 n, n, n, refs_extra);
    for (int i = 1; i <= n; i++)
        p += sprintf(p, "%s{\"snapshot-id\":%d,\"sequence-number\":%d,\"timestamp-ms\":%lld,"
                        "\"manifest-list\":\"s3://w/metadata/snap-%d.avro\",\"summary\":{\"operation\":\"append\"}}",
                     i > 1 ? "," : "", i, i, (long long)i * HOUR_MS, i);
    sprintf(p, "],\"snapshot-log\":[],\"metadata-log\":[]}");
    /* each snapshot's parent is the one before it */
    rc = floe_iceberg_metadata_parse(json, strlen(json), md, &err);
    if (rc == 0) {
        cJSON *s;
        int i = 0;
        cJSON_ArrayForEach(s, md->snapshots)
        {
            if (++i > 1)
                cJSON_AddNumberToObject(s, "parent-snapshot-id", i - 1);
        }
    } else {
        fprintf(stderr, "metadata: %s\n", err.message);
    }
    free(json);
    return rc;
}

static int has_id(const floe_expire_plan_t *p, int64_t id)
{
    for (size_t i = 0; i < p->n_expired; i++)
        if (p->expired[i] == id)
            return 1;
    return 0;
}

TEST(snapshot_select_old_snapshots_expire_down_to_min_to_keep)
{
    floe_iceberg_metadata_t md;
    floe_expire_plan_t plan;

    CHECK(metadata_of(10, "", &md) == 0, "the test metadata parses");
    floe_expire_select(&md, 3, HOUR_MS, 100 * HOUR_MS, &plan);
    CHECK(plan.n_expired == 7, "ten snapshots all older than an hour keep the three newest");
    CHECK(!has_id(&plan, 10) && !has_id(&plan, 9) && !has_id(&plan, 8), "the newest three stay");
    CHECK(has_id(&plan, 1) && has_id(&plan, 7), "the older ones expire");
    floe_expire_plan_dispose(&plan);
    floe_expire_select(&md, 1, 95 * HOUR_MS, 100 * HOUR_MS, &plan);
    CHECK(plan.n_expired == 4, "snapshots younger than the age stay even beyond min-to-keep (5..10 of 10)");
    floe_expire_plan_dispose(&plan);
    floe_iceberg_metadata_dispose(&md);
}

TEST(snapshot_select_current_snapshot_never_expires)
{
    floe_iceberg_metadata_t md;
    floe_expire_plan_t plan;

    CHECK(metadata_of(3, "", &md) == 0, "the test metadata parses");
    floe_expire_select(&md, 0, 0, 1000 * HOUR_MS, &plan);
    CHECK(!has_id(&plan, 3), "even with nothing to keep, the current snapshot stays");
    CHECK(plan.n_expired == 2, "the others expire");
    floe_expire_plan_dispose(&plan);
    floe_iceberg_metadata_dispose(&md);
}

TEST(snapshot_select_tags_and_branch_settings_are_kept)
{
    floe_iceberg_metadata_t md;
    floe_expire_plan_t plan;
    cJSON *updates;

    CHECK(metadata_of(10, ",\"v1\":{\"snapshot-id\":2,\"type\":\"tag\"},"
                          "\"audit\":{\"snapshot-id\":5,\"type\":\"branch\",\"min-snapshots-to-keep\":2},"
                          "\"old\":{\"snapshot-id\":1,\"type\":\"tag\",\"max-ref-age-ms\":3600000}",
                      &md) == 0,
          "the test metadata parses");
    floe_expire_select(&md, 1, HOUR_MS, 100 * HOUR_MS, &plan);
    CHECK(!has_id(&plan, 2), "a tag keeps its snapshot");
    CHECK(!has_id(&plan, 5) && !has_id(&plan, 4), "a branch keeps its own min-snapshots-to-keep ancestors");
    CHECK(has_id(&plan, 3), "older ancestors of that branch expire");
    CHECK(has_id(&plan, 1), "a tag past its max-ref-age keeps nothing");
    CHECK(plan.n_refs_removed == 1 && strcmp(plan.refs_removed[0], "old") == 0, "and the tag itself is removed");
    updates = floe_expire_updates(&plan);
    CHECK(updates != NULL && cJSON_GetArraySize(updates) == 2, "one remove-snapshot-ref and one remove-snapshots");
    cJSON_Delete(updates);
    floe_expire_plan_dispose(&plan);
    floe_iceberg_metadata_dispose(&md);
}

TEST(snapshot_select_nothing_due_is_no_update)
{
    floe_iceberg_metadata_t md;
    floe_expire_plan_t plan;

    CHECK(metadata_of(4, "", &md) == 0, "the test metadata parses");
    floe_expire_select(&md, 1, 1000 * HOUR_MS, 5 * HOUR_MS, &plan);
    CHECK(plan.n_expired == 0, "young snapshots stay");
    CHECK(floe_expire_updates(&plan) == NULL, "and there is nothing to commit");
    floe_expire_plan_dispose(&plan);
    floe_iceberg_metadata_dispose(&md);
}
