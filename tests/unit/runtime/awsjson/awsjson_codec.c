/* Tests of runtime/awsjson/awsjson_codec.c: the generic awsJson1_1 codec over Glue's generated
 * descriptor tables (parse, validate, serialize), and the code point escapes of codegen/awsjson.py's
 * patterns as PCRE2 reads them. */
#include <string.h>

#include "awsjson/awsjson_codec.h"
#include "glue_api.h"
#include "harness.h"

extern const floe_awsjson_service_t floe_glue_service;

static const floe_awsjson_operation_t *glue_operation(const char *name)
{
    for (size_t i = 0; i < floe_glue_service.n_operations; i++) {
        if (strcmp(floe_awsjson_name(&floe_glue_service, floe_glue_service.operations[i].name), name) == 0)
            return &floe_glue_service.operations[i];
    }
    return NULL;
}

static const floe_awsjson_shape_t *input_of(const char *operation)
{
    return floe_awsjson_shape(&floe_glue_service, glue_operation(operation)->input);
}

/* Parses `json` as the input of Glue's `operation` into a zeroed struct from the call's pool. */
static floe_awsjson_parse_rc_t parse_input(floe_call_t *call, const char *operation, const char *json, void **in,
                                           floe_violation_t *v)
{
    const floe_awsjson_shape_t *input = floe_awsjson_shape(&floe_glue_service, glue_operation(operation)->input);

    *in = floe_call_alloc(call, input->size);
    return floe_awsjson_parse(call, &floe_glue_service, input, json, strlen(json), *in, v);
}

TEST(awsjson_parse_reads_nested_structures_lists_maps_and_enums)
{
    static const char body[] =
        "{\"Name\": \"s3tablescatalog\", \"Unknown\": [1, 2], \"CatalogInput\": {\"FederatedCatalog\":"
        " {\"Identifier\": \"arn:aws:s3tables:us-east-1:111122223333:bucket/*\", \"ConnectionName\": \"aws:s3tables\"},"
        " \"CreateTableDefaultPermissions\": [{\"Principal\": {\"DataLakePrincipalIdentifier\": \"IAM_ALLOWED\"},"
        " \"Permissions\": [\"ALL\"]}], \"Parameters\": {\"k\": \"v\"},"
        " \"AllowFullTableExternalDataAccess\": \"True\"},"
        " \"Tags\": {}}";
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_violation_t v;
    floe_glue_CreateCatalogRequest *in;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(parse_input(&call, "CreateCatalog", body, (void **)&in, &v) == FLOE_AWSJSON_PARSED,
          "a CreateCatalog body parses, members the model lacks ignored");
    CHECK(strcmp(in->Name, "s3tablescatalog") == 0, "a top-level string is read");
    CHECK(strcmp(in->CatalogInput->FederatedCatalog->ConnectionName, "aws:s3tables") == 0,
          "nested structures are read");
    CHECK(in->CatalogInput->CreateTableDefaultPermissions->n == 1, "a list of structures is read");
    CHECK(strcmp(in->CatalogInput->CreateTableDefaultPermissions->items[0].Principal->DataLakePrincipalIdentifier,
                 "IAM_ALLOWED") == 0, "a list item is a structure held by value");
    CHECK(in->CatalogInput->CreateTableDefaultPermissions->items[0].Permissions->items[0] == FLOE_GLUE_Permission_ALL,
          "an enum in a list is its C value");
    CHECK(in->CatalogInput->Parameters->n == 1 && strcmp(in->CatalogInput->Parameters->keys[0], "k") == 0 &&
              strcmp(in->CatalogInput->Parameters->values[0], "v") == 0, "a map is read as keys and values");
    CHECK(in->CatalogInput->AllowFullTableExternalDataAccess == FLOE_GLUE_AllowFullTableExternalDataAccessEnum_True,
          "an enum member is its C value");
    CHECK(in->Tags != NULL && in->Tags->n == 0, "an empty map is present, not absent");
    CHECK(in->CatalogInput->Description == NULL, "an absent string is NULL");
    h2o_mem_clear_pool(&pool);
}

