/* Tests of runtime/cfn_template/intrinsic.c: every function, the pseudo parameters,
 * AWS::NoValue, conditions, unknown values, and the run-time errors. Each case puts an expression
 * in the Analytics property of an AWS::CDK::Metadata resource (any Properties are accepted) and
 * resolves it with the test resolver. */
#include <string.h>

#include "cfn_support.h"

static const char prelude[] =
    "Parameters:\n"
    "  Env: {Type: String, Default: prod}\n"
    "  Size: {Type: Number, Default: 3}\n"
    "  Zones: {Type: CommaDelimitedList, Default: 'x,y,z'}\n"
    "Mappings:\n"
    "  Sizes:\n"
    "    eu-west-1: {Small: 1, Names: [a, b]}\n"
    "Conditions:\n"
    "  IsProd: !Equals [!Ref Env, prod]\n"
    "  IsDev: !Not [!Condition IsProd]\n"
    "  Both: !And [!Condition IsProd, !Equals [!Ref Size, 3]]\n"
    "  Either: !Or [!Condition IsDev, !Equals ['1', 1]]\n"
    "Resources:\n"
    "  Tbl:\n"
    "    Type: AWS::S3Tables::Table\n"
    "    Properties: {TableBucketARN: b, Namespace: n, TableName: t, OpenTableFormat: ICEBERG}\n"
    "  R:\n"
    "    Type: AWS::CDK::Metadata\n"
    "    Properties:\n"
    "      V: ";

/* The resolved value of `expr` (YAML) as compact JSON, or the refusal. */
static char *value_of(const char *expr, const floe_cfn_resolver_t *resolver)
{
    size_t len = strlen(prelude) + strlen(expr) + 2;
    char *text = malloc(len), *out;
    floe_cfn_template_t *t;
    floe_cfn_template_error_t err;
    cJSON *props;

    snprintf(text, len, "%s%s\n", prelude, expr);
    if (floe_cfn_template_parse(text, strlen(text), &t, &err) != FLOE_OK) {
        free(text);
        return strdup(err.message);
    }
    free(text);
    if (floe_cfn_template_validate(t, &test_stack, NULL, 0, &err) != FLOE_OK ||
        floe_cfn_resource_properties(t, floe_cfn_template_resource(t, "R"), resolver, &props, &err) != FLOE_OK) {
        floe_cfn_template_free(t);
        return strdup(err.message);
    }
    cJSON *v = cJSON_GetObjectItem(props, "V");
    out = v == NULL ? strdup("(removed)") : floe_cfn_is_unknown(v) ? strdup("(unknown)") : cJSON_PrintUnformatted(v);
    cJSON_Delete(props);
    floe_cfn_template_free(t);
    return out;
}

typedef struct value_case {
    const char *expr, *want;
} value_case_t;

static void check_values(const value_case_t *cases, size_t n, const floe_cfn_resolver_t *resolver, const char *sentence)
{
    for (size_t i = 0; i < n; i++) {
        char *got = value_of(cases[i].expr, resolver);
        if (strcmp(got, cases[i].want) != 0)
            fprintf(stderr, "    %s\n    got  %s\n    want %s\n", cases[i].expr, got, cases[i].want);
        CHECK(strcmp(got, cases[i].want) == 0, sentence);
        free(got);
    }
}

