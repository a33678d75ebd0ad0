/*
 * Tests of runtime/catalog/iceberg_create.c: S3 Tables CreateTable's metadata.iceberg and the REST
 * CreateTableRequest become format-v2 metadata. Tests that need members newer models added
 * (schemaV2, partitionSpec, writeOrder, properties, SchemaField.id) check nothing on an older
 * model, as the code under test compiles those paths out.
 */
#include <string.h>

#include "catalog/iceberg_create.h"
#include "harness.h"
#include "iceberg_support.h"

#define ICE_TABLE_UUID "0f6e1f9a-3c1e-4a8e-9d3a-5b0c2f1d7e44"
#define ICE_WAREHOUSE "s3://63a8e430-6e0b-46f5-k833abtwr6s8tmtsycedn8s4yc3xhuse1b--table-s3"

/* Runs floe_iceberg_metadata_create; on success *tree is the output parsed, else NULL. */
static int ice_create(const floe_IcebergMetadata *in, cJSON **tree, char *why, size_t why_len)
{
    char *text = NULL;
    int rc = floe_iceberg_metadata_create(in, ICE_TABLE_UUID, ICE_WAREHOUSE "/", ICE_NOW, &text, why, why_len);

    *tree = NULL;
    if (rc == 0) {
        floe_iceberg_metadata_t md;
        floe_iceberg_error_t err;
        char *again;
        *tree = ice_json(text);
        CHECK(floe_iceberg_metadata_parse(text, strlen(text), &md, &err) == 0,
              "the created file reads back as metadata");
        again = floe_iceberg_metadata_serialize(&md);
        CHECK(strcmp(again, text) == 0, "the created file is already canonical");
        free(again);
        floe_iceberg_metadata_dispose(&md);
    }
    free(text);
    return rc;
}

/* id long required, name string, ts timestamptz (the quick start's table, plus two columns). */
static floe_SchemaField ice_flat_fields[] = {
    {.name = "id", .type = "long", .required = true},
    {.name = "name", .type = "string"},
    {.name = "ts", .type = "timestamptz"},
};

TEST(iceberg_create_writes_every_required_v2_field)
{
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergMetadata in = {.schema = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "a flat schema creates a table");
    if (md == NULL)
        return;
    CHECK(ice_has_v2_required_fields(md), "the file is format version 2 with every required field");
    CHECK(ice_streq(ice_str(md, "table-uuid"), ICE_TABLE_UUID) && ice_streq(ice_str(md, "location"), ICE_WAREHOUSE),
          "uuid and location are the table's (without a trailing slash)");
    CHECK(ice_int(md, "last-sequence-number") == 0 && ice_int(md, "last-updated-ms") == ICE_NOW,
          "a new table has sequence number 0 and was updated now");
    CHECK(ice_int(md, "last-column-id") == 3 && ice_int(md, "current-schema-id") == 0 &&
              ice_int(md, "schemas[0].schema-id") == 0,
          "the schema is schema 0 and last-column-id counts its fields");
    CHECK(ice_int(md, "schemas[0].fields[0].id") == 1 && ice_int(md, "schemas[0].fields[2].id") == 3,
          "field ids are 1..n in order");
    CHECK(cJSON_IsTrue(ice_at(md, "schemas[0].fields[0].required")) &&
              cJSON_IsFalse(ice_at(md, "schemas[0].fields[1].required")),
          "required flags are kept");
    CHECK(ice_int(md, "default-spec-id") == 0 && ice_size(md, "partition-specs[0].fields") == 0 &&
              ice_int(md, "last-partition-id") == 999,
          "without a partition spec the table is unpartitioned, last-partition-id 999");
    CHECK(ice_int(md, "default-sort-order-id") == 0 && ice_int(md, "sort-orders[0].order-id") == 0,
          "without a write order the table is unsorted (order 0)");
    CHECK(ice_size(md, "snapshots") == 0 && ice_size(md, "snapshot-log") == 0 && ice_size(md, "metadata-log") == 0 &&
              cJSON_IsObject(ice_at(md, "refs")) && ice_at(md, "refs")->child == NULL &&
              ice_int(md, "current-snapshot-id") == -1,
          "a new table has no snapshots, no refs and empty logs");
    cJSON_Delete(md);
}