TEST(awsjson_parse_refuses_wrong_types_and_unknown_enum_values)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_violation_t v;
    void *in;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(parse_input(&call, "GetDatabase", "{\"Name\": 12}", &in, &v) == FLOE_AWSJSON_NOT_SHAPED,
          "a number where the model has a string is not the input's JSON");
    CHECK(parse_input(&call, "GetDatabase", "[]", &in, &v) == FLOE_AWSJSON_NOT_SHAPED, "an array body is refused");
    CHECK(parse_input(&call, "GetDatabase", "{\"Name\": ", &in, &v) == FLOE_AWSJSON_NOT_SHAPED,
          "malformed JSON is refused");
    CHECK(parse_input(&call, "GetCatalogs", "{\"MaxResults\": \"10\"}", &in, &v) == FLOE_AWSJSON_NOT_SHAPED,
          "a string where the model has an integer is refused");
    CHECK(parse_input(&call, "CreateCatalog",
                      "{\"Name\": \"c\", \"CatalogInput\": {\"AllowFullTableExternalDataAccess\": \"Maybe\"}}", &in,
                      &v) == FLOE_AWSJSON_INVALID,
          "an enum value the model lacks breaks the model");
    CHECK(strstr(v.message, "Member must satisfy enum value set: [True, False]") != NULL,
          "and its message lists the values, as AWS words it");
    CHECK(parse_input(&call, "GetDatabase", "", &in, &v) == FLOE_AWSJSON_PARSED, "an empty body is {}");
    /* Found by tests/fuzz/fuzz_awsjson.c: epoch seconds whose milliseconds overflow an int64_t
     * were converted anyway (undefined behaviour). */
    CHECK(parse_input(&call, "CreateTable",
                      "{\"DatabaseName\": \"d\", \"TableInput\": {\"Name\": \"t\", \"LastAccessTime\": 1.7e61}}", &in,
                      &v) == FLOE_AWSJSON_NOT_SHAPED,
          "a timestamp beyond what milliseconds in 64 bits hold is refused");
    CHECK(parse_input(&call, "CreateTable",
                      "{\"DatabaseName\": \"d\", \"TableInput\": {\"Name\": \"t\", \"LastAccessTime\": 1700000000.5}}",
                      &in, &v) == FLOE_AWSJSON_PARSED,
          "an ordinary epoch-seconds timestamp is read");
    h2o_mem_clear_pool(&pool);
}

TEST(awsjson_validate_names_members_lower_camel_as_aws_does)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_violation_t v;
    void *in;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(floe_awsjson_compile(&floe_glue_service) == 0, "every pattern of the Glue model compiles");
    parse_input(&call, "GetTables", "{}", &in, &v);
    CHECK(floe_awsjson_validate(&floe_glue_service, input_of("GetTables"), in, &v) != 0,
          "a missing required member is a violation");
    CHECK(strcmp(v.message, "1 validation error detected: Value null at 'databaseName' failed to satisfy constraint: "
                            "Member must not be null") == 0, "named lowerCamel, as AWS names it");
    parse_input(&call, "CreateDatabase", "{\"DatabaseInput\": {\"Name\": \"\"}}", &in, &v);
    CHECK(floe_awsjson_validate(&floe_glue_service, input_of("CreateDatabase"), in, &v) != 0,
          "an empty name is too short");
    CHECK(strcmp(v.message, "1 validation error detected: Value '' at 'databaseInput.name' failed to satisfy "
                            "constraint: Member must have length greater than or equal to 1") == 0,
          "a nested member's path is dotted");
    parse_input(&call, "GetCatalogs", "{\"MaxResults\": 0}", &in, &v);
    CHECK(floe_awsjson_validate(&floe_glue_service, input_of("GetCatalogs"), in, &v) != 0 &&
              strstr(v.message, "Member must have value greater than or equal to 1") != NULL,
          "@range is checked");
    h2o_mem_clear_pool(&pool);
}

/* Glue's name patterns take every code point but control characters, and write those above U+FFFF
 * as a UTF-16 surrogate pair range (\uD800\uDC00-\uDBFF\uDFFF), which PCRE2 refuses until
 * codegen/awsjson.py rewrites it as \x{10000}-\x{10FFFF}. */
TEST(awsjson_validate_patterns_take_code_points_above_the_bmp)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_violation_t v;
    void *in;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(floe_awsjson_compile(&floe_glue_service) == 0, "the patterns compile");
    parse_input(&call, "GetDatabase", "{\"Name\": \"sales \\ud83d\\ude00\"}", &in, &v);
    CHECK(floe_awsjson_validate(&floe_glue_service, input_of("GetDatabase"), in, &v) == 0,
          "a name with a character above U+FFFF matches");
    parse_input(&call, "GetDatabase", "{\"Name\": \"a\\nb\"}", &in, &v);
    CHECK(floe_awsjson_validate(&floe_glue_service, input_of("GetDatabase"), in, &v) != 0 &&
              strstr(v.message, "Member must satisfy regular expression pattern") != NULL,
          "a name with a newline does not");
    h2o_mem_clear_pool(&pool);
}

