/* Tests of runtime/cfn_template/template.c and parameters.c: sections, JSON and YAML giving the
 * same template, parameters and their constraints, conditions, outputs, and AWS's messages. */
#include <string.h>

#include "cfn_support.h"

/* A template with the five S3 Tables types, parameters, conditions and outputs. */
static const char five_types_yaml[] =
    "AWSTemplateFormatVersion: 2010-09-09\n"
    "Description: Five S3 Tables resources\n"
    "Metadata:\n"
    "  Owner: data-team\n"
    "Parameters:\n"
    "  BucketName:\n"
    "    Type: String\n"
    "    Default: analytics\n"
    "    AllowedPattern: '[a-z0-9-]+'\n"
    "    MinLength: 3\n"
    "    MaxLength: 63\n"
    "  Env:\n"
    "    Type: String\n"
    "    AllowedValues: [dev, prod]\n"
    "    Default: dev\n"
    "  Secret:\n"
    "    Type: String\n"
    "    NoEcho: true\n"
    "    Default: hunter2\n"
    "Conditions:\n"
    "  IsProd: !Equals [!Ref Env, prod]\n"
    "Resources:\n"
    "  Bucket:\n"
    "    Type: AWS::S3Tables::TableBucket\n"
    "    DeletionPolicy: Retain\n"
    "    Properties:\n"
    "      TableBucketName: !Sub '${BucketName}-${Env}'\n"
    "  Ns:\n"
    "    Type: AWS::S3Tables::Namespace\n"
    "    Properties:\n"
    "      TableBucketARN: !GetAtt Bucket.TableBucketARN\n"
    "      Namespace: sales\n"
    "  Tbl:\n"
    "    Type: AWS::S3Tables::Table\n"
    "    DependsOn: Ns\n"
    "    Properties:\n"
    "      TableBucketARN: !Ref Bucket\n"
    "      Namespace: sales\n"
    "      TableName: orders\n"
    "      OpenTableFormat: ICEBERG\n"
    "      Compaction:\n"
    "        Status: !If [IsProd, enabled, disabled]\n"
    "        TargetFileSizeMB: '512'\n"
    "  BucketPolicy:\n"
    "    Type: AWS::S3Tables::TableBucketPolicy\n"
    "    Condition: IsProd\n"
    "    Properties:\n"
    "      TableBucketARN: !Ref Bucket\n"
    "      ResourcePolicy:\n"
    "        Version: '2012-10-17'\n"
    "        Statement: []\n"
    "  TblPolicy:\n"
    "    Type: AWS::S3Tables::TablePolicy\n"
    "    Properties:\n"
    "      TableARN: !GetAtt Tbl.TableARN\n"
    "      ResourcePolicy: '{\"Version\":\"2012-10-17\",\"Statement\":[]}'\n"
    "Outputs:\n"
    "  TableArn:\n"
    "    Description: the table\n"
    "    Value: !GetAtt Tbl.TableARN\n"
    "    Export:\n"
    "      Name: !Sub '${AWS::StackName}-table'\n"
    "  PolicyBucket:\n"
    "    Condition: IsProd\n"
    "    Value: !Ref BucketPolicy\n";

TEST(cfn_template_reads_every_section)
{
    floe_cfn_template_t *t = cfn_parse(five_types_yaml);
    const char *types[8];

    CHECK(t != NULL, "the five-type template parses");
    if (t == NULL)
        return;
    CHECK(t->is_yaml, "it is read as YAML");
    CHECK(strcmp(t->format_version, "2010-09-09") == 0, "the format version is kept");
    CHECK(strcmp(t->description, "Five S3 Tables resources") == 0, "the description is kept");
    CHECK(cJSON_IsObject(t->metadata), "Metadata is kept");
    CHECK(t->n_parameters == 3 && t->parameters[2].is_no_echo, "NoEcho parameters are known");
    CHECK(strcmp(t->parameters[0].default_value, "analytics") == 0, "defaults are kept as text");
    CHECK(t->n_resources == 5 && t->resources[0].deletion_policy == FLOE_CFN_POLICY_RETAIN,
          "DeletionPolicy Retain is read");
    CHECK(t->resources[2].n_depends_on == 1 && strcmp(t->resources[2].depends_on[0], "Ns") == 0,
          "DependsOn as a string is a list of one");
    CHECK(strcmp(t->resources[3].condition, "IsProd") == 0, "a resource's Condition is read");
    CHECK(t->n_outputs == 2 && t->outputs[0].export_name != NULL, "outputs and their exports are read");
    CHECK(floe_cfn_template_resource_types(t, types) == 5, "the summary lists each resource type once");
    CHECK(strcmp(types[0], "AWS::S3Tables::TableBucket") == 0, "in template order");
    floe_cfn_template_free(t);
}

