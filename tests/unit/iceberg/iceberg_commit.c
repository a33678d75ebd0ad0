/*
 * Tests of runtime/iceberg_commit.c and runtime/iceberg_update.c: every requirement (holding and
 * failing), every update (its effect and a bad payload), -1 semantics, sequence numbers, the
 * logs, and creates. Most run against ice_sample_v2 (iceberg_support.h).
 */
#include <inttypes.h>
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_commit.h"
#include "iceberg_support.h"

#define ICE_NEW_SNAPSHOT INT64_C(8333333333333333333)
#define ICE_ADDED_SNAPSHOT_MS_TEXT "1699999999000" /* the added snapshot's own time, before ICE_NOW */
#define ICE_ADDED_SNAPSHOT_MS INT64_C(1699999999000)

/* An add-snapshot update for `id` with sequence number `seq`, child of the sample's main. */
static void ice_add_snapshot(char *buf, size_t size, int64_t id, int64_t seq)
{
    snprintf(buf, size,
             "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":%" PRId64
             ",\"parent-snapshot-id\":3055729675574597004,"
             "\"sequence-number\":%" PRId64 ",\"timestamp-ms\":" ICE_ADDED_SNAPSHOT_MS_TEXT ",\"manifest-list\":\"s3://a/b/%" PRId64
             ".avro\","
             "\"summary\":{\"operation\":\"append\",\"added-records\":\"5\"},\"first-row-id\":0,\"added-rows\":5}}",
             id, seq, id);
}

/* The commit of `updates` against the sample, its failure (if any) printed for the CHECK after. */
static ice_result_t ice_commit_ok(const char *requirements, const char *updates)
{
    ice_result_t r = ice_commit(requirements, updates);
    if (r.rc != FLOE_ICEBERG_OK)
        fprintf(stderr, "  rc %d, message '%s'\n", r.rc, r.err.message);
    return r;
}

/* Checks that `updates` against the sample is a bad request whose message holds `reason`. */
static void ice_expect_invalid(const char *updates, const char *reason)
{
    ice_result_t r = ice_commit(NULL, updates);
    if (r.rc != FLOE_ICEBERG_EINVALID || strstr(r.err.message, reason) == NULL)
        fprintf(stderr, "updates %s\n  rc %d, message '%s', wanted '%s'\n", updates, r.rc, r.err.message, reason);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, reason) != NULL,
          "an invalid update is a bad request that says what is wrong");
    ice_result_free(&r);
}

/* Checks that `requirements` against the sample is a conflict. */
static void ice_expect_conflict(const char *requirements, const char *reason)
{
    ice_result_t r = ice_commit(requirements, "[]");
    if (r.rc != FLOE_ICEBERG_ECONFLICT || strstr(r.err.message, reason) == NULL)
        fprintf(stderr, "requirements %s\n  rc %d, message '%s'\n", requirements, r.rc, r.err.message);
    CHECK(r.rc == FLOE_ICEBERG_ECONFLICT && strstr(r.err.message, reason) != NULL,
          "a requirement that does not hold is a commit conflict");
    ice_result_free(&r);
}

/* ==== requirements ==== */

TEST(iceberg_commit_requirements_that_hold_pass)
{
    ice_result_t r =
        ice_commit("[{\"type\":\"assert-table-uuid\",\"uuid\":\"9C12D441-03FE-4693-9A96-A0705DDF69C1\"},"
                   "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":3055729675574597004},"
                   "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"audit\",\"snapshot-id\":null},"
                   "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":3},"
                   "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1},"
                   "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1000},"
                   "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":0},"
                   "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":3}]",
                   "[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]");
    CHECK(r.rc == FLOE_ICEBERG_OK,
          "every requirement type that holds lets the commit through (uuid case-insensitively)");
    ice_result_free(&r);
}

TEST(iceberg_commit_failed_requirements_are_conflicts)
{
    ice_expect_conflict("[{\"type\":\"assert-create\"}]", "table already exists");
    ice_expect_conflict("[{\"type\":\"assert-table-uuid\",\"uuid\":\"00000000-0000-0000-0000-000000000000\"}]",
                        "UUID does not match");
    ice_expect_conflict("[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":null}]",
                        "branch main was created concurrently");
    ice_expect_conflict("[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"audit\",\"snapshot-id\":1}]",
                        "audit is missing");
    ice_expect_conflict("[{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":2}]",
                        "last assigned field id changed: expected id 2 != 3");
    ice_expect_conflict("[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0}]",
                        "current schema changed: expected id 0 != 1");
    ice_expect_conflict("[{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":999}]",
                        "last assigned partition id changed");
    ice_expect_conflict("[{\"type\":\"assert-default-spec-id\",\"default-spec-id\":1}]",
                        "default partition spec changed");
    ice_expect_conflict("[{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":0}]",
                        "default sort order changed");
}

TEST(iceberg_commit_stale_ref_is_a_conflict)
{
    ice_expect_conflict("[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":3051729675574597004}]",
                        "branch main has changed: expected id 3051729675574597004 != 3055729675574597004");
}

TEST(iceberg_commit_malformed_requirements_are_bad_requests)
{
    static const char *const bad[] = {
        "[{\"type\":\"assert-nothing\"}]",
        "[{\"uuid\":\"x\"}]",
        "[{\"type\":\"assert-table-uuid\"}]",
        "[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\"}]",
        "[{\"type\":\"assert-ref-snapshot-id\",\"snapshot-id\":1}]",
        "[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":\"1\"}]",
        "[{\"type\":\"assert-default-spec-id\"}]",
        "[7]",
        "{\"type\":\"assert-create\"}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ice_result_t r = ice_commit(bad[i], "[]");
        CHECK(r.rc == FLOE_ICEBERG_EINVALID, "a malformed requirement is a bad request, not a conflict");
        ice_result_free(&r);
    }
}

TEST(iceberg_commit_malformed_requirement_wins_over_a_failing_one)
{
    ice_result_t r = ice_commit("[{\"type\":\"assert-create\"},{\"type\":\"assert-bogus\"}]", "[]");
    CHECK(r.rc == FLOE_ICEBERG_EINVALID, "requirements are all parsed before any is checked");
    ice_result_free(&r);
}

TEST(iceberg_commit_requirements_see_the_table_before_updates)
{
    ice_result_t r = ice_commit("[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1}]",
                                "[{\"action\":\"set-current-schema\",\"schema-id\":0},"
                                "{\"action\":\"upgrade-format-version\",\"format-version\":2}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-schema-id") == 0,
          "a requirement is checked against the current metadata, then the updates apply");
    ice_result_free(&r);
    r = ice_commit("[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0}]",
                   "[{\"action\":\"no-such-update\"}]");
    CHECK(r.rc == FLOE_ICEBERG_ECONFLICT, "a failed requirement is reported before a bad update is looked at");
    ice_result_free(&r);
}

/* ==== identity and format ==== */

