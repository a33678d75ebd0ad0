/* Tests of Athena's result files (athena/athena_csv.c), table buckets as Trino catalogs
 * (athena_engine/catalogs.c) and values as Athena prints them (athena_engine/values.c). */
#include <stdlib.h>
#include <string.h>

#include "athena/athena_csv.h"
#include "athena_engine/catalogs.h"
#include "athena_engine/refusals.h"
#include "athena_engine/sql_words.h"
#include "athena_engine/values.h"
#include "harness.h"

TEST(athena_csv_round_trips_quotes_commas_newlines_and_nulls)
{
    const char *row[] = {"a \"quoted\", value", NULL, "line\nbreak", ""};
    floe_athena_csv_t b = {0};
    floe_athena_csv_record_t *rows;
    size_t n, used;

    for (int r = 0; r < 3; r++) {
        for (size_t i = 0; i < 4; i++)
            floe_athena_csv_field(&b, row[i], i == 0);
        floe_athena_csv_end_record(&b);
    }
    CHECK(strncmp(b.data, "\"a \"\"quoted\"\", value\",,\"line\nbreak\",\"\"\n", 38) == 0,
          "values are quoted with quotes doubled, a NULL is an empty unquoted field");
    CHECK(floe_athena_csv_read(b.data, b.len, true, 1, &rows, &n, &used) == FLOE_OK && n == 1 &&
              used == strlen(b.data) / 3,
          "one record, and the offset of the next after it");
    floe_athena_csv_records_free(rows, n);
    CHECK(floe_athena_csv_read(b.data + used, b.len - used, true, 1, &rows, &n, &used) == FLOE_OK && n == 1,
          "the second page starts at the first's end");
    CHECK(rows[0].n == 4 && strcmp(rows[0].fields[0], row[0]) == 0 && rows[0].fields[1] == NULL &&
              strcmp(rows[0].fields[2], row[2]) == 0 && strcmp(rows[0].fields[3], "") == 0,
          "each value comes back as written, NULL as NULL and the empty string as empty");
    floe_athena_csv_records_free(rows, n);
    CHECK(floe_athena_csv_read(b.data, b.len, true, 10, &rows, &n, &used) == FLOE_OK && n == 3 && used == b.len,
          "the last page ends at the file's end");
    floe_athena_csv_records_free(rows, n);
    for (size_t cut = 0; cut < b.len / 3; cut++) {
        CHECK(floe_athena_csv_read(b.data, b.len / 3 + cut, false, 10, &rows, &n, &used) == FLOE_OK && n == 1 &&
                  used == b.len / 3,
              "a read that ends inside the second record leaves it whole for the next read");
        floe_athena_csv_records_free(rows, n);
    }
    CHECK(floe_athena_csv_read("\"a\"\"", 4, false, 10, &rows, &n, &used) == FLOE_OK && n == 0 && used == 0,
          "a quote at a read's end may be the first of a doubled one");
    CHECK(floe_athena_csv_read("\"a\",\"b\"", 7, true, 10, &rows, &n, &used) == FLOE_OK && n == 1 &&
              rows[0].n == 2 && strcmp(rows[0].fields[1], "b") == 0,
          "the file's last record needs no newline");
    floe_athena_csv_records_free(rows, n);
    CHECK(floe_athena_csv_read("\"open", 5, true, 10, &rows, &n, &used) == FLOE_EINVAL && rows == NULL,
          "an unterminated quote is no result file");
    CHECK(floe_athena_csv_read("\"a\",\"open", 10, true, 10, &rows, &n, &used) == FLOE_EINVAL,
          "nor is one after a whole field");
    CHECK(floe_athena_csv_read("\"a\"b\n", 5, true, 10, &rows, &n, &used) == FLOE_EINVAL, "text after a quote neither");
    free(b.data);
}