TEST(cfn_template_json_and_yaml_give_the_same_tree)
{
    const char *json = "{\"Parameters\":{\"Env\":{\"Type\":\"String\",\"Default\":\"dev\"}},"
                       "\"Resources\":{\"B\":{\"Type\":\"AWS::S3Tables::TableBucket\",\"Properties\":"
                       "{\"TableBucketName\":{\"Fn::Sub\":\"b-${Env}\"}}},"
                       "\"N\":{\"Type\":\"AWS::S3Tables::Namespace\",\"Properties\":"
                       "{\"TableBucketARN\":{\"Fn::GetAtt\":[\"B\",\"TableBucketARN\"]},\"Namespace\":\"n\"}}}}";
    const char *yaml = "Parameters:\n  Env: {Type: String, Default: dev}\nResources:\n"
                       "  B:\n    Type: AWS::S3Tables::TableBucket\n    Properties:\n      TableBucketName: !Sub b-${Env}\n"
                       "  N:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n"
                       "      TableBucketARN: !GetAtt B.TableBucketARN\n      Namespace: n\n";
    floe_cfn_template_t *a = cfn_parse(json), *b = cfn_parse(yaml);

    CHECK(a != NULL && b != NULL, "both forms parse");
    if (a != NULL && b != NULL) {
        CHECK(!a->is_yaml && b->is_yaml, "JSON is told from YAML by its first character");
        CHECK(cJSON_Compare(a->root, b->root, true), "the JSON and YAML forms give the same tree");
    }
    floe_cfn_template_free(a);
    floe_cfn_template_free(b);
}

TEST(cfn_template_validate_binds_parameters_conditions_and_outputs)
{
    floe_cfn_param_value_t prod[] = {{"Env", "prod"}};
    floe_cfn_template_t *t = cfn_ready(five_types_yaml, NULL, 0);
    char *value, *export_name;
    floe_cfn_template_error_t err;
    bool is_prod;

    CHECK(t != NULL, "the template validates with its defaults");
    if (t == NULL)
        return;
    CHECK(strcmp(t->parameters[1].value, "dev") == 0, "a parameter without a value takes its Default");
    CHECK(floe_cfn_template_condition(t, "IsProd", &is_prod) == FLOE_OK && !is_prod, "IsProd is false for dev");
    CHECK(!floe_cfn_template_resource(t, "BucketPolicy")->is_active, "a resource whose condition is false is dropped");
    CHECK(t->n_order == 4, "the order holds the four active resources");
    CHECK(!t->outputs[1].is_active, "an output whose condition is false is dropped");
    CHECK(floe_cfn_output_value(t, &t->outputs[0], &test_resolver, &value, &export_name, &err) == FLOE_OK,
          "an output resolves");
    CHECK(value != NULL && strcmp(value, "Tbl.TableARN") == 0, "its Value is the attribute the engine gave");
    CHECK(export_name != NULL && strcmp(export_name, "demo-table") == 0, "its Export.Name is resolved");
    free(value);
    free(export_name);

    CHECK(floe_cfn_template_validate(t, &test_stack, prod, 1, &err) == FLOE_OK, "validate runs again with new values");
    CHECK(floe_cfn_template_resource(t, "BucketPolicy")->is_active, "the resource exists once its condition holds");
    CHECK(t->n_order == 5, "and is in the order");
    CHECK_PROPERTIES(t, "Tbl",
                     "{\"TableBucketARN\":\"pid-Bucket\",\"Namespace\":\"sales\",\"TableName\":\"orders\","
                     "\"OpenTableFormat\":\"ICEBERG\",\"Compaction\":{\"Status\":\"enabled\",\"TargetFileSizeMB\":512}}",
                     "Fn::If picks its branch and the string '512' becomes the integer the type declares");
    CHECK_PROPERTIES(t, "Bucket", "{\"TableBucketName\":\"analytics-prod\"}", "Fn::Sub reads parameters");
    floe_cfn_template_free(t);
}