TEST(iceberg_commit_assign_uuid_keeps_the_table_uuid)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"assign-uuid\",\"uuid\":\"" ICE_SAMPLE_UUID "\"}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_streq(ice_str(r.md, "table-uuid"), ICE_SAMPLE_UUID),
          "assigning the table's own uuid again is accepted");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"assign-uuid\",\"uuid\":\"11111111-2222-3333-4444-555555555555\"}]",
                       "Cannot change the UUID");
    ice_expect_invalid("[{\"action\":\"assign-uuid\",\"uuid\":\"not-a-uuid\"}]", "is not a UUID");
    ice_expect_invalid("[{\"action\":\"assign-uuid\"}]", "'uuid' is required");
}

TEST(iceberg_commit_upgrade_format_version_never_downgrades)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"upgrade-format-version\",\"format-version\":2}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "format-version") == 2, "upgrading to the same version is a no-op");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"upgrade-format-version\",\"format-version\":1}]",
                       "Cannot downgrade v2 table to v1");
    ice_expect_invalid("[{\"action\":\"upgrade-format-version\",\"format-version\":4}]",
                       "Cannot upgrade table to unsupported format version: v4 (supported: v3)");
    ice_expect_invalid("[{\"action\":\"upgrade-format-version\",\"format-version\":\"2\"}]",
                       "'format-version' must be");
}

/* The sample upgraded to v3 with next-row-id `next`: the base of the row-lineage tests. */
static char *ice_sample_v3(int64_t next)
{
    char to[96];
    const char *from = "\"last-sequence-number\" : 34,";
    const char *at = strstr(ice_sample_v2, from);
    size_t head = (size_t)(at - ice_sample_v2);
    char *out;

    snprintf(to, sizeof(to), "\"last-sequence-number\" : 34, \"next-row-id\" : %" PRId64 ",", next);
    out = malloc(sizeof(ice_sample_v2) + strlen(to));
    memcpy(out, ice_sample_v2, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    memcpy(strstr(out, "\"format-version\" : 2"), "\"format-version\" : 3", strlen("\"format-version\" : 3"));
    return out;
}

TEST(iceberg_commit_upgrades_v2_to_v3_with_row_lineage_from_zero)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"upgrade-format-version\",\"format-version\":3}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "format-version") == 3 && ice_int(r.md, "next-row-id") == 0,
          "a v2 table upgrades to v3 and starts row lineage at next-row-id 0");
    ice_result_free(&r);
    {
        char *v3 = ice_sample_v3(10);
        r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL,
                          "[{\"action\":\"upgrade-format-version\",\"format-version\":2}]", ICE_NOW);
        CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, "Cannot downgrade v3 table to v2") != NULL,
              "a v3 table is never downgraded");
        ice_result_free(&r);
        free(v3);
    }
}

TEST(iceberg_commit_upgrade_to_v3_keeps_v2_types_and_refuses_v3_types_before)
{
    ice_expect_invalid("[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
                       "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
                       "{\"id\":4,\"name\":\"v\",\"required\":false,\"type\":\"variant\"}]}}]",
                       "Invalid type for v: variant is not supported until v3");
    ice_expect_invalid("[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
                       "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
                       "{\"id\":4,\"name\":\"n\",\"required\":false,\"type\":\"timestamp_ns\"}]}}]",
                       "timestamp_ns is not supported until v3");
    ice_expect_invalid("[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
                       "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
                       "{\"id\":4,\"name\":\"d\",\"required\":false,\"type\":\"int\",\"initial-default\":3}]}}]",
                       "non-null default (3) is not supported until v3");
    {
        ice_result_t r = ice_commit(
            NULL, "[{\"action\":\"upgrade-format-version\",\"format-version\":3},"
                  "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
                  "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
                  "{\"id\":4,\"name\":\"v\",\"required\":false,\"type\":\"variant\"},"
                  "{\"id\":5,\"name\":\"g\",\"required\":false,\"type\":\"geography(srid:4326, karney)\"},"
                  "{\"id\":6,\"name\":\"u\",\"required\":false,\"type\":\"unknown\"},"
                  "{\"id\":7,\"name\":\"r\",\"required\":true,\"type\":\"int\",\"initial-default\":7,"
                  "\"write-default\":8}]}},"
                  "{\"action\":\"set-current-schema\",\"schema-id\":-1}]");
        CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "schemas[2].fields[4].initial-default") == 7 &&
                  ice_streq(ice_str(r.md, "schemas[2].fields[2].type"), "geography(srid:4326, karney)"),
              "after the upgrade in the same commit, v3 types and defaults are accepted and kept");
        ice_result_free(&r);
    }
}

TEST(iceberg_commit_v3_schema_evolution_rules)
{
    char *v3 = ice_sample_v3(0);
    static const struct {
        const char *fields, *reason; /* reason NULL: accepted */
    } cases[] = {
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
         "{\"id\":4,\"name\":\"r\",\"required\":true,\"type\":\"int\"}",
         "cannot add required column without a default value: r"},
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
         "{\"id\":4,\"name\":\"r\",\"required\":true,\"type\":\"int\",\"initial-default\":1}",
         NULL},
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"int\"}", "Cannot change column type: x: long -> int"},
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
         "{\"id\":4,\"name\":\"r\",\"required\":false,\"type\":\"int\",\"initial-default\":\"one\"}",
         "Invalid initial-default for r"},
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
         "{\"id\":4,\"name\":\"v\",\"required\":false,\"type\":\"variant\",\"write-default\":\"a\"}",
         "Invalid write-default for v"},
        {"{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
         "{\"id\":4,\"name\":\"g\",\"required\":false,\"type\":\"geometry(\"}",
         "geometry("},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char updates[1024];
        ice_result_t r;
        snprintf(updates, sizeof(updates),
                 "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":[%s]}}]",
                 cases[i].fields);
        r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
        if (cases[i].reason == NULL) {
            CHECK(r.rc == FLOE_ICEBERG_OK, "an allowed v3 schema change is accepted");
        } else {
            if (r.rc != FLOE_ICEBERG_EINVALID || strstr(r.err.message, cases[i].reason) == NULL)
                fprintf(stderr, "case %zu: rc %d '%s'\n", i, r.rc, r.err.message);
            CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, cases[i].reason) != NULL,
                  "a schema change the v3 rules forbid is a bad request that says why");
        }
        ice_result_free(&r);
    }
    free(v3);
}

TEST(iceberg_commit_v3_required_field_needs_no_default_before_any_rows)
{
    static const char empty_v3[] =
        "{\"format-version\":3,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\",\"location\":\"s3://b/t\","
        "\"last-sequence-number\":0,\"next-row-id\":0,\"last-updated-ms\":1,\"last-column-id\":1,"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
        "{\"id\":1,\"name\":\"a\",\"required\":false,\"type\":\"int\"}]}],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"snapshots\":[]}";
    ice_result_t r = ice_commit_at(
        empty_v3, "s3://b/t/metadata/00000-a.metadata.json", NULL,
        "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
        "{\"id\":1,\"name\":\"a\",\"required\":false,\"type\":\"int\"},"
        "{\"id\":2,\"name\":\"b\",\"required\":true,\"type\":\"int\"}]}}]",
        ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "a v3 table without rows takes a required column without a default");
    ice_result_free(&r);
}

