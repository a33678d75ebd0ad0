/* Tests of runtime/iceberg_rest/iceberg_rest_glue.c: the catalog ids of the AWS Glue Iceberg REST
 * endpoint (a warehouse `<account>:s3tablescatalog/<bucket>`, a path prefix with ':' for '/') and
 * the table bucket ARN and Glue prefix they become. */
#include <string.h>

#include "harness.h"
#include "iceberg_rest/iceberg_rest_glue.h"

static const floe_scope_t GLUE_SCOPE = {"111122223333", "eu-west-3"};

TEST(iceberg_rest_glue_catalog_ids_name_a_table_bucket_in_both_styles)
{
    floe_glue_catalog_t c;
    CHECK(floe_glue_catalog_parse("111122223333:s3tablescatalog/my-bucket", &c) == FLOE_GLUE_CATALOG_TABLE_BUCKET &&
              strcmp(c.account_id, "111122223333") == 0 && strcmp(c.bucket, "my-bucket") == 0,
          "a warehouse names its account and bucket");
    CHECK(floe_glue_catalog_parse("111122223333:s3tablescatalog:my-bucket", &c) == FLOE_GLUE_CATALOG_TABLE_BUCKET &&
              strcmp(c.bucket, "my-bucket") == 0,
          "the prefix style (':' for '/') names the same bucket");
    CHECK(floe_glue_catalog_parse("s3tablescatalog/my-bucket", &c) == FLOE_GLUE_CATALOG_TABLE_BUCKET &&
              c.account_id[0] == '\0',
          "an id without an account is the caller's");
}

TEST(iceberg_rest_glue_catalog_ids_of_other_catalogs_are_told_from_malformed_ones)
{
    floe_glue_catalog_t c;
    static const char *const other[] = {"111122223333", ":", "111122223333:s3tablescatalog", "s3tablescatalog",
                                        "111122223333:rmscatalog/db1", "rmscatalog:db1"};
    static const char *const malformed[] = {
        "", "not a catalog", "111122223333:", "11112222333:s3tablescatalog/my-bucket",
        "111122223333:s3tablescatalog/My_Bucket", "111122223333:s3tablescatalog/my-bucket/deeper",
        "111122223333:s3tablescatalog/ab", "111122223333:s3tablescatalog//my-bucket", "111122223333:s3tablescatalog/",
        "111122223333:s3tablescatalog/aws-reserved"};
    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
        CHECK(floe_glue_catalog_parse(other[i], &c) == FLOE_GLUE_CATALOG_OTHER,
              "a well-formed Glue catalog id that names no table bucket is another catalog");
    for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++)
        CHECK(floe_glue_catalog_parse(malformed[i], &c) == FLOE_GLUE_CATALOG_MALFORMED,
              "an id that is no Glue catalog id, or names no valid table bucket, is malformed");
    CHECK(floe_glue_catalog_parse(NULL, &c) == FLOE_GLUE_CATALOG_MALFORMED, "no id is malformed");
}

TEST(iceberg_rest_glue_warehouse_becomes_the_bucket_arn_and_glue_prefix)
{
    floe_glue_warehouse_t wh;
    CHECK(floe_glue_warehouse_of("111122223333:s3tablescatalog/my-bucket", &GLUE_SCOPE, &wh) == FLOE_GLUE_WAREHOUSE_OK,
          "a bucket of the request's account is served");
    CHECK(strcmp(wh.arn, "arn:aws:s3tables:eu-west-3:111122223333:bucket/my-bucket") == 0,
          "in the request's region, under the S3 Tables endpoint's name");
    CHECK(strcmp(wh.prefix, "catalogs/111122223333:s3tablescatalog:my-bucket") == 0,
          "with the prefix Glue's paths use");
    CHECK(floe_glue_warehouse_of("s3tablescatalog:my-bucket", &GLUE_SCOPE, &wh) == FLOE_GLUE_WAREHOUSE_OK &&
              strcmp(wh.arn, "arn:aws:s3tables:eu-west-3:111122223333:bucket/my-bucket") == 0,
          "an id without an account takes the request's");
    CHECK(floe_glue_warehouse_of("444455556666:s3tablescatalog/my-bucket", &GLUE_SCOPE, &wh) ==
              FLOE_GLUE_WAREHOUSE_OTHER_ACCOUNT,
          "another account's bucket is refused");
    CHECK(floe_glue_warehouse_of("111122223333", &GLUE_SCOPE, &wh) == FLOE_GLUE_WAREHOUSE_NOT_EMULATED,
          "the default catalog is not emulated");
    CHECK(floe_glue_warehouse_of("111122223333:s3tablescatalog/x", &GLUE_SCOPE, &wh) == FLOE_GLUE_WAREHOUSE_MALFORMED,
          "a bucket name too short is malformed");
}