TEST(cfn_template_section_errors_use_aws_wording)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{\n  \"Resources\": {,\n}", "Template format error: JSON not well-formed. (line 2, column 18)"},
        {"{\"Resources\":{\"B\":{\"Type\":\"AWS::CDK::Metadata\"}}} {}",
         "Template format error: JSON not well-formed. (line 1, column 51)"},
        {"Resources:\n  B: {Type: AWS::CDK::Metadata}\nBogus: 1\nOther: 2\n",
         "Template format error: Invalid template property or properties [Bogus, Other]"},
        {"Description: x\n", "Template format error: At least one Resources member must be defined."},
        {"{\"Resources\":{}}", "Template format error: At least one Resources member must be defined."},
        {"Resources:\n  B:\n    Properties: {}\n",
         "Template format error: [/Resources/B] Every Resources object must contain a Type member."},
        {"Resources:\n  my-bucket: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Resource name my-bucket is non alphanumeric."},
        {"Resources:\n  A: {Type: AWS::Foo::Bar}\n  B: {Type: AWS::S3::Bucket}\n  C: {Type: AWS::Foo::Bar}\n",
         "Template format error: Unrecognized resource types: [AWS::Foo::Bar, AWS::S3::Bucket]"},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    Propertes: {}\n",
         "Template format error: Invalid template resource property 'Propertes'"},
        {"AWSTemplateFormatVersion: 2011-01-01\nResources:\n  A: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Unsupported value for AWSTemplateFormatVersion."},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    DependsOn: [Nope, B]\n  B: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template"},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    DependsOn: {Ref: B}\n  B: {Type: AWS::CDK::Metadata}\n",
         "Template format error: DependsOn must be a string or list of strings."},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    DependsOn: [{Ref: B}]\n  B: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Every DependsOn value must be a string."},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    DeletionPolicy: !Ref P\n",
         "Template format error: Every DeletionPolicy member must be a string."},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    DeletionPolicy: Keep\n",
         "Template format error: Unrecognized DeletionPolicy Keep for resource A"},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    Properties:\n      Analytics:\n",
         "Template format error: [/Resources/A/Properties/Analytics] 'null' values are not allowed in templates"},
        {"Resources:\n  A:\n    Type: AWS::CDK::Metadata\n    Condition: Nope\n",
         "Template format error: Unresolved condition dependency Nope in the Resources block of the template"},
        {"Resources:\n  A: {Type: AWS::CDK::Metadata}\nOutputs:\n  O:\n    Description: x\n",
         "Template format error: Every Outputs member must contain a Value object"},
        {"Resources:\n  A: {Type: AWS::CDK::Metadata}\nOutputs:\n  O:\n    Value: !Ref Nope\n",
         "Template format error: Unresolved resource dependencies [Nope] in the Outputs block of the template"},
        {"Transform: AWS::Serverless-2016-10-31\nResources:\n  A: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Transform AWS::Serverless-2016-10-31 is not supported: Floe runs no transforms or "
         "macros; deploy the processed template instead (for SAM, `sam build` and `sam package` output is still a "
         "transform: expand it first)"},
        {"- a\n- b\n", "Template format error: YAML not well-formed. (the template must be an object)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK_REFUSAL(cases[i].text, NULL, 0, cases[i].message, "a malformed template is refused as AWS refuses it");
}