TEST(iceberg_create_assigns_nested_field_ids_depth_first)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_schemaV2
    /* a: struct<x: int, y: list<int>>, b: map<string, struct<q: long>>, c: int */
    floe_SchemaV2Field fields[] = {
        {.id = 10,
         .has_id = true,
         .name = "a",
         .required = true,
         .has_required = true,
         .type = "{\"type\":\"struct\",\"fields\":[{\"id\":11,\"name\":\"x\",\"required\":true,\"type\":\"int\"},"
                 "{\"id\":12,\"name\":\"y\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":13,"
                 "\"element\":\"int\",\"element-required\":false}}]}"},
        {.id = 20,
         .has_id = true,
         .name = "b",
         .has_required = true,
         .type = "{\"type\":\"map\",\"key-id\":21,\"key\":\"string\",\"value-id\":22,\"value-required\":true,"
                 "\"value\":{\"type\":\"struct\",\"fields\":[{\"id\":23,\"name\":\"q\",\"required\":true,\"type\":"
                 "\"long\"}]}}"},
        {.id = 30,
         .has_id = true,
         .name = "c",
         .required = true,
         .has_required = true,
         .type = "\"int\"",
         .doc = "the c"},
    };
    floe_SchemaV2FieldList list = {3, fields};
    floe_IcebergSchemaV2 schema = {.type = FLOE_SchemaV2FieldType_STRUCT, .fields = &list};
    floe_IcebergMetadata in = {.schemaV2 = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "a nested schemaV2 creates a table");
    if (md == NULL) {
        fprintf(stderr, "%s\n", why);
        return;
    }
    CHECK(ice_int(md, "schemas[0].fields[0].id") == 1 && ice_int(md, "schemas[0].fields[1].id") == 2 &&
              ice_int(md, "schemas[0].fields[2].id") == 3,
          "top-level fields take 1..3 first");
    CHECK(ice_int(md, "schemas[0].fields[0].type.fields[0].id") == 4 &&
              ice_int(md, "schemas[0].fields[0].type.fields[1].id") == 5 &&
              ice_int(md, "schemas[0].fields[0].type.fields[1].type.element-id") == 6,
          "then a's fields, then y's element, depth-first");
    CHECK(ice_int(md, "schemas[0].fields[1].type.key-id") == 7 &&
              ice_int(md, "schemas[0].fields[1].type.value-id") == 8 &&
              ice_int(md, "schemas[0].fields[1].type.value.fields[0].id") == 9,
          "then b's key and value, then the value's fields");
    CHECK(ice_int(md, "last-column-id") == 9, "last-column-id counts nested fields");
    CHECK(ice_streq(ice_str(md, "schemas[0].fields[2].doc"), "the c"), "a field's doc is kept");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_maps_partition_source_ids_through_input_ids)
{
#if defined(FLOE_HAS_MEMBER_IcebergMetadata_partitionSpec) && defined(FLOE_HAS_MEMBER_SchemaField_id)
    floe_SchemaField fields[] = {
        {.id = 10, .has_id = true, .name = "id", .type = "long", .required = true},
        {.id = 20, .has_id = true, .name = "name", .type = "string"},
        {.id = 30, .has_id = true, .name = "ts", .type = "timestamptz"},
    };
    floe_IcebergPartitionField pfields[] = {
        {.sourceId = 30, .has_sourceId = true, .transform = "day", .name = "ts_day", .fieldId = 7, .has_fieldId = true},
        {.sourceId = 10, .has_sourceId = true, .transform = "bucket[16]", .name = "id_bucket"},
    };
    floe_SchemaFieldList list = {3, fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergPartitionFieldList plist = {2, pfields};
    floe_IcebergPartitionSpec spec = {.fields = &plist, .specId = 5, .has_specId = true};
    floe_IcebergMetadata in = {.schema = &schema, .partitionSpec = &spec};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "a partitioned table is created");
    if (md == NULL) {
        fprintf(stderr, "%s\n", why);
        return;
    }
    CHECK(ice_int(md, "partition-specs[0].spec-id") == 0 && ice_int(md, "default-spec-id") == 0,
          "the spec is spec 0 whatever specId was given");
    CHECK(ice_int(md, "partition-specs[0].fields[0].source-id") == 3 &&
              ice_int(md, "partition-specs[0].fields[1].source-id") == 1,
          "source-ids given as input ids 30 and 10 become the fresh ids 3 and 1");
    CHECK(ice_int(md, "partition-specs[0].fields[0].field-id") == 1000 &&
              ice_int(md, "partition-specs[0].fields[1].field-id") == 1001,
          "partition field ids start at 1000");
    CHECK(ice_int(md, "last-partition-id") == 1001, "last-partition-id is the highest partition field id");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_field_without_id_is_known_by_position)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_partitionSpec
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergPartitionField pfields[] = {
        {.sourceId = 3, .has_sourceId = true, .transform = "hour", .name = "ts_hour"}};
    floe_IcebergPartitionFieldList plist = {1, pfields};
    floe_IcebergPartitionSpec spec = {.fields = &plist};
    floe_IcebergMetadata in = {.schema = &schema, .partitionSpec = &spec};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "a source-id can name a field without an id by its position");
    CHECK(md != NULL && ice_int(md, "partition-specs[0].fields[0].source-id") == 3, "source-id 3 is the third field");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_write_order_becomes_default_sort_order)
{
#if defined(FLOE_HAS_MEMBER_IcebergMetadata_writeOrder) && defined(FLOE_HAS_MEMBER_SchemaField_id)
    floe_SchemaField fields[] = {
        {.id = 5, .has_id = true, .name = "id", .type = "long", .required = true},
        {.id = 6, .has_id = true, .name = "name", .type = "string"},
    };
    floe_IcebergSortField sfields[] = {
        {.sourceId = 6,
         .has_sourceId = true,
         .transform = "identity",
         .direction = FLOE_IcebergSortDirection_DESC,
         .nullOrder = FLOE_IcebergNullOrder_NULLS_LAST},
        {.sourceId = 5,
         .has_sourceId = true,
         .transform = "bucket[4]",
         .direction = FLOE_IcebergSortDirection_ASC,
         .nullOrder = FLOE_IcebergNullOrder_NULLS_FIRST},
    };
    floe_SchemaFieldList list = {2, fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergSortFieldList slist = {2, sfields};
    floe_IcebergSortOrder order = {.orderId = 0, .has_orderId = true, .fields = &slist};
    floe_IcebergMetadata in = {.schema = &schema, .writeOrder = &order};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "a write order creates a sorted table");
    if (md == NULL) {
        fprintf(stderr, "%s\n", why);
        return;
    }
    CHECK(ice_int(md, "default-sort-order-id") == 1 && ice_int(md, "sort-orders[0].order-id") == 1 &&
              ice_size(md, "sort-orders") == 1,
          "the write order becomes sort order 1, the default");
    CHECK(ice_int(md, "sort-orders[0].fields[0].source-id") == 2 &&
              ice_int(md, "sort-orders[0].fields[1].source-id") == 1,
          "sort source-ids are translated from input ids");
    CHECK(ice_streq(ice_str(md, "sort-orders[0].fields[0].direction"), "desc") &&
              ice_streq(ice_str(md, "sort-orders[0].fields[0].null-order"), "nulls-last") &&
              ice_streq(ice_str(md, "sort-orders[0].fields[1].transform"), "bucket[4]"),
          "directions, null orders and transforms are written as Iceberg spells them");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_empty_write_order_is_unsorted)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_writeOrder
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergSortFieldList slist = {0, NULL};
    floe_IcebergSortOrder order = {.orderId = 3, .has_orderId = true, .fields = &slist};
    floe_IcebergMetadata in = {.schema = &schema, .writeOrder = &order};
    char why[256];
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 && ice_int(md, "default-sort-order-id") == 0,
          "a write order without fields is the unsorted order 0");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_bad_type_is_refused)
{
    static const char *const bad[] = {"lng", "decimal(40,2)", "decimal(5,6)", "fixed[0]", "struct", "list<int>", ""};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        floe_SchemaField fields[] = {{.name = "id", .type = "long", .required = true},
                                     {.name = "bad", .type = (char *)bad[i]}};
        floe_SchemaFieldList list = {2, fields};
        floe_IcebergSchema schema = {.fields = &list};
        floe_IcebergMetadata in = {.schema = &schema};
        char why[256] = "";
        cJSON *md;
        int rc = ice_create(&in, &md, why, sizeof(why));

        CHECK(rc == FLOE_ICEBERG_EINVALID && md == NULL, "a bad type string is a bad request");
        CHECK(strstr(why, "Invalid type") != NULL && strstr(why, "'bad'") != NULL,
              "the reason names the type problem and the field");
        cJSON_Delete(md);
    }
}

