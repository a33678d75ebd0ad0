/* Tests of Athena's Hive-style DDL as Trino's (athena_engine/hive_ddl.c). */
#include <stdlib.h>
#include <string.h>

#include "athena_engine/hive_ddl.h"
#include "base/failure.h"
#include "harness.h"

/* The Trino text of `sql`, its statements joined by " ;; ", or "refused: <why>"; malloc'ed. */
static char *translated(const char *sql)
{
    char why[256], *out, *joined;
    size_t size = 16;

    if (floe_hive_ddl_translate(sql, false, &out, why, sizeof(why)) != FLOE_OK) {
        out = malloc(strlen(why) + 16);
        strcpy(out, "refused: ");
        strcat(out, why);
        return out;
    }
    for (const char *s = out; s != NULL; s = floe_hive_ddl_next(s))
        size += strlen(s) + 4;
    joined = calloc(1, size);
    for (const char *s = out; s != NULL; s = floe_hive_ddl_next(s)) {
        if (s != out)
            strcat(joined, " ;; ");
        strcat(joined, s);
    }
    free(out);
    return joined;
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
               "TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet', 'Write_Compression'='snappy', "
               "'vacuum_min_snapshots_to_keep'=5)",
               "CREATE TABLE IF NOT EXISTS t (id bigint COMMENT 'the id', ts timestamp(6), f real, b varbinary, "
               "d decimal(10,2), tags array(varchar), attrs map(varchar, int), "
               "s row(a int, \"B\" array(row(x varchar)))) COMMENT 'sales' "
               "WITH (partitioning = ARRAY['id', 'bucket(id, 16)', 'truncate(f, 4)', 'day(ts)', 'year(ts)', "
               "'hour(ts)'], format = 'PARQUET', extra_properties = MAP(ARRAY['write_compression', "
               "'vacuum_min_snapshots_to_keep'], ARRAY['snappy', '5']))"),
          "Hive's types, transforms, a comment and properties as Trino's, Athena's own as Iceberg properties; "
          "LOCATION dropped");
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
    CHECK(same("CREATE TABLE big WITH (table_type = 'ICEBERG', write_compression = 'ZSTD') AS SELECT 1 AS a",
               "CREATE TABLE big WITH (extra_properties = MAP(ARRAY['write_compression'], ARRAY['ZSTD'])) "
               "AS SELECT 1 AS a"),
          "a CTAS keeps Athena's own properties as the table's Iceberg properties");
    CHECK(same("ALTER TABLE `t` ADD COLUMNS (note string COMMENT 'n')",
               "ALTER TABLE \"t\" ADD COLUMN note varchar COMMENT 'n'"),
          "ADD COLUMNS of one column is Trino's ADD COLUMN");
    CHECK(same("ALTER TABLE t ADD COLUMNS (a int, `B` string COMMENT 'b');",
               "ALTER TABLE t ADD COLUMN a int ;; ALTER TABLE t ADD COLUMN \"B\" varchar COMMENT 'b'"),
          "ADD COLUMNS of several is one ADD COLUMN each, Trino adding one per statement");
    CHECK(same("ALTER TABLE `ns`.`t` CHANGE COLUMN `a` b bigint COMMENT 'wider'",
               "ALTER TABLE \"ns\".\"t\" ALTER COLUMN \"a\" SET DATA TYPE bigint ;; "
               "ALTER TABLE \"ns\".\"t\" RENAME COLUMN \"a\" TO b ;; "
               "COMMENT ON COLUMN \"ns\".\"t\".b IS 'wider'"),
          "CHANGE COLUMN: the type first, then the rename, then the comment");
    CHECK(same("ALTER TABLE t CHANGE Price `price` decimal(12,2)",
               "ALTER TABLE t ALTER COLUMN Price SET DATA TYPE decimal(12,2)"),
          "CHANGE keeping the name (as Trino folds it) only widens the type");
    CHECK(same("ALTER TABLE t CHANGE a b int AFTER c", "ALTER TABLE t CHANGE a b int AFTER c"),
          "a reorder, which Trino cannot do, is left to Trino");
    CHECK(same("ALTER TABLE t SET TBLPROPERTIES ('format'='parquet', 'optimize_rewrite_delete_file_threshold'='10')",
               "ALTER TABLE t SET PROPERTIES format = 'PARQUET', extra_properties = "
               "MAP(ARRAY['optimize_rewrite_delete_file_threshold'], ARRAY['10'])"),
          "SET TBLPROPERTIES is Trino's SET PROPERTIES");
    CHECK(same("ALTER TABLE t SET TBLPROPERTIES ('write.data.path'='s3://x/')",
               "refused: INVALID_TABLE_PROPERTY: Unsupported table property key: write.data.path"),
          "SET TBLPROPERTIES refuses what CREATE TABLE refuses");
    CHECK(same("ALTER TABLE t DROP COLUMN `c`", "ALTER TABLE t DROP COLUMN \"c\""), "DROP COLUMN is Trino's already");
}

