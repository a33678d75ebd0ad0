/* Tests of runtime/cfn_template/plan.c: creation order from Ref, Fn::GetAtt, Fn::Sub and
 * DependsOn, ties in template order, and cycles refused with AWS's message. */
#include <string.h>

#include "cfn_support.h"

/* The order as "A,B,C" into buf. */
static const char *order_of(const floe_cfn_template_t *t, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < t->n_order; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i > 0 ? "," : "", t->order[i]->logical_id);
    return buf;
}

TEST(cfn_plan_orders_resources_by_their_references)
{
    static const char text[] =
        "Resources:\n"
        "  Policy:\n    Type: AWS::S3Tables::TablePolicy\n    Properties:\n"
        "      TableARN: !GetAtt Tbl.TableARN\n      ResourcePolicy: {}\n"
        "  Tbl:\n    Type: AWS::S3Tables::Table\n    Properties:\n"
        "      TableBucketARN: !Sub '${Bucket}'\n      Namespace: n\n      TableName: t\n"
        "      OpenTableFormat: ICEBERG\n"
        "  Meta:\n    Type: AWS::CDK::Metadata\n"
        "  Ns:\n    Type: AWS::S3Tables::Namespace\n    DependsOn: [Meta]\n    Properties:\n"
        "      TableBucketARN: !Ref Bucket\n      Namespace: n\n"
        "  Bucket:\n    Type: AWS::S3Tables::TableBucket\n    Properties: {TableBucketName: b}\n";
    floe_cfn_template_t *t = cfn_ready(text, NULL, 0);
    char buf[256];

    CHECK(t != NULL, "the template validates");
    if (t == NULL)
        return;
    CHECK(strcmp(order_of(t, buf, sizeof(buf)), "Meta,Bucket,Tbl,Policy,Ns") == 0,
          "each resource comes after what it refers to, ties in template order");
    CHECK(floe_cfn_template_resource(t, "Ns")->n_needs == 2, "Ns needs Meta (DependsOn) and Bucket (Ref)");
    floe_cfn_template_free(t);
}

TEST(cfn_plan_refuses_cycles)
{
    CHECK_REFUSAL("Resources:\n"
                  "  A: {Type: AWS::CDK::Metadata, DependsOn: B}\n"
                  "  B: {Type: AWS::CDK::Metadata, Properties: {V: !Ref C}}\n"
                  "  C: {Type: AWS::CDK::Metadata, Properties: {V: !Sub '${A}'}}\n"
                  "  D: {Type: AWS::CDK::Metadata, DependsOn: A}\n",
                  NULL, 0, "Circular dependency between resources: [A, B, C]",
                  "a cycle is refused, naming the resources on it and not those that merely wait for it");
    CHECK_REFUSAL("Resources:\n  A: {Type: AWS::CDK::Metadata, DependsOn: A}\n", NULL, 0,
                  "Circular dependency between resources: [A]", "a resource that depends on itself is a cycle");
}

TEST(cfn_plan_cycle_through_both_branches_of_if_is_refused_at_parse)
{
    static const char text[] =
        "Parameters:\n  P: {Type: String, Default: a}\n"
        "Conditions:\n  C: !Equals [!Ref P, a]\n"
        "Resources:\n"
        "  A: {Type: AWS::CDK::Metadata, Properties: {V: !If [C, !Ref B, x]}}\n"
        "  B: {Type: AWS::CDK::Metadata, Properties: {V: !If [C, y, !Ref A]}}\n";
    floe_cfn_template_t *t = NULL;
    floe_cfn_template_error_t err;

    CHECK(floe_cfn_template_parse(text, strlen(text), &t, &err) == FLOE_EFAIL,
          "parse refuses a cycle across Fn::If branches, as it cannot know which branch is taken");
    CHECK(strcmp(err.message, "Circular dependency between resources: [A, B]") == 0, "with AWS's message");
}