TEST(cfn_intrinsic_every_function_resolves)
{
    static const value_case_t cases[] = {
        {"!Ref Env", "\"prod\""},
        {"!Ref Size", "\"3\""},
        {"!Ref Zones", "[\"x\",\"y\",\"z\"]"},
        {"!Ref Tbl", "\"pid-Tbl\""},
        {"!GetAtt Tbl.WarehouseLocation", "\"Tbl.WarehouseLocation\""},
        {"!GetAtt [Tbl, !Ref TblAttr]", "Template format error: Unresolved resource dependencies [TblAttr] in the "
                                        "Resources block of the template"},
        {"!Sub '${Env}-${AWS::Region}-${Tbl}-${Tbl.TableARN}-${!Literal}'",
         "\"prod-eu-west-1-pid-Tbl-Tbl.TableARN-${Literal}\""},
        {"!Sub ['${A}/${B}', {A: !Ref Env, B: 7}]", "\"prod/7\""},
        {"!Sub 'no ${ closing'", "\"no ${ closing\""},
        {"!Join ['-', [a, !Ref Env, 3, true]]", "\"a-prod-3-true\""},
        {"!Join [',', !Ref Zones]", "\"x,y,z\""},
        {"!Join ['', []]", "\"\""},
        {"!Select [1, !Ref Zones]", "\"y\""},
        {"!Select ['0', [p, q]]", "\"p\""},
        {"!Split [',', 'a,,b']", "[\"a\",\"\",\"b\"]"},
        {"!Select [2, !Split ['/', !Sub 'x/${Env}/z']]", "\"z\""},
        {"!If [IsProd, yes, no]", "\"yes\""},
        {"!If [IsDev, yes, no]", "\"no\""},
        {"!If [Both, both, neither]", "\"both\""},
        {"!If [Either, either, neither]", "\"either\""},
        {"!FindInMap [Sizes, !Ref 'AWS::Region', Small]", "1"},
        {"!FindInMap [Sizes, eu-west-1, Names]", "[\"a\",\"b\"]"},
        {"!ImportValue shared", "\"export:shared\""},
        {"!ImportValue {'Fn::Sub': '${Env}-bucket'}", "\"export:prod-bucket\""},
        {"!GetAZs ''", "[\"eu-west-1a\",\"eu-west-1b\",\"eu-west-1c\"]"},
        {"!GetAZs us-east-2", "[\"us-east-2a\",\"us-east-2b\",\"us-east-2c\"]"},
        {"!Select [0, !GetAZs {Ref: 'AWS::Region'}]", "\"eu-west-1a\""},
        {"!Base64 'hello!'", "\"aGVsbG8h\""},
        {"!Equals [a, a]", "true"},
        {"{a: 1, b: [1, {c: !Ref Env}]}", "{\"a\":1,\"b\":[1,{\"c\":\"prod\"}]}"},
    };
    check_values(cases, sizeof(cases) / sizeof(cases[0]), &test_resolver, "a function resolves as AWS resolves it");
}

TEST(cfn_intrinsic_pseudo_parameters_resolve)
{
    static const value_case_t cases[] = {
        {"!Ref AWS::AccountId", "\"111122223333\""},
        {"!Ref AWS::Region", "\"eu-west-1\""},
        {"!Ref AWS::StackName", "\"demo\""},
        {"!Ref AWS::StackId", "\"arn:aws:cloudformation:eu-west-1:111122223333:stack/demo/"
                              "00000000-0000-4000-8000-000000000000\""},
        {"!Ref AWS::Partition", "\"aws\""},
        {"!Ref AWS::URLSuffix", "\"amazonaws.com\""},
        {"!Ref AWS::NotificationARNs", "[]"},
        {"!Ref AWS::NoValue", "(removed)"},
        {"!Sub 'arn:${AWS::Partition}:s3tables:${AWS::Region}:${AWS::AccountId}:bucket/b'",
         "\"arn:aws:s3tables:eu-west-1:111122223333:bucket/b\""},
    };
    check_values(cases, sizeof(cases) / sizeof(cases[0]), &test_resolver, "a pseudo parameter has the stack's value");
}

TEST(cfn_intrinsic_no_value_removes_members_and_items)
{
    static const value_case_t cases[] = {
        {"{a: 1, b: !Ref AWS::NoValue}", "{\"a\":1}"},
        {"[1, !Ref AWS::NoValue, 2]", "[1,2]"},
        {"[1, !If [IsDev, 2, !Ref AWS::NoValue]]", "[1]"},
        {"!If [IsProd, !Ref AWS::NoValue, x]", "(removed)"},
        {"!Join ['-', [a, !Ref AWS::NoValue, b]]", "\"a-b\""},
    };
    check_values(cases, sizeof(cases) / sizeof(cases[0]), &test_resolver, "AWS::NoValue removes what holds it");
}

