/* Tests of runtime/iceberg_metadata.c: reading v1 and v2 files, canonical writing, file names. */
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg_support.h"

/* A v1 file in the shape of Java's TableMetadataV1Valid.json: single schema and partition spec,
 * no sort orders, no uuid, current-snapshot-id -1. */
static const char ice_sample_v1[] =
    "{\"format-version\":1,\"location\":\"s3://bucket/test/location\",\"last-updated-ms\":1602638573874,"
    "\"last-column-id\":3,\"schema\":{\"type\":\"struct\",\"fields\":["
    "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"y\",\"required\":true,\"type\":\"long\",\"doc\":\"comment\"},"
    "{\"id\":3,\"name\":\"z\",\"required\":true,\"type\":\"long\"}]},"
    "\"partition-spec\":[{\"name\":\"x\",\"transform\":\"identity\",\"source-id\":1}],"
    "\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[]}";

/* A minimal valid v2 file, for building invalid variants. */
static const char ice_minimal_v2[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\",\"location\":\"s3://b/t\","
    "\"last-sequence-number\":1,\"last-updated-ms\":1,\"last-column-id\":1,\"current-schema-id\":0,"
    "\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":"
    "\"long\"}]}],"
    "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
    "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{\"k\":\"v\"},"
    "\"current-snapshot-id\":7,\"snapshots\":[{\"snapshot-id\":7,\"sequence-number\":1,\"timestamp-ms\":1,"
    "\"manifest-list\":\"m\",\"summary\":{\"operation\":\"append\"}}],"
    "\"refs\":{\"main\":{\"snapshot-id\":7,\"type\":\"branch\"}}}";

/* base with the first occurrence of `from` replaced by `to`; the caller frees. */
static char *ice_variant(const char *base, const char *from, const char *to)
{
    const char *at = strstr(base, from);
    size_t n = strlen(base) - strlen(from) + strlen(to) + 1, head;
    char *out = malloc(n);

    if (at == NULL) {
        fprintf(stderr, "variant anchor '%s' not found\n", from);
        abort();
    }
    head = (size_t)(at - base);
    memcpy(out, base, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

TEST(iceberg_metadata_parses_real_world_v2_sample)
{
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    int64_t current = 0;

    CHECK(floe_iceberg_metadata_parse(ice_sample_v2, strlen(ice_sample_v2), &md, &err) == 0,
          "a metadata.json as Java writes it is accepted");
    CHECK(floe_iceberg_metadata_format_version(&md) == 2, "the format version is read");
    CHECK(ice_streq(floe_iceberg_metadata_table_uuid(&md), ICE_SAMPLE_UUID), "the table uuid is read");
    CHECK(floe_iceberg_metadata_current_snapshot_id(&md, &current) && current == ICE_SAMPLE_MAIN,
          "the 63-bit current snapshot id is read exactly");
    CHECK(md.last_sequence_number == 34 && md.last_column_id == 3 && md.current_schema_id == 1 &&
              md.default_spec_id == 0 && md.last_partition_id == 1000 && md.default_sort_order_id == 3,
          "the scalar fields are read");
    CHECK(cJSON_GetArraySize(md.schemas) == 2 && cJSON_GetArraySize(md.snapshots) == 2 &&
              cJSON_GetArraySize(md.snapshot_log) == 2 && cJSON_GetArraySize(md.metadata_log) == 1,
          "the lists are read");
    CHECK(floe_iceberg_metadata_snapshot(&md, ICE_SAMPLE_FIRST) != NULL, "a snapshot is found by its exact id");
    floe_iceberg_metadata_dispose(&md);
}

TEST(iceberg_metadata_round_trip_is_stable)
{
    floe_iceberg_metadata_t md, again;
    floe_iceberg_error_t err;
    char *first = NULL, *second = NULL;
    cJSON *tree = NULL;

    if (floe_iceberg_metadata_parse(ice_sample_v2, strlen(ice_sample_v2), &md, &err) != 0) {
        CHECK(false, "the sample parses");
        return;
    }
    first = floe_iceberg_metadata_serialize(&md);
    CHECK(floe_iceberg_metadata_parse(first, strlen(first), &again, &err) == 0, "the written text reads back");
    second = floe_iceberg_metadata_serialize(&again);
    CHECK(strcmp(first, second) == 0, "parse then serialize is a fixed point");
    tree = ice_json(first);
    CHECK(strstr(first, "3051729675574597004") != NULL && strstr(first, "3055729675574597004") != NULL,
          "snapshot ids are written digit for digit");
    CHECK(ice_streq(ice_str(tree, "snapshots[1].summary.total-records"), "100"),
          "unknown members of a snapshot's summary are kept");
    CHECK(ice_int(tree, "snapshots[1].schema-id") == 1, "optional snapshot members are kept");
    CHECK(ice_streq(ice_str(tree, "schemas[1].fields[1].doc"), "comment"), "field docs are kept");
    CHECK(ice_int(tree, "x-vendor-extension.kept[2]") == 3, "unknown top-level members are kept");
    CHECK(ice_streq(ice_str(tree, "sort-orders[0].fields[1].transform"), "bucket[4]"), "sort orders are kept");
    free(first);
    free(second);
    cJSON_Delete(tree);
    floe_iceberg_metadata_dispose(&md);
    floe_iceberg_metadata_dispose(&again);
}

TEST(iceberg_metadata_serialize_uses_java_key_order)
{
    static const char *const order[] = {
        "format-version",
        "table-uuid",
        "location",
        "last-sequence-number",
        "last-updated-ms",
        "last-column-id",
        "current-schema-id",
        "schemas",
        "default-spec-id",
        "partition-specs",
        "last-partition-id",
        "default-sort-order-id",
        "sort-orders",
        "properties",
        "current-snapshot-id",
        "refs",
        "snapshots",
        "statistics",
        "partition-statistics",
        "snapshot-log",
        "metadata-log",
        "x-vendor-extension",
        NULL,
    };
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    char *text;
    cJSON *tree;
    const cJSON *member;
    const char *const *k = order;

    if (floe_iceberg_metadata_parse(ice_sample_v2, strlen(ice_sample_v2), &md, &err) != 0) {
        CHECK(false, "the sample parses");
        return;
    }
    text = floe_iceberg_metadata_serialize(&md);
    tree = ice_json(text);
    for (member = tree->child; member != NULL && *k != NULL; member = member->next, k++) {
        if (strcmp(member->string, *k) != 0)
            fprintf(stderr, "member %s where %s was expected\n", member->string, *k);
        CHECK(strcmp(member->string, *k) == 0, "top-level members come in Java's TableMetadataParser order");
    }
    CHECK(member == NULL && *k == NULL, "no member is missing or extra");
    free(text);
    cJSON_Delete(tree);
    floe_iceberg_metadata_dispose(&md);
}

TEST(iceberg_metadata_reads_v1_with_single_schema_and_partition_spec)
{
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    int64_t current;
    char *text;
    cJSON *tree;

    if (floe_iceberg_metadata_parse(ice_sample_v1, strlen(ice_sample_v1), &md, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        CHECK(false, "a v1 file is accepted");
        return;
    }
    CHECK(md.format_version == 1 && floe_iceberg_metadata_table_uuid(&md) == NULL, "a v1 file may lack a uuid");
    CHECK(md.current_schema_id == 0 && cJSON_GetArraySize(md.schemas) == 1, "the single schema becomes schema 0");
    CHECK(md.default_spec_id == 0 && md.last_partition_id == 1000, "the single spec becomes spec 0");
    CHECK(ice_int(md.partition_specs, "[0].fields[0].field-id") == 1000,
          "a v1 partition field without an id gets 1000");
    CHECK(md.default_sort_order_id == 0 && ice_size(md.sort_orders, "[0].fields") == 0,
          "no sort orders means unsorted");
    CHECK(!floe_iceberg_metadata_current_snapshot_id(&md, &current), "current-snapshot-id -1 means no snapshot");
    text = floe_iceberg_metadata_serialize(&md);
    tree = ice_json(text);
    CHECK(ice_at(tree, "schema.fields") != NULL && ice_int(tree, "partition-spec[0].field-id") == 1000,
          "a v1 table is written with its v1 schema and partition-spec members");
    CHECK(ice_at(tree, "last-sequence-number") == NULL && ice_at(tree, "table-uuid") == NULL,
          "a v1 table without a uuid is written without one and without a sequence number");
    CHECK(ice_int(tree, "current-snapshot-id") == -1, "no current snapshot is written as -1");
    free(text);
    cJSON_Delete(tree);
    floe_iceberg_metadata_dispose(&md);
}

TEST(iceberg_metadata_invalid_files_are_refused)
{
    static const struct {
        const char *from, *to, *reason;
    } cases[] = {
        {"\"format-version\":2", "\"format-version\":4", "format-version 4"},
        {"\"format-version\":2", "\"format-version\":3", "'next-row-id' is required"},
        {"\"format-version\":2", "\"format-version\":\"2\"", "format-version"},
        {"\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\",", "", "table-uuid"},
        {"\"location\":\"s3://b/t\",", "", "location"},
        {"\"last-sequence-number\":1,", "", "last-sequence-number"},
        {"\"last-column-id\":1,", "", "last-column-id"},
        {"\"current-schema-id\":0", "\"current-schema-id\":5", "current-schema-id 5"},
        {"\"default-spec-id\":0", "\"default-spec-id\":5", "default-spec-id 5"},
        {"\"default-sort-order-id\":0", "\"default-sort-order-id\":5", "default-sort-order-id 5"},
        {"\"last-partition-id\":999,", "", "last-partition-id"},
        {"\"sequence-number\":1,\"timestamp", "\"sequence-number\":9,\"timestamp", "greater than last-sequence-number"},
        {"\"current-snapshot-id\":7", "\"current-snapshot-id\":8", "current-snapshot-id 8"},
        {"\"main\":{\"snapshot-id\":7", "\"main\":{\"snapshot-id\":9", "not in 'snapshots'"},
        {"\"type\":\"branch\"", "\"type\":\"trunk\"", "branch or a tag"},
        {"\"properties\":{\"k\":\"v\"}", "\"properties\":{\"k\":1}", "property 'k'"},
        {"\"schemas\":[", "\"schemas\":7,\"x\":[", "'schemas' must be an array"},
        {"\"snapshots\":[{\"snapshot-id\":7,", "\"snapshots\":[{\"snapshot-id\":7},{\"snapshot-id\":7,",
         "appears twice"},
        /* found by the metadata fuzzer: the second copy was kept as an unknown member and written back */
        {"\"default-spec-id\":0", "\"default-spec-id\":0,\"default-spec-id\":5", "'default-spec-id' twice"},
        {"\"schemas\":[", "\"schemas\":[],\"schemas\":[", "'schemas' twice"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *text = ice_variant(ice_minimal_v2, cases[i].from, cases[i].to);
        floe_iceberg_metadata_t md;
        floe_iceberg_error_t err;
        int rc = floe_iceberg_metadata_parse(text, strlen(text), &md, &err);
        if (rc == 0 || strstr(err.message, cases[i].reason) == NULL)
            fprintf(stderr, "case %zu: rc %d, message '%s'\n", i, rc, rc ? err.message : "");
        CHECK(rc == FLOE_ICEBERG_EINVALID && strstr(err.message, cases[i].reason) != NULL,
              "an invalid metadata file is refused with a clear reason");
        if (rc == 0)
            floe_iceberg_metadata_dispose(&md);
        free(text);
    }
}

/* ice_minimal_v2 as a v3 file with next-row-id `next` (JSON text); the caller frees. */
static char *ice_minimal_v3(const char *next)
{
    char to[96];
    char *v3 = ice_variant(ice_minimal_v2, "\"format-version\":2", "\"format-version\":3");
    char *out;
    snprintf(to, sizeof(to), "\"last-sequence-number\":1,\"next-row-id\":%s,", next);
    out = ice_variant(v3, "\"last-sequence-number\":1,", to);
    free(v3);
    return out;
}

TEST(iceberg_metadata_v3_keeps_next_row_id_exactly)
{
    char *text = ice_minimal_v3("9007199254740993");
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    char *out = NULL;

    CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == 0, "a v3 file with next-row-id reads");
    if (md.schemas != NULL) {
        CHECK(md.format_version == 3 && md.next_row_id == INT64_C(9007199254740993),
              "next-row-id beyond 2^53 is kept exactly");
        out = floe_iceberg_metadata_serialize(&md);
        CHECK(strstr(out, "\"last-sequence-number\":1,\"next-row-id\":9007199254740993,") != NULL,
              "next-row-id is written after last-sequence-number, exactly");
        floe_iceberg_metadata_dispose(&md);
    }
    free(out);
    free(text);
    text = ice_minimal_v3("-1");
    CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == FLOE_ICEBERG_EINVALID &&
              strstr(err.message, "next-row-id") != NULL,
          "a negative next-row-id is refused");
    free(text);
    {
        char *v3 = ice_minimal_v3("7");
        char *no_added = ice_variant(v3, "\"timestamp-ms\":1,", "\"timestamp-ms\":1,\"first-row-id\":0,");
        char *both = ice_variant(v3, "\"timestamp-ms\":1,", "\"timestamp-ms\":1,\"first-row-id\":0,\"added-rows\":7,");
        CHECK(floe_iceberg_metadata_parse(no_added, strlen(no_added), &md, &err) == FLOE_ICEBERG_EINVALID &&
                  strstr(err.message, "needs added-rows") != NULL,
              "a v3 snapshot with first-row-id but no added-rows is refused, as Java's parser does");
        CHECK(floe_iceberg_metadata_parse(both, strlen(both), &md, &err) == 0, "with added-rows it reads");
        floe_iceberg_metadata_dispose(&md);
        free(v3);
        free(no_added);
        free(both);
    }
    text = ice_minimal_v3("\"5\"");
    CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == FLOE_ICEBERG_EINVALID,
          "next-row-id must be an integer");
    free(text);
}

TEST(iceberg_metadata_minimal_v2_and_non_objects)
{
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;

    CHECK(floe_iceberg_metadata_parse(ice_minimal_v2, strlen(ice_minimal_v2), &md, &err) == 0,
          "the minimal v2 file is valid");
    floe_iceberg_metadata_dispose(&md);
    CHECK(floe_iceberg_metadata_parse("[1]", 3, &md, &err) == FLOE_ICEBERG_EINVALID, "a JSON array is not metadata");
    CHECK(floe_iceberg_metadata_parse("{", 1, &md, &err) == FLOE_ICEBERG_EINVALID, "malformed JSON is not metadata");
}

TEST(iceberg_metadata_missing_refs_make_a_main_branch)
{
    char *text = ice_variant(ice_minimal_v2, ",\"refs\":{\"main\":{\"snapshot-id\":7,\"type\":\"branch\"}}", "");
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;

    CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == 0, "a file without refs is accepted");
    CHECK(ice_int(md.refs, "main.snapshot-id") == 7 && ice_streq(ice_str(md.refs, "main.type"), "branch"),
          "the current snapshot becomes the main branch, as Java's parser does");
    floe_iceberg_metadata_dispose(&md);
    free(text);
}

TEST(iceberg_metadata_null_current_snapshot_means_none)
{
    char *a = ice_variant(ice_minimal_v2, "\"current-snapshot-id\":7", "\"current-snapshot-id\":null");
    char *text = ice_variant(a, ",\"refs\":{\"main\":{\"snapshot-id\":7,\"type\":\"branch\"}}", "");
    floe_iceberg_metadata_t md;
    floe_iceberg_error_t err;
    int64_t id;

    CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == 0, "current-snapshot-id null is accepted");
    CHECK(!floe_iceberg_metadata_current_snapshot_id(&md, &id), "null means no current snapshot");
    floe_iceberg_metadata_dispose(&md);
    free(text);
    free(a);
}

