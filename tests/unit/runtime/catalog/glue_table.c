/*
 * Tests of runtime/catalog/glue_table.c: the default catalog's Glue tables, on the fixture of
 * configuration.c (a freshly migrated database, no HTTP request). Glue's VersionId is a
 * compare-and-swap, a database's tables and their column statistics go with it, and a summary
 * reads the stored TableInput.
 */
#include "catalog/glue_database.h"
#include "catalog/glue_table.h"

#define GLUE_TABLE_DOC                                                                                                 \
    "{\"Name\":\"orders\",\"TableType\":\"EXTERNAL_TABLE\",\"Parameters\":{\"classification\":\"parquet\"},"          \
    "\"PartitionKeys\":[{\"Name\":\"day\",\"Type\":\"string\"}],\"StorageDescriptor\":{\"Columns\":[{\"Name\":\"id\"," \
    "\"Type\":\"bigint\",\"Comment\":\"key\"}],\"Location\":\"s3://data/orders/\",\"SerdeInfo\":{"                   \
    "\"SerializationLibrary\":\"serde\",\"Parameters\":{\"serialization.format\":\"1\"}}}}"

static int glue_fixture_open(config_fixture_t *f)
{
    floe_glue_database_row_t lake = {.name = "lake"}, other = {.name = "other"};

    if (config_fixture_open(f) != 0)
        return -1;
    return floe_glue_database_insert(&f->call, &lake) == FLOE_OK && floe_glue_database_insert(&f->call, &other) == FLOE_OK
               ? 0
               : -1;
}

TEST(catalog_glue_table_needs_its_database_and_a_free_name)
{
    config_fixture_t f;
    floe_glue_table_row_t row;

    CHECK(glue_fixture_open(&f) == 0, "a fresh catalog opens with two databases");
    CHECK(floe_glue_table_insert(&f.call, "nope", "orders", GLUE_TABLE_DOC) == FLOE_ENOTFOUND,
          "a table needs its database");
    CHECK(floe_glue_table_insert(&f.call, "lake", "orders", GLUE_TABLE_DOC) == FLOE_OK, "a table is stored");
    CHECK(floe_glue_table_insert(&f.call, "lake", "orders", "{}") == FLOE_EEXISTS, "a taken name is reported");
    CHECK(f.call.failure.code == FLOE_OK, "and leaves the error to the API");
    CHECK(floe_glue_table_read(&f.call, "lake", "orders", &row) == FLOE_OK && row.version == 0 &&
              strcmp(row.document, GLUE_TABLE_DOC) == 0,
          "the first version is 0 and the document is kept as given");
    CHECK(floe_glue_table_read(&f.call, "other", "orders", &row) == FLOE_ENOTFOUND, "each database has its own");
    config_fixture_close(&f);
}

TEST(catalog_glue_table_update_checks_the_version_it_replaces)
{
    config_fixture_t f;
    floe_glue_table_row_t row;
    int64_t version = -1;

    CHECK(glue_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_glue_table_insert(&f.call, "lake", "orders", GLUE_TABLE_DOC) == FLOE_OK, "a table is stored");
    CHECK(floe_glue_table_update(&f.call, "lake", "orders", "0", "{\"v\":1}", &version) == FLOE_OK && version == 1,
          "the current version is replaced by the next");
    CHECK(floe_glue_table_update(&f.call, "lake", "orders", "0", "{\"v\":2}", &version) == FLOE_ECHANGED,
          "a stale version is refused");
    CHECK(floe_glue_table_update(&f.call, "lake", "orders", "01", "{\"v\":2}", &version) == FLOE_ECHANGED,
          "a version is compared as Glue's text");
    CHECK(floe_glue_table_read(&f.call, "lake", "orders", &row) == FLOE_OK && row.version == 1 &&
              strcmp(row.document, "{\"v\":1}") == 0,
          "a refused update changed nothing");
    CHECK(floe_glue_table_update(&f.call, "lake", "orders", NULL, "{\"v\":3}", &version) == FLOE_OK && version == 2,
          "without a version the update is not checked");
    CHECK(floe_glue_table_update(&f.call, "lake", "missing", NULL, "{}", &version) == FLOE_ENOTFOUND,
          "a missing table is reported");
    CHECK(f.call.failure.code == FLOE_OK, "refusals leave the error to the API");
    config_fixture_close(&f);
}