TEST(iceberg_create_duplicate_field_name_is_refused)
{
    floe_SchemaField fields[] = {{.name = "id", .type = "long"}, {.name = "id", .type = "string"}};
    floe_SchemaFieldList list = {2, fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergMetadata in = {.schema = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID &&
              strstr(why, "Duplicate field name 'id'") != NULL,
          "two columns with one name are refused");
    cJSON_Delete(md);
}

TEST(iceberg_create_invalid_partition_or_sort_is_refused)
{
#if defined(FLOE_HAS_MEMBER_IcebergMetadata_partitionSpec) && defined(FLOE_HAS_MEMBER_IcebergMetadata_writeOrder)
    static const struct {
        int32_t source_id;
        const char *transform;
        bool is_sort;
        const char *reason;
    } cases[] = {
        {9, "identity", false, "unknown source-id 9"},
        {2, "year", false, "cannot apply"},
        {1, "bucket", false, "invalid transform"},
        {9, "identity", true, "unknown source-id 9"},
        {2, "hour", true, "cannot apply"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        floe_SchemaFieldList list = {3, ice_flat_fields};
        floe_IcebergSchema schema = {.fields = &list};
        floe_IcebergPartitionField pf = {
            .sourceId = cases[i].source_id, .has_sourceId = true, .transform = (char *)cases[i].transform, .name = "p"};
        floe_IcebergPartitionFieldList plist = {1, &pf};
        floe_IcebergPartitionSpec spec = {.fields = &plist};
        floe_IcebergSortField sf = {.sourceId = cases[i].source_id,
                                    .has_sourceId = true,
                                    .transform = (char *)cases[i].transform,
                                    .direction = FLOE_IcebergSortDirection_ASC,
                                    .nullOrder = FLOE_IcebergNullOrder_NULLS_FIRST};
        floe_IcebergSortFieldList slist = {1, &sf};
        floe_IcebergSortOrder order = {.orderId = 1, .has_orderId = true, .fields = &slist};
        floe_IcebergMetadata in = {.schema = &schema};
        char why[256] = "";
        cJSON *md;

        if (cases[i].is_sort)
            in.writeOrder = &order;
        else
            in.partitionSpec = &spec;
        CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID && strstr(why, cases[i].reason) != NULL,
              "a partition or sort field with an unknown source or unfit transform is a bad request");
        cJSON_Delete(md);
    }
#endif
}

TEST(iceberg_create_schema_and_schema_v2_together_are_refused)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_schemaV2
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_SchemaV2Field f = {.id = 1, .has_id = true, .name = "a", .type = "\"int\"", .has_required = true};
    floe_SchemaV2FieldList list2 = {1, &f};
    floe_IcebergSchemaV2 schema2 = {.type = FLOE_SchemaV2FieldType_STRUCT, .fields = &list2};
    floe_IcebergMetadata in = {.schema = &schema, .schemaV2 = &schema2};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID && strstr(why, "not both") != NULL,
          "schema and schemaV2 together are ambiguous and refused");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_schema_v2_bad_nested_types_are_refused)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_schemaV2
    static const char *const bad[] = {
        "not json",
        "\"lng\"",
        "42",
        "{\"type\":\"list\",\"element-id\":1,\"element\":\"int\"}",
        "{\"type\":\"map\",\"key-id\":1,\"key\":\"string\",\"value-id\":2,\"value\":\"bogus\",\"value-required\":true}",
        ("{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"int\"},"
         "{\"id\":2,\"name\":\"x\",\"required\":true,\"type\":\"int\"}]}"),
        "{\"type\":\"struct\"}",
        "{\"type\":\"variant\"}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        floe_SchemaV2Field f = {.id = 1, .has_id = true, .name = "a", .type = (char *)bad[i], .has_required = true};
        floe_SchemaV2FieldList list = {1, &f};
        floe_IcebergSchemaV2 schema = {.type = FLOE_SchemaV2FieldType_STRUCT, .fields = &list};
        floe_IcebergMetadata in = {.schemaV2 = &schema};
        char why[256] = "";
        cJSON *md;
        int rc = ice_create(&in, &md, why, sizeof(why));

        if (rc == 0)
            fprintf(stderr, "accepted: %s\n", bad[i]);
        CHECK(rc == FLOE_ICEBERG_EINVALID && why[0] != '\0', "a malformed nested type is a bad request with a reason");
        cJSON_Delete(md);
    }
