/* Tests of runtime/cfn_template/yaml.c: short forms give the JSON form's tree, scalars keep
 * CloudFormation's types, and malformed YAML is refused with its line and column. */
#include <string.h>

#include "cfn_support.h"
#include "cfn_template/yaml.h"

/* The tree of `yaml`, printed compactly (malloc'ed), or the refusal. */
static char *yaml_json(const char *yaml)
{
    floe_cfn_template_error_t err;
    cJSON *tree = floe_cfn_yaml_parse(yaml, strlen(yaml), &err);
    char *text;

    if (tree == NULL)
        return strdup(err.message);
    text = cJSON_PrintUnformatted(tree);
    cJSON_Delete(tree);
    return text;
}

TEST(cfn_yaml_short_forms_give_the_json_tree)
{
    static const struct {
        const char *yaml, *json;
    } cases[] = {
        {"v: !Ref Env", "{\"v\":{\"Ref\":\"Env\"}}"},
        {"v: !Ref \"AWS::Region\"", "{\"v\":{\"Ref\":\"AWS::Region\"}}"},
        {"v: !GetAtt Tbl.TableARN", "{\"v\":{\"Fn::GetAtt\":[\"Tbl\",\"TableARN\"]}}"},
        {"v: !GetAtt [Tbl, TableARN]", "{\"v\":{\"Fn::GetAtt\":[\"Tbl\",\"TableARN\"]}}"},
        {"v: !Sub \"${AWS::StackName}-x\"", "{\"v\":{\"Fn::Sub\":\"${AWS::StackName}-x\"}}"},
        {"v: !Sub [\"${A}-y\", {A: !Ref B}]", "{\"v\":{\"Fn::Sub\":[\"${A}-y\",{\"A\":{\"Ref\":\"B\"}}]}}"},
        {"v: !Join [\"-\", [a, !Ref B]]", "{\"v\":{\"Fn::Join\":[\"-\",[\"a\",{\"Ref\":\"B\"}]]}}"},
        {"v: !Select [0, !GetAZs \"\"]", "{\"v\":{\"Fn::Select\":[0,{\"Fn::GetAZs\":\"\"}]}}"},
        {"v: !Split [\",\", \"a,b\"]", "{\"v\":{\"Fn::Split\":[\",\",\"a,b\"]}}"},
        {"v: !If [IsProd, !Ref A, !Ref \"AWS::NoValue\"]",
         "{\"v\":{\"Fn::If\":[\"IsProd\",{\"Ref\":\"A\"},{\"Ref\":\"AWS::NoValue\"}]}}"},
        {"v: !Equals [!Ref Env, prod]", "{\"v\":{\"Fn::Equals\":[{\"Ref\":\"Env\"},\"prod\"]}}"},
        {"v: !And [!Not [!Condition A], !Or [!Condition B, !Equals [x, y]]]",
         "{\"v\":{\"Fn::And\":[{\"Fn::Not\":[{\"Condition\":\"A\"}]},{\"Fn::Or\":[{\"Condition\":\"B\"},"
         "{\"Fn::Equals\":[\"x\",\"y\"]}]}]}}"},
        {"v: !FindInMap [Map, !Ref \"AWS::Region\", Size]",
         "{\"v\":{\"Fn::FindInMap\":[\"Map\",{\"Ref\":\"AWS::Region\"},\"Size\"]}}"},
        {"v: !ImportValue shared-bucket", "{\"v\":{\"Fn::ImportValue\":\"shared-bucket\"}}"},
        {"v: !Base64 hello", "{\"v\":{\"Fn::Base64\":\"hello\"}}"},
        {"v: !Join\n  - \"\"\n  - - !Ref P\n    - !GetAtt O.Arn\n",
         "{\"v\":{\"Fn::Join\":[\"\",[{\"Ref\":\"P\"},{\"Fn::GetAtt\":[\"O\",\"Arn\"]}]]}}"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = yaml_json(cases[i].yaml);
        if (strcmp(got, cases[i].json) != 0)
            fprintf(stderr, "    %s\n    got  %s\n    want %s\n", cases[i].yaml, got, cases[i].json);
        CHECK(strcmp(got, cases[i].json) == 0, "a short form reads as the JSON long form");
        free(got);
    }
}

TEST(cfn_yaml_scalars_keep_cloudformation_types)
{
    const char *yaml = "quoted: \"123\"\nsingle: 'true'\nnumber: 123\nfloat: 1.5\nyes_word: yes\nno_word: No\n"
                       "on_word: on\nbool: true\ncaps: FALSE\nnothing:\ntilde: ~\ndate: 2010-09-09\n"
                       "zero_led: 0123\nhex: 0x1F\ninf: .inf\nliteral: |\n  two\n  lines\n";
    floe_cfn_template_error_t err;
    cJSON *tree = floe_cfn_yaml_parse(yaml, strlen(yaml), &err);
    char buf[32];

    CHECK(tree != NULL, "the document is read");
    CHECK(cJSON_IsString(cJSON_GetObjectItem(tree, "quoted")), "a quoted number stays a string");
    CHECK(cJSON_IsString(cJSON_GetObjectItem(tree, "single")), "a quoted true stays a string");
    CHECK(cJSON_GetObjectItem(tree, "number")->valuedouble == 123, "a plain integer is a number");
    CHECK(cJSON_GetObjectItem(tree, "float")->valuedouble == 1.5, "a plain float is a number");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(tree, "yes_word")), "yes") == 0,
          "yes is a word, not a YAML 1.1 boolean");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(tree, "no_word")), "No") == 0, "No stays No");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(tree, "on_word")), "on") == 0, "on stays on");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(tree, "bool")), "true is a boolean");
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(tree, "caps")), "FALSE is a boolean");
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(tree, "nothing")), "an empty value is null");
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(tree, "tilde")), "~ is null");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(tree, "date")), "2010-09-09") == 0,
          "a date stays the string written");
    CHECK(strcmp(floe_cfn_scalar_text(cJSON_GetObjectItem(tree, "zero_led"), buf, sizeof(buf)), "0123") == 0,
          "a number keeps its literal text for where a string is expected");
    CHECK(cJSON_GetObjectItem(tree, "hex")->valuedouble == 31, "0x1F is 31");
    CHECK(cJSON_IsString(cJSON_GetObjectItem(tree, "inf")), ".inf stays a string (JSON has no infinity)");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(tree, "literal")), "two\nlines\n") == 0,
          "a literal block is its text");
    cJSON_Delete(tree);
}