TEST(cfn_template_reference_errors_use_aws_wording)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"Resources:\n  A:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      TableBucketARN: !Ref X\n"
         "      Namespace: !Sub '${Y}-${AWS::Region}-${!Literal}'\n",
         "Template format error: Unresolved resource dependencies [X, Y] in the Resources block of the template"},
        {"Resources:\n  A:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      TableBucketARN: !GetAtt X.Arn\n"
         "      Namespace: n\n",
         "Template error: instance of Fn::GetAtt references undefined resource X"},
        {"Resources:\n  B:\n    Type: AWS::S3Tables::TableBucket\n    Properties: {TableBucketName: b}\n"
         "  A:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      TableBucketARN: !GetAtt B.Arn\n"
         "      Namespace: n\n",
         "Template error: resource B does not support attribute type Arn in Fn::GetAtt "
         "(AWS::S3Tables::TableBucket has [TableBucketARN])"},
        {"Resources:\n  B:\n    Type: AWS::S3Tables::TableBucket\n    Properties:\n"
         "      TableBucketName: !Sub '${B.Arn}'\n",
         "Template error: resource B does not support attribute type Arn in Fn::GetAtt "
         "(AWS::S3Tables::TableBucket has [TableBucketARN])"},
        {"Conditions:\n  C: !Equals [!Ref B, x]\nResources:\n  B: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Unresolved dependencies [B]. Cannot reference resources in the Conditions block of "
         "the template"},
        {"Conditions:\n  A: !Condition B\n  B: !Not [!Condition A]\nResources:\n  R: {Type: AWS::CDK::Metadata}\n",
         "Template format error: Circular dependency between conditions: [A, B]"},
        {"Resources:\n  R:\n    Type: AWS::CDK::Metadata\n    Properties:\n      V: !If [Nope, a, b]\n",
         "Template error: unresolved condition dependency Nope in Fn::If"},
        {"Resources:\n  R:\n    Type: AWS::CDK::Metadata\n    Properties:\n      V: !Cidr [10.0.0.0/16, 1, 8]\n",
         "Template format error: Encountered unsupported function: Fn::Cidr Supported functions are: [Fn::Base64, "
         "Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, Fn::Split, Fn::FindInMap, Fn::Select, Ref, Fn::Equals, "
         "Fn::If, Fn::Not, Condition, Fn::And, Fn::Or, Fn::Sub]"},
        {"Resources:\n  R:\n    Type: AWS::CDK::Metadata\n    Properties:\n      V: {Ref: [a]}\n",
         "Template format error: Every Ref object must have a single String value."},
        {"Resources:\n  R:\n    Type: AWS::CDK::Metadata\n    Properties:\n      V: {\"Fn::GetAtt\": [R]}\n",
         "Template error: every Fn::GetAtt object requires two non-empty parameters"},
        {"Resources:\n  R:\n    Type: AWS::CDK::Metadata\n    Properties:\n      V: {\"Fn::Sub\": [a, b, c]}\n",
         "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string "
         "as first argument, and an optional second argument to specify a mapping of values to replace in the string"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK_REFUSAL(cases[i].text, NULL, 0, cases[i].message, "a bad reference is refused as AWS refuses it");
}

TEST(cfn_template_parameters_are_checked)
{
    static const char text[] =
        "Parameters:\n"
        "  Name: {Type: String, MinLength: 3, MaxLength: 5, AllowedPattern: '[a-z]+'}\n"
        "  Size: {Type: Number, MinValue: 1, MaxValue: 10, Default: 5}\n"
        "  Env: {Type: String, AllowedValues: [dev, prod], Default: dev}\n"
        "  Code: {Type: String, AllowedPattern: '[A-Z]+', ConstraintDescription: upper-case letters only, Default: AB}\n"
        "  Zones: {Type: CommaDelimitedList, Default: 'a, b,c'}\n"
        "  Ports: {Type: 'List<Number>', Default: '80,443'}\n"
        "Resources:\n  R: {Type: AWS::CDK::Metadata}\n";
    static const struct {
        const char *key, *value, *message;
    } cases[] = {
        {"Name", "ab", "Parameter 'Name' must contain at least 3 characters"},
        {"Name", "abcdef", "Parameter 'Name' must contain at most 5 characters"},
        {"Name", "abC", "Parameter 'Name' must match pattern [a-z]+"},
        {"Size", "11", "Parameter 'Size' must be a number not greater than 10"},
        {"Size", "0", "Parameter 'Size' must be a number not less than 1"},
        {"Size", "ten", "Parameter 'Size' must be a number"},
        {"Env", "test", "Parameter 'Env' must be one of AllowedValues"},
        {"Code", "ab", "Parameter Code failed to satisfy constraint: upper-case letters only"},
        {"Ports", "80,http", "Parameter 'Ports' must be a number"},
        {"Other", "x", "Parameters: [Other] do not exist in the template"},
    };
    floe_cfn_param_value_t params[2] = {{"Name", "abc"}};
    floe_cfn_template_t *t;

    CHECK_REFUSAL(text, NULL, 0, "Parameters: [Name] must have values", "a parameter without value or default is refused");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        params[1].key = cases[i].key;
        params[1].value = cases[i].value;
        CHECK_REFUSAL(text, params, 2, cases[i].message, "a value outside the parameter's constraints is refused");
    }
    t = cfn_ready(text, params, 1);
    CHECK(t != NULL, "good values are accepted");
    if (t == NULL)
        return;
    char *zones = cJSON_PrintUnformatted(floe_cfn_template_parameter(t, "Zones")->resolved);
    CHECK(strcmp(zones, "[\"a\",\"b\",\"c\"]") == 0, "a CommaDelimitedList is a list of trimmed strings");
    free(zones);
    CHECK(cJSON_GetArraySize(floe_cfn_template_parameter(t, "Ports")->resolved) == 2, "a List<Number> is a list");
    CHECK(strcmp(cJSON_GetStringValue(floe_cfn_template_parameter(t, "Size")->resolved), "5") == 0,
          "Ref to a Number parameter gives a string, as AWS does");
    floe_cfn_template_free(t);
}