TEST(athena_result_place_splits_the_output_location)
{
    char bucket[64], key[256];

    CHECK(floe_athena_result_place("s3://results/q", "id1", ".csv", bucket, sizeof(bucket), key, sizeof(key)) ==
                  FLOE_OK && strcmp(bucket, "results") == 0 && strcmp(key, "q/id1.csv") == 0,
          "a prefix without its slash gets one");
    CHECK(floe_athena_result_place("s3://results/", "id1", ".csv.metadata", bucket, sizeof(bucket), key, sizeof(key)) ==
                  FLOE_OK && strcmp(key, "id1.csv.metadata") == 0,
          "the bucket's root");
    CHECK(floe_athena_result_place("https://x/", "id", ".csv", bucket, sizeof(bucket), key, sizeof(key)) == FLOE_EINVAL,
          "only s3:// locations");
}

TEST(athena_catalogs_rewrite_only_quoted_catalog_names_outside_literals)
{
    floe_bucket_names_t named = {0};
    char *sql = floe_catalogs_rewrite("SELECT '\"s3tablescatalog/x\"' FROM \"s3tablescatalog/my-bucket\".\"ns\".\"t\" "
                                      "-- \"s3tablescatalog/y\"\nJOIN \"s3tablescatalog/my-bucket\".ns.u",
                                      "111122223333", "us-east-1", &named);
    char *back;

    CHECK(strcmp(sql, "SELECT '\"s3tablescatalog/x\"' FROM s3tb_111122223333__us_east_1__my_bucket.\"ns\".\"t\" "
                      "-- \"s3tablescatalog/y\"\nJOIN s3tb_111122223333__us_east_1__my_bucket.ns.u") == 0,
          "the catalog is replaced, a string literal and a comment are not");
    CHECK(named.n == 1 && strcmp(named.names[0], "my-bucket") == 0, "each bucket is named once");
    back = floe_catalogs_unmap("Table 's3tb_111122223333__us_east_1__my_bucket.ns.v' does not exist", "111122223333",
                               "us-east-1", &named);
    CHECK(strcmp(back, "Table 's3tablescatalog/my-bucket.ns.v' does not exist") == 0,
          "Trino's messages name the catalog as the user did");
    free(back);
    free(sql);
    floe_bucket_names_dispose(&named);
    char account[FLOE_TRINO_CATALOG_MAX], region[FLOE_TRINO_CATALOG_MAX], bucket[FLOE_TRINO_CATALOG_MAX];
    CHECK(floe_trino_catalog_parts("s3tb_111122223333__us_east_1__my_bucket__x", account, region, bucket) &&
              strcmp(account, "111122223333") == 0 && strcmp(region, "us-east-1") == 0 &&
              strcmp(bucket, "my-bucket--x") == 0,
          "a catalog's name reads back as its account, region and bucket");
    CHECK(!floe_trino_catalog_parts("system", account, region, bucket), "Trino's own catalogs are not buckets");
    CHECK(floe_catalogs_name_foreign("SELECT * FROM S3TB_999999999999__us_east_1__b.ns.t", "111122223333") &&
              !floe_catalogs_name_foreign("SELECT * FROM s3tb_111122223333__us_east_1__b.ns.t", "111122223333"),
          "another account's hidden catalog name is caught, the caller's own is not");
}

