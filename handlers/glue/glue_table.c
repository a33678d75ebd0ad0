/*
 * Glue's tables in a table bucket's child catalog: each is an S3 table of the namespace the
 * database names, read from the table rows the S3 Tables API and the Iceberg REST catalog write
 * (catalog/table.h), so Glue always shows the current metadata pointer. GetTable, GetTables and
 * DeleteTable; a request naming the default catalog goes to glue_table_default.c instead (GetTables'
 * Expression and paging are shared).
 *
 * How Glue reports an S3 table (AWS, "Accessing Amazon S3 tables with the AWS Glue Iceberg REST
 * endpoint" and GetTable on s3tablescatalog): TableType EXTERNAL_TABLE, Parameters table_type
 * ICEBERG and metadata_location, and a StorageDescriptor whose Location is the table's warehouse.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "catalog/page_token.h"
#include "catalog/table.h"
#include "glue_columns.h"
#include "glue_names.h"
#include "glue_table_default.h"

#define GET_TABLES_DEFAULT_PAGE 100 /* AWS: MaxResults 1..100 */
#define GET_TABLES_MAX_PAGE 100
#define TABLE_TYPE "EXTERNAL_TABLE"
#define ICEBERG "ICEBERG"

static floe_glue_ParametersMap *iceberg_parameters(floe_awsjson_call_t *call, const floe_table_row_t *t)
{
    floe_glue_ParametersMap *p = FLOE_GLUE_NEW(call, ParametersMap);

    p->keys = floe_call_alloc(&call->super, 2 * sizeof(char *));
    p->values = floe_call_alloc(&call->super, 2 * sizeof(char *));
    p->keys[p->n] = "table_type";
    p->values[p->n++] = ICEBERG;
    if (t->metadata_location != NULL) {
        p->keys[p->n] = "metadata_location";
        p->values[p->n++] = t->metadata_location;
    }
    return p;
}

/* Glue numbers a table's versions from 0, one more for each update. An S3 table's version is its
 * metadata file's: Iceberg names them "<NNNNN>-<uuid>.metadata.json", counting commits from 0. */
static char *version_id(floe_awsjson_call_t *call, const floe_table_row_t *t)
{
    const char *file = t->metadata_location != NULL ? strrchr(t->metadata_location, '/') : NULL;
    char *end;
    long n = file != NULL ? strtol(file + 1, &end, 10) : 0;

    if (file == NULL || end == file + 1 || *end != '-' || n < 0)
        n = 0;
    return floe_call_printf(&call->super, "%ld", n);
}

static int fill_table(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_glue_Table *g)
{
    g->Name = t->name;
    g->DatabaseName = t->ns.name;
    g->CatalogId = glue_child_catalog_id(call, t->bucket.name);
    g->Owner = floe_call_account(&call->super);
    g->CreatedBy = t->created_by;
    g->CreateTime = t->created_at;
    g->UpdateTime = t->modified_at;
    g->has_CreateTime = g->has_UpdateTime = true;
    g->TableType = TABLE_TYPE;
    g->VersionId = version_id(call, t);
    g->Parameters = iceberg_parameters(call, t);
    g->StorageDescriptor = FLOE_GLUE_NEW(call, StorageDescriptor);
    g->StorageDescriptor->Location = floe_table_warehouse_location(&call->super, t);
    return glue_columns_of(call, t, &g->StorageDescriptor->Columns);
}

static int fail_not_found(floe_awsjson_call_t *call, const char *what, const char *name)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "%s %s not found.", what, name);
}

/* The bucket and namespace a (CatalogId, DatabaseName) pair of a table bucket's catalog names, or
 * EntityNotFoundException (a missing namespace is recorded on the shared call: awsjson.c words it
 * "Database <name> not found."). */
static int lookup_database(floe_awsjson_call_t *call, const char *catalog_id, const char *database,
                           floe_bucket_row_t *bucket, floe_namespace_row_t *ns)
{
    if (glue_bucket_of_catalog(call, catalog_id, bucket))
        return FLOE_EFAIL;
    return floe_lookup_namespace(&call->super, bucket, database, ns);
}

static bool is_default_catalog(floe_awsjson_call_t *call, const char *catalog_id)
{
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, catalog_id, &ref);
    return ref.kind == GLUE_CATALOG_DEFAULT;
}

int floe_glue_handle_GetTable(floe_awsjson_call_t *call, const floe_glue_GetTableRequest *in,
                              floe_glue_GetTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t t;

    if (is_default_catalog(call, in->CatalogId))
        return glue_default_get_table(call, in->DatabaseName, in->Name, out);
    if (lookup_database(call, in->CatalogId, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &ns, in->Name, &t))
        return FLOE_EFAIL;
    out->Table = FLOE_GLUE_NEW(call, Table);
    return fill_table(call, &t, out->Table);
}