TEST(iceberg_commit_v3_promotions_unknown_and_date)
{
    static const char base[] =
        "{\"format-version\":3,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\",\"location\":\"s3://b/t\","
        "\"last-sequence-number\":0,\"next-row-id\":0,\"last-updated-ms\":1,\"last-column-id\":2,"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
        "{\"id\":1,\"name\":\"u\",\"required\":false,\"type\":\"unknown\"},"
        "{\"id\":2,\"name\":\"d\",\"required\":false,\"type\":\"date\"}]}],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"snapshots\":[]}";
    ice_result_t r = ice_commit_at(
        base, "s3://b/t/metadata/00000-a.metadata.json", NULL,
        "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
        "{\"id\":1,\"name\":\"u\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
        "{\"id\":3,\"name\":\"a\",\"required\":false,\"type\":\"string\"}]}},"
        "{\"id\":2,\"name\":\"d\",\"required\":false,\"type\":\"timestamp_ns\"}]}}]",
        ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "v3 promotes unknown to any type and date to timestamp_ns");
    ice_result_free(&r);
}

/* An add-snapshot for the v3 sample with the given row-lineage members (JSON text, may be ""). */
static void ice_add_v3_snapshot(char *buf, size_t size, int64_t id, const char *lineage)
{
    snprintf(buf, size,
             "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":%" PRId64
             ",\"parent-snapshot-id\":3055729675574597004,\"sequence-number\":35,\"timestamp-ms\":1699999999000,"
             "\"manifest-list\":\"s3://a/b/n.avro\",\"summary\":{\"operation\":\"append\"}%s}},"
             "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":%" PRId64
             "}]",
             id, lineage, id);
}

TEST(iceberg_commit_v3_add_snapshot_assigns_first_row_id_and_advances_next_row_id)
{
    char *v3 = ice_sample_v3(INT64_C(9007199254740993));
    char updates[1024];
    ice_result_t r;

    ice_add_v3_snapshot(updates, sizeof(updates), 77, ",\"added-rows\":25");
    r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "snapshots[2].first-row-id") == INT64_C(9007199254740993) &&
              ice_int(r.md, "next-row-id") == INT64_C(9007199254741018),
          "a snapshot without first-row-id gets the table's next-row-id, which grows by added-rows, exactly");
    ice_result_free(&r);

    ice_add_v3_snapshot(updates, sizeof(updates), 77, ",\"first-row-id\":9007199254740993,\"added-rows\":0");
    r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "next-row-id") == INT64_C(9007199254740993),
          "a snapshot that brings the right first-row-id and adds no rows leaves next-row-id alone");
    ice_result_free(&r);

    ice_add_v3_snapshot(updates, sizeof(updates), 77, ",\"first-row-id\":9007199254740992,\"added-rows\":3");
    r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID &&
              strstr(r.err.message, "first-row-id is behind table next-row-id: 9007199254740992 < 9007199254740993"),
          "a first-row-id behind next-row-id would reuse row ids: refused with Java's message");
    ice_result_free(&r);

    ice_add_v3_snapshot(updates, sizeof(updates), 77, "");
    r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, "without added-rows") != NULL,
          "a v3 snapshot without added-rows is refused");
    ice_result_free(&r);

    ice_add_v3_snapshot(updates, sizeof(updates), 77, ",\"added-rows\":-4");
    r = ice_commit_at(v3, ICE_SAMPLE_LOCATION, NULL, updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, "Invalid added-rows (cannot be negative): -4") != NULL,
          "negative added-rows are refused");
    ice_result_free(&r);
    free(v3);
}

TEST(iceberg_commit_v3_create_with_snapshots_in_one_commit)
{
    ice_result_t r = ice_commit_at(
        NULL, NULL, "[{\"type\":\"assert-create\"}]",
        "[{\"action\":\"upgrade-format-version\",\"format-version\":3},"
        "{\"action\":\"assign-uuid\",\"uuid\":\"" ICE_SAMPLE_UUID "\"},"
        "{\"action\":\"set-location\",\"location\":\"s3://b/t\"},"
        "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":["
        "{\"id\":1,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz_ns\"}]}},"
        "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
        "{\"action\":\"add-spec\",\"spec\":{\"fields\":[]}},{\"action\":\"set-default-spec\",\"spec-id\":-1},"
        "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[]}},"
        "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
        "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":1,\"sequence-number\":1,\"timestamp-ms\":1,"
        "\"manifest-list\":\"s3://b/t/m1.avro\",\"summary\":{\"operation\":\"append\"},\"added-rows\":5}},"
        "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":2,\"parent-snapshot-id\":1,"
        "\"sequence-number\":2,\"timestamp-ms\":2,\"manifest-list\":\"s3://b/t/m2.avro\","
        "\"summary\":{\"operation\":\"append\"},\"first-row-id\":5,\"added-rows\":7}},"
        "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":2}]",
        ICE_NOW);
    if (r.rc != FLOE_ICEBERG_OK)
        fprintf(stderr, "create: %s\n", r.err.message);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "format-version") == 3 &&
              ice_int(r.md, "snapshots[0].first-row-id") == 0 && ice_int(r.md, "snapshots[1].first-row-id") == 5 &&
              ice_int(r.md, "next-row-id") == 12,
          "a v3 create through the REST commit path assigns row ids snapshot by snapshot");
    ice_result_free(&r);
}

TEST(iceberg_commit_upgrades_a_v1_table_to_v2)
{
    static const char v1[] =
        "{\"format-version\":1,\"location\":\"s3://b/t\",\"last-updated-ms\":5,\"last-column-id\":1,"
        "\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"}]},"
        "\"partition-spec\":[],\"properties\":{},\"snapshots\":[]}";
    ice_result_t r = ice_commit_at(v1, "s3://b/t/metadata/00000-a.metadata.json", NULL,
                                   "[{\"action\":\"upgrade-format-version\",\"format-version\":2}]", ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "a v1 table upgrades");
    if (r.md != NULL) {
        CHECK(ice_has_v2_required_fields(r.md), "the upgraded file has every v2 field");
        CHECK(ice_at(r.md, "schema") == NULL && ice_at(r.md, "partition-spec") == NULL,
              "the v1-only members are no longer written");
        CHECK(ice_str(r.md, "table-uuid") != NULL && strlen(ice_str(r.md, "table-uuid")) == 36,
              "a v1 table without a uuid gets one when it becomes v2");
    }
    ice_result_free(&r);
}

/* ==== schemas ==== */