TEST(athena_catalogs_default_catalog_named_bare_or_quoted_before_a_dot)
{
    floe_bucket_names_t named = {0};
    char *sql = floe_catalogs_rewrite("SELECT 'awsdatacatalog.x' FROM AwsDataCatalog.db.t JOIN \"awsdatacatalog\" . db.u "
                                      "JOIN my_awsdatacatalog.db.v JOIN db.awsdatacatalog",
                                      "111122223333", "us-east-1", &named);
    char *back, account[FLOE_TRINO_CATALOG_MAX], region[FLOE_TRINO_CATALOG_MAX];

    CHECK(strcmp(sql, "SELECT 'awsdatacatalog.x' FROM adci_111122223333__us_east_1.db.t JOIN "
                      "adci_111122223333__us_east_1 . db.u JOIN my_awsdatacatalog.db.v JOIN db.awsdatacatalog") == 0,
          "the default catalog becomes Iceberg's hidden one; a literal, a longer name and a table are kept");
    CHECK(named.default_catalog && named.n == 0, "the query is marked as naming the default catalog");
    back = floe_catalogs_unmap("Table 'adc_111122223333__us_east_1.db.t' and adci_111122223333__us_east_1.db.u",
                               "111122223333", "us-east-1", &named);
    CHECK(strcmp(back, "Table 'awsdatacatalog.db.t' and awsdatacatalog.db.u") == 0,
          "both hidden names read back as awsdatacatalog in Trino's messages");
    CHECK(floe_trino_default_catalog_parts("adc_111122223333__eu_west_1", account, region) &&
              strcmp(account, "111122223333") == 0 && strcmp(region, "eu-west-1") == 0 &&
              floe_trino_default_catalog_parts("adci_111122223333__eu_west_1", account, region) &&
              !floe_trino_default_catalog_parts("s3tb_111122223333__eu_west_1__b", account, region),
          "the default catalog's hidden names read back as their account and region");
    CHECK(floe_catalogs_name_foreign("SELECT * FROM adci_999999999999__us_east_1.db.t", "111122223333") &&
              !floe_catalogs_name_foreign("SELECT adc_total, adci_999999999999 FROM t", "111122223333"),
          "another account's default catalog is caught; a column that merely begins alike is not");
    free(back);
    free(sql);
    floe_bucket_names_dispose(&named);
}

/* Whether the Trino value `json` of type `type` prints as `text`, in a string of its own. */
static bool prints_as(const char *json, const char *type, const char *text)
{
    cJSON *v = cJSON_Parse(json);
    char buf[FLOE_VALUE_TEXT_MAX], *owned;
    const char *got = floe_value_text(v, type, buf, &owned);
    bool ok = got != NULL && strcmp(got, text) == 0 && owned == got;

    if (!ok)
        fprintf(stderr, "    %s of %s printed as %s\n", json, type, got != NULL ? got : "NULL");
    free(owned);
    cJSON_Delete(v);
    return ok;
}

