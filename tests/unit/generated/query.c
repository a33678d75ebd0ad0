/*
 * Tests of the generated awsQuery layer (generated/cfn_*.c, generated/sts_*.c, generated/iam_*.c): form parsing into
 * typed inputs (lists, maps, nested structures, enums, unknown members), the constraint validators
 * with the services' prefixes, and the XML serializers.
 */
#include <string.h>

#include <expat.h>

#include "call/call.h"
#include "cfn_codec.h"
#include "harness.h"
#include "iam_codec.h"
#include "sts_codec.h"

typedef struct query_fixture {
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_query_form_t form;
    floe_violation_t v;
} query_fixture_t;

static int query_fixture_init(query_fixture_t *f, const char *body)
{
    memset(f, 0, sizeof(*f));
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, NULL, NULL);
    return floe_query_form_decode(&f->pool, NULL, 0, body, strlen(body), &f->form);
}

static void query_fixture_dispose(query_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
}

TEST(query_parse_create_stack_reads_every_kind_of_member)
{
    query_fixture_t f;
    floe_cfn_CreateStackInput in = {0};

    CHECK(query_fixture_init(&f, "Action=CreateStack&Version=2010-05-15&StackName=s1&TemplateBody=%7B%7D"
                           "&Parameters.member.1.ParameterKey=Env&Parameters.member.1.ParameterValue=prod"
                           "&Parameters.member.2.ParameterKey=Old&Parameters.member.2.UsePreviousValue=true"
                           "&Capabilities.member.1=CAPABILITY_IAM&Capabilities.member.2=CAPABILITY_AUTO_EXPAND"
                           "&NotificationARNs=&DisableRollback=false&TimeoutInMinutes=5&OnFailure=DELETE"
                           "&Tags.member.1.Key=team&Tags.member.1.Value=data"
                           "&RollbackConfiguration.MonitoringTimeInMinutes=3") == 0,
          "the form decodes");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) == 0, "the form parses");
    CHECK(floe_cfn_validate_CreateStackInput(&in, &f.v) == 0, "and validates");
    CHECK(strcmp(in.StackName, "s1") == 0 && strcmp(in.TemplateBody, "{}") == 0, "strings are read");
    CHECK(in.Parameters != NULL && in.Parameters->n == 2, "a list of structures has its items");
    CHECK(in.Parameters != NULL && in.Parameters->n == 2 && strcmp(in.Parameters->items[0].ParameterValue, "prod") == 0 &&
              in.Parameters->items[1].has_UsePreviousValue && in.Parameters->items[1].UsePreviousValue &&
              in.Parameters->items[1].ParameterValue == NULL,
          "each item's members are read, absent ones stay NULL");
    CHECK(in.Capabilities != NULL && in.Capabilities->n == 2 &&
              in.Capabilities->items[1] == FLOE_CFN_Capability_CAPABILITY_AUTO_EXPAND,
          "a list of enums is read");
    CHECK(in.NotificationARNs != NULL && in.NotificationARNs->n == 0,
          "an empty list (NotificationARNs=) is present and empty");
    CHECK(in.has_DisableRollback && !in.DisableRollback, "a false boolean is present");
    CHECK(in.has_TimeoutInMinutes && in.TimeoutInMinutes == 5, "an integer is read");
    CHECK(in.OnFailure == FLOE_CFN_OnFailure_DELETE, "an enum is read");
    CHECK(in.Tags != NULL && in.Tags->n == 1 && strcmp(in.Tags->items[0].Value, "data") == 0, "tags are read");
    CHECK(in.RollbackConfiguration != NULL && in.RollbackConfiguration->has_MonitoringTimeInMinutes &&
              in.RollbackConfiguration->MonitoringTimeInMinutes == 3,
          "a nested structure is read from A.B keys");
    CHECK(in.TemplateURL == NULL && in.StackPolicyBody == NULL && !in.has_EnableTerminationProtection,
          "members that were not sent are absent");
    query_fixture_dispose(&f);
}