#endif
}

TEST(iceberg_create_identifier_field_ids_are_mapped)
{
#if defined(FLOE_HAS_MEMBER_IcebergMetadata_schemaV2) && defined(FLOE_HAS_MEMBER_IcebergSchemaV2_identifierFieldIds)
    floe_SchemaV2Field fields[] = {
        {.id = 100, .has_id = true, .name = "a", .type = "\"string\"", .has_required = true},
        {.id = 200, .has_id = true, .name = "b", .type = "\"long\"", .required = true, .has_required = true},
    };
    int32_t ids[] = {200};
    floe_IntegerList id_list = {1, ids};
    floe_SchemaV2FieldList list = {2, fields};
    floe_IcebergSchemaV2 schema = {
        .type = FLOE_SchemaV2FieldType_STRUCT, .fields = &list, .identifierFieldIds = &id_list};
    floe_IcebergMetadata in = {.schemaV2 = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "identifier fields are accepted");
    CHECK(md != NULL && ice_int(md, "schemas[0].identifier-field-ids[0]") == 2,
          "identifier-field-ids use the fresh ids");
    cJSON_Delete(md);
    ids[0] = 100;
    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID &&
              strstr(why, "not a required field") != NULL,
          "an optional identifier field is refused");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_properties_are_kept_and_reserved_ones_dropped)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_properties
    char *keys[] = {"write.format.default", "format-version", "uuid", "owner"};
    char *values[] = {"parquet", "2", "not-mine", "floe"};
    floe_TableProperties props = {4, keys, values};
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergMetadata in = {.schema = &schema, .properties = &props};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0, "properties are accepted");
    CHECK(
        md != NULL && cJSON_GetArraySize(ice_at(md, "properties")) == 3 &&
            ice_streq(cJSON_GetObjectItem(ice_at(md, "properties"), "write.format.default")->valuestring, "parquet") &&
            ice_streq(cJSON_GetObjectItem(ice_at(md, "properties"), "owner")->valuestring, "floe"),
        "ordinary properties are kept beside the default codec; format-version and uuid are not stored");
    cJSON_Delete(md);
    values[1] = "1";
    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID &&
              strstr(why, "Unsupported format version: v1") != NULL,
          "asking for format version 1 is refused: new tables are v2 or v3");
    cJSON_Delete(md);
    values[1] = "3";
    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 && ice_int(md, "format-version") == 3 &&
              ice_int(md, "next-row-id") == 0 && cJSON_GetArraySize(ice_at(md, "properties")) == 3,
          "CreateTable with properties format-version 3 makes a v3 table with next-row-id 0");
    cJSON_Delete(md);