TEST(athena_values_print_as_athena_prints_them)
{
    char type[FLOE_ATHENA_TYPE_MAX], buf[FLOE_VALUE_TEXT_MAX], *owned;
    int precision, scale;
    cJSON *v;

    floe_athena_type_of("decimal(10,2)", type, &precision, &scale);
    CHECK(strcmp(type, "decimal") == 0 && precision == 10 && scale == 2, "decimal keeps its precision and scale");
    floe_athena_type_of("varchar", type, &precision, &scale);
    CHECK(strcmp(type, "varchar") == 0 && precision == 2147483647, "an unbounded varchar");
    floe_athena_type_of("real", type, &precision, &scale);
    CHECK(strcmp(type, "float") == 0, "real is Athena's float");
    floe_athena_type_of("timestamp(6) with time zone", type, &precision, &scale);
    CHECK(strcmp(type, "timestamp with time zone") == 0 && precision == 3, "timestamps");
    /* 15 digits or fewer, 16 and 17 significant digits, the largest double, and a subnormal */
    const double doubles[] = {0.5, 1, 1e20, 1.5e-5, 123.25, 0, -2500.5, 0.1, 2.0 / 3, 1e16, 1.7976931348623157e308,
                              2.5e-320};
    const char *texts[] = {"0.5",    "1.0",  "1.0E20",             "1.5E-5",   "123.25", "0.0", "-2500.5",
                           "0.1",    "0.6666666666666666", "1.0E16", "1.7976931348623157E308", "2.5E-320"};
    for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
        v = cJSON_CreateNumber(doubles[i]);
        CHECK(strcmp(floe_value_text(v, "double", buf, &owned), texts[i]) == 0, "doubles print as Java prints them");
        cJSON_Delete(v);
    }
    v = cJSON_CreateNumber(42);
    CHECK(strcmp(floe_value_text(v, "bigint", buf, &owned), "42") == 0, "integers without a point");
    cJSON_Delete(v);
    v = cJSON_CreateNull();
    CHECK(floe_value_text(v, "varchar", buf, &owned) == NULL, "a null is NULL");
    cJSON_Delete(v);
    CHECK(prints_as("[0.1,-0.25]", "array(real)", "[0.1, -0.25]"), "a real as Trino writes it, shortest (Athena's float)");
    CHECK(prints_as("\"aGVsbG8=\"", "varbinary", "68 65 6c 6c 6f") && prints_as("\"AP8=\"", "varbinary", "00 ff") &&
              prints_as("\"\"", "varbinary", ""),
          "a varbinary (base64 from Trino) as its bytes in hex, spaced");
    CHECK(prints_as("[\"a\",\"b c\",null]", "array(varchar)", "[a, b c, null]") &&
              prints_as("[0.5,1.0E20]", "array(double)", "[0.5, 1.0E20]") && prints_as("[]", "array(integer)", "[]"),
          "an array as [a, b], its values as Athena prints them, a NULL in it as null");
    CHECK(prints_as("{\"k\":1,\"z\":null}", "map(varchar, integer)", "{k=1, z=null}"), "a map as {key=value, ...}");
    CHECK(prints_as("[1.5,\"here\",\"2024-01-02 03:04:05.123 UTC\"]",
                    "row(x double, label varchar, \"at time\" timestamp(3) with time zone)",
                    "{x=1.5, label=here, at time=2024-01-02 03:04:05.123 UTC}") &&
              prints_as("[1,\"x\"]", "row(integer, varchar)", "{1, x}"),
          "a row as {field=value, ...} (Trino sends its values only), an anonymous one as {a, b}");
    CHECK(prints_as("[[1,\"AAE=\"],null]", "array(row(n bigint, raw varbinary))", "[{n=1, raw=00 01}, null]") &&
              prints_as("{\"a\":[[2.0],[]]}", "map(varchar, array(array(double)))", "{a=[[2.0], []]}"),
          "nested in each other");
    CHECK(strcmp(floe_athena_substatement_type("INSERT", true, "INSERT"), "INSERT") == 0, "an INSERT");
    CHECK(strcmp(floe_athena_substatement_type("CREATE TABLE", true, "CREATE"), "CREATE_TABLE_AS_SELECT") == 0,
          "a CREATE TABLE with an update count is a CTAS");
    CHECK(strcmp(floe_athena_substatement_type("CREATE TABLE", false, "CREATE"), "CREATE_TABLE") == 0,
          "a CREATE TABLE without one is DDL");
    CHECK(strcmp(floe_athena_substatement_type("", false, "WITH"), "SELECT") == 0, "a query is a SELECT");
    CHECK(floe_athena_substatement_type("", false, "SHOW") == NULL, "no name Floe does not know");
}