TEST(cfn_intrinsic_unknown_values_propagate)
{
    static const value_case_t cases[] = {
        {"!Ref Tbl", "(unknown)"},
        {"!GetAtt Tbl.TableARN", "(unknown)"},
        {"!Sub '${Tbl}-x'", "(unknown)"},
        {"!Join ['', [a, !Ref Tbl]]", "(unknown)"},
        {"!Select [0, !Split [',', !ImportValue x]]", "(unknown)"},
        {"!Equals [!Ref Tbl, x]", "(unknown)"},
        {"[!Ref Env, !Ref Tbl]", "[\"prod\",null]"},
        {"!Select [5, [a]]", "Template error: Fn::Select cannot select nonexistent value at index 5"},
    };
    check_values(cases, sizeof(cases) / sizeof(cases[0]), NULL,
                 "without a resolver, resource values are unknown and the rest still resolves and is checked");
}

TEST(cfn_intrinsic_runtime_errors_use_aws_wording)
{
    static const value_case_t cases[] = {
        {"!Select [5, !Ref Zones]", "Template error: Fn::Select cannot select nonexistent value at index 5"},
        {"!Select [a, !Ref Zones]",
         "Template error: Fn::Select requires a list argument with two elements: an integer index and a list"},
        {"!FindInMap [Sizes, us-east-1, Small]", "Template error: Unable to get mapping for Sizes::us-east-1::Small"},
        {"!FindInMap [Sizes, eu-west-1]", "Template error: every Fn::FindInMap object requires three parameters, the "
                                          "map name, map key and the attribute for return value"},
        {"!Join [',', a]", "Template error: every Fn::Join object requires two parameters, (1) a string delimiter and "
                           "(2) a list of strings to be joined or a function that returns a list of strings (such as "
                           "Fn::GetAZs) to be joined."},
        {"!Split [',', [a]]", "Template error: every Fn::Split object requires two parameters, (1) a string delimiter "
                              "and (2) a string to be split or a function that returns a string to be split."},
        {"!ImportValue Missing", "No export named Missing found."},
        {"!Sub '${Zones}'", "Template error: variable Zones in Fn::Sub expression must resolve to a String"},
        {"!Equals [a]", "Template error: every Fn::Equals object requires a list of 2 string parameters."},
        {"!Not [a, b]", "Template error: every Fn::Not object requires a list of 1 boolean parameter."},
        {"!And [!Condition IsProd]",
         "Template error: every Fn::And object requires a list of at least 2 and at most 10 boolean parameters."},
    };
    check_values(cases, sizeof(cases) / sizeof(cases[0]), &test_resolver, "a bad call is refused as AWS refuses it");
}

TEST(cfn_intrinsic_nested_sub_is_capped)
{
    /* Each level repeats the one below 16 times: 16^6 bytes, more than FLOE_CFN_MAX_VALUE_LEN. */
    static const char expr[] =
        "!Sub ['${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}', {A: "
        "!Sub ['${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}', {A: "
        "!Sub ['${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}', {A: "
        "!Sub ['${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}', {A: "
        "!Sub ['${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}${A}', {A: 'xxxxxxxxxxxxxxxx'}]}]}]}]}]";
    char *got = value_of(expr, &test_resolver);

    CHECK(strstr(got, "longer than") != NULL, "a value that grows past the cap is refused, not built");
    free(got);
}

TEST(cfn_intrinsic_scalars_read_as_cloudformation_text)
{
    static const struct {
        double v;
        const char *text;
    } numbers[] = {{5, "5"}, {-3, "-3"}, {1.5, "1.5"}, {0.1, "0.1"}, {1e20, "1e+20"}};
    char buf[32];

    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
        cJSON *n = cJSON_CreateNumber(numbers[i].v);
        CHECK(strcmp(floe_cfn_scalar_text(n, buf, sizeof(buf)), numbers[i].text) == 0,
              "a JSON number reads as its shortest text");
        cJSON_Delete(n);
    }
    cJSON *b = cJSON_CreateTrue(), *o = cJSON_CreateObject();
    CHECK(strcmp(floe_cfn_scalar_text(b, buf, sizeof(buf)), "true") == 0, "a boolean reads as true or false");
    CHECK(floe_cfn_scalar_text(o, buf, sizeof(buf)) == NULL, "an object is not a scalar");
    cJSON_Delete(b);
    cJSON_Delete(o);
}