/* The table goes as S3 Tables' DeleteTable deletes it (its data too: the janitor removes its
 * warehouse): on AWS, Glue's DeleteTable in s3tablescatalog deletes the S3 table behind it, which
 * dbt-athena relies on to drop a model's table (dbt's page "Amazon Web Services and Apache Iceberg",
 * https://docs.getdbt.com/docs/build/iceberg/adapters/aws-iceberg-support). */
int floe_glue_handle_DeleteTable(floe_awsjson_call_t *call, const floe_glue_DeleteTableRequest *in,
                                 floe_glue_DeleteTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t t;
    int rc;
    (void)out;

    if (is_default_catalog(call, in->CatalogId))
        return glue_default_delete_table(call, in->DatabaseName, in->Name);
    if (lookup_database(call, in->CatalogId, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &ns, in->Name, &t))
        return FLOE_EFAIL;
    rc = floe_table_delete(&call->super, &t, NULL);
    if (rc == FLOE_ENOTFOUND) /* deleted or renamed since the lookup */
        return fail_not_found(call, "Table", in->Name);
    return rc == FLOE_OK ? FLOE_OK : FLOE_EFAIL;
}

/* Glue's Expression, a regular expression read as the Hive metastore reads a table pattern (Glue
 * keeps Hive's conventions): a `*` not after `.` means `.*`, `|` separates alternatives, and a
 * name matches when the whole of it does, ignoring case. NULL and InvalidInputException when it
 * does not compile. */
static pcre2_code *compile_expression(floe_awsjson_call_t *call, const char *expression)
{
    size_t n = strlen(expression), o = 0;
    char *pattern = floe_call_alloc(&call->super, 2 * n + 1);
    pcre2_code *code;
    PCRE2_SIZE offset;
    int err;

    for (size_t i = 0; i < n; i++) {
        if (expression[i] == '*' && (i == 0 || expression[i - 1] != '.'))
            pattern[o++] = '.';
        pattern[o++] = expression[i];
    }
    code = pcre2_compile((PCRE2_SPTR)pattern, o, PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_CASELESS | PCRE2_UTF,
                         &err, &offset, NULL);
    if (code == NULL)
        floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "Expression is not a valid regular expression.");
    return code;
}

