/* Tests of runtime/iceberg_spec.c: partition and sort fields bound to a schema. */
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_spec.h"
#include "iceberg_support.h"

static const char ice_spec_schema[] =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"},"
    "{\"id\":3,\"name\":\"name\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":4,\"name\":\"tags\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":5,\"element\":"
    "\"string\",\"element-required\":false}},"
    "{\"id\":6,\"name\":\"loc\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":[{\"id\":7,\"name\":"
    "\"lat\",\"required\":false,\"type\":\"double\"}]}}]}";

/* Binds partition fields given as JSON; returns the rc and the bound array (or NULL). */
static int ice_bind_spec(const char *fields_json, bool fresh, int32_t *last, cJSON **bound, floe_iceberg_error_t *err)
{
    cJSON *schema = ice_json(ice_spec_schema), *fields = ice_json(fields_json);
    floe_iceberg_schema_index_t idx;
    int rc = floe_iceberg_schema_index(schema, &idx, err);

    *bound = NULL;
    if (rc == 0)
        rc = floe_iceberg_spec_bind(fields, &idx, NULL, fresh, last, bound, err);
    floe_iceberg_schema_index_dispose(&idx);
    cJSON_Delete(fields);
    cJSON_Delete(schema);
    return rc;
}

TEST(iceberg_spec_fresh_partition_ids_start_at_1000)
{
    int32_t last = FLOE_ICEBERG_PARTITION_ID_START - 1;
    cJSON *bound;
    floe_iceberg_error_t err;

    CHECK(ice_bind_spec("[{\"source-id\":2,\"transform\":\"DAY\",\"name\":\"ts_day\",\"field-id\":5},"
                        "{\"source-id\":1,\"transform\":\"bucket[16]\",\"name\":\"id_bucket\"},"
                        "{\"source-id\":7,\"transform\":\"identity\",\"name\":\"lat\"}]",
                        true, &last, &bound, &err) == 0,
          "day, bucket and identity partitions of suitable columns are accepted");
    CHECK(ice_int(bound, "[0].field-id") == 1000 && ice_int(bound, "[1].field-id") == 1001 &&
              ice_int(bound, "[2].field-id") == 1002,
          "fresh partition field ids are 1000, 1001, ... whatever ids were given");
    CHECK(last == 1002, "last-partition-id is the highest id");
    CHECK(ice_streq(ice_str(bound, "[0].transform"), "day"), "transforms are written canonically");
    CHECK(ice_int(bound, "[2].source-id") == 7, "a field nested in a struct can be a partition source");
    cJSON_Delete(bound);
}

TEST(iceberg_spec_given_field_ids_are_kept_when_not_fresh)
{
    int32_t last = 1003;
    cJSON *bound;
    floe_iceberg_error_t err;

    CHECK(ice_bind_spec("[{\"source-id\":1,\"transform\":\"identity\",\"name\":\"id\",\"field-id\":1000},"
                        "{\"source-id\":3,\"transform\":\"truncate[2]\",\"name\":\"name_trunc\"}]",
                        false, &last, &bound, &err) == 0,
          "an evolved spec binds");
    CHECK(ice_int(bound, "[0].field-id") == 1000, "a given field id is kept (reusing an earlier partition field)");
    CHECK(ice_int(bound, "[1].field-id") == 1004, "a missing field id continues from last-partition-id");
    CHECK(last == 1004, "last-partition-id grows to the new id");
    cJSON_Delete(bound);
}

TEST(iceberg_spec_invalid_partition_fields_are_refused)
{
    static const struct {
        const char *fields;
        const char *reason; /* a fragment of the message */
    } cases[] = {
        {"[{\"source-id\":99,\"transform\":\"identity\",\"name\":\"p\"}]", "unknown source-id 99"},
        {"[{\"source-id\":3,\"transform\":\"year\",\"name\":\"p\"}]", "cannot apply"},
        {"[{\"source-id\":1,\"transform\":\"hour\",\"name\":\"p\"}]", "cannot apply"},
        {"[{\"source-id\":1,\"transform\":\"bucket[0]\",\"name\":\"p\"}]", "invalid transform"},
        {"[{\"source-id\":1,\"transform\":\"zorder\",\"name\":\"p\"}]", "invalid transform"},
        {"[{\"source-id\":4,\"transform\":\"identity\",\"name\":\"p\"}]", "not a primitive"},
        {"[{\"source-id\":5,\"transform\":\"identity\",\"name\":\"p\"}]", "list or map"},
        {"[{\"source-id\":6,\"transform\":\"identity\",\"name\":\"p\"}]", "not a primitive"},
        {"[{\"source-id\":1,\"transform\":\"identity\",\"name\":\"\"}]", "must not be empty"},
        {"[{\"source-id\":1,\"transform\":\"identity\",\"name\":\"p\"},{\"source-id\":3,\"transform\":\"identity\","
         "\"name\":\"p\"}]",
         "more than once"},
        {"[{\"source-id\":1,\"transform\":\"bucket[2]\",\"name\":\"name\"}]", "column name"},
        {"[{\"source-id\":1,\"transform\":\"identity\",\"name\":\"name\"}]", "column name"},
        {"[{\"transform\":\"identity\",\"name\":\"p\"}]", "'source-id' is required"},
        {"[{\"source-id\":1,\"name\":\"p\"}]", "'transform' is required"},
        {"[{\"source-id\":1,\"transform\":\"identity\",\"name\":\"a\",\"field-id\":1001},"
         "{\"source-id\":3,\"transform\":\"identity\",\"name\":\"b\",\"field-id\":1001}]",
         "reuses partition field id"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int32_t last = 999;
        cJSON *bound;
        floe_iceberg_error_t err;
        int rc = ice_bind_spec(cases[i].fields, false, &last, &bound, &err);
        if (rc == 0 || strstr(err.message, cases[i].reason) == NULL)
            fprintf(stderr, "case %zu: rc %d, message '%s'\n", i, rc, rc ? err.message : "");
        CHECK(rc == FLOE_ICEBERG_EINVALID && bound == NULL && strstr(err.message, cases[i].reason) != NULL,
              "an invalid partition field is refused with its reason");
        CHECK(last == 999, "a refused spec leaves last-partition-id alone");
        cJSON_Delete(bound);
    }
}

TEST(iceberg_spec_identity_partition_may_share_its_column_name)
{
    int32_t last = 999;
    cJSON *bound;
    floe_iceberg_error_t err;
    CHECK(ice_bind_spec("[{\"source-id\":3,\"transform\":\"identity\",\"name\":\"name\"}]", true, &last, &bound,
                        &err) == 0,
          "an identity partition named after its own source column is accepted");
    cJSON_Delete(bound);
}

TEST(iceberg_spec_sort_fields_are_bound_and_checked)
{
    cJSON *schema = ice_json(ice_spec_schema);
    cJSON *good = ice_json(
        "[{\"source-id\":2,\"transform\":\"Identity\",\"direction\":\"DESC\",\"null-order\":\"nulls-last\"},"
        "{\"source-id\":3,\"transform\":\"truncate[3]\",\"direction\":\"asc\",\"null-order\":\"nulls-first\"}]");
    static const char *const bad[] = {
        "[{\"source-id\":2,\"transform\":\"identity\",\"direction\":\"up\",\"null-order\":\"nulls-last\"}]",
        "[{\"source-id\":2,\"transform\":\"identity\",\"direction\":\"asc\",\"null-order\":\"last\"}]",
        "[{\"source-id\":2,\"transform\":\"identity\",\"direction\":\"asc\"}]",
        "[{\"source-id\":42,\"transform\":\"identity\",\"direction\":\"asc\",\"null-order\":\"nulls-last\"}]",
        "[{\"source-id\":6,\"transform\":\"identity\",\"direction\":\"asc\",\"null-order\":\"nulls-last\"}]",
        "[{\"source-id\":3,\"transform\":\"month\",\"direction\":\"asc\",\"null-order\":\"nulls-last\"}]",
    };
    floe_iceberg_schema_index_t idx;
    floe_iceberg_error_t err;
    cJSON *bound = NULL;

    CHECK(floe_iceberg_schema_index(schema, &idx, &err) == 0, "the schema indexes");
    CHECK(floe_iceberg_sort_bind(good, &idx, NULL, &bound, &err) == 0, "valid sort fields bind");
    CHECK(ice_streq(ice_str(bound, "[0].direction"), "desc") && ice_streq(ice_str(bound, "[0].transform"), "identity"),
          "direction and transform are written canonically");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cJSON *fields = ice_json(bad[i]), *out = NULL;
        CHECK(floe_iceberg_sort_bind(fields, &idx, NULL, &out, &err) == FLOE_ICEBERG_EINVALID && out == NULL,
              "a bad direction, null order, source or transform is refused");
        cJSON_Delete(fields);
    }
    floe_iceberg_schema_index_dispose(&idx);
    cJSON_Delete(bound);
    cJSON_Delete(good);
    cJSON_Delete(schema);
}

TEST(iceberg_spec_equality_ignores_field_ids)
{
    cJSON *a = ice_json("[{\"name\":\"p\",\"transform\":\"identity\",\"source-id\":1,\"field-id\":1000}]");
    cJSON *b = ice_json("[{\"name\":\"p\",\"transform\":\"identity\",\"source-id\":1,\"field-id\":1005}]");
    cJSON *c = ice_json("[{\"name\":\"q\",\"transform\":\"identity\",\"source-id\":1,\"field-id\":1000}]");
    CHECK(floe_iceberg_spec_same(a, b), "specs that differ only in field ids are the same spec");
    CHECK(!floe_iceberg_spec_same(a, c), "a renamed partition field makes a different spec");
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
}