TEST(iceberg_commit_add_schema_gets_the_next_id_and_minus_one_selects_it)
{
    ice_result_t r =
        ice_commit("[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1}]",
                   "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":9,\"fields\":["
                   "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},{\"id\":4,\"name\":\"w\","
                   "\"required\":false,\"type\":\"string\"}]}},"
                   "{\"action\":\"set-current-schema\",\"schema-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK, "a new schema is added and made current");
    if (r.md != NULL) {
        CHECK(ice_size(r.md, "schemas") == 3 && ice_int(r.md, "schemas[2].schema-id") == 2,
              "the new schema's id is one more than the highest, whatever the client sent");
        CHECK(ice_int(r.md, "current-schema-id") == 2, "set-current-schema -1 selects the schema just added");
        CHECK(ice_int(r.md, "last-column-id") == 4, "last-column-id grows to the schema's highest field id");
        CHECK(ice_streq(ice_str(r.md, "schemas[2].type"), "struct") && ice_at(r.md, "schemas[2].fields[1]") != NULL,
              "the schema is stored with its fields");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_add_schema_dropping_the_newest_column_keeps_last_column_id)
{
    /* Java >= 1.8 sends the new schema's highest id (2) as last-column-id once z (id 3) is dropped */
    ice_result_t r = ice_commit_ok("[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1}]",
                                   "[{\"action\":\"add-schema\",\"last-column-id\":2,\"schema\":{\"type\":"
                                   "\"struct\",\"schema-id\":2,\"identifier-field-ids\":[1,2],\"fields\":["
                                   "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
                                   "{\"id\":2,\"name\":\"y\",\"required\":true,\"type\":\"long\"}]}},"
                                   "{\"action\":\"set-current-schema\",\"schema-id\":-1}]");

    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-schema-id") == 2,
          "a schema without the newest column is added although the client's last-column-id is below the table's");
    CHECK(r.md != NULL && ice_int(r.md, "last-column-id") == 3,
          "last-column-id stays the table's, so the dropped column's id is never reused");
    ice_result_free(&r);
}

TEST(iceberg_commit_add_schema_reuses_an_identical_schema)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":"
                                      "1,\"name\":\"x\",\"required\":true,\"type\":\"long\"}]}},"
                                      "{\"action\":\"set-current-schema\",\"schema-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "schemas") == 2 && ice_int(r.md, "current-schema-id") == 0,
          "adding a schema equal to schema 0 reuses id 0, and -1 then selects it");
    ice_result_free(&r);
}

TEST(iceberg_commit_invalid_schema_updates_are_bad_requests)
{
    ice_expect_invalid("[{\"action\":\"add-schema\"}]", "'schema' is required");
    ice_expect_invalid("[{\"action\":\"add-schema\",\"schema\":{\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,"
                       "\"type\":\"lng\"}]}}]",
                       "Invalid type 'lng'");
    ice_expect_invalid("[{\"action\":\"set-current-schema\",\"schema-id\":7}]", "unknown schema 7");
    ice_expect_invalid("[{\"action\":\"set-current-schema\",\"schema-id\":-1}]", "no schema was added");
    ice_expect_invalid("[{\"action\":\"set-current-schema\"}]", "'schema-id' is required");
}

TEST(iceberg_commit_remove_schemas_keeps_the_current_one)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"remove-schemas\",\"schema-ids\":[0,42]}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "schemas") == 1 && ice_int(r.md, "schemas[0].schema-id") == 1,
          "an old schema is removed and an unknown id is ignored");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"remove-schemas\",\"schema-ids\":[1]}]", "Cannot remove the current schema");
    ice_expect_invalid("[{\"action\":\"remove-schemas\",\"schema-ids\":[\"0\"]}]", "must hold integers");
}

/* ==== partition specs ==== */

TEST(iceberg_commit_add_spec_continues_field_ids_and_minus_one_selects_it)
{
    ice_result_t r =
        ice_commit("[{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1000}]",
                   "[{\"action\":\"add-spec\",\"spec\":{\"spec-id\":8,\"fields\":[{\"source-id\":2,\"transform\":"
                   "\"bucket[8]\",\"name\":\"y_bucket\"}]}},"
                   "{\"action\":\"set-default-spec\",\"spec-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK, "a new spec is added and made default");
    if (r.md != NULL) {
        CHECK(ice_int(r.md, "partition-specs[1].spec-id") == 1 && ice_int(r.md, "default-spec-id") == 1,
              "the new spec gets the next id and set-default-spec -1 selects it");
        CHECK(ice_int(r.md, "partition-specs[1].fields[0].field-id") == 1001 &&
                  ice_int(r.md, "last-partition-id") == 1001,
              "partition field ids continue from last-partition-id");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_add_spec_reuses_an_identical_spec)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"source-id\":1,\"transform\":"
                                      "\"identity\",\"name\":\"x\"}]}},"
                                      "{\"action\":\"set-default-spec\",\"spec-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "partition-specs") == 1 && ice_int(r.md, "default-spec-id") == 0 &&
              ice_int(r.md, "last-partition-id") == 1000,
          "a spec equal to an existing one reuses its id and assigns no new partition ids");
    ice_result_free(&r);
}

TEST(iceberg_commit_invalid_spec_updates_are_bad_requests)
{
    ice_expect_invalid("[{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"source-id\":9,\"transform\":\"identity\","
                       "\"name\":\"p\"}]}}]",
                       "unknown source-id 9");
    ice_expect_invalid(
        "[{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"source-id\":1,\"transform\":\"day\",\"name\":\"p\"}]}}]",
        "cannot apply");
    ice_expect_invalid("[{\"action\":\"add-spec\",\"spec\":{}}]", "'fields' is required");
    ice_expect_invalid("[{\"action\":\"set-default-spec\",\"spec-id\":4}]", "unknown spec 4");
    ice_expect_invalid("[{\"action\":\"set-default-spec\",\"spec-id\":-1}]", "no partition spec was added");
    ice_expect_invalid("[{\"action\":\"remove-partition-specs\",\"spec-ids\":[0]}]",
                       "Cannot remove the default partition spec");
}

TEST(iceberg_commit_remove_partition_specs_drops_old_specs)
{
    ice_result_t r = ice_commit(
        NULL, "[{\"action\":\"add-spec\",\"spec\":{\"fields\":[]}},{\"action\":\"set-default-spec\",\"spec-id\":-1},"
              "{\"action\":\"remove-partition-specs\",\"spec-ids\":[0,77]}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "partition-specs") == 1 &&
              ice_int(r.md, "partition-specs[0].spec-id") == 1,
          "a spec that is no longer the default can be removed; unknown ids are ignored");
    ice_result_free(&r);
}

/* ==== sort orders ==== */

TEST(iceberg_commit_add_sort_order_and_minus_one)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[{"
                                      "\"source-id\":1,\"transform\":\"identity\","
                                      "\"direction\":\"desc\",\"null-order\":\"nulls-last\"}]}},{\"action\":\"set-"
                                      "default-sort-order\",\"sort-order-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "sort-orders[1].order-id") == 4 &&
              ice_int(r.md, "default-sort-order-id") == 4,
          "a new sort order gets one more than the highest id and -1 selects it");
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":5,\"fields\":[]}},"
                         "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "default-sort-order-id") == 0 &&
              ice_int(r.md, "sort-orders[1].order-id") == 0,
          "the unsorted order is always order 0");
    ice_result_free(&r);
    r = ice_commit(
        NULL, "[{\"action\":\"add-sort-order\",\"sort-order\":{\"fields\":[{\"source-id\":2,\"transform\":\"identity\","
              "\"direction\":\"asc\",\"null-order\":\"nulls-first\"},{\"source-id\":3,\"transform\":\"bucket[4]\","
              "\"direction\":\"desc\",\"null-order\":\"nulls-last\"}]}}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "sort-orders") == 1, "an order equal to an existing one is reused");
    ice_result_free(&r);
}

