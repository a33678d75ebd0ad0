/* Tests of runtime/iceberg_json.c: integers survive exactly, malformed text is refused. */
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_json.h"
#include "iceberg_support.h"

TEST(iceberg_json_big_integers_round_trip_exactly)
{
    static const char text[] =
        "{\"a\":3051729675574597004,\"b\":[-9223372036854775808,9223372036854775807],\"c\":\"9007199254740993\","
        "\"d\":9007199254740992,\"e\":1.5,\"f\":1602638573590}";
    cJSON *j = ice_json(text);
    char *out = floe_iceberg_json_print(j);

    CHECK(ice_int(j, "a") == 3051729675574597004LL, "a 63-bit snapshot id is read without rounding");
    CHECK(ice_int(j, "b[0]") == INT64_MIN && ice_int(j, "b[1]") == INT64_MAX, "the int64 extremes are read exactly");
    CHECK(ice_streq(ice_str(j, "c"), "9007199254740993"), "digits inside a string stay a string");
    CHECK(ice_int(j, "d") == INT64_C(9007199254740992), "2^53 is read exactly");
    CHECK(out != NULL && strcmp(out, text) == 0, "writing the tree back gives the same text");
    free(out);
    cJSON_Delete(j);
}

TEST(iceberg_json_two_to_the_53_plus_one_is_not_rounded)
{
    /* As a double, 2^53 + 1 rounds to 2^53: the boundary must be kept as digits. */
    cJSON *j = ice_json("[9007199254740993,-9007199254740993,9007199254740991]");
    char *out = floe_iceberg_json_print(j);
    CHECK(ice_int(j, "[0]") == INT64_C(9007199254740993) && ice_int(j, "[1]") == -INT64_C(9007199254740993),
          "2^53 + 1 is read as itself, not as 2^53");
    CHECK(strcmp(out, "[9007199254740993,-9007199254740993,9007199254740991]") == 0, "and written back as itself");
    free(out);
    cJSON_Delete(j);
}

TEST(iceberg_json_numbers_in_strings_do_not_shift_big_integers)
{
    /* The scanner must skip strings, escaped quotes included, to pair literals with nodes. */
    cJSON *j = ice_json("{\"k\\\"1\":\"x\\\"12 34\",\"n\":[1,\"2\",3051729675574597004],\"m\":7}");
    CHECK(ice_int(j, "n[0]") == 1 && ice_int(j, "n[2]") == 3051729675574597004LL && ice_int(j, "m") == 7,
          "every number node keeps its own value");
    cJSON_Delete(j);
}

TEST(iceberg_json_malformed_and_out_of_range_text_is_refused)
{
    static const char *const bad[] = {
        "",
        "{",
        "{\"a\":}",
        "[1,2",
        "{\"a\":1} trailing",
        "nul",
        "{\"a\":99999999999999999999}",
        "{\"a\":-9223372036854775809}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        floe_iceberg_error_t err;
        cJSON *j = floe_iceberg_json_parse(bad[i], strlen(bad[i]), &err);
        CHECK(j == NULL, "malformed JSON or an integer outside int64 is refused");
        CHECK(j != NULL || (err.code == FLOE_ICEBERG_EINVALID && err.message[0] != '\0'),
              "the refusal says why, as a bad request");
        cJSON_Delete(j);
    }
}

/* Found by tests/fuzz/fuzz_iceberg_metadata.c: cJSON keeps both members of a duplicated name and
 * finds the first, Java's Jackson keeps the last, so one file meant two tables. */