TEST(athena_hive_ddl_show_tblproperties)
{
    CHECK(same("SHOW TBLPROPERTIES `ns`.`T`",
               "SELECT concat(CASE key WHEN 'write.format.default' THEN 'format' ELSE key END, chr(9), "
               "CASE key WHEN 'write.format.default' THEN lower(value) ELSE value END) AS prpt_name "
               "FROM \"ns\".\"T$properties\" WHERE key IN ('write.format.default', 'write_compression', "
               "'compression_level', 'optimize_rewrite_min_data_file_size_bytes', "
               "'optimize_rewrite_max_data_file_size_bytes', 'optimize_rewrite_data_file_threshold', "
               "'optimize_rewrite_delete_file_threshold', 'vacuum_min_snapshots_to_keep', "
               "'vacuum_max_snapshot_age_seconds', 'vacuum_max_metadata_files_to_keep', "
               "'write_target_data_file_size_bytes') ORDER BY 1"),
          "the table's Athena properties from its Iceberg properties, a \"key<TAB>value\" row each");
    CHECK(same("show tblproperties Daily('FORMAT')",
               "SELECT CASE key WHEN 'write.format.default' THEN lower(value) ELSE value END AS prpt_name "
               "FROM \"daily$properties\" WHERE key = 'write.format.default'"),
          "one property's value");
    CHECK(same("SHOW TBLPROPERTIES t('x''y')",
               "SELECT CASE key WHEN 'write.format.default' THEN lower(value) ELSE value END AS prpt_name "
               "FROM \"t$properties\" WHERE false"),
          "a key Athena does not have, no row");
    CHECK(same("SHOW TBLPROPERTIES \"t", "SHOW TBLPROPERTIES \"t"), "a name without its end is left to Trino");
}

TEST(athena_hive_ddl_deep_types_are_left_to_trino)
{
    char sql[2048] = "CREATE TABLE t (a ";
    char *out, why[64];

    for (int i = 0; i < 200; i++)
        strcat(sql, "array<");
    strcat(sql, "int");
    CHECK(floe_hive_ddl_translate(sql, false, &out, why, sizeof(why)) == FLOE_OK && strcmp(out, sql) == 0,
          "a type nested deeper than any table has goes to Trino as written, without deep recursion");
    free(out);
}

/* The Trino text of `sql` in Glue's default catalog, or "refused"; malloc'ed. */
static char *translated_in_default(const char *sql)
{
    char why[256], *out;

    return floe_hive_ddl_translate(sql, true, &out, why, sizeof(why)) == FLOE_OK ? out : strdup("refused");
}

TEST(athena_hive_ddl_location_kept_in_the_default_catalog_only)
{
    const char *create = "CREATE TABLE IF NOT EXISTS `events` (`id` bigint, `name` string) PARTITIONED BY (day(ts)) "
                         "LOCATION 's3://lake/events/' TBLPROPERTIES ('table_type' ='ICEBERG', 'format'='parquet')";
    const char *ctas = "CREATE TABLE t WITH (table_type = 'ICEBERG', location = 's3://lake/t/', is_external = false) "
                       "AS SELECT 1 AS x";
    char *out = translated_in_default(create);

    CHECK(strcmp(out, "CREATE TABLE IF NOT EXISTS \"events\" (\"id\" bigint, \"name\" varchar) WITH (partitioning = "
                      "ARRAY['day(ts)'], format = 'PARQUET', location = 's3://lake/events/')") == 0,
          "awswrangler's CREATE TABLE keeps its LOCATION as Trino's location property");
    free(out);
    out = translated_in_default(ctas);
    CHECK(strcmp(out, "CREATE TABLE t WITH (location = 's3://lake/t/') AS SELECT 1 AS x") == 0,
          "a CTAS keeps its location too");
    free(out);
    out = translated_in_default("CREATE TABLE \"s3tablescatalog/b\".ns.t (id int) LOCATION 's3://x/' "
                                "TBLPROPERTIES ('table_type'='ICEBERG')");
    CHECK(strcmp(out, "CREATE TABLE \"s3tablescatalog/b\".ns.t (id int)") == 0,
          "a table bucket's table has no location of the user's, whatever the context");
    free(out);
    CHECK(same(create, "CREATE TABLE IF NOT EXISTS \"events\" (\"id\" bigint, \"name\" varchar) WITH (partitioning = "
                       "ARRAY['day(ts)'], format = 'PARQUET')"),
          "in a table bucket's context LOCATION is dropped, as before");
}