TEST(iceberg_commit_invalid_sort_order_updates_are_bad_requests)
{
    ice_expect_invalid(
        "[{\"action\":\"add-sort-order\",\"sort-order\":{\"fields\":[{\"source-id\":1,\"transform\":\"identity\","
        "\"direction\":\"sideways\",\"null-order\":\"nulls-last\"}]}}]",
        "'direction' must be asc or desc");
    ice_expect_invalid("[{\"action\":\"add-sort-order\"}]", "'sort-order' is required");
    ice_expect_invalid("[{\"action\":\"set-default-sort-order\",\"sort-order-id\":9}]", "unknown sort order 9");
    ice_expect_invalid("[{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1}]", "no sort order was added");
}

/* ==== snapshots ==== */

TEST(iceberg_commit_add_snapshot_and_move_main)
{
    char add[512], updates[1024];
    ice_result_t r;

    ice_add_snapshot(add, sizeof(add), ICE_NEW_SNAPSHOT, 35);
    snprintf(updates, sizeof(updates),
             "[%s,{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":%" PRId64
             "}]",
             add, ICE_NEW_SNAPSHOT);
    r = ice_commit("[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":3055729675574597004}]",
                   updates);
    CHECK(r.rc == FLOE_ICEBERG_OK, "an append commit (add-snapshot + set-snapshot-ref main) succeeds");
    if (r.md != NULL) {
        CHECK(ice_int(r.md, "last-sequence-number") == 35, "last-sequence-number becomes the snapshot's");
        CHECK(ice_int(r.md, "current-snapshot-id") == ICE_NEW_SNAPSHOT &&
                  ice_int(r.md, "refs.main.snapshot-id") == ICE_NEW_SNAPSHOT,
              "main and the current snapshot move to the new snapshot, id exact");
        CHECK(ice_size(r.md, "snapshots") == 3 && ice_streq(ice_str(r.md, "snapshots[2].summary.added-records"), "5") &&
                  ice_int(r.md, "snapshots[2].first-row-id") == 0,
              "the snapshot is stored with members Floe does not model");
        CHECK(ice_size(r.md, "snapshot-log") == 3 && ice_int(r.md, "snapshot-log[2].snapshot-id") == ICE_NEW_SNAPSHOT &&
                  ice_int(r.md, "snapshot-log[2].timestamp-ms") == ICE_ADDED_SNAPSHOT_MS,
              "the snapshot log grows by one entry stamped with the added snapshot's time, as Java's "
              "Builder does, so TIMESTAMP AS OF that time finds it");
        CHECK(r.text != NULL && strstr(r.text, "8333333333333333333") != NULL, "the id is written digit for digit");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_sequence_numbers_must_grow)
{
    char add[512], updates[600];

    ice_add_snapshot(add, sizeof(add), ICE_NEW_SNAPSHOT, 34);
    snprintf(updates, sizeof(updates), "[%s]", add);
    ice_expect_invalid(updates, "sequence number 34 older than last sequence number 34");
    ice_add_snapshot(add, sizeof(add), ICE_NEW_SNAPSHOT, 3);
    snprintf(updates, sizeof(updates), "[%s]", add);
    ice_expect_invalid(updates, "older than last sequence number");
    ice_expect_invalid("[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":5,\"timestamp-ms\":1,"
                       "\"manifest-list\":\"m\",\"summary\":{\"operation\":\"append\"}}}]",
                       "'sequence-number' is required");
}

TEST(iceberg_commit_a_snapshot_without_parent_may_reuse_the_last_sequence_number)
{
    /* the loser of two concurrent replaces: its snapshot took sequence number 34 (the table's last,
     * which the winner used) and has no parent, since a replace starts the table afresh */
    ice_result_t r = ice_commit_ok(NULL, "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":77,"
                                         "\"sequence-number\":34,\"timestamp-ms\":" ICE_ADDED_SNAPSHOT_MS_TEXT ","
                                         "\"manifest-list\":\"s3://a/b/77.avro\",\"summary\":{\"operation\":"
                                         "\"overwrite\"}}},{\"action\":\"set-snapshot-ref\",\"ref-name\":"
                                         "\"main\",\"type\":\"branch\",\"snapshot-id\":77}]");

    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-snapshot-id") == 77,
          "a snapshot without a parent is added with a sequence number not above the last, as Java allows");
    CHECK(r.md != NULL && ice_int(r.md, "last-sequence-number") == 34, "last-sequence-number does not go back");
    ice_result_free(&r);
}

TEST(iceberg_commit_two_snapshots_in_one_commit_keep_sequence_order)
{
    char a[512], b[512], updates[1400];
    ice_result_t r;

    ice_add_snapshot(a, sizeof(a), 11, 35);
    ice_add_snapshot(b, sizeof(b), 12, 36);
    snprintf(updates, sizeof(updates),
             "[%s,{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":11},"
             "%s,{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":12}]",
             a, b);
    r = ice_commit(NULL, updates);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "last-sequence-number") == 36 &&
              ice_int(r.md, "current-snapshot-id") == 12,
          "two appends in one commit leave the later one current");
    CHECK(r.md != NULL && ice_size(r.md, "snapshot-log") == 3 && ice_int(r.md, "snapshot-log[2].snapshot-id") == 12,
          "the intermediate snapshot is dropped from the snapshot log, as Java does");
    ice_result_free(&r);
}

TEST(iceberg_commit_invalid_snapshots_are_bad_requests)
{
    char add[512], updates[600];

    ice_add_snapshot(add, sizeof(add), ICE_SAMPLE_MAIN, 40);
    snprintf(updates, sizeof(updates), "[%s]", add);
    ice_expect_invalid(updates, "Snapshot 3055729675574597004 already exists");
    ice_expect_invalid(
        "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":5,\"sequence-number\":40,\"timestamp-ms\":1,"
        "\"summary\":{\"operation\":\"append\"}}}]",
        "'manifest-list' is required");
    ice_expect_invalid(
        "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":5,\"sequence-number\":40,\"timestamp-ms\":1,"
        "\"manifest-list\":\"m\",\"summary\":{\"operation\":\"merge\"}}}]",
        "operation 'merge'");
    ice_expect_invalid(
        "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":5,\"sequence-number\":40,\"timestamp-ms\":1,"
        "\"manifest-list\":\"m\"}}]",
        "'summary' is required");
    ice_expect_invalid("[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":\"5\"}}]", "'snapshot-id' must be");
    ice_expect_invalid("[{\"action\":\"add-snapshot\"}]", "'snapshot' is required");
}

TEST(iceberg_commit_lossy_snapshot_id_is_refused)
{
    /* The REST layer must parse with floe_iceberg_json_parse; a plain cJSON tree has rounded ids. */
    cJSON *updates = cJSON_Parse("[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"t\",\"type\":\"tag\","
                                 "\"snapshot-id\":3051729675574597004}]");
    floe_iceberg_commit_input_t in = {.current_json = ice_sample_v2, .updates = updates, .now_ms = ICE_NOW};
    floe_iceberg_error_t err;
    char *out = NULL;

    CHECK(floe_iceberg_commit(&in, &out, &err) == FLOE_ICEBERG_EINVALID && out == NULL,
          "a snapshot id that lost precision in a double is refused instead of naming the wrong snapshot");
    cJSON_Delete(updates);
}