TEST(iceberg_json_duplicate_member_names_are_refused)
{
    static const char *const bad[] = {
        "{\"a\":1,\"a\":2}",
        "{\"a\":1,\"b\":{\"x\":[1,{\"y\":1,\"z\":2,\"y\":3}]}}",
        "{\"a\\u0000x\":1,\"a\":2}",
    };
    floe_iceberg_error_t err;
    cJSON *j;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        j = floe_iceberg_json_parse(bad[i], strlen(bad[i]), &err);
        CHECK(j == NULL && err.code == FLOE_ICEBERG_EINVALID && strstr(err.message, "twice") != NULL,
              "an object naming a member twice, at any depth, is refused as a bad request");
        cJSON_Delete(j);
    }
    j = floe_iceberg_json_parse("{\"a\":{\"k\":1},\"b\":{\"k\":2},\"c\":[{\"k\":1},{\"k\":2}]}", 47, &err);
    CHECK(j != NULL, "one name in different objects is fine");
    cJSON_Delete(j);
}

TEST(iceberg_json_deep_nesting_is_refused)
{
    char text[256];
    size_t n = 0;
    floe_iceberg_error_t err;
    cJSON *j;

    for (int i = 0; i < FLOE_ICEBERG_JSON_MAX_DEPTH + 2; i++)
        text[n++] = '[';
    for (int i = 0; i < FLOE_ICEBERG_JSON_MAX_DEPTH + 2; i++)
        text[n++] = ']';
    j = floe_iceberg_json_parse(text, n, &err);
    CHECK(j == NULL && err.code == FLOE_ICEBERG_EINVALID, "JSON nested deeper than the writer supports is refused");
    cJSON_Delete(j);
}

TEST(iceberg_json_lossy_double_is_not_an_integer)
{
    /* A tree from plain cJSON_Parse has lost the low digits of a big id: refuse rather than guess. */
    cJSON *j = cJSON_Parse("{\"id\":3051729675574597004,\"x\":1.5,\"ok\":42}");
    int64_t v;
    CHECK(floe_iceberg_json_int64(cJSON_GetObjectItem(j, "id"), &v) != 0, "a double beyond 2^53 is not taken as an id");
    CHECK(floe_iceberg_json_int64(cJSON_GetObjectItem(j, "x"), &v) != 0, "a fraction is not an integer");
    CHECK(floe_iceberg_json_int64(cJSON_GetObjectItem(j, "ok"), &v) == 0 && v == 42, "a small integer is read");
    cJSON_Delete(j);
}

TEST(iceberg_json_member_readers_name_the_member)
{
    cJSON *j = ice_json("{\"s\":1,\"i\":\"x\",\"big\":4294967296,\"b\":\"true\"}");
    floe_iceberg_error_t err;
    const char *s;
    int32_t i;
    bool b;

    CHECK(floe_iceberg_json_get_string(j, "s", "thing", &s, &err) == FLOE_ICEBERG_EINVALID &&
              strstr(err.message, "'s' must be a string") != NULL,
          "a wrong kind names the member and the expected kind");
    CHECK(floe_iceberg_json_get_int32(j, "missing", "thing", &i, &err) == FLOE_ICEBERG_EINVALID &&
              strstr(err.message, "'missing' is required") != NULL,
          "a missing member is reported as required");
    CHECK(floe_iceberg_json_get_int32(j, "big", "thing", &i, &err) == FLOE_ICEBERG_EINVALID,
          "an int32 member refuses a value beyond 32 bits");
    CHECK(floe_iceberg_json_get_bool(j, "b", "thing", &b, &err) == FLOE_ICEBERG_EINVALID,
          "a boolean member refuses the string \"true\"");
    cJSON_Delete(j);
}

TEST(iceberg_json_set_replaces_in_place)
{
    cJSON *j = ice_json("{\"a\":1,\"b\":2,\"c\":3}");
    char *out;

    floe_iceberg_json_set_int(j, "b", 3051729675574597004LL);
    floe_iceberg_json_set_int(j, "d", 4);
    out = floe_iceberg_json_print(j);
    CHECK(strcmp(out, "{\"a\":1,\"b\":3051729675574597004,\"c\":3,\"d\":4}") == 0,
          "setting an existing member keeps its place, a new one is appended, big values stay exact");
    free(out);
    cJSON_Delete(j);
}