TEST(awsjson_serialize_writes_present_members_and_epoch_seconds)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_awsjson_call_t jcall;
    static const char expected[] =
        "{\"DatabaseList\":[{\"Name\":\"sales\",\"Parameters\":{},\"CreateTime\":1700000000.123}]}";
    const floe_awsjson_shape_t *output = floe_awsjson_shape(&floe_glue_service, glue_operation("GetDatabases")->output);
    floe_glue_GetDatabasesResponse out = {0};
    floe_json_t w;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    jcall.super = call;
    out.DatabaseList = FLOE_GLUE_NEW(&jcall, DatabaseList);
    out.DatabaseList->n = 1;
    out.DatabaseList->items = FLOE_GLUE_NEW(&jcall, Database);
    out.DatabaseList->items[0].Name = "sales";
    out.DatabaseList->items[0].CreateTime = 1700000000123;
    out.DatabaseList->items[0].has_CreateTime = true;
    out.DatabaseList->items[0].Parameters = FLOE_GLUE_NEW(&jcall, ParametersMap);
    floe_json_init(&w);
    floe_awsjson_serialize(&floe_glue_service, output, &out, &w);
    CHECK(w.len == strlen(expected) && memcmp(w.buf, expected, w.len) == 0,
          "absent members are left out, an empty map is {}, and a timestamp is epoch seconds");
    floe_json_dispose(&w);
    h2o_mem_clear_pool(&pool);
}

/* What a store keeps of a typed value (floe_glue_TableInput_to_json) reads back whole: nested
 * structures, lists, maps, a timestamp (to the millisecond), a negative number. */
TEST(awsjson_stored_table_input_round_trips_through_its_json)
{
    static const char given[] =
        "{\"Name\": \"orders\", \"TableType\": \"EXTERNAL_TABLE\", \"LastAccessTime\": 1700000000.5,"
        " \"Parameters\": {\"classification\": \"parquet\"}, \"PartitionKeys\": [{\"Name\": \"day\", \"Type\": \"string\"}],"
        " \"StorageDescriptor\": {\"Columns\": [{\"Name\": \"id\", \"Type\": \"bigint\", \"Comment\": \"key\"}],"
        " \"Location\": \"s3://data/orders/\", \"Compressed\": false, \"NumberOfBuckets\": -1,"
        " \"SerdeInfo\": {\"SerializationLibrary\": \"org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe\","
        " \"Parameters\": {\"serialization.format\": \"1\"}}}}";
    h2o_mem_pool_t pool;
    floe_awsjson_call_t jcall = {0};
    floe_glue_TableInput *in, back;
    char *json;

    h2o_mem_init_pool(&pool);
    floe_call_init(&jcall.super, &pool, NULL, NULL);
    in = floe_call_alloc(&jcall.super, sizeof(*in));
    CHECK(floe_glue_TableInput_from_json(&jcall, given, in) == FLOE_OK, "a TableInput's JSON reads");
    json = floe_glue_TableInput_to_json(&jcall, in);
    CHECK(floe_glue_TableInput_from_json(&jcall, json, &back) == FLOE_OK, "what to_json wrote reads back");
    CHECK(strcmp(back.Name, "orders") == 0 && strcmp(back.TableType, "EXTERNAL_TABLE") == 0, "its strings");
    CHECK(back.has_LastAccessTime && back.LastAccessTime == 1700000000500, "a timestamp, to the millisecond");
    CHECK(back.PartitionKeys->n == 1 && strcmp(back.PartitionKeys->items[0].Name, "day") == 0, "a list of columns");
    CHECK(strcmp(back.StorageDescriptor->Columns->items[0].Comment, "key") == 0, "a nested list's members");
    CHECK(!back.StorageDescriptor->Compressed, "a false");
    CHECK(back.StorageDescriptor->NumberOfBuckets == -1, "a negative number");
    CHECK(strcmp(back.StorageDescriptor->SerdeInfo->Parameters->values[0], "1") == 0, "a nested map");
    CHECK(strcmp(floe_glue_TableInput_to_json(&jcall, &back), json) == 0, "and writes the same text again");
    CHECK(floe_glue_TableInput_from_json(&jcall, "[1]", &back) == FLOE_EFAIL && jcall.error != 0,
          "text that is not the shape's fails the call");
    h2o_mem_clear_pool(&pool);
}

extern const floe_awsjson_service_t floe_athena_service;

/* Athena's model compiles as Glue's does, and every operation carries its REST-JSON route from
 * botocore's binding, each {label} of it one of the input's members. */
TEST(awsjson_athena_patterns_compile_and_every_operation_has_a_rest_route)
{
    const floe_awsjson_service_t *svc = &floe_athena_service;

    CHECK(floe_awsjson_compile(svc) == 0, "every pattern of the Athena model compiles");
    CHECK(svc->rest_params != NULL, "Athena has a REST-JSON binding");
    for (size_t i = 0; i < svc->n_operations; i++) {
        const floe_awsjson_operation_t *op = &svc->operations[i];
        const char *uri = floe_awsjson_name(svc, op->rest.uri);
        size_t labels = 0;

        CHECK(op->rest.method != FLOE_AWSJSON_NO_NAME && uri[0] == '/', "each operation has a route");
        for (const char *p = strchr(uri, '{'); p != NULL; p = strchr(p + 1, '{'))
            labels++;
        for (uint32_t k = 0; k < op->rest.n_params; k++)
            labels -= svc->rest_params[op->rest.params + k].location == FLOE_AWSJSON_IN_URI;
        CHECK(labels == 0, "every label of the route is bound to a member");
    }
}
