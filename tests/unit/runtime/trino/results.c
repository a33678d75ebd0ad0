/* Tests of reading Trino's QueryResults documents (trino/trino_query.c). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trino/trino_query.h"

static cJSON *parsed(const char *json)
{
    return floe_trino_parse_results(json, strlen(json));
}

TEST(trino_results_keep_long_integers_exact_and_doubles_whole)
{
    cJSON *doc = parsed("{\"data\":[[9007199254740993,-12345678901234567,42]],"
                        "\"stats\":{\"progressPercentage\":0.6666666666666666,\"cpu\":1.2345678901234567E-12,"
                        "\"ratio\":12.00000000000000001,\"big\":1e+300}}");
    const cJSON *row, *stats;

    CHECK(doc != NULL, "a document with a double of 16 fraction digits parses");
    row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "data"), 0);
    CHECK(cJSON_IsString(cJSON_GetArrayItem(row, 0)) &&
              strcmp(cJSON_GetArrayItem(row, 0)->valuestring, "9007199254740993") == 0 &&
              strcmp(cJSON_GetArrayItem(row, 1)->valuestring, "-12345678901234567") == 0,
          "a bigint past 2^53 comes back as its exact digits");
    CHECK(cJSON_IsNumber(cJSON_GetArrayItem(row, 2)) && cJSON_GetArrayItem(row, 2)->valueint == 42,
          "a short integer stays a number");
    stats = cJSON_GetObjectItemCaseSensitive(doc, "stats");
    CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(stats, "progressPercentage")) &&
              cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(stats, "cpu")) &&
              cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(stats, "ratio")) &&
              cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(stats, "big")),
          "doubles stay numbers, their long fractions and exponents untouched");
    cJSON_Delete(doc);
    doc = parsed("{\"a\":\"9007199254740993 in a string\"}");
    CHECK(doc != NULL && strcmp(cJSON_GetObjectItemCaseSensitive(doc, "a")->valuestring, "9007199254740993 in a string") == 0,
          "digits in a string are not touched");
    cJSON_Delete(doc);
}