TEST(catalog_glue_database_removal_takes_its_tables)
{
    config_fixture_t f;
    floe_glue_table_row_t row, *rows;
    char *doc;
    size_t n;

    CHECK(glue_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_glue_table_insert(&f.call, "lake", "a", "{}") == FLOE_OK &&
              floe_glue_table_insert(&f.call, "lake", "b", "{}") == FLOE_OK &&
              floe_glue_table_insert(&f.call, "other", "a", "{}") == FLOE_OK,
          "tables are stored in two databases");
    CHECK(floe_glue_table_list(&f.call, "lake", "a", 10, &rows, &n) == FLOE_OK && n == 1 &&
              strcmp(rows[0].name, "b") == 0,
          "a listing starts after `after`");
    CHECK(floe_glue_table_remove(&f.call, "lake", "a") == FLOE_OK &&
              floe_glue_table_remove(&f.call, "lake", "a") == FLOE_ENOTFOUND,
          "a table is removed once");
    CHECK(floe_glue_table_statistics_put(&f.call, "lake", "b", "id", "{\"s\":1}") == FLOE_OK &&
              floe_glue_table_statistics_put(&f.call, "lake", "b", "id", "{\"s\":2}") == FLOE_OK &&
              floe_glue_table_statistics_read(&f.call, "lake", "b", "id", &doc) == FLOE_OK && strcmp(doc, "{\"s\":2}") == 0,
          "a column's statistics are replaced");
    CHECK(floe_glue_table_statistics_put(&f.call, "lake", "a", "id", "{}") == FLOE_ENOTFOUND,
          "a removed table takes no statistics");
    CHECK(floe_glue_table_drop_database(&f.call, "lake") == FLOE_OK, "a database with a table is removed");
    CHECK(floe_glue_table_read(&f.call, "lake", "b", &row) == FLOE_ENOTFOUND, "and its tables with it");
    CHECK(floe_glue_table_statistics_read(&f.call, "lake", "b", "id", &doc) == FLOE_ENOTFOUND,
          "and their column statistics");
    CHECK(floe_glue_table_read(&f.call, "other", "a", &row) == FLOE_OK, "another database's stay");
    CHECK(floe_glue_table_drop_database(&f.call, "lake") == FLOE_ENOTFOUND, "a missing database is reported");
    config_fixture_close(&f);
}

TEST(catalog_glue_table_summary_reads_the_table_input)
{
    config_fixture_t f;
    floe_glue_table_row_t row = {.name = "orders", .document = GLUE_TABLE_DOC};
    floe_glue_table_summary_t s;

    CHECK(glue_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_glue_table_summarize(&f.call, &row, &s) == FLOE_OK, "a TableInput is summarized");
    CHECK(strcmp(s.table_type, "EXTERNAL_TABLE") == 0 && !s.has_last_access_time, "its type");
    CHECK(s.n_columns == 1 && strcmp(s.columns[0].type, "bigint") == 0 && strcmp(s.columns[0].comment, "key") == 0,
          "its columns");
    CHECK(s.n_partition_keys == 1 && strcmp(s.partition_keys[0].name, "day") == 0 && s.partition_keys[0].comment == NULL,
          "its partition keys");
    CHECK(s.parameters.n == 1 && strcmp(s.parameters.values[0], "parquet") == 0, "its parameters");
    CHECK(strcmp(s.location, "s3://data/orders/") == 0 && s.input_format == NULL && strcmp(s.serde_library, "serde") == 0,
          "its storage, absent members NULL");
    CHECK(s.serde_parameters.n == 1 && strcmp(s.serde_parameters.keys[0], "serialization.format") == 0,
          "its SerDe's parameters");
    row.document = "[";
    CHECK(floe_glue_table_summarize(&f.call, &row, &s) == FLOE_EFAIL && f.call.failure.code == FLOE_EFAIL,
          "a document that is not JSON fails the call");
    config_fixture_close(&f);
}