#endif
}

/* The Parquet codec a new table's metadata names, or NULL. */
static const char *ice_parquet_codec(const cJSON *md)
{
    const cJSON *codec = cJSON_GetObjectItem(ice_at(md, "properties"), "write.parquet.compression-codec");
    return cJSON_IsString(codec) ? codec->valuestring : NULL;
}

TEST(iceberg_create_new_table_writes_parquet_as_zstd_unless_told_otherwise)
{
    floe_SchemaFieldList list = {3, ice_flat_fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergMetadata in = {.schema = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 && ice_streq(ice_parquet_codec(md), "zstd"),
          "a new table names zstd, as Iceberg Java's newTableMetadata does: without it writers fall back to gzip");
    cJSON_Delete(md);
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_properties
    char *keys[] = {"write.parquet.compression-codec"};
    char *values[] = {"snappy"};
    floe_TableProperties props = {1, keys, values};
    in.properties = &props;
    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 && ice_streq(ice_parquet_codec(md), "snappy"),
          "a codec the creator names wins");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_v3_types_need_format_version_3)
{
#ifdef FLOE_HAS_MEMBER_IcebergMetadata_properties
    char *keys[] = {"format-version"};
    char *values[] = {"3"};
    floe_TableProperties props = {1, keys, values};
    floe_SchemaField fields[] = {{.name = "id", .type = "long", .required = true},
                                 {.name = "v", .type = "variant"},
                                 {.name = "g", .type = "geometry(srid:4326)"},
                                 {.name = "t", .type = "timestamp_ns"}};
    floe_SchemaFieldList list = {4, fields};
    floe_IcebergSchema schema = {.fields = &list};
    floe_IcebergMetadata in = {.schema = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID &&
              strstr(why, "Invalid type for v: variant is not supported until v3") != NULL,
          "a v2 table refuses the v3 types with Java's message");
    cJSON_Delete(md);
    in.properties = &props;
    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 && ice_int(md, "format-version") == 3 &&
              ice_streq(ice_str(md, "schemas[0].fields[2].type"), "geometry(srid:4326)"),
          "a v3 table takes variant, geometry with a CRS and timestamp_ns");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_schema_v2_takes_nested_v3_types_in_a_v3_table)
{
#if defined(FLOE_HAS_MEMBER_IcebergMetadata_schemaV2) && defined(FLOE_HAS_MEMBER_IcebergMetadata_properties)
    char *keys[] = {"format-version"};
    char *values[] = {"3"};
    floe_TableProperties props = {1, keys, values};
    floe_SchemaV2Field f = {.id = 1,
                            .has_id = true,
                            .name = "events",
                            .type = "{\"type\":\"list\",\"element-id\":2,\"element-required\":false,"
                                    "\"element\":{\"type\":\"struct\",\"fields\":["
                                    "{\"id\":3,\"name\":\"payload\",\"required\":false,\"type\":\"variant\"},"
                                    "{\"id\":4,\"name\":\"where\",\"required\":false,"
                                    "\"type\":\"geography(srid:4326, karney)\"}]}}",
                            .has_required = true};
    floe_SchemaV2FieldList list = {1, &f};
    floe_IcebergSchemaV2 schema = {.type = FLOE_SchemaV2FieldType_STRUCT, .fields = &list};
    floe_IcebergMetadata in = {.schemaV2 = &schema};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(&in, &md, why, sizeof(why)) == FLOE_ICEBERG_EINVALID &&
              strstr(why, "Invalid type for events.element.payload: variant is not supported until v3") != NULL,
          "schemaV2 with a nested variant in a v2 table is refused, naming the field");
    cJSON_Delete(md);
    in.properties = &props;
    CHECK(ice_create(&in, &md, why, sizeof(why)) == 0 &&
              ice_streq(ice_str(md, "schemas[0].fields[0].type.element.fields[1].type"),
                        "geography(srid:4326, karney)"),
          "in a v3 table schemaV2 takes variant and geography inside a list of structs");
    cJSON_Delete(md);
