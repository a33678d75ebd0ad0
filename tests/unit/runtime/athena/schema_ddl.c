/* Tests of a database's CREATE and DROP in AwsDataCatalog (athena/athena_schema_ddl.c). */
#include "athena/athena_schema_ddl.h"
#include "harness.h"

TEST(athena_schema_ddl_recognizes_a_database_create_and_drop_whole)
{
    floe_schema_ddl_t d;

    CHECK(floe_schema_ddl_parse("create schema if not exists `sales`", &d) && !d.is_drop && d.has_if &&
              strcmp(d.name, "sales") == 0 && !d.has_comment && !d.has_location,
          "dbt-athena's statement, with a backquoted name");
    CHECK(floe_schema_ddl_parse("-- made by hand\nCREATE DATABASE \"Sales\" COMMENT 'it''s' LOCATION 's3://b/p/' ;",
                                &d) &&
              !d.has_if && strcmp(d.name, "Sales") == 0 && strcmp(d.comment, "it's") == 0 &&
              strcmp(d.location, "s3://b/p/") == 0,
          "a comment, a location, a doubled quote and a closing semicolon");
    CHECK(floe_schema_ddl_parse("DROP SCHEMA IF EXISTS sales CASCADE", &d) && d.is_drop && d.has_if &&
              strcmp(d.name, "sales") == 0,
          "DROP with IF EXISTS and CASCADE");
    CHECK(!floe_schema_ddl_parse("CREATE SCHEMA \"s3tablescatalog/b\".sales", &d), "a qualified name is Trino's");
    CHECK(!floe_schema_ddl_parse("CREATE DATABASE d WITH DBPROPERTIES ('a'='b')", &d), "DBPROPERTIES are not");
    CHECK(!floe_schema_ddl_parse("CREATE SCHEMAS x", &d) && !floe_schema_ddl_parse("CREATE TABLE t (id int)", &d),
          "other statements are not");
    CHECK(!floe_schema_ddl_parse("DROP SCHEMA IF NOT EXISTS x", &d) && !floe_schema_ddl_parse("CREATE SCHEMA `x", &d) &&
              !floe_schema_ddl_parse("CREATE SCHEMA x COMMENT 'open", &d) && !floe_schema_ddl_parse("CREATE SCHEMA", &d),
          "broken statements are not");
}