TEST(cfn_template_parameter_definitions_are_checked)
{
    static const struct {
        const char *params, *message;
    } cases[] = {
        {"  P: {Default: x}\n", "Template format error: Every Parameters object must contain a Type member."},
        {"  P: {Type: Strin}\n", "Template format error: Unrecognized parameter type: Strin"},
        {"  P: {Type: 'AWS::SSM::Parameter::Value<String>', Default: /cdk-bootstrap/version}\n",
         "Template format error: Parameter P has type AWS::SSM::Parameter::Value<String>, which Floe does not "
         "support: AWS-specific and SSM parameter types look values up in services Floe does not emulate; use String"},
        {"  P: {Type: String, Defualt: x}\n", "Template format error: Invalid template parameter property 'Defualt'"},
        {"  P: {Type: Number, MinLength: 1}\n",
         "Template error: Parameter 'P' MinLength must be on a parameter of type String"},
        {"  P: {Type: String, MaxValue: 1}\n",
         "Template error: Parameter 'P' MaxValue must be on a parameter of type Number"},
        {"  P-1: {Type: String}\n", "Template format error: Parameter name P-1 is non alphanumeric."},
    };
    char text[512];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(text, sizeof(text), "Parameters:\n%sResources:\n  R: {Type: AWS::CDK::Metadata}\n", cases[i].params);
        CHECK_REFUSAL(text, NULL, 0, cases[i].message, "a malformed parameter definition is refused");
    }
}

TEST(cfn_template_inactive_resource_references_are_unresolved)
{
    static const char text[] =
        "Parameters:\n  Make: {Type: String, Default: 'no'}\n"
        "Conditions:\n  Wanted: !Equals [!Ref Make, 'yes']\n"
        "Resources:\n"
        "  B:\n    Type: AWS::S3Tables::TableBucket\n    Condition: Wanted\n    Properties: {TableBucketName: b}\n"
        "  N:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      Namespace: n\n"
        "      TableBucketARN: !Ref B\n";
    static const char guarded[] =
        "Parameters:\n  Make: {Type: String, Default: 'no'}\n"
        "Conditions:\n  Wanted: !Equals [!Ref Make, 'yes']\n"
        "Resources:\n"
        "  B:\n    Type: AWS::S3Tables::TableBucket\n    Condition: Wanted\n    Properties: {TableBucketName: b}\n"
        "  N:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      Namespace: n\n"
        "      TableBucketARN: !If [Wanted, !Ref B, arn:aws:s3tables:eu-west-1:111122223333:bucket/other]\n";
    floe_cfn_template_t *t;

    CHECK_REFUSAL(text, NULL, 0,
                  "Template format error: Unresolved resource dependencies [B] in the Resources block of the template",
                  "a Ref to a resource whose condition is false is refused at validate");
    t = cfn_ready(guarded, NULL, 0);
    CHECK(t != NULL, "the branch Fn::If does not take may name a resource whose condition is false");
    if (t != NULL) {
        CHECK(t->n_order == 1 && t->resources[1].n_needs == 0, "and creates no dependency on it");
        CHECK_PROPERTIES(t, "N", "{\"Namespace\":\"n\",\"TableBucketARN\":\"arn:aws:s3tables:eu-west-1:111122223333:bucket/other\"}",
                         "the other branch is used");
    }
    floe_cfn_template_free(t);
}

TEST(cfn_template_section_limits_are_aws_limits)
{
    size_t cap = 64 + (FLOE_CFN_MAX_RESOURCES + 1) * 40;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "Resources:\n");

    for (int i = 0; i <= FLOE_CFN_MAX_RESOURCES; i++)
        n += (size_t)snprintf(text + n, cap - n, "  R%d: {Type: AWS::CDK::Metadata}\n", i);
    CHECK_REFUSAL(text, NULL, 0, "Template format error: Number of resources, 501, is greater than maximum allowed, 500",
                  "more than 500 resources are refused");
    free(text);
}