#endif
}

TEST(iceberg_create_without_metadata_gives_an_empty_schema)
{
    floe_IcebergMetadata empty = {0};
    char why[256] = "";
    cJSON *md;

    CHECK(ice_create(NULL, &md, why, sizeof(why)) == 0, "no metadata at all still gives valid metadata");
    CHECK(md != NULL && ice_has_v2_required_fields(md) && ice_size(md, "schemas[0].fields") == 0 &&
              ice_int(md, "last-column-id") == 0,
          "the table has an empty schema");
    cJSON_Delete(md);
    CHECK(ice_create(&empty, &md, why, sizeof(why)) == 0 && ice_size(md, "schemas[0].fields") == 0,
          "metadata without a schema gives an empty schema too");
    cJSON_Delete(md);
}

TEST(iceberg_create_needs_uuid_and_location)
{
    char *text = NULL, why[128] = "";
    CHECK(floe_iceberg_metadata_create(NULL, NULL, "s3://b", ICE_NOW, &text, why, sizeof(why)) ==
                  FLOE_ICEBERG_EINVALID &&
              text == NULL && why[0] != '\0',
          "a missing uuid is refused rather than written");
    CHECK(floe_iceberg_metadata_create(NULL, ICE_TABLE_UUID, NULL, ICE_NOW, &text, NULL, 0) == FLOE_ICEBERG_EINVALID,
          "a missing location is refused, and a NULL why buffer is allowed");
}

