/* Tests of reading Trino's EXPLAIN (TYPE IO, FORMAT JSON) answer (athena_engine/explain_io.c). */
#include <string.h>

#include "athena_engine/explain_io.h"
#include "base/failure.h"
#include "harness.h"

static int is_table(const floe_explain_table_t *t, const char *catalog, const char *schema, const char *table)
{
    return strcmp(t->catalog, catalog) == 0 && strcmp(t->schema, schema) == 0 && strcmp(t->table, table) == 0;
}

TEST(athena_explain_io_reads_a_querys_input_tables)
{
    /* Trino 476's answer to EXPLAIN (TYPE IO, FORMAT JSON) SELECT o.id FROM orders o JOIN other t ... */
    const char *plan =
        "{\n  \"inputTableColumnInfos\" : [ {\n    \"table\" : {\n      \"catalog\" : "
        "\"s3tb_111122223333__us_east_1__shared\",\n      \"schemaTable\" : {\n        \"schema\" : \"sales\",\n"
        "        \"table\" : \"other\"\n      }\n    },\n    \"constraint\" : {\n      \"none\" : false,\n"
        "      \"columnConstraints\" : [ ]\n    },\n    \"estimate\" : {\n      \"outputRowCount\" : 0.0\n    }\n"
        "  }, {\n    \"table\" : {\n      \"catalog\" : \"adci_111122223333__us_east_1\",\n"
        "      \"schemaTable\" : {\n        \"schema\" : \"default\",\n        \"table\" : \"orders\"\n      }\n"
        "    },\n    \"constraint\" : {\n      \"none\" : false,\n      \"columnConstraints\" : [ {\n"
        "        \"columnName\" : \"item\",\n        \"type\" : \"varchar\"\n      } ]\n    }\n  } ],\n"
        "  \"estimate\" : {\n    \"outputRowCount\" : 0.0,\n    \"cpuCost\" : \"NaN\"\n  }\n}";
    floe_explain_io_t io;

    CHECK(floe_explain_io_read(plan, &io) == FLOE_OK, "a query's IO plan reads");
    CHECK(io.n_inputs == 2 && !io.has_output, "both tables it reads, nothing it writes");
    CHECK(io.n_inputs == 2 && is_table(&io.inputs[0], "s3tb_111122223333__us_east_1__shared", "sales", "other") &&
              is_table(&io.inputs[1], "adci_111122223333__us_east_1", "default", "orders"),
          "each input's catalog, schema and table");
    floe_explain_io_dispose(&io);
}

TEST(athena_explain_io_reads_the_output_table_of_a_write)
{
    /* INSERT INTO orders VALUES (...) reads nothing; a DELETE names its table as input and output */
    const char *insert = "{\"inputTableColumnInfos\":[],\"outputTable\":{\"catalog\":\"s3tb_1__r__b\","
                         "\"schemaTable\":{\"schema\":\"sales\",\"table\":\"orders\"}},"
                         "\"estimate\":{\"outputRowCount\":\"NaN\"}}";
    const char *delete = "{\"inputTableColumnInfos\":[{\"table\":{\"catalog\":\"c\",\"schemaTable\":"
                         "{\"schema\":\"s\",\"table\":\"t\"}}}],\"outputTable\":{\"catalog\":\"c\","
                         "\"schemaTable\":{\"schema\":\"s\",\"table\":\"t\"}}}";
    floe_explain_io_t io;

    CHECK(floe_explain_io_read(insert, &io) == FLOE_OK && io.n_inputs == 0 && io.has_output &&
              is_table(&io.output, "s3tb_1__r__b", "sales", "orders"),
          "an INSERT of values writes its table and reads none");
    floe_explain_io_dispose(&io);
    CHECK(floe_explain_io_read(delete, &io) == FLOE_OK && io.n_inputs == 1 && io.has_output &&
              is_table(&io.inputs[0], "c", "s", "t") && is_table(&io.output, "c", "s", "t"),
          "a DELETE reads and writes its table");
    floe_explain_io_dispose(&io);
}

TEST(athena_explain_io_refuses_what_is_no_io_plan)
{
    const char *refused[] = {
        "CREATE TABLE made2",                     /* a data definition statement's EXPLAIN: its text */
        "DROP TABLE other",
        "",
        "[]",
        "{\"estimate\":{}}",                      /* no inputs named at all */
        "{\"inputTableColumnInfos\":{}}",
        "{\"inputTableColumnInfos\":[{\"table\":{\"catalog\":\"c\",\"schemaTable\":{\"schema\":\"s\"}}}]}",
        "{\"inputTableColumnInfos\":[{\"table\":{\"catalog\":1,\"schemaTable\":{\"schema\":\"s\",\"table\":\"t\"}}}]}",
        "{\"inputTableColumnInfos\":[],\"outputTable\":{\"catalog\":\"c\"}}",
        "{\"inputTableColumnInfos\":[{}]}",
    };
    floe_explain_io_t io;

    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        CHECK(floe_explain_io_read(refused[i], &io) == FLOE_EINVAL && io.doc == NULL && io.inputs == NULL,
              "an answer that is no IO plan, or names a table partly, is refused and leaves nothing");
    }
    CHECK(floe_explain_io_read("{\"inputTableColumnInfos\":[],\"outputTable\":null}", &io) == FLOE_OK &&
              !io.has_output,
          "a null outputTable is no output");
    floe_explain_io_dispose(&io);
}
