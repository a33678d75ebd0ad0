/* Tests of runtime/iceberg/hive_type.c: Glue (Hive) column types as Iceberg JSON types. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "iceberg/hive_type.h"

/* The Iceberg JSON of a Hive type, unformatted (malloc'ed), or NULL when it is refused. */
static char *converted(const char *hive)
{
    floe_iceberg_error_t err;
    cJSON *type;
    char *text;

    if (floe_iceberg_type_from_hive(hive, &type, &err) != FLOE_ICEBERG_OK)
        return NULL;
    text = cJSON_PrintUnformatted(type);
    cJSON_Delete(type);
    return text;
}

static bool converts_to(const char *hive, const char *iceberg)
{
    char *text = converted(hive);
    bool same = text != NULL && strcmp(text, iceberg) == 0;
    free(text);
    return same;
}

TEST(hive_type_primitives_map_to_iceberg_names)
{
    CHECK(converts_to("bigint", "\"long\""), "bigint is long");
    CHECK(converts_to("SMALLINT", "\"int\""), "smallint widens to int, keywords in any case");
    CHECK(converts_to("decimal(10,2)", "\"decimal(10, 2)\""), "decimal keeps precision and scale");
    CHECK(converts_to("varchar(20)", "\"string\""), "varchar is a string");
    CHECK(converts_to(" timestamp ", "\"timestamp\""), "spaces around a type are allowed");
}

TEST(hive_type_nested_types_become_iceberg_containers)
{
    CHECK(converts_to("array<string>", "{\"type\":\"list\",\"element\":\"string\",\"element-required\":false}"),
          "array is a list of optional elements");
    CHECK(converts_to("map<string, decimal(5,1)>", "{\"type\":\"map\",\"key\":\"string\",\"value\":\"decimal(5, 1)\","
                                                   "\"value-required\":false}"),
          "map has a key and an optional value");
    CHECK(converts_to("struct<a:int, b : array<bigint>>",
                      "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"required\":false},"
                      "{\"name\":\"b\",\"type\":{\"type\":\"list\",\"element\":\"long\",\"element-required\":false},"
                      "\"required\":false}]}"),
          "struct fields are optional and nest");
}

TEST(hive_type_refuses_what_it_cannot_read)
{
    static const char *const bad[] = {"", "array<string", "map<string>", "struct<a int>", "decimal(40,2)",
                                      "decimal", "interval", "int extra", "array<>", "struct<a:int,>"};
    char deep[400] = "";
    int accepted = 0;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *text = converted(bad[i]);
        accepted += text != NULL;
        free(text);
    }
    CHECK(accepted == 0, "malformed and unknown types are refused");
    for (int i = 0; i < 40; i++)
        strcat(deep, "array<");
    strcat(deep, "int");
    for (int i = 0; i < 40; i++)
        strcat(deep, ">");
    CHECK(converted(deep) == NULL, "a type nested deeper than 32 is refused, not recursed into");
}