TEST(iceberg_commit_set_snapshot_ref_tags_and_branches)
{
    ice_result_t r = ice_commit(
        NULL,
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"v1\",\"type\":\"tag\",\"snapshot-id\":3051729675574597004,"
        "\"max-ref-age-ms\":86400000},"
        "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"dev\",\"type\":\"branch\",\"snapshot-id\":3051729675574597004,"
        "\"min-snapshots-to-keep\":2,\"max-snapshot-age-ms\":3600000}]");
    CHECK(r.rc == FLOE_ICEBERG_OK, "a tag and a branch are created");
    if (r.md != NULL) {
        CHECK(ice_streq(ice_str(r.md, "refs.v1.type"), "tag") &&
                  ice_int(r.md, "refs.v1.snapshot-id") == ICE_SAMPLE_FIRST &&
                  ice_int(r.md, "refs.v1.max-ref-age-ms") == 86400000,
              "the tag is stored with its retention");
        CHECK(ice_int(r.md, "refs.dev.min-snapshots-to-keep") == 2 &&
                  ice_int(r.md, "refs.dev.max-snapshot-age-ms") == 3600000,
              "a branch keeps its retention settings");
        CHECK(ice_int(r.md, "current-snapshot-id") == ICE_SAMPLE_MAIN && ice_size(r.md, "snapshot-log") == 2,
              "refs other than main change neither the current snapshot nor the snapshot log");
    }
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":"
                         "3055729675574597004}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "snapshot-log") == 2,
          "setting main to where it already is adds no log entry");
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":"
                         "3051729675574597004}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-snapshot-id") == ICE_SAMPLE_FIRST &&
              ice_size(r.md, "snapshot-log") == 3 && ice_int(r.md, "snapshot-log[2].timestamp-ms") == ICE_NOW,
          "rolling main back to an older snapshot makes it current and logs it at the commit's time");
    ice_result_free(&r);
}

TEST(iceberg_commit_invalid_refs_are_bad_requests)
{
    ice_expect_invalid("[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"b\",\"type\":\"branch\",\"snapshot-id\":5}]",
                       "unknown snapshot 5");
    ice_expect_invalid("[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"tag\",\"snapshot-id\":"
                       "3051729675574597004}]",
                       "main must be a branch");
    ice_expect_invalid(
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"t\",\"type\":\"tag\",\"snapshot-id\":3051729675574597004,"
        "\"min-snapshots-to-keep\":1}]",
        "a tag does not take");
    ice_expect_invalid(
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"b\",\"type\":\"branch\",\"snapshot-id\":3051729675574597004,"
        "\"max-ref-age-ms\":0}]",
        "positive integer");
    ice_expect_invalid(
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"b\",\"type\":\"twig\",\"snapshot-id\":3051729675574597004}]",
        "branch or tag");
    ice_expect_invalid("[{\"action\":\"set-snapshot-ref\",\"type\":\"tag\",\"snapshot-id\":3051729675574597004}]",
                       "'ref-name' is required");
}

TEST(iceberg_commit_remove_snapshots_takes_refs_stats_and_history)
{
    ice_result_t r = ice_commit(
        NULL,
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"old\",\"type\":\"tag\",\"snapshot-id\":3051729675574597004},"
        "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":3051729675574597004,\"statistics-path\":\"s3://"
        "s/1.puffin\","
        "\"file-size-in-bytes\":10,\"file-footer-size-in-bytes\":2,\"blob-metadata\":[]}},"
        "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[3051729675574597004,12345]}]");
    CHECK(r.rc == FLOE_ICEBERG_OK, "an old snapshot is removed; an unknown id is ignored");
    if (r.md != NULL) {
        CHECK(ice_size(r.md, "snapshots") == 1 && ice_int(r.md, "snapshots[0].snapshot-id") == ICE_SAMPLE_MAIN,
              "only the removed snapshot goes");
        CHECK(ice_at(r.md, "refs.old") == NULL && ice_at(r.md, "refs.main") != NULL,
              "a ref to the removed snapshot goes with it");
        CHECK(ice_size(r.md, "statistics") == 0, "its statistics go with it");
        CHECK(ice_size(r.md, "snapshot-log") == 1 && ice_int(r.md, "snapshot-log[0].snapshot-id") == ICE_SAMPLE_MAIN,
              "history up to the removed snapshot is dropped from the snapshot log");
    }
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"remove-snapshots\",\"snapshot-ids\":[3055729675574597004]}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-snapshot-id") == -1 && ice_at(r.md, "refs.main") == NULL,
          "removing the current snapshot removes main and leaves no current snapshot");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"remove-snapshots\",\"snapshot-ids\":[\"x\"]}]", "must hold integers");
    ice_expect_invalid("[{\"action\":\"remove-snapshots\"}]", "'snapshot-ids' is required");
}

TEST(iceberg_commit_remove_snapshot_ref)
{
    ice_result_t r = ice_commit(
        NULL,
        "[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"t\",\"type\":\"tag\",\"snapshot-id\":3051729675574597004},"
        "{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"t\"},{\"action\":\"remove-snapshot-ref\",\"ref-name\":"
        "\"nope\"}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_at(r.md, "refs.t") == NULL &&
              ice_int(r.md, "current-snapshot-id") == ICE_SAMPLE_MAIN,
          "a tag is removed; removing an unknown ref is a no-op");
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"main\"}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-snapshot-id") == -1 && ice_size(r.md, "snapshots") == 2,
          "removing main leaves no current snapshot but keeps the snapshots");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"remove-snapshot-ref\"}]", "'ref-name' is required");
}

/* ==== location, properties, statistics ==== */

TEST(iceberg_commit_set_location)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"set-location\",\"location\":\"s3://elsewhere/t/\"}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_streq(ice_str(r.md, "location"), "s3://elsewhere/t"),
          "the location changes, without a trailing slash");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"set-location\",\"location\":\"\"}]", "must not be empty");
    ice_expect_invalid("[{\"action\":\"set-location\",\"location\":5}]", "'location' must be a string");
}

TEST(iceberg_commit_set_and_remove_properties)
{
    ice_result_t r = ice_commit(
        NULL, "[{\"action\":\"set-properties\",\"updates\":{\"write.format.default\":\"orc\",\"owner\":\"me\"}},"
              "{\"action\":\"remove-properties\",\"removals\":[\"owner\",\"not-there\"]}]");
    const cJSON *props = r.md != NULL ? cJSON_GetObjectItem(r.md, "properties") : NULL;
    CHECK(r.rc == FLOE_ICEBERG_OK && props != NULL && cJSON_GetArraySize(props) == 1 &&
              ice_streq(cJSON_GetObjectItem(props, "write.format.default")->valuestring, "orc"),
          "a property is replaced, one is added then removed, removing a missing one is a no-op");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"set-properties\",\"updates\":{\"n\":1}}]", "property 'n' must be a string");
    ice_expect_invalid("[{\"action\":\"set-properties\"}]", "'updates' is required");
    ice_expect_invalid("[{\"action\":\"remove-properties\",\"removals\":[1]}]", "must hold strings");
}

