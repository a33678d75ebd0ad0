/* Tests of the generated request parsers: JSON types, @jsonName, unions, repeated query keys. */
#include <string.h>

#include "call/call.h"
#include "floe_codec.h"
#include "harness.h"

typedef struct parse_fixture {
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_violation_t v;
    floe_http_input_t http;
    const char *labels[4];
} parse_fixture_t;

static void fixture_init(parse_fixture_t *f, const char *body)
{
    memset(f, 0, sizeof(*f));
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, NULL, NULL);
    f->labels[0] = "arn:aws:s3tables:us-east-1:000000000000:bucket/b";
    f->labels[1] = "ns";
    f->labels[2] = "t";
    f->labels[3] = "icebergCompaction";
    f->http.labels = f->labels;
    f->http.n_labels = 4;
    f->http.body = body;
    f->http.body_len = body ? strlen(body) : 0;
}

static void fixture_dispose(parse_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
}

TEST(parse_wrong_json_type_is_a_violation)
{
    parse_fixture_t f;
    floe_CreateTableBucketRequest req = {0};
    fixture_init(&f, "{\"name\": 42}");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) != 0, "a number where a string belongs fails");
    CHECK(strstr(f.v.message, "'name' must be a string") != NULL, "the message names the member and the type");
    fixture_dispose(&f);
}

TEST(parse_malformed_json_is_a_violation)
{
    parse_fixture_t f;
    floe_CreateTableBucketRequest req = {0};
    fixture_init(&f, "{\"name\": ");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) != 0, "truncated JSON fails");
    CHECK(strstr(f.v.message, "not valid JSON") != NULL, "the message says the body is not JSON");
    fixture_dispose(&f);
    fixture_init(&f, "[1, 2]");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) != 0, "a JSON array body fails");
    fixture_dispose(&f);
}

/* Found by tests/e2e/robustness/72-hostile-input.py: cJSON stops after the first value, and the bytes after it
 * were never looked at, so '{"name":"abc"} x' created the table bucket "abc". */
TEST(parse_trailing_garbage_after_json_is_a_violation)
{
    static const char *const bodies[] = {"{\"name\":\"abc\"} x", "{\"name\":\"abc\"}{}", "{\"name\":\"abc\"}\n]"};
    floe_CreateTableBucketRequest req = {0};
    parse_fixture_t f;

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        fixture_init(&f, bodies[i]);
        CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) != 0,
              "a body with anything but whitespace after its JSON value fails");
        CHECK(strstr(f.v.message, "not valid JSON") != NULL, "the message says the body is not JSON");
        fixture_dispose(&f);
    }
    fixture_init(&f, "{\"name\":\"abc\"} \r\n\t");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) == 0, "trailing whitespace is fine");
    fixture_dispose(&f);
}

TEST(parse_unknown_members_are_ignored)
{
    parse_fixture_t f;
    floe_CreateTableBucketRequest req = {0};
    fixture_init(&f, "{\"name\": \"abc\", \"somethingNew\": {\"x\": [1]}}");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) == 0, "an unknown member does not fail");
    CHECK(req.name != NULL && strcmp(req.name, "abc") == 0, "known members are still read");
    fixture_dispose(&f);
}

TEST(parse_json_name_is_honoured)
{
#ifdef FLOE_HAS_MEMBER_IcebergSortOrder_orderId
    parse_fixture_t f;
    floe_CreateTableRequest req = {0};
    fixture_init(&f, "{\"name\":\"t\",\"format\":\"ICEBERG\",\"metadata\":{\"iceberg\":{\"schema\":{\"fields\":[]},"
                     "\"writeOrder\":{\"order-id\":7,\"fields\":[]}}}}");
    CHECK(floe_parse_CreateTableRequest(&f.call, &f.http, &req, &f.v) == 0, "a CreateTable body parses");
    CHECK(req.metadata && req.metadata->iceberg && req.metadata->iceberg->writeOrder &&
              req.metadata->iceberg->writeOrder->orderId == 7,
          "order-id on the wire fills orderId");
    fixture_dispose(&f);
#endif
}

TEST(parse_union_needs_exactly_one_member)
{
    parse_fixture_t f;
    floe_PutTableMaintenanceConfigurationRequest req = {0};
    fixture_init(&f, "{\"value\":{\"status\":\"enabled\",\"settings\":{}}}");
    CHECK(floe_parse_PutTableMaintenanceConfigurationRequest(&f.call, &f.http, &req, &f.v) != 0,
          "a union with no member set fails");
    CHECK(strstr(f.v.message, "exactly one member") != NULL, "the message says why");
    fixture_dispose(&f);
    fixture_init(&f, "{\"value\":{\"status\":\"enabled\",\"settings\":{\"icebergCompaction\":{\"targetFileSizeMB\":128}}}}");
    CHECK(floe_parse_PutTableMaintenanceConfigurationRequest(&f.call, &f.http, &req, &f.v) == 0, "one member parses");
    CHECK(req.type == FLOE_TableMaintenanceType_ICEBERG_COMPACTION, "the enum label is read from the path");
    CHECK(req.value->settings->tag == FLOE_TableMaintenanceSettings_TAG_icebergCompaction, "the union is tagged");
    fixture_dispose(&f);
}

TEST(parse_repeated_query_keys_make_a_list)
{
#ifdef FLOE_HAS_OP_UntagResource
    parse_fixture_t f;
    floe_UntagResourceRequest req = {0};
    floe_query_param_t q[] = {{"tagKeys", "a"}, {"other", "z"}, {"tagKeys", "b"}};
    fixture_init(&f, NULL);
    f.http.query = q;
    f.http.n_query = 3;
    CHECK(floe_parse_UntagResourceRequest(&f.call, &f.http, &req, &f.v) == 0, "repeated keys parse");
    CHECK(req.tagKeys != NULL && req.tagKeys->n == 2 && strcmp(req.tagKeys->items[1], "b") == 0,
          "?tagKeys=a&tagKeys=b is the list [a, b]");
    fixture_dispose(&f);
#endif
}

TEST(parse_nul_in_string_is_refused)
{
    parse_fixture_t f;
    floe_CreateTableBucketRequest req = {0};
    fixture_init(&f, "{\"name\": \"ab\\u0000cd\"}");
    CHECK(floe_parse_CreateTableBucketRequest(&f.call, &f.http, &req, &f.v) != 0 ||
              (req.name != NULL && strlen(req.name) != 2),
          "a \\u0000 inside a string is not silently cut at the NUL");
    fixture_dispose(&f);
}

/* An enum value an older model lacks has a NULL entry in its floe_<Enum>_wire_values table, and
 * the parsers pass that table to the codec: such a value must be refused like any unknown one. */
TEST(parse_enum_value_the_model_lacks_is_refused)
{
    static const char *const wire_values[] = {NULL, NULL, "aws"};
    floe_violation_t v = {0};
    const floe_path_t path = {NULL, "type", -1};
    int value = 0;

    CHECK(floe_codec_text_enum("customer", &path, wire_values, 2, "enum set: [aws]", &value, &v) != 0,
          "a value the model lacks is refused");
    CHECK(floe_codec_text_enum("aws", &path, wire_values, 2, "enum set: [aws]", &value, &v) == 0 && value == 2,
          "a value the model has keeps its C number");
}