/* The AWS CDK CLI sends DeploymentConfig.Mode on CreateChangeSet and DeleteStack, which the pinned
 * CloudFormation model does not have: such members are ignored, never refused. */
TEST(query_parse_unknown_members_are_ignored)
{
    query_fixture_t f;
    floe_cfn_CreateChangeSetInput in = {0};
    floe_cfn_DeleteStackInput del = {0};

    CHECK(query_fixture_init(&f, "Action=CreateChangeSet&StackName=s&ChangeSetName=c&ChangeSetType=IMPORT"
                           "&DeploymentConfig.Mode=REVERT_DRIFT&BrandNewFlag=true&Parameters.member.1.NewThing=x"
                           "&ResourcesToImport.member.1.ResourceType=AWS%3A%3AS3Tables%3A%3ATableBucket"
                           "&ResourcesToImport.member.1.LogicalResourceId=Bucket"
                           "&ResourcesToImport.member.1.ResourceIdentifier.entry.1.key=TableBucketARN"
                           "&ResourcesToImport.member.1.ResourceIdentifier.entry.1.value=arn%3Ax") == 0,
          "the form decodes");
    CHECK(floe_cfn_parse_CreateChangeSetInput(&f.call, &f.form, &in, &f.v) == 0, "unknown members do not fail parsing");
    CHECK(floe_cfn_validate_CreateChangeSetInput(&in, &f.v) == 0, "nor validation");
    CHECK(in.ChangeSetType == FLOE_CFN_ChangeSetType_IMPORT, "the known members are read");
    CHECK(in.Parameters != NULL && in.Parameters->n == 1 && in.Parameters->items[0].ParameterKey == NULL,
          "an item holding only unknown members is an item with no members set");
    CHECK(in.ResourcesToImport != NULL && in.ResourcesToImport->n == 1, "a list of structures holding a map is read");
    if (in.ResourcesToImport != NULL && in.ResourcesToImport->n == 1) {
        const floe_cfn_ResourceIdentifierProperties *m = in.ResourcesToImport->items[0].ResourceIdentifier;
        CHECK(m != NULL && m->n == 1 && strcmp(m->keys[0], "TableBucketARN") == 0 && strcmp(m->values[0], "arn:x") == 0,
              "a map is read from A.entry.N.key and A.entry.N.value");
    }
    query_fixture_dispose(&f);

    CHECK(query_fixture_init(&f, "Action=DeleteStack&StackName=s&DeploymentConfig.Mode=REVERT_DRIFT") == 0,
          "the form decodes");
    CHECK(floe_cfn_parse_DeleteStackInput(&f.call, &f.form, &del, &f.v) == 0 &&
              floe_cfn_validate_DeleteStackInput(&del, &f.v) == 0 && strcmp(del.StackName, "s") == 0,
          "DeleteStack with the CDK's DeploymentConfig.Mode is accepted");
    query_fixture_dispose(&f);
}

TEST(query_parse_wrong_types_are_violations)
{
    query_fixture_t f;
    floe_cfn_CreateStackInput in = {0};

    query_fixture_init(&f, "StackName=s&TimeoutInMinutes=ten");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) != 0, "a word where an integer belongs fails");
    CHECK(strstr(f.v.message, "'timeoutInMinutes' must be an integer") != NULL, "the message names the member lowerCamel");
    query_fixture_dispose(&f);

    memset(&in, 0, sizeof(in));
    query_fixture_init(&f, "StackName=s&OnFailure=EXPLODE");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) != 0, "a value outside the enum fails");
    CHECK(strstr(f.v.message, "Member must satisfy enum value set: [DO_NOTHING, ROLLBACK, DELETE]") != NULL,
          "the message lists the enum's values");
    query_fixture_dispose(&f);

    memset(&in, 0, sizeof(in));
    query_fixture_init(&f, "StackName=s&Capabilities.member.1=CAPABILITY_IAM&Capabilities.member.2=NOPE");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) != 0, "a bad enum inside a list fails");
    CHECK(strstr(f.v.message, "'capabilities[1]'") != NULL, "the message names the item");
    query_fixture_dispose(&f);
}