TEST(iceberg_create_from_rest_request)
{
    cJSON *req = ice_json(
        "{\"name\":\"orders\",\"schema\":{\"type\":\"struct\",\"schema-id\":4,\"identifier-field-ids\":[7],\"fields\":["
        "{\"id\":7,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
        "{\"id\":9,\"name\":\"ts\",\"required\":false,\"type\":\"timestamp\"}]},"
        "\"partition-spec\":{\"spec-id\":3,\"fields\":[{\"source-id\":9,\"field-id\":1007,\"transform\":\"month\","
        "\"name\":\"ts_month\"}]},"
        "\"write-order\":{\"order-id\":2,\"fields\":[{\"source-id\":7,\"transform\":\"identity\",\"direction\":\"asc\","
        "\"null-order\":\"nulls-first\"}]},"
        "\"properties\":{\"owner\":\"me\"},\"stage-create\":false}");
    floe_iceberg_error_t err;
    char *text = NULL;
    cJSON *md;

    CHECK(floe_iceberg_metadata_create_from_request(req, ICE_TABLE_UUID, "s3://w/orders", ICE_NOW, &text, &err) == 0,
          "a REST CreateTableRequest creates a table");
    if (text == NULL) {
        cJSON_Delete(req);
        return;
    }
    md = ice_json(text);
    CHECK(ice_has_v2_required_fields(md), "the REST-created file has every required field");
    CHECK(ice_int(md, "schemas[0].schema-id") == 0 && ice_int(md, "schemas[0].fields[1].id") == 2 &&
              ice_int(md, "schemas[0].identifier-field-ids[0]") == 1,
          "ids are reassigned as Java's newTableMetadata does");
    CHECK(ice_int(md, "partition-specs[0].fields[0].source-id") == 2 &&
              ice_int(md, "partition-specs[0].fields[0].field-id") == 1000,
          "the spec is rebuilt on the fresh ids");
    CHECK(ice_int(md, "sort-orders[0].order-id") == 1 && ice_int(md, "sort-orders[0].fields[0].source-id") == 1,
          "the write order becomes sort order 1");
    cJSON_Delete(md);
    free(text);
    cJSON_Delete(req);
    req = ice_json("{\"name\":\"x\"}");
    text = NULL;
    CHECK(floe_iceberg_metadata_create_from_request(req, ICE_TABLE_UUID, "s3://w/x", ICE_NOW, &text, &err) ==
                  FLOE_ICEBERG_EINVALID &&
              strstr(err.message, "'schema' is required") != NULL,
          "a request without a schema is a bad request");
    cJSON_Delete(req);
}
