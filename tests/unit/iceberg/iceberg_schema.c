/* Tests of runtime/iceberg_schema.c: fresh ids in Java's order, schema checks, equality. */
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg_support.h"

/* a: struct<x: int, y: list<struct<p: string>>>, b: map<string, struct<q: long>>, c: int, with
 * input ids that are deliberately unlike the fresh ones. */
static const char ice_nested_schema[] =
    "{\"type\":\"struct\",\"fields\":["
    "{\"id\":50,\"name\":\"a\",\"required\":true,\"type\":{\"type\":\"struct\",\"fields\":["
    "  {\"id\":51,\"name\":\"x\",\"required\":true,\"type\":\"int\"},"
    "  "
    "{\"id\":52,\"name\":\"y\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":53,\"element-required\":"
    "true,"
    "    "
    "\"element\":{\"type\":\"struct\",\"fields\":[{\"id\":54,\"name\":\"p\",\"required\":false,\"type\":\"string\"}]}}}"
    "]}},"
    "{\"id\":60,\"name\":\"b\",\"required\":false,\"type\":{\"type\":\"map\",\"key-id\":61,\"key\":\"string\",\"value-"
    "id\":62,"
    "  "
    "\"value-required\":false,\"value\":{\"type\":\"struct\",\"fields\":[{\"id\":63,\"name\":\"q\",\"required\":true,"
    "\"type\":\"long\"}]}}},"
    "{\"id\":70,\"name\":\"c\",\"required\":true,\"type\":\"INT\",\"doc\":\"the c\"}]}";

TEST(iceberg_schema_fresh_ids_follow_assign_fresh_ids_order)
{
    cJSON *in = ice_json(ice_nested_schema), *out = NULL;
    floe_iceberg_id_map_t map;
    floe_iceberg_error_t err;
    int32_t last = 0, to = 0;

    CHECK(floe_iceberg_schema_fresh(in, &out, &map, &last, &err) == 0, "a valid nested schema gets fresh ids");
    if (out == NULL)
        goto Exit;
    CHECK(ice_int(out, "fields[0].id") == 1 && ice_int(out, "fields[1].id") == 2 && ice_int(out, "fields[2].id") == 3,
          "top-level fields take ids 1..3 before any nested field");
    CHECK(ice_int(out, "fields[0].type.fields[0].id") == 4 && ice_int(out, "fields[0].type.fields[1].id") == 5,
          "then the first struct's own fields");
    CHECK(ice_int(out, "fields[0].type.fields[1].type.element-id") == 6 &&
              ice_int(out, "fields[0].type.fields[1].type.element.fields[0].id") == 7,
          "a list takes its element id before the element's fields");
    CHECK(ice_int(out, "fields[1].type.key-id") == 8 && ice_int(out, "fields[1].type.value-id") == 9 &&
              ice_int(out, "fields[1].type.value.fields[0].id") == 10,
          "a map takes key then value ids, then visits the value");
    CHECK(last == 10, "last-column-id is the highest id assigned");
    CHECK(ice_int(out, "schema-id") == 0 && ice_streq(ice_str(out, "type"), "struct"), "the new schema is schema 0");
    CHECK(ice_streq(ice_str(out, "fields[2].type"), "int") && ice_streq(ice_str(out, "fields[2].doc"), "the c"),
          "types are written canonically and docs are kept");
    CHECK(floe_iceberg_id_map_get(&map, 50, &to) == 0 && to == 1, "input id 50 (a) maps to 1");
    CHECK(floe_iceberg_id_map_get(&map, 53, &to) == 0 && to == 6, "input element id 53 maps to 6");
    CHECK(floe_iceberg_id_map_get(&map, 63, &to) == 0 && to == 10, "input id 63 (q) maps to 10");
    CHECK(floe_iceberg_id_map_get(&map, 99, &to) != 0, "an id not in the input is not mapped");
Exit:
    floe_iceberg_id_map_dispose(&map);
    cJSON_Delete(out);
    cJSON_Delete(in);
}

TEST(iceberg_schema_fresh_refuses_invalid_input)
{
    static const char *const bad[] = {
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"lng\"}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"int\"},{\"id\":1,\"name\":\"b\","
        "\"required\":true,\"type\":\"int\"}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"int\"},{\"id\":2,\"name\":\"a\","
        "\"required\":true,\"type\":\"int\"}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"type\":\"int\"}]}",
        "{\"fields\":[{\"id\":1,\"required\":true,\"type\":\"int\"}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":{\"type\":\"list\",\"element\":\"int\"}}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":{\"type\":\"map\",\"key\":\"int\",\"value-"
        "required\":true}}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":{\"type\":\"union\"}}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":42}]}",
        "{\"fields\":[{\"id\":1,\"name\":\"s\",\"required\":true,\"type\":{\"type\":\"struct\",\"fields\":[{\"name\":"
        "\"a\",\"required\":true,\"type\":\"int\"},{\"name\":\"a\",\"required\":true,\"type\":\"long\"}]}}]}",
        "{\"identifier-field-ids\":[9],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"int\"}]}",
        "{\"fields\":\"nope\"}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cJSON *in = ice_json(bad[i]), *out = NULL;
        floe_iceberg_id_map_t map;
        floe_iceberg_error_t err;
        int32_t last;
        int rc = floe_iceberg_schema_fresh(in, &out, &map, &last, &err);

        if (rc == 0)
            fprintf(stderr, "accepted: %s\n", bad[i]);
        CHECK(rc == FLOE_ICEBERG_EINVALID && out == NULL && err.message[0] != '\0',
              "a bad type, duplicate id or name, or missing member is refused with a reason");
        cJSON_Delete(in);
    }
}