TEST(iceberg_commit_set_and_remove_statistics)
{
    static const char stats[] =
        "{\"snapshot-id\":3055729675574597004,\"statistics-path\":\"s3://s/%d.puffin\",\"file-size-in-bytes\":100,"
        "\"file-footer-size-in-bytes\":20,\"blob-metadata\":[{\"type\":\"apache-datasketches-theta-v1\","
        "\"snapshot-id\":3055729675574597004,\"sequence-number\":1,\"fields\":[1]}]}";
    char a[512], b[512], updates[1400];
    ice_result_t r;

    snprintf(a, sizeof(a), stats, 1);
    snprintf(b, sizeof(b), stats, 2);
    snprintf(updates, sizeof(updates),
             "[{\"action\":\"set-statistics\",\"snapshot-id\":3055729675574597004,\"statistics\":%s},"
             "{\"action\":\"set-statistics\",\"statistics\":%s}]",
             a, b);
    r = ice_commit(NULL, updates);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "statistics") == 1 &&
              ice_streq(ice_str(r.md, "statistics[0].statistics-path"), "s3://s/2.puffin") &&
              ice_streq(ice_str(r.md, "statistics[0].blob-metadata[0].type"), "apache-datasketches-theta-v1"),
          "statistics for a snapshot are replaced, not duplicated, and kept whole");
    ice_result_free(&r);
    snprintf(updates, sizeof(updates),
             "[{\"action\":\"set-statistics\",\"statistics\":%s},{\"action\":\"remove-statistics\",\"snapshot-id\":"
             "3055729675574597004}]",
             a);
    r = ice_commit(NULL, updates);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "statistics") == 0, "remove-statistics removes them");
    ice_result_free(&r);
    snprintf(updates, sizeof(updates), "[{\"action\":\"set-statistics\",\"snapshot-id\":1,\"statistics\":%s}]", a);
    ice_expect_invalid(updates, "does not match");
    ice_expect_invalid("[{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":1,\"statistics-path\":\"p\"}}]",
                       "'file-size-in-bytes' is required");
    ice_expect_invalid("[{\"action\":\"remove-statistics\"}]", "'snapshot-id' is required");
}

TEST(iceberg_commit_set_and_remove_partition_statistics)
{
    ice_result_t r = ice_commit(
        NULL, "[{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":3051729675574597004,"
              "\"statistics-path\":\"s3://s/p.parquet\",\"file-size-in-bytes\":7}}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "partition-statistics") == 1 &&
              ice_int(r.md, "partition-statistics[0].file-size-in-bytes") == 7,
          "partition statistics are stored");
    ice_result_free(&r);
    r = ice_commit(NULL, "[{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":1,"
                         "\"statistics-path\":\"p\",\"file-size-in-bytes\":7}},"
                         "{\"action\":\"remove-partition-statistics\",\"snapshot-id\":1}]");
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "partition-statistics") == 0,
          "remove-partition-statistics removes them");
    ice_result_free(&r);
    ice_expect_invalid("[{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":1}}]",
                       "'statistics-path' is required");
    ice_expect_invalid("[{\"action\":\"remove-partition-statistics\",\"snapshot-id\":\"1\"}]", "'snapshot-id' must be");
}

/* ==== the update list itself ==== */

TEST(iceberg_commit_unknown_or_unsupported_updates_are_bad_requests)
{
    ice_expect_invalid("[{\"action\":\"make-it-fast\"}]", "Unknown update action 'make-it-fast'");
    ice_expect_invalid("[{\"action\":\"add-encryption-key\",\"encryption-key\":{}}]", "not supported");
    ice_expect_invalid("[{\"action\":\"add-view-version\"}]", "not supported");
    ice_expect_invalid("[{\"uuid\":\"x\"}]", "'action' is required");
    ice_expect_invalid("[\"assign-uuid\"]", "must be a JSON object");
    ice_expect_invalid("{\"action\":\"set-location\"}", "'updates' must be an array");
}

TEST(iceberg_commit_failed_update_changes_nothing)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"set-location\",\"location\":\"s3://x\"},{\"action\":\"bogus\"}]");
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && r.text == NULL, "a commit with one bad update returns no metadata at all");
    ice_result_free(&r);
}

/* ==== logs and timestamps ==== */

TEST(iceberg_commit_appends_previous_file_to_metadata_log)
{
    ice_result_t r = ice_commit(NULL, "[]");
    CHECK(r.rc == FLOE_ICEBERG_OK, "a commit without updates still produces a new version");
    if (r.md != NULL) {
        CHECK(ice_size(r.md, "metadata-log") == 2, "the metadata log grows by one");
        CHECK(ice_streq(ice_str(r.md, "metadata-log[1].metadata-file"), ICE_SAMPLE_LOCATION) &&
                  ice_int(r.md, "metadata-log[1].timestamp-ms") == 1602638573590LL,
              "the entry is the previous file, stamped with the time it was written");
        CHECK(ice_int(r.md, "last-updated-ms") == ICE_NOW, "last-updated-ms is the commit time");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_chained_commits_grow_both_logs)
{
    char add[512], updates[1024], *current = strdup(ice_sample_v2), *location = strdup(ICE_SAMPLE_LOCATION);
    bool ok = true;

    for (int i = 0; i < 3 && ok; i++) {
        ice_result_t r;
        char *next;
        ice_add_snapshot(add, sizeof(add), 100 + i, 35 + i);
        snprintf(updates, sizeof(updates),
                 "[%s,{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":%d}]",
                 add, 100 + i);
        r = ice_commit_at(current, location, NULL, updates, ICE_NOW + i * 1000);
        ok = r.rc == FLOE_ICEBERG_OK;
        CHECK(ok, "each commit on the previous commit's output succeeds");
        if (ok) {
            CHECK(ice_size(r.md, "metadata-log") == 2 + i && ice_size(r.md, "snapshot-log") == 3 + i,
                  "each commit adds one metadata-log and one snapshot-log entry");
            CHECK(ice_int(r.md, "last-sequence-number") == 35 + i, "sequence numbers keep growing");
            free(current);
            current = strdup(r.text);
            next = floe_iceberg_metadata_next_file_name(location, "u");
            free(location);
            location = next;
        }
        ice_result_free(&r);
    }
    CHECK(strncmp(location, "00004-", 6) == 0, "file names count versions from the sample's 00001");
    free(current);
    free(location);
}

TEST(iceberg_commit_metadata_log_is_trimmed_to_previous_versions_max)
{
    char *current = strdup(ice_sample_v2);

    for (int i = 0; i < 4; i++) {
        char location[64];
        ice_result_t r;
        snprintf(location, sizeof(location), "s3://bucket/test/location/metadata/%05d-x.metadata.json", i + 1);
        r = ice_commit_at(
            current, location, NULL,
            "[{\"action\":\"set-properties\",\"updates\":{\"write.metadata.previous-versions-max\":\"2\"}}]",
            ICE_NOW + i);
        CHECK(r.rc == FLOE_ICEBERG_OK && ice_size(r.md, "metadata-log") <= 2,
              "the metadata log never holds more than write.metadata.previous-versions-max entries");
        if (r.rc == FLOE_ICEBERG_OK && i == 3)
            CHECK(ice_streq(ice_str(r.md, "metadata-log[1].metadata-file"), location), "the newest entry is kept");
        free(current);
        current = r.text != NULL ? strdup(r.text) : strdup(ice_sample_v2);
        ice_result_free(&r);
    }
    free(current);
}