static bool name_matches(pcre2_code *code, pcre2_match_data *md, const char *name)
{
    return code == NULL || pcre2_match(code, (PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0;
}

/* The tables after q's position whose names match, up to limit + 1 (one more tells whether
 * another page follows). FLOE_OK or FLOE_EFAIL (answered). */
static int collect_matches(floe_awsjson_call_t *call, floe_table_list_query_t *q, pcre2_code *code, size_t limit,
                           floe_table_row_t *found, size_t *n_found)
{
    pcre2_match_data *md = code != NULL ? pcre2_match_data_create_from_pattern(code, NULL) : NULL;
    floe_table_row_t *rows;
    size_t n;

    *n_found = 0;
    do { /* pull pages until limit + 1 names match or the namespace has no more tables */
        if (floe_table_list(&call->super, q, &rows, &n)) {
            pcre2_match_data_free(md);
            return FLOE_EFAIL;
        }
        for (size_t i = 0; i < n && *n_found <= limit; i++) {
            if (name_matches(code, md, rows[i].name))
                found[(*n_found)++] = rows[i];
        }
        if (n > 0)
            q->after_name = rows[n - 1].name;
    } while (n == (size_t)q->limit && *n_found <= limit);
    pcre2_match_data_free(md);
    return FLOE_OK;
}

/* The default catalog's tables of `database` after `after` whose names match, up to limit + 1. */
static int collect_default_matches(floe_awsjson_call_t *call, const char *database, const char *after,
                                   pcre2_code *code, size_t limit, floe_glue_table_row_t *found, size_t *n_found)
{
    pcre2_match_data *md = code != NULL ? pcre2_match_data_create_from_pattern(code, NULL) : NULL;
    floe_glue_table_row_t *rows;
    size_t n;

    *n_found = 0;
    do { /* pull pages until limit + 1 names match or the database has no more tables */
        if (floe_glue_table_list(&call->super, database, after, (int)limit + 1, &rows, &n)) {
            pcre2_match_data_free(md);
            return FLOE_EFAIL;
        }
        for (size_t i = 0; i < n && *n_found <= limit; i++) {
            if (name_matches(code, md, rows[i].name))
                found[(*n_found)++] = rows[i];
        }
        if (n > 0)
            after = rows[n - 1].name;
    } while (n == limit + 1 && *n_found <= limit);
    pcre2_match_data_free(md);
    return FLOE_OK;
}

static int fail_next_token(floe_awsjson_call_t *call)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The next token is not valid.");
}

/* Room for a page of n tables (n > page_size: NextToken names the page's last). */
static floe_glue_Table *page_items(floe_awsjson_call_t *call, const char *listing, int page_size, size_t n,
                                   const char *const *names, floe_glue_GetTablesResponse *out)
{
    if (n > (size_t)page_size) {
        n = (size_t)page_size;
        out->NextToken = floe_page_token_encode(&call->super, listing, names[n - 1]);
    }
    out->TableList->n = n;
    out->TableList->items = floe_call_alloc(&call->super, sizeof(floe_glue_Table) * (n + 1));
    return out->TableList->items;
}

static int get_default_tables(floe_awsjson_call_t *call, const floe_glue_GetTablesRequest *in, pcre2_code *code,
                              int page_size, floe_glue_GetTablesResponse *out)
{
    const char *database = glue_default_database(call, in->DatabaseName), *after = "", *listing;
    floe_glue_table_row_t *found;
    floe_glue_Table *items;
    const char **names;
    size_t n_found;

    if (database == NULL)
        return FLOE_EFAIL;
    listing = floe_call_printf(&call->super, "GetTables|default|%s|%s|%s", floe_call_region(&call->super), database,
                               in->Expression ? in->Expression : "");
    if (in->NextToken != NULL && (after = floe_page_token_decode(&call->super, listing, in->NextToken)) == NULL)
        return fail_next_token(call);
    found = floe_call_alloc(&call->super, sizeof(*found) * (size_t)(page_size + 1));
    if (collect_default_matches(call, database, after, code, (size_t)page_size, found, &n_found))
        return FLOE_EFAIL;
    names = floe_call_alloc(&call->super, sizeof(*names) * (n_found + 1));
    for (size_t i = 0; i < n_found; i++)
        names[i] = found[i].name;
    items = page_items(call, listing, page_size, n_found, names, out);
    for (size_t i = 0; i < out->TableList->n; i++) {
        if (glue_default_table_fill(call, &found[i], &items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int get_bucket_tables(floe_awsjson_call_t *call, const floe_glue_GetTablesRequest *in, pcre2_code *code,
                             int page_size, floe_glue_GetTablesResponse *out)
{
    floe_table_list_query_t q = {0};
    floe_table_row_t *found;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_glue_Table *items;
    const char *listing, **names;
    size_t n_found;

    if (lookup_database(call, in->CatalogId, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    listing = floe_call_printf(&call->super, "GetTables|%s|%s|%s", bucket.bucket_id, ns.name,
                               in->Expression ? in->Expression : "");
    q.bucket = &bucket;
    q.ns = &ns;
    q.after_ns = ns.name;
    q.after_name = "";
    if (in->NextToken != NULL && (q.after_name = floe_page_token_decode(&call->super, listing, in->NextToken)) == NULL)
        return fail_next_token(call);
    q.limit = page_size + 1;
    found = floe_call_alloc(&call->super, sizeof(*found) * (size_t)(page_size + 1));
    if (collect_matches(call, &q, code, (size_t)page_size, found, &n_found))
        return FLOE_EFAIL;
    names = floe_call_alloc(&call->super, sizeof(*names) * (n_found + 1));
    for (size_t i = 0; i < n_found; i++)
        names[i] = found[i].name;
    items = page_items(call, listing, page_size, n_found, names, out);
    for (size_t i = 0; i < out->TableList->n; i++) {
        if (fill_table(call, &found[i], &items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_glue_handle_GetTables(floe_awsjson_call_t *call, const floe_glue_GetTablesRequest *in,
                               floe_glue_GetTablesResponse *out)
{
    int page_size = glue_page_size(in->has_MaxResults, in->MaxResults, GET_TABLES_DEFAULT_PAGE, GET_TABLES_MAX_PAGE);
    pcre2_code *code = NULL;
    int rc;

    out->TableList = FLOE_GLUE_NEW(call, TableList);
    if (in->Expression != NULL && (code = compile_expression(call, in->Expression)) == NULL)
        return FLOE_EFAIL;
    rc = is_default_catalog(call, in->CatalogId) ? get_default_tables(call, in, code, page_size, out)
                                                 : get_bucket_tables(call, in, code, page_size, out);
    pcre2_code_free(code);
    return rc;
}