TEST(cfn_template_cdk_legacy_synthesizer_output_deploys)
{
    /* What `cdk synth` writes for an app with one CfnTableBucket and LegacyStackSynthesizer
     * (aws-cdk-lib 2.x): a CDKMetadata resource guarded by a region condition. */
    static const char text[] =
        "{\"Resources\":{\"Bucket83908E77\":{\"Type\":\"AWS::S3Tables::TableBucket\",\"Properties\":{\"TableBucketName\":"
        "\"cdk-bucket\",\"UnreferencedFileRemoval\":{\"Status\":\"Enabled\",\"UnreferencedDays\":3}},\"Metadata\":"
        "{\"aws:cdk:path\":\"App/Bucket\"}},\"CDKMetadata\":{\"Type\":\"AWS::CDK::Metadata\",\"Properties\":"
        "{\"Analytics\":\"v2:deflate64:H4sIAAAAAAAA/zPSMzI0\"},\"Metadata\":{\"aws:cdk:path\":\"App/CDKMetadata/Default\"},"
        "\"Condition\":\"CDKMetadataAvailable\"}},\"Conditions\":{\"CDKMetadataAvailable\":{\"Fn::Or\":[{\"Fn::Or\":"
        "[{\"Fn::Equals\":[{\"Ref\":\"AWS::Region\"},\"af-south-1\"]},{\"Fn::Equals\":[{\"Ref\":\"AWS::Region\"},"
        "\"eu-west-1\"]}]},{\"Fn::Equals\":[{\"Ref\":\"AWS::Region\"},\"us-west-2\"]}]}},\"Outputs\":{\"BucketArn\":"
        "{\"Value\":{\"Fn::GetAtt\":[\"Bucket83908E77\",\"TableBucketARN\"]}}}}";
    floe_cfn_template_t *t = cfn_ready(text, NULL, 0);

    CHECK(t != NULL, "a CDK app's template validates");
    if (t == NULL)
        return;
    CHECK(t->n_order == 2, "the CDK metadata resource is created in a region its condition lists");
    CHECK(floe_cfn_resource_type_is_noop(floe_cfn_template_resource(t, "CDKMetadata")->type_info),
          "and the engine is told it does nothing");
    CHECK_PROPERTIES(t, "Bucket83908E77",
                     "{\"TableBucketName\":\"cdk-bucket\",\"UnreferencedFileRemoval\":{\"Status\":\"Enabled\","
                     "\"UnreferencedDays\":3}}",
                     "the bucket's properties reach the engine as written");
    floe_cfn_template_free(t);
}

TEST(cfn_template_policies_and_list_outputs)
{
    static const char text[] =
        "Parameters:\n  Zones: {Type: CommaDelimitedList, Default: 'a,b'}\n"
        "Resources:\n"
        "  A: {Type: AWS::CDK::Metadata, DeletionPolicy: RetainExceptOnCreate, UpdateReplacePolicy: Retain}\n"
        "  B: {Type: AWS::CDK::Metadata, DeletionPolicy: Delete}\n"
        "Outputs:\n  Z: {Value: !Ref Zones}\n  R: {Value: !Ref A}\n";
    floe_cfn_template_t *t = cfn_ready(text, NULL, 0);
    floe_cfn_template_error_t err;
    char *value, *export_name;

    CHECK(t != NULL, "the template validates");
    if (t == NULL)
        return;
    CHECK(t->resources[0].deletion_policy == FLOE_CFN_POLICY_RETAIN_EXCEPT_ON_CREATE &&
              t->resources[0].update_replace_policy == FLOE_CFN_POLICY_RETAIN,
          "DeletionPolicy and UpdateReplacePolicy are read");
    CHECK(t->resources[1].deletion_policy == FLOE_CFN_POLICY_DELETE &&
              t->resources[1].update_replace_policy == FLOE_CFN_POLICY_DELETE,
          "Delete is the default");
    CHECK(floe_cfn_output_value(t, &t->outputs[0], NULL, &value, &export_name, &err) == FLOE_OK &&
              strcmp(value, "a,b") == 0 && export_name == NULL,
          "a list output is shown comma-joined, without an export");
    free(value);
    CHECK(floe_cfn_output_value(t, &t->outputs[1], NULL, &value, &export_name, &err) == FLOE_OK && value == NULL,
          "an output the engine cannot resolve yet is NULL");
    floe_cfn_template_free(t);
    CHECK_REFUSAL("Resources:\n  A: {Type: AWS::S3Tables::TableBucket, DeletionPolicy: Snapshot, "
                  "Properties: {TableBucketName: b}}\n", NULL, 0,
                  "Template format error: DeletionPolicy Snapshot is not supported for resource A of type "
                  "AWS::S3Tables::TableBucket: use Delete or Retain",
                  "Snapshot is refused: no S3 Tables type takes snapshots");
}
