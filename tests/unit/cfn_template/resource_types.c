/* Tests of runtime/cfn_template/resource_types.c and the generated tables: lookups, replacement,
 * attributes, and the Properties check with AWS's schema messages. */
#include <string.h>

#include "cfn_support.h"
#include "cfn_template/resource_types.h"

TEST(cfn_resource_types_come_from_the_model)
{
    const floe_cfn_resource_type_t *tbl = floe_cfn_resource_type_find("AWS::S3Tables::Table");
    const floe_cfn_resource_type_t *bucket = floe_cfn_resource_type_find("AWS::S3Tables::TableBucket");

    CHECK(tbl != NULL && bucket != NULL, "the S3 Tables types are known");
    CHECK(floe_cfn_resource_type_find("AWS::S3Tables::Namespace") != NULL &&
              floe_cfn_resource_type_find("AWS::S3Tables::TableBucketPolicy") != NULL &&
              floe_cfn_resource_type_find("AWS::S3Tables::TablePolicy") != NULL,
          "all five are");
    CHECK(floe_cfn_resource_type_find("AWS::S3::Bucket") == NULL, "others are not");
    CHECK(floe_cfn_resource_type_is_noop(floe_cfn_resource_type_find("AWS::CDK::Metadata")),
          "AWS::CDK::Metadata is accepted and does nothing");
    CHECK(floe_cfn_resource_type_has_attribute(tbl, "WarehouseLocation") &&
              floe_cfn_resource_type_has_attribute(tbl, "VersionToken") &&
              floe_cfn_resource_type_has_attribute(bucket, "TableBucketARN"),
          "GetAtt attributes come from the model");
    CHECK(!floe_cfn_resource_type_has_attribute(tbl, "Arn"), "an attribute the model lacks is not one");
    CHECK(floe_cfn_property_replacement(bucket, "TableBucketName") == FLOE_CFN_REPLACEMENT_ALWAYS,
          "renaming a table bucket replaces it");
    CHECK(floe_cfn_property_replacement(tbl, "TableName") == FLOE_CFN_REPLACEMENT_NEVER,
          "renaming a table does not (RenameTable)");
    CHECK(floe_cfn_property_replacement(tbl, "Compaction") == FLOE_CFN_REPLACEMENT_NEVER,
          "maintenance settings change in place");
    CHECK(strcmp(tbl->tag_property, "Tags") == 0, "the tag property is known");
}

TEST(cfn_resource_properties_are_checked_with_aws_messages)
{
    static const struct {
        const char *props, *message;
    } cases[] = {
        {"{}", "Properties validation failed for resource Tbl with message: #: required key [Namespace] not found"},
        {"{TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: ICEBERG, Foo: 1}",
         "Properties validation failed for resource Tbl with message: #: extraneous key [Foo] is not permitted"},
        {"{TableBucketARN: {a: 1}, Namespace: n, TableName: t, OpenTableFormat: ICEBERG}",
         "Properties validation failed for resource Tbl with message: #/TableBucketARN: expected type: String, "
         "found: JSONObject"},
        {"{TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: DELTA}",
         "Properties validation failed for resource Tbl with message: #/OpenTableFormat: DELTA is not a valid enum value"},
        {"{TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: ICEBERG, Compaction: {TargetFileSizeMB: big}}",
         "Properties validation failed for resource Tbl with message: #/Compaction/TargetFileSizeMB: expected type: "
         "Integer, found: String"},
        {"{TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: ICEBERG, Tags: [{Key: k}]}",
         "Properties validation failed for resource Tbl with message: #/Tags/0: required key [Value] not found"},
        {"{TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: ICEBERG, IcebergMetadata: {IcebergSchema: "
         "{SchemaFieldList: [{Name: id, Type: int, Required: maybe}]}}}",
         "Properties validation failed for resource Tbl with message: "
         "#/IcebergMetadata/IcebergSchema/SchemaFieldList/0/Required: expected type: Boolean, found: String"},
    };
    char text[1024];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(text, sizeof(text), "Resources:\n  Tbl:\n    Type: AWS::S3Tables::Table\n    Properties: %s\n",
                 cases[i].props);
        CHECK_REFUSAL(text, NULL, 0, cases[i].message, "Properties that break the type are refused at validate");
    }
}

TEST(cfn_resource_properties_are_coerced_to_declared_types)
{
    static const char text[] =
        "Resources:\n  Tbl:\n    Type: AWS::S3Tables::Table\n    Properties:\n"
        "      TableBucketARN: b\n      Namespace: n\n      TableName: 0123\n      OpenTableFormat: ICEBERG\n"
        "      SnapshotManagement: {MinSnapshotsToKeep: '2', MaxSnapshotAgeHours: 48}\n"
        "      IcebergMetadata:\n        IcebergSchema:\n          SchemaFieldList:\n"
        "            - {Name: id, Type: long, Required: 'TRUE'}\n"
        "        TableProperties: {write.format: 5}\n"
        "  Pol:\n    Type: AWS::S3Tables::TableBucketPolicy\n    Properties:\n"
        "      TableBucketARN: b\n      ResourcePolicy: {Version: '2012-10-17'}\n"
        "  Pol2:\n    Type: AWS::S3Tables::TableBucketPolicy\n    Properties:\n"
        "      TableBucketARN: b\n      ResourcePolicy: '{}'\n";
    floe_cfn_template_t *t = cfn_ready(text, NULL, 0);

    CHECK(t != NULL, "the template validates");
    if (t == NULL)
        return;
    CHECK_PROPERTIES(t, "Tbl",
                     "{\"TableBucketARN\":\"b\",\"Namespace\":\"n\",\"TableName\":\"0123\",\"OpenTableFormat\":\"ICEBERG\","
                     "\"SnapshotManagement\":{\"MinSnapshotsToKeep\":2,\"MaxSnapshotAgeHours\":48},"
                     "\"IcebergMetadata\":{\"IcebergSchema\":{\"SchemaFieldList\":[{\"Name\":\"id\",\"Type\":\"long\","
                     "\"Required\":true}]},\"TableProperties\":{\"write.format\":\"5\"}}}",
                     "strings, integers and booleans take the declared type, a YAML number its literal text");
    CHECK_PROPERTIES(t, "Pol", "{\"TableBucketARN\":\"b\",\"ResourcePolicy\":{\"Version\":\"2012-10-17\"}}",
                     "a policy may be a JSON object");
    CHECK_PROPERTIES(t, "Pol2", "{\"TableBucketARN\":\"b\",\"ResourcePolicy\":\"{}\"}", "or a string");
    floe_cfn_template_free(t);
}