TEST(iceberg_schema_fresh_maps_identifier_fields)
{
    cJSON
        *in = ice_json(
            "{\"identifier-field-ids\":[20],\"fields\":[{\"id\":10,\"name\":\"a\",\"required\":false,\"type\":\"int\"},"
            "{\"id\":20,\"name\":\"b\",\"required\":true,\"type\":\"long\"}]}"),
        *out = NULL;
    floe_iceberg_id_map_t map;
    floe_iceberg_error_t err;
    int32_t last;

    CHECK(floe_iceberg_schema_fresh(in, &out, &map, &last, &err) == 0, "a schema with an identifier field is accepted");
    CHECK(ice_int(out, "identifier-field-ids[0]") == 2, "identifier-field-ids refer to the fresh ids");
    floe_iceberg_id_map_dispose(&map);
    cJSON_Delete(out);
    cJSON_Delete(in);
}

TEST(iceberg_schema_identifier_fields_must_be_required_primitives)
{
    static const char *const bad[] = {
        /* optional */
        "{\"identifier-field-ids\":[1],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":false,\"type\":\"int\"}]}",
        /* float */
        "{\"identifier-field-ids\":[1],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"double\"}]}",
        /* a struct */
        "{\"identifier-field-ids\":[1],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":{\"type\":"
        "\"struct\",\"fields\":[]}}]}",
        /* in a list */
        "{\"identifier-field-ids\":[2],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":{\"type\":"
        "\"list\",\"element-id\":2,\"element\":\"int\",\"element-required\":true}}]}",
        /* under an optional struct */
        "{\"identifier-field-ids\":[2],\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":false,\"type\":{\"type\":"
        "\"struct\",\"fields\":[{\"id\":2,\"name\":\"b\",\"required\":true,\"type\":\"int\"}]}}]}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cJSON *s = ice_json(bad[i]);
        floe_iceberg_schema_index_t idx;
        floe_iceberg_error_t err;
        CHECK(floe_iceberg_schema_index(s, &idx, &err) == FLOE_ICEBERG_EINVALID &&
                  strstr(err.message, "identifier field") != NULL,
              "an identifier field must be a required primitive, not float/double, not in a collection or optional "
              "parent");
        cJSON_Delete(s);
    }
}

TEST(iceberg_schema_index_finds_fields_by_id_and_full_name)
{
    cJSON *s = ice_json(ice_nested_schema);
    floe_iceberg_schema_index_t idx;
    floe_iceberg_error_t err;
    const floe_iceberg_field_t *f;

    CHECK(floe_iceberg_schema_index(s, &idx, &err) == 0, "the nested schema indexes");
    f = floe_iceberg_schema_find(&idx, 54);
    CHECK(f != NULL && strcmp(f->name, "a.y.element.p") == 0 && f->in_collection && f->is_primitive,
          "a field inside a list element has the Java full name and is marked in a collection");
    f = floe_iceberg_schema_find_name(&idx, "b.value.q");
    CHECK(f != NULL && f->id == 63 && f->under_optional,
          "a map value's field is found by name, under an optional parent");
    f = floe_iceberg_schema_find_name(&idx, "a.x");
    CHECK(f != NULL && f->id == 51 && !f->in_collection && !f->under_optional,
          "a required nested struct field is plain");
    CHECK(idx.highest_id == 70, "the highest id is tracked");
    floe_iceberg_schema_index_dispose(&idx);
    cJSON_Delete(s);
}

TEST(iceberg_schema_same_ignores_schema_id_and_member_order)
{
    cJSON *a = ice_json("{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,"
                        "\"type\":\"long\"}]}");
    cJSON *b = ice_json("{\"fields\":[{\"type\":\"long\",\"name\":\"x\",\"id\":1,\"required\":true}],\"schema-id\":7,"
                        "\"identifier-field-ids\":[]}");
    cJSON *c =
        ice_json("{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":false,\"type\":\"long\"}]}");
    CHECK(floe_iceberg_schema_same(a, b),
          "schemas differing only in schema-id, key order or an empty id list are the same");
    CHECK(!floe_iceberg_schema_same(a, c), "a changed required flag makes a different schema");
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
}
