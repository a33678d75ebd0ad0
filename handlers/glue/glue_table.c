/*
 * Glue's tables in a table bucket's child catalog: each is an S3 table of the namespace the
 * database names, read from the table rows the S3 Tables API and the Iceberg REST catalog write
 * (catalog/table.h), so Glue always shows the current metadata pointer. GetTable and GetTables.
 *
 * How Glue reports an S3 table (AWS, "Accessing Amazon S3 tables with the AWS Glue Iceberg REST
 * endpoint" and GetTable on s3tablescatalog): TableType EXTERNAL_TABLE, Parameters table_type
 * ICEBERG and metadata_location, and a StorageDescriptor whose Location is the table's warehouse.
 */
#include <string.h>

#include "catalog/page_token.h"
#include "catalog/table.h"
#include "glue_columns.h"
#include "glue_names.h"

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
    g->Parameters = iceberg_parameters(call, t);
    g->StorageDescriptor = FLOE_GLUE_NEW(call, StorageDescriptor);
    g->StorageDescriptor->Location = floe_table_warehouse_location(&call->super, t);
    return glue_columns_of(call, t, &g->StorageDescriptor->Columns);
}

static int fail_not_found(floe_awsjson_call_t *call, const char *what, const char *name)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "%s %s not found.", what, name);
}

/* The bucket and namespace a (CatalogId, DatabaseName) pair names, or EntityNotFoundException. */
static int lookup_database(floe_awsjson_call_t *call, const char *catalog_id, const char *database,
                           floe_bucket_row_t *bucket, floe_namespace_row_t *ns)
{
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, catalog_id, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return fail_not_found(call, "Database", database);
    if (glue_bucket_of_catalog(call, catalog_id, bucket))
        return FLOE_EFAIL;
    if (floe_lookup_namespace(&call->super, bucket, database, ns))
        return call->super.error == FLOE_ERR_NotFoundException ? fail_not_found(call, "Database", database)
                                                                 : glue_fail_from_catalog(call, NULL);
    return FLOE_OK;
}

int floe_glue_handle_GetTable(floe_awsjson_call_t *call, const floe_glue_GetTableRequest *in,
                              floe_glue_GetTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t t;

    if (lookup_database(call, in->CatalogId, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &ns, in->Name, &t))
        return call->super.error == FLOE_ERR_NotFoundException ? fail_not_found(call, "Table", in->Name)
                                                                 : glue_fail_from_catalog(call, NULL);
    out->Table = FLOE_GLUE_NEW(call, Table);
    return fill_table(call, &t, out->Table);
}

/* Glue's Expression as Floe reads it: `*` matches any run of characters, everything else itself.
 * Greedy with one backtrack point, so a pattern of many stars stays linear in practice. */
static bool name_matches(const char *pattern, const char *name)
{
    const char *star = NULL, *resume = NULL;

    while (*name != '\0') {
        if (*pattern == '*') {
            star = pattern++;
            resume = name;
        } else if (*pattern == *name) {
            pattern++;
            name++;
        } else if (star != NULL) {
            pattern = star + 1;
            name = ++resume;
        } else {
            return false;
        }
    }
    while (*pattern == '*')
        pattern++;
    return *pattern == '\0';
}

int floe_glue_handle_GetTables(floe_awsjson_call_t *call, const floe_glue_GetTablesRequest *in,
                               floe_glue_GetTablesResponse *out)
{
    int page_size = glue_page_size(in->has_MaxResults, in->MaxResults, GET_TABLES_DEFAULT_PAGE, GET_TABLES_MAX_PAGE);
    floe_table_list_query_t q = {0};
    floe_table_row_t *rows, *found;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    const char *listing;
    size_t n, n_found = 0;

    if (lookup_database(call, in->CatalogId, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    listing = floe_call_printf(&call->super, "GetTables|%s|%s|%s", bucket.bucket_id, ns.name,
                               in->Expression ? in->Expression : "");
    q.bucket = &bucket;
    q.ns = &ns;
    q.after_ns = ns.name;
    q.after_name = "";
    if (in->NextToken != NULL && (q.after_name = floe_page_token_decode(&call->super, listing, in->NextToken)) == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The next token is not valid.");
    q.limit = page_size + 1; /* one more tells whether another page follows */
    found = floe_call_alloc(&call->super, sizeof(*found) * (size_t)(page_size + 1));
    /* pull pages until page_size + 1 names match or the namespace has no more tables */
    do {
        if (floe_table_list(&call->super, &q, &rows, &n))
            return glue_fail_from_catalog(call, NULL);
        for (size_t i = 0; i < n && n_found <= (size_t)page_size; i++) {
            if (in->Expression == NULL || name_matches(in->Expression, rows[i].name))
                found[n_found++] = rows[i];
        }
        if (n > 0)
            q.after_name = rows[n - 1].name;
    } while (n == (size_t)q.limit && n_found <= (size_t)page_size);
    if (n_found > (size_t)page_size) {
        n_found = (size_t)page_size;
        out->NextToken = floe_page_token_encode(&call->super, listing, found[n_found - 1].name);
    }
    out->TableList = FLOE_GLUE_NEW(call, TableList);
    out->TableList->n = n_found;
    out->TableList->items = floe_call_alloc(&call->super, sizeof(floe_glue_Table) * (n_found + 1));
    for (size_t i = 0; i < n_found; i++) {
        if (fill_table(call, &found[i], &out->TableList->items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}