TEST(iceberg_commit_last_updated_never_goes_back)
{
    ice_result_t r = ice_commit_at(ice_sample_v2, ICE_SAMPLE_LOCATION, NULL, "[]", 1000);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "last-updated-ms") == 1602638573590LL,
          "a clock behind the table's last update does not move last-updated-ms backwards");
    ice_result_free(&r);
}

TEST(iceberg_commit_output_round_trips)
{
    ice_result_t r = ice_commit(NULL, "[{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}}]");
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;

    CHECK(r.rc == FLOE_ICEBERG_OK && ice_has_v2_required_fields(r.md), "the committed file has every required field");
    if (r.text != NULL && floe_iceberg_metadata_parse(r.text, strlen(r.text), &md, &err) == 0) {
        char *again = floe_iceberg_metadata_serialize(&md);
        CHECK(strcmp(again, r.text) == 0, "the committed text is canonical: reading and writing it changes nothing");
        CHECK(ice_int(r.md, "x-vendor-extension.kept[0]") == 1, "unknown top-level members survive a commit");
        free(again);
        floe_iceberg_metadata_dispose(&md);
    } else {
        CHECK(false, "the committed text reads back");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_corrupt_current_metadata_is_not_a_bad_request)
{
    ice_result_t r = ice_commit_at("{\"format-version\":2", "s3://x", NULL, "[]", ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_ECORRUPT && strstr(r.err.message, "current metadata cannot be read") != NULL,
          "unreadable stored metadata is Floe's fault, reported as corrupt");
    ice_result_free(&r);
}

/* ==== creates ==== */

/* What PyIceberg and Java send to commit a staged create. */
static const char ice_create_updates[] =
    "[{\"action\":\"assign-uuid\",\"uuid\":\"aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee\"},"
    "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
    "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},{\"id\":2,\"name\":\"ts\",\"required\":false,"
    "\"type\":\"timestamptz\"}]},"
    "\"last-column-id\":2},"
    "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
    "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":0,\"fields\":[{\"source-id\":2,\"field-id\":1000,\"transform\":"
    "\"day\",\"name\":\"ts_day\"}]}},"
    "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
    "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[]}},"
    "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
    "{\"action\":\"set-location\",\"location\":\"s3://warehouse/db/events\"},"
    "{\"action\":\"set-properties\",\"updates\":{\"owner\":\"me\"}}]";

TEST(iceberg_commit_create_with_assert_create)
{
    ice_result_t r = ice_commit_at(NULL, NULL, "[{\"type\":\"assert-create\"}]", ice_create_updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "a staged create commits with assert-create");
    if (r.md != NULL) {
        CHECK(ice_has_v2_required_fields(r.md), "the new table has every required field");
        CHECK(ice_streq(ice_str(r.md, "table-uuid"), "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee") &&
                  ice_streq(ice_str(r.md, "location"), "s3://warehouse/db/events"),
              "uuid and location come from the updates");
        CHECK(ice_int(r.md, "current-schema-id") == 0 && ice_int(r.md, "last-column-id") == 2 &&
                  ice_int(r.md, "default-spec-id") == 0 && ice_int(r.md, "last-partition-id") == 1000 &&
                  ice_int(r.md, "default-sort-order-id") == 0,
              "schema 0, spec 0 and the unsorted order are the table's defaults");
        CHECK(ice_size(r.md, "metadata-log") == 0 && ice_int(r.md, "last-sequence-number") == 0 &&
                  ice_int(r.md, "last-updated-ms") == ICE_NOW,
              "a new table has no metadata history");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_create_fills_in_what_was_not_sent)
{
    ice_result_t r = ice_commit_at(NULL, NULL, NULL,
                                   "[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":"
                                   "[{\"id\":1,\"name\":\"a\",\"required\":false,\"type\":\"string\"}]}}]",
                                   ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "a create with only a schema succeeds");
    if (r.md != NULL) {
        CHECK(ice_streq(ice_str(r.md, "location"), "s3://warehouse/created"), "the caller's create location is used");
        CHECK(ice_str(r.md, "table-uuid") != NULL && strlen(ice_str(r.md, "table-uuid")) == 36,
              "a random uuid is assigned");
        CHECK(ice_size(r.md, "partition-specs[0].fields") == 0 && ice_size(r.md, "sort-orders[0].fields") == 0 &&
                  ice_int(r.md, "current-schema-id") == 0,
              "the table is unpartitioned and unsorted with schema 0 current");
    }
    ice_result_free(&r);
}

TEST(iceberg_commit_create_binds_a_spec_to_the_first_schema_before_set_current_schema)
{
    ice_result_t r = ice_commit_at(
        NULL, NULL, NULL,
        "[{\"action\":\"add-schema\",\"schema\":{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"int\"}]}},"
        "{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"source-id\":1,\"transform\":\"bucket[2]\",\"name\":\"a_b\"}]}}]",
        ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "current-schema-id") == 0 && ice_int(r.md, "default-spec-id") == 0 &&
              ice_int(r.md, "partition-specs[0].fields[0].field-id") == 1000,
          "in a create, schema 0 and spec 0 are current and default without set-* updates, as in Java");
    ice_result_free(&r);
}

TEST(iceberg_commit_create_may_ask_for_format_version_1)
{
    ice_result_t r = ice_commit_at(NULL, NULL, NULL,
                                   "[{\"action\":\"upgrade-format-version\",\"format-version\":1},"
                                   "{\"action\":\"add-schema\",\"schema\":{\"fields\":[{\"id\":1,\"name\":\"a\","
                                   "\"required\":true,\"type\":\"int\"}]}},"
                                   "{\"action\":\"set-current-schema\",\"schema-id\":-1}]",
                                   ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK && ice_int(r.md, "format-version") == 1 && ice_at(r.md, "schema") != NULL,
          "a create takes its format version from the first upgrade-format-version, as Java does");
    ice_result_free(&r);
}

TEST(iceberg_commit_create_refuses_requirements_on_a_missing_table)
{
    ice_result_t r = ice_commit_at(NULL, NULL, "[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0}]",
                                   ice_create_updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_ECONFLICT, "only assert-create can hold when there is no table");
    ice_result_free(&r);
    r = ice_commit_at(NULL, NULL, "[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":null}]",
                      ice_create_updates, ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_OK, "a ref that must not exist does not exist in a new table");
    ice_result_free(&r);
}

TEST(iceberg_commit_create_without_schema_is_refused)
{
    ice_result_t r = ice_commit_at(NULL, NULL, "[{\"type\":\"assert-create\"}]",
                                   "[{\"action\":\"set-location\",\"location\":\"s3://w/t\"}]", ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, "needs a schema") != NULL, "a table needs a schema");
    ice_result_free(&r);
    r = ice_commit_at(NULL, NULL, NULL,
                      "[{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"source-id\":1,\"transform\":\"identity\","
                      "\"name\":\"p\"}]}}]",
                      ICE_NOW);
    CHECK(r.rc == FLOE_ICEBERG_EINVALID && strstr(r.err.message, "current schema") != NULL,
          "a spec cannot be added before there is a schema to bind it to");
    ice_result_free(&r);
}