TEST(query_validate_reports_constraints_with_paths)
{
    query_fixture_t f;
    floe_cfn_CreateStackInput in = {0};

    query_fixture_init(&f, "TemplateBody=x");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) == 0, "a form without StackName parses");
    CHECK(floe_cfn_validate_CreateStackInput(&in, &f.v) != 0, "but a missing required member fails validation");
    CHECK(strstr(f.v.message, "Value null at 'stackName' failed to satisfy constraint: Member must not be null") != NULL,
          "as AWS words it");
    query_fixture_dispose(&f);

    memset(&in, 0, sizeof(in));
    query_fixture_init(&f, "StackName=s&TimeoutInMinutes=0&Tags.member.1.Key=k");
    CHECK(floe_cfn_parse_CreateStackInput(&f.call, &f.form, &in, &f.v) == 0, "the form parses");
    CHECK(floe_cfn_validate_CreateStackInput(&in, &f.v) != 0 &&
              strstr(f.v.message, "Value '0' at 'timeoutInMinutes'") != NULL &&
              strstr(f.v.message, "greater than or equal to 1") != NULL,
          "a range violation names the member and the bound");
    in.TimeoutInMinutes = 1;
    CHECK(floe_cfn_validate_CreateStackInput(&in, &f.v) != 0 && strstr(f.v.message, "'tags[0].value'") != NULL,
          "a missing member inside a list item is reported with its path");
    query_fixture_dispose(&f);
}

static int query_check_row(const char *id, int rc, int expect_ok, const floe_violation_t *v)
{
    if ((rc == 0) == (expect_ok != 0))
        return 0;
    fprintf(stderr, "constraint %s: expected the value to %s, got %s%s%s\n", id, expect_ok ? "pass" : "fail",
            rc == 0 ? "a pass" : "a violation", rc == 0 ? "" : ": ", rc == 0 ? "" : v->message);
    return 1;
}

TEST(query_constraints_every_model_constraint_passes_and_fails)
{
    int failures = 0, rows = 0;
    floe_violation_t v;
    const floe_path_t path = {NULL, "value", -1};
#undef FLOE_STRING_CONSTRAINT
#undef FLOE_NUMBER_CONSTRAINT
#undef FLOE_COUNT_CONSTRAINT
#define FLOE_STRING_CONSTRAINT(id, fn, value, ok) rows++, failures += query_check_row(id, fn(value, &path, &v), ok, &v);
#define FLOE_NUMBER_CONSTRAINT(id, fn, value, ok) rows++, failures += query_check_row(id, fn(value, &path, &v), ok, &v);
#define FLOE_COUNT_CONSTRAINT(id, fn, value, ok) rows++, failures += query_check_row(id, fn(value, &path, &v), ok, &v);
#include "tests/cfn_constraints.def"
#include "tests/sts_constraints.def"
#include "tests/iam_constraints.def"
#undef FLOE_STRING_CONSTRAINT
#undef FLOE_NUMBER_CONSTRAINT
#undef FLOE_COUNT_CONSTRAINT
    CHECK(rows > 0, "the CloudFormation, STS and IAM models have constraint rows to test");
    CHECK(failures == 0, "every generated validator accepts its passing value and refuses its failing one");
}

/* The STS models write code points as \uXXXX (and \u10000 as \u1000 followed by '0'); the
 * generator spells them \x{...} for PCRE2. */