TEST(iceberg_metadata_next_file_name_increments_the_version)
{
    static const struct {
        const char *prev, *expected;
    } cases[] = {
        {NULL, "00000-u.metadata.json"},
        {"s3://b/metadata/00000-abc.metadata.json", "00001-u.metadata.json"},
        {"s3://b/metadata/00041-3f1e.metadata.json", "00042-u.metadata.json"},
        {"00007-x.metadata.json", "00008-u.metadata.json"},
        {"s3://b/metadata/99999-x.metadata.json", "100000-u.metadata.json"},
        {"s3://b/metadata/v3.metadata.json", "00000-u.metadata.json"},
        {"s3://b/metadata/12ab-x.metadata.json", "00000-u.metadata.json"},
        {"s3://b/00004-dir/metadata/00002-x.metadata.json", "00003-u.metadata.json"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *name = floe_iceberg_metadata_next_file_name(cases[i].prev, "u");
        if (strcmp(name, cases[i].expected) != 0)
            fprintf(stderr, "%s -> %s\n", cases[i].prev ? cases[i].prev : "(null)", name);
        CHECK(strcmp(name, cases[i].expected) == 0,
              "the next file's version is the previous file's plus one, 5 digits");
        free(name);
    }
}

TEST(iceberg_metadata_location_loses_trailing_slashes)
{
    static const struct {
        const char *in, *out;
    } cases[] = {{"s3://b/t/", "s3://b/t"}, {"s3://b/t//", "s3://b/t"}, {"s3://b", "s3://b"}, {"s3://", "s3://"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *s = floe_iceberg_location_normalize(cases[i].in);
        CHECK(strcmp(s, cases[i].out) == 0, "a table location is stored without trailing slashes");
        free(s);
    }
}
