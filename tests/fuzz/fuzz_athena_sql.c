/*
 * libFuzzer harness for what Floe's hand-written code reads of Athena's queries and results: any
 * bytes as a result file (athena/athena_csv.h), read back in pages, and as a query's SQL, whose
 * "s3tablescatalog/<bucket>" names become Trino catalogs and back (athena_engine/catalogs.h), and
 * whose Hive-style DDL becomes Trino's (athena_engine/hive_ddl.h), and as a database's CREATE or DROP
 * (athena/athena_schema_ddl.h), and as Trino's EXPLAIN IO answer (athena_engine/explain_io.h) and
 * QueryResults document, long integers quoted (trino/trino_query.h). A
 * record read back must re-encode and read the same; a rewritten name must unmap to the original; a
 * translation gives text, or a refusal with its reason; a plan read names each table whole, and one
 * refused leaves nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "athena/athena_csv.h"
#include "athena/athena_schema_ddl.h"
#include "athena_engine/catalogs.h"
#include "athena_engine/explain_io.h"
#include "athena_engine/hive_ddl.h"
#include "athena_engine/refusals.h"
#include "base/failure.h"
#include "trino/trino_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const floe_athena_csv_record_t *r)
{
    floe_athena_csv_t b = {0};
    floe_athena_csv_record_t *again;
    size_t n, used;

    for (size_t i = 0; i < r->n; i++)
        floe_athena_csv_field(&b, r->fields[i], i == 0);
    floe_athena_csv_end_record(&b);
    if (floe_athena_csv_read(b.data, b.len, true, 2, &again, &n, &used) != FLOE_OK || n != 1 || used != b.len ||
        again[0].n != r->n)
        abort(); /* what Floe writes, Floe reads */
    for (size_t i = 0; i < r->n; i++) {
        if ((r->fields[i] == NULL) != (again[0].fields[i] == NULL) ||
            (r->fields[i] != NULL && strcmp(r->fields[i], again[0].fields[i]) != 0))
            abort();
    }
    floe_athena_csv_records_free(again, n);
    free(b.data);
}

/* The DDL translation, in a table bucket's context or Glue's default catalog: statements (each then
 * rewritten as every query is), or a refusal with its reason. */
static void translate(const char *text, bool in_default_catalog)
{
    floe_bucket_names_t named = {0};
    char why[256] = "", *out, *sql;

    if (floe_hive_ddl_translate(text, in_default_catalog, &out, why, sizeof(why)) != FLOE_OK) {
        if (out != NULL || why[0] == '\0')
            abort();
        return;
    }
    for (const char *s = out; s != NULL; s = floe_hive_ddl_next(s)) {
        sql = floe_catalogs_rewrite(s, "111122223333", "us-east-1", &named);
        free(sql);
    }
    free(out);
    floe_bucket_names_dispose(&named);
}

/* EXPLAIN IO's answer: each table of a plan read is whole; a refusal leaves nothing to free. */
static void read_plan(const char *text)
{
    floe_explain_io_t io;

    if (floe_explain_io_read(text, &io) != FLOE_OK) {
        if (io.doc != NULL || io.inputs != NULL || io.n_inputs != 0)
            abort();
        return;
    }
    for (size_t i = 0; i < io.n_inputs; i++) {
        if (io.inputs[i].catalog == NULL || io.inputs[i].schema == NULL || io.inputs[i].table == NULL)
            abort();
    }
    if (io.has_output && (io.output.catalog == NULL || io.output.schema == NULL || io.output.table == NULL))
        abort();
    floe_explain_io_dispose(&io);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    floe_athena_csv_record_t *rows;
    floe_bucket_names_t named = {0};
    char *sql, *back;
    size_t n, used;

    memcpy(text, data, size);
    text[size] = '\0';
    if (floe_athena_csv_read(text, size, size % 2 == 0, 4, &rows, &n, &used) == FLOE_OK) {
        if (used > size)
            abort();
        for (size_t i = 0; i < n; i++) {
            if (memchr(text, '\0', size) == NULL)
                round_trip(&rows[i]);
        }
        floe_athena_csv_records_free(rows, n);
    }
    sql = floe_catalogs_rewrite(text, "111122223333", "us-east-1", &named);
    back = floe_catalogs_unmap(sql, "111122223333", "us-east-1", &named);
    floe_catalogs_name_foreign(text, "111122223333");
    floe_athena_refusal(text, size % 2 == 0);
    cJSON_Delete(floe_trino_parse_results((const char *)data, size)); /* a QueryResults answer too */
    floe_schema_ddl_parse(text, &(floe_schema_ddl_t){0});
    free(back);
    translate(text, size % 3 == 0);
    read_plan(text);
    free(sql);
    floe_bucket_names_dispose(&named);
    free(text);
    return 0;
}