TEST(athena_refuses_what_athena_refuses_on_s3_tables)
{
    CHECK(floe_athena_refusal("OPTIMIZE daily REWRITE DATA USING BIN_PACK", true) != NULL &&
              strstr(floe_athena_refusal("optimize daily REWRITE DATA USING BIN_PACK", true), "maintains them") != NULL,
          "OPTIMIZE is S3 Tables' maintenance, in any case");
    CHECK(floe_athena_refusal("  -- why\nVACUUM daily", true) != NULL, "VACUUM too, after a comment");
    CHECK(floe_athena_refusal("CREATE OR REPLACE VIEW v AS SELECT 1", true) != NULL &&
              floe_athena_refusal("create view v as select 1", true) != NULL,
          "views");
    CHECK(floe_athena_refusal("ALTER DATABASE sales SET DBPROPERTIES ('a'='b')", true) != NULL, "a database's properties");
    CHECK(floe_athena_refusal("ALTER TABLE `daily` RENAME TO d2", true) != NULL &&
              strstr(floe_athena_refusal("ALTER TABLE \"my table\" RENAME TO d2", true), "RENAME") != NULL,
          "renaming a table, its name quoted either way");
    CHECK(strstr(floe_athena_refusal("ALTER TABLE `ns`.`daily` REPLACE COLUMNS (a int)", true), "REPLACE COLUMNS") != NULL,
          "REPLACE COLUMNS, which Iceberg does not do");
    CHECK(floe_athena_refusal("ALTER TABLE daily ADD COLUMNS (c int)", true) == NULL &&
              floe_athena_refusal("SELECT * FROM daily", true) == NULL && floe_athena_refusal("CREATE TABLE t (a int)", true) == NULL &&
              floe_athena_refusal("", true) == NULL,
          "everything else goes to the engine");
}

TEST(athena_refusals_in_the_default_catalog_leave_views_and_renames_to_the_engine)
{
    CHECK(floe_athena_refusal("CREATE OR REPLACE VIEW v AS SELECT 1", false) == NULL &&
              floe_athena_refusal("ALTER TABLE daily RENAME TO d2", false) == NULL,
          "Athena takes views and renames of Glue's own tables");
    CHECK(strstr(floe_athena_refusal("ALTER TABLE daily REPLACE COLUMNS (a int)", false), "REPLACE COLUMNS") != NULL,
          "REPLACE COLUMNS is refused for any Iceberg table");
    CHECK(strcmp(floe_athena_refusal("OPTIMIZE daily REWRITE DATA USING BIN_PACK", false),
                 "NOT_SUPPORTED: Floe does not run OPTIMIZE in AwsDataCatalog, as Athena does there.") == 0 &&
              strstr(floe_athena_refusal("VACUUM daily", false), "VACUUM in AwsDataCatalog") != NULL,
          "what Floe does not run there says so, without S3 Tables' maintenance");
}

TEST(athena_sql_leading_words_skip_comments_and_keep_quoted_names_whole)
{
    char w[3][FLOE_SQL_WORD_MAX];

    CHECK(floe_sql_leading_words(" -- a note\n /* more */ EXECUTE by_id USING 1", w, 3) == 3 &&
              strcmp(w[0], "EXECUTE") == 0 && strcmp(w[1], "by_id") == 0 && strcmp(w[2], "USING") == 0,
          "comments and spaces are skipped, words come as written");
    CHECK(floe_sql_leading_words("ALTER TABLE \"my table\" RENAME", w, 3) == 3 && strcmp(w[2], "\"my table\"") == 0,
          "a quoted name with a space is one word");
    CHECK(floe_sql_leading_words("SELECT(1) AS x", w, 3) == 1 && strcmp(w[0], "SELECT") == 0,
          "the leading words end at a parenthesis");
    CHECK(floe_sql_leading_words("   ", w, 3) == 0 && floe_sql_leading_words("/* open", w, 3) == 0,
          "no words in blank text or an unclosed comment");
}

TEST(athena_sql_unterminated_length_drops_the_closing_semicolon)
{
    const char *dbt = "SELECT '{\"rowcount\":3}';\n";

    CHECK(floe_sql_unterminated_length(dbt) == strlen("SELECT '{\"rowcount\":3}'"),
          "dbt-athena's closing semicolon and the newline after it are not the statement's");
    CHECK(floe_sql_unterminated_length("SELECT ';'") == strlen("SELECT ';'"), "a semicolon in a literal stays");
    CHECK(floe_sql_unterminated_length("SELECT 1 ;  ") == strlen("SELECT 1"), "spaces before it go too");
    CHECK(floe_sql_unterminated_length(" ; ") == 0 && floe_sql_unterminated_length("") == 0, "nothing is left of ;");
}
