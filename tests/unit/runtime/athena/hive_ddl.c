/* Tests of Athena's Hive-style DDL as Trino's (athena_engine/hive_ddl.c). */
#include <stdlib.h>
#include <string.h>

#include "athena_engine/hive_ddl.h"
#include "base/failure.h"
#include "harness.h"

/* The Trino text of `sql`, or "refused: <why>"; malloc'ed. */
static char *translated(const char *sql)
{
    char why[256], *out;

    if (floe_hive_ddl_translate(sql, &out, why, sizeof(why)) != FLOE_OK) {
        out = malloc(strlen(why) + 16);
        strcpy(out, "refused: ");
        strcat(out, why);
    }
    return out;
}

static int same(const char *sql, const char *want)
{
    char *got = translated(sql);
    int ok = strcmp(got, want) == 0;

    if (!ok)
        fprintf(stderr, "  %s\n  gave %s\n  want %s\n", sql, got, want);
    free(got);
    return ok;
}

TEST(athena_hive_ddl_create_table_as_s3_tables_guide_writes_it)
{
    CHECK(same("CREATE TABLE `s3tablescatalog/amzn-s3-demo-table-bucket`.`my_namespace`.`daily_sales` (\n"
               "  sale_date date, product_category string, sales_amount double)\n"
               "PARTITIONED BY (month(sale_date))\n"
               "TBLPROPERTIES ('table_type' = 'iceberg')",
               "CREATE TABLE \"s3tablescatalog/amzn-s3-demo-table-bucket\".\"my_namespace\".\"daily_sales\" ("
               "sale_date date, product_category varchar, sales_amount double) "
               "WITH (partitioning = ARRAY['month(sale_date)'])"),
          "the guide's CREATE TABLE becomes Trino's: double quotes, varchar, partitioning");
    CHECK(same("create table if not exists t (id bigint COMMENT 'the id', ts timestamp, f float, b binary, "
               "d decimal(10,2), tags array<string>, attrs map<string,int>, "
               "s struct<a:int,`B`:array<struct<x:string>>>) COMMENT 'sales' "
               "PARTITIONED BY (`id`, bucket(16, id), truncate(4, f), day(ts), year(ts), hour(ts)) "
               "LOCATION 's3://amzn-s3-demo-bucket/your-folder/' "
               "TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet', 'write_compression'='snappy')",
               "CREATE TABLE IF NOT EXISTS t (id bigint COMMENT 'the id', ts timestamp(6), f real, b varbinary, "
               "d decimal(10,2), tags array(varchar), attrs map(varchar, int), "
               "s row(a int, \"B\" array(row(x varchar)))) COMMENT 'sales' "
               "WITH (partitioning = ARRAY['id', 'bucket(id, 16)', 'truncate(f, 4)', 'day(ts)', 'year(ts)', "
               "'hour(ts)'], format = 'PARQUET')"),
          "Hive's types, transforms, a comment and properties as Trino's; LOCATION dropped");
    CHECK(same("CREATE TABLE daily (id int, name varchar, amount double)",
               "CREATE TABLE daily (id int, name varchar, amount double)"),
          "Trino's own CREATE TABLE is unchanged");
}

TEST(athena_hive_ddl_refusals_and_pass_through)
{
    CHECK(same("CREATE EXTERNAL TABLE t (id int) TBLPROPERTIES ('table_type'='ICEBERG')",
               "refused: NOT_SUPPORTED: External keyword not supported for table type ICEBERG."),
          "EXTERNAL with an Iceberg table is refused with Athena's sentence");
    CHECK(same("CREATE TABLE t (id int) TBLPROPERTIES ('table_type'='ICEBERG', 'nope'='1')",
               "refused: INVALID_TABLE_PROPERTY: Unsupported table property key: nope"),
          "a property Athena does not know is refused");
    CHECK(same("SELECT `a` FROM t -- `b`", "SELECT `a` FROM t -- `b`"), "DML is Trino's already: unchanged");
    CHECK(same("DROP TABLE `s3tablescatalog/b`.`ns`.`t`", "DROP TABLE \"s3tablescatalog/b\".\"ns\".\"t\""),
          "DROP TABLE's backquotes become double quotes");
    CHECK(same("DESCRIBE `a``b\"c` -- `c`\n'`d`'", "DESCRIBE \"a`b\"\"c\" -- `c`\n'`d`'"),
          "backquotes are escaped, comments and literals left alone");
    CHECK(same("CREATE TABLE t (id int) ROW FORMAT DELIMITED", "CREATE TABLE t (id int) ROW FORMAT DELIMITED"),
          "a Hive table's clauses are left to Trino");
}

TEST(athena_hive_ddl_ctas_and_alter)
{
    CHECK(same("CREATE TABLE `ns`.big WITH (table_type = 'ICEBERG', is_external = false, format = 'parquet', "
               "location = 's3://x/', partitioning = ARRAY['bucket(id, 4)']) AS SELECT `id` FROM daily",
               "CREATE TABLE \"ns\".big WITH (format = 'PARQUET', partitioning = ARRAY['bucket(id, 4)']) "
               "AS SELECT \"id\" FROM daily"),
          "CTAS keeps Trino's properties only and its query as written");
    CHECK(same("ALTER TABLE `t` ADD COLUMNS (note string COMMENT 'n')",
               "ALTER TABLE \"t\" ADD COLUMN note varchar COMMENT 'n'"),
          "ADD COLUMNS of one column is Trino's ADD COLUMN");
    CHECK(same("ALTER TABLE t ADD COLUMNS (a int, b int)", "ALTER TABLE t ADD COLUMNS (a int, b int)"),
          "ADD COLUMNS of several is left to Trino");
}

TEST(athena_hive_ddl_deep_types_are_left_to_trino)
{
    char sql[2048] = "CREATE TABLE t (a ";
    char *out, why[64];

    for (int i = 0; i < 200; i++)
        strcat(sql, "array<");
    strcat(sql, "int");
    CHECK(floe_hive_ddl_translate(sql, &out, why, sizeof(why)) == FLOE_OK && strcmp(out, sql) == 0,
          "a type nested deeper than any table has goes to Trino as written, without deep recursion");
    free(out);
}