TEST(query_validate_patterns_with_code_point_escapes)
{
    floe_violation_t v;
    const floe_path_t path = {NULL, "roleArn", -1};

    CHECK(floe_sts_validate_arnType("arn:aws:iam::123456789012:role/r\xc3\xa9", &path, &v) == 0,
          "an ARN with a non-ASCII letter passes the printable-characters pattern");
    CHECK(floe_sts_validate_arnType("arn:aws:iam::123456789012:role/\x01r", &path, &v) != 0,
          "a control character fails it");
}

static char *serialize_to_text(void (*fn)(const void *, floe_xml_t *), const void *out)
{
    floe_xml_t x;
    floe_xml_begin(&x);
    floe_xml_open(&x, "R");
    fn(out, &x);
    floe_xml_close(&x, "R");
    return x.buf;
}

TEST(query_serialize_writes_members_lists_and_times)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_cfn_DescribeStacksOutput out = {0};
    floe_cfn_Stack *s;
    XML_Parser parser;
    char *xml;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    out.Stacks = floe_cfn_Stacks_new(&call, 1);
    s = &out.Stacks->items[0];
    s->StackName = "s<1>";
    s->StackId = "arn:aws:cloudformation:us-east-1:000000000000:stack/s/1";
    s->CreationTime = INT64_C(1704164645123);
    s->has_CreationTime = true;
    s->StackStatus = FLOE_CFN_StackStatus_CREATE_COMPLETE;
    s->DisableRollback = false;
    s->has_DisableRollback = true;
    s->Outputs = floe_cfn_Outputs_new(&call, 2);
    s->Outputs->items[0].OutputKey = "Arn";
    s->Outputs->items[0].OutputValue = "a&b";
    s->Outputs->items[1].OutputKey = "Empty";
    s->Capabilities = floe_cfn_Capabilities_new(&call, 0);
    xml = serialize_to_text(floe_cfn_serialize_DescribeStacksOutput, &out);
    CHECK(strstr(xml, "<R><Stacks><member><StackId>arn:aws:cloudformation:us-east-1:000000000000:stack/s/1</StackId>"
                      "<StackName>s&lt;1&gt;</StackName>") != NULL,
          "a list of structures is <Stacks><member>..</member></Stacks>, members in model order, text escaped");
    CHECK(strstr(xml, "<CreationTime>2024-01-02T03:04:05.123Z</CreationTime>") != NULL,
          "timestamps are ISO 8601 with milliseconds");
    CHECK(strstr(xml, "<StackStatus>CREATE_COMPLETE</StackStatus>") != NULL, "enums are their wire values");
    CHECK(strstr(xml, "<DisableRollback>false</DisableRollback>") != NULL, "a present false boolean is written");
    CHECK(strstr(xml, "<Capabilities></Capabilities>") != NULL, "an empty list is an empty element");
    CHECK(strstr(xml, "<Outputs><member><OutputKey>Arn</OutputKey><OutputValue>a&amp;b</OutputValue></member>"
                      "<member><OutputKey>Empty</OutputKey></member></Outputs>") != NULL,
          "absent members are left out");
    CHECK(strstr(xml, "NextToken") == NULL && strstr(xml, "DeletionTime") == NULL, "absent members are not written at all");
    parser = XML_ParserCreate(NULL);
    CHECK(XML_Parse(parser, xml, (int)strlen(xml), 1) == XML_STATUS_OK, "the document is well-formed");
    XML_ParserFree(parser);
    free(xml);
    h2o_mem_clear_pool(&pool);
}

TEST(query_serialize_get_caller_identity)
{
    floe_sts_GetCallerIdentityResponse out = {"123456789012", "123456789012", "arn:aws:iam::123456789012:root"};
    char *xml = serialize_to_text(floe_sts_serialize_GetCallerIdentityResponse, &out);

    CHECK(strstr(xml, "<R><UserId>123456789012</UserId><Account>123456789012</Account>"
                      "<Arn>arn:aws:iam::123456789012:root</Arn></R>") != NULL,
          "GetCallerIdentity's members are written in model order");
    free(xml);
}