TEST(cfn_yaml_malformed_text_is_refused_with_its_position)
{
    static const struct {
        const char *yaml, *message;
    } cases[] = {
        {"Resources:\n  B:\n    Type: X\n   Properties: {}\n",
         "Template format error: YAML not well-formed. (line 4, column 4)"},
        {"a: [1, 2\n", "Template format error: YAML not well-formed. (line 2, column 1)"},
        {"Resources:\n  A: {Type: X}\n  A: {Type: Y}\n", "Template format error: YAML not well-formed. (line 3, column 3)"},
        {"v: !GetAttr B.Arn\n", "Template format error: YAML not well-formed. (line 1, column 4)"},
        {"a: &x 1\nb: *x\n",
         "Template format error: YAML aliases are not allowed in CloudFormation templates. (line 2, column 4)"},
        {"a: 1\n---\nb: 2\n", "Template format error: YAML not well-formed. (line 2, column 1)"},
        {"? [a]\n: 1\n", "Template format error: YAML not well-formed. (line 1, column 3)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = yaml_json(cases[i].yaml);
        if (strcmp(got, cases[i].message) != 0)
            fprintf(stderr, "    %s\n    got  %s\n    want %s\n", cases[i].yaml, got, cases[i].message);
        CHECK(strcmp(got, cases[i].message) == 0, "malformed YAML is refused with where it went wrong");
        free(got);
    }
}

TEST(cfn_yaml_deep_nesting_is_refused)
{
    char yaml[FLOE_CFN_YAML_MAX_DEPTH * 2 + 16];
    size_t n = 0;
    floe_cfn_template_error_t err;

    for (int i = 0; i <= FLOE_CFN_YAML_MAX_DEPTH; i++)
        yaml[n++] = '[';
    yaml[n] = '\0';
    CHECK(floe_cfn_yaml_parse(yaml, n, &err) == NULL, "nesting beyond the limit is refused");
    CHECK(strstr(err.message, "nests deeper") != NULL, "the refusal says why");
}
