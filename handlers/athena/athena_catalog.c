/*
 * Athena's view of the Data Catalog: ListDataCatalogs, GetDataCatalog, ListDatabases,
 * GetDatabase, ListTableMetadata, GetTableMetadata. `AwsDataCatalog` is Glue's default catalog,
 * whose databases (catalog/glue_database.h: made by Glue's CreateDatabase or a CREATE SCHEMA in
 * it) hold the tables Glue's CreateTable made (catalog/glue_table.h); with the Glue integration
 * (catalog/glue_integration.h), `s3tablescatalog` and a catalog `s3tablescatalog/<bucket>` per
 * table bucket, whose databases are the bucket's namespaces and whose tables its tables, read
 * from the rows the S3 Tables API writes.
 */
#include <string.h>

#include "athena_common.h"
#include "catalog/glue_database.h"
#include "catalog/glue_integration.h"
#include "catalog/glue_table.h"
#include "catalog/namespace.h"
#include "catalog/table.h"
#include "catalog/table_bucket.h"
#include "catalog/table_schema.h"

#define AWS_DATA_CATALOG "AwsDataCatalog"
#define CATALOGS_DEFAULT_PAGE 50 /* AWS: MaxResults 2..50 */
#define CATALOGS_MAX_PAGE 50
#define DATABASES_DEFAULT_PAGE 50 /* AWS: MaxResults 1..50 */
#define DATABASES_MAX_PAGE 50
#define TABLES_DEFAULT_PAGE 50 /* AWS: MaxResults 1..50 */
#define TABLES_MAX_PAGE 50

/* What a CatalogName names. */
typedef enum athena_catalog_kind {
    CATALOG_DEFAULT = 1, /* AwsDataCatalog */
    CATALOG_S3TABLES,    /* s3tablescatalog, with the integration */
    CATALOG_BUCKET,      /* s3tablescatalog/<bucket>, with the integration and the bucket */
} athena_catalog_kind_t;

static int catalog_not_found(floe_awsjson_call_t *call, const char *name)
{
    return floe_athena_fail(call, FLOE_ATHENA_ERR_InvalidRequestException, "Catalog %s was not found.", name);
}

/* Resolves `name`; for a bucket's catalog fills *bucket. Fails the call for a catalog that is not. */
static int resolve_catalog(floe_awsjson_call_t *call, const char *name, athena_catalog_kind_t *kind,
                           floe_bucket_row_t *bucket)
{
    size_t root = strlen(FLOE_GLUE_S3TABLES_CATALOG);
    bool is_integrated;

    if (strcmp(name, AWS_DATA_CATALOG) == 0) {
        *kind = CATALOG_DEFAULT;
        return FLOE_OK;
    }
    if (strncmp(name, FLOE_GLUE_S3TABLES_CATALOG, root) != 0 || (name[root] != '\0' && name[root] != '/'))
        return catalog_not_found(call, name);
    if (floe_glue_integration_read(&call->super, &is_integrated, NULL))
        return floe_athena_fail_internal(call, "reading the Glue integration");
    if (!is_integrated)
        return catalog_not_found(call, name);
    *kind = name[root] == '\0' ? CATALOG_S3TABLES : CATALOG_BUCKET;
    if (*kind == CATALOG_S3TABLES)
        return FLOE_OK;
    if (strchr(name + root + 1, '/') != NULL ||
        floe_lookup_bucket(&call->super,
                           floe_call_printf(&call->super, "%s%s", call->super.arn_bucket_prefix, name + root + 1), bucket))
        return call->super.failure.code == FLOE_ENOTFOUND || strchr(name + root + 1, '/') != NULL
                   ? catalog_not_found(call, name)
                   : floe_athena_fail_internal(call, "reading a table bucket");
    return FLOE_OK;
}

static floe_athena_ParametersMap *parameters(floe_awsjson_call_t *call, size_t n, const char *const *kv)
{
    floe_athena_ParametersMap *p = FLOE_ATHENA_NEW(call, ParametersMap);

    p->keys = floe_call_alloc(&call->super, sizeof(char *) * (n + 1));
    p->values = floe_call_alloc(&call->super, sizeof(char *) * (n + 1));
    for (size_t i = 0; i < n; i++, p->n++) {
        p->keys[i] = (char *)kv[2 * i];
        p->values[i] = (char *)kv[2 * i + 1];
    }
    return p;
}

/* The Glue catalog id an Athena catalog stands for: the account's, or the integration's. */
static char *glue_catalog_id(floe_awsjson_call_t *call, const char *name)
{
    const char *account = floe_call_account(&call->super);
    return strcmp(name, AWS_DATA_CATALOG) == 0 ? (char *)account
                                               : floe_call_printf(&call->super, "%s:%s", account, name);
}

static void add_summary(floe_awsjson_call_t *call, floe_athena_ListDataCatalogsOutput *out, const char *name)
{
    floe_athena_DataCatalogSummary *s = &out->DataCatalogsSummary->items[out->DataCatalogsSummary->n++];

    s->CatalogName = (char *)name;
    s->Type = FLOE_ATHENA_DataCatalogType_GLUE;
    (void)call;
}

int floe_athena_handle_ListDataCatalogs(floe_awsjson_call_t *call, const floe_athena_ListDataCatalogsInput *in,
                                        floe_athena_ListDataCatalogsOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, CATALOGS_DEFAULT_PAGE, CATALOGS_MAX_PAGE);
    bool is_first = in->NextToken == NULL, is_integrated;
    floe_table_bucket_page_t buckets = {0};
    int rc;

    if (floe_glue_integration_read(&call->super, &is_integrated, NULL))
        return floe_athena_fail_internal(call, "reading the Glue integration");
    out->DataCatalogsSummary = FLOE_ATHENA_NEW(call, DataCatalogSummaryList);
    out->DataCatalogsSummary->items = floe_call_alloc(&call->super, sizeof(floe_athena_DataCatalogSummary) * (page + 2));
    if (is_first)
        add_summary(call, out, AWS_DATA_CATALOG);
    if (is_first && is_integrated)
        add_summary(call, out, FLOE_GLUE_S3TABLES_CATALOG);
    if (!is_integrated || (int)out->DataCatalogsSummary->n >= page)
        return FLOE_OK;
    rc = floe_table_bucket_list(&call->super, NULL, NULL, in->NextToken, page - (int)out->DataCatalogsSummary->n,
                                &buckets);
    if (rc == FLOE_EINVAL)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_INPUT",
                                       "Malformed nextPageToken %s", in->NextToken);
    if (rc != FLOE_OK)
        return floe_athena_fail_internal(call, "listing table buckets");
    for (size_t i = 0; i < buckets.n; i++)
        add_summary(call, out,
                    floe_call_printf(&call->super, "%s/%s", FLOE_GLUE_S3TABLES_CATALOG, buckets.items[i].name));
    out->NextToken = buckets.continuation_token;
    return FLOE_OK;
}

int floe_athena_handle_GetDataCatalog(floe_awsjson_call_t *call, const floe_athena_GetDataCatalogInput *in,
                                      floe_athena_GetDataCatalogOutput *out)
{
    athena_catalog_kind_t kind;
    floe_bucket_row_t bucket;
    const char *kv[2];

    if (resolve_catalog(call, in->Name, &kind, &bucket))
        return FLOE_EFAIL;
    kv[0] = "catalog-id";
    kv[1] = glue_catalog_id(call, in->Name);
    out->DataCatalog = FLOE_ATHENA_NEW(call, DataCatalog);
    out->DataCatalog->Name = in->Name;
    out->DataCatalog->Type = FLOE_ATHENA_DataCatalogType_GLUE;
    out->DataCatalog->Parameters = parameters(call, 1, kv);
    if (kind == CATALOG_DEFAULT)
        out->DataCatalog->Description = "AWS Glue Data Catalog";
    return FLOE_OK;
}

static int database_not_found(floe_awsjson_call_t *call, const char *name)
{
    return floe_athena_fail(call, FLOE_ATHENA_ERR_MetadataException, "Database %s not found.", name);
}

/* The namespace a bucket's catalog and DatabaseName name; MetadataException for any other. */
static int resolve_database(floe_awsjson_call_t *call, const char *catalog, const char *database,
                            floe_bucket_row_t *bucket, floe_namespace_row_t *ns)
{
    athena_catalog_kind_t kind;

    if (resolve_catalog(call, catalog, &kind, bucket))
        return FLOE_EFAIL;
    if (kind != CATALOG_BUCKET)
        return database_not_found(call, database);
    if (floe_lookup_namespace(&call->super, bucket, database, ns))
        return call->super.failure.code == FLOE_ENOTFOUND ? database_not_found(call, database)
                                                                 : floe_athena_fail_internal(call, "reading a namespace");
    return FLOE_OK;
}

/* A database of AwsDataCatalog: FLOE_OK with *row, FLOE_ENOTFOUND when `catalog` is another or it
 * has no such database, FLOE_EFAIL (the call failed). */
static int default_database(floe_awsjson_call_t *call, const char *catalog, const char *database,
                            floe_glue_database_row_t *row)
{
    int rc;

    if (strcmp(catalog, AWS_DATA_CATALOG) != 0)
        return FLOE_ENOTFOUND;
    rc = floe_glue_database_read(&call->super, floe_glue_database_name(&call->super, database), row);
    return rc == FLOE_EFAIL ? floe_athena_fail_internal(call, "reading a Glue database") : rc;
}

static void fill_default_database(floe_awsjson_call_t *call, const floe_glue_database_row_t *row,
                                  floe_athena_Database *d)
{
    d->Name = row->name;
    d->Description = row->description;
    d->Parameters = FLOE_ATHENA_NEW(call, ParametersMap);
    d->Parameters->n = row->n_parameters;
    d->Parameters->keys = row->keys;
    d->Parameters->values = row->values;
}

int floe_athena_handle_GetDatabase(floe_awsjson_call_t *call, const floe_athena_GetDatabaseInput *in,
                                   floe_athena_GetDatabaseOutput *out)
{
    floe_glue_database_row_t row;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    int rc = default_database(call, in->CatalogName, in->DatabaseName, &row);

    out->Database = FLOE_ATHENA_NEW(call, Database);
    if (rc != FLOE_ENOTFOUND) {
        if (rc == FLOE_OK)
            fill_default_database(call, &row, out->Database);
        return rc;
    }
    if (resolve_database(call, in->CatalogName, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    out->Database->Name = ns.name;
    out->Database->Parameters = parameters(call, 0, NULL);
    return FLOE_OK;
}

static int list_default_databases(floe_awsjson_call_t *call, const char *listing, const char *after, int page,
                                  floe_athena_ListDatabasesOutput *out)
{
    floe_glue_database_row_t *rows;
    size_t n;

    if (floe_glue_database_list(&call->super, after, page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing Glue databases");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token(call, listing, rows[n - 1].name);
    }
    out->DatabaseList->n = n;
    out->DatabaseList->items = floe_call_alloc(&call->super, sizeof(floe_athena_Database) * (n + 1));
    for (size_t i = 0; i < n; i++)
        fill_default_database(call, &rows[i], &out->DatabaseList->items[i]);
    return FLOE_OK;
}

int floe_athena_handle_ListDatabases(floe_awsjson_call_t *call, const floe_athena_ListDatabasesInput *in,
                                     floe_athena_ListDatabasesOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, DATABASES_DEFAULT_PAGE, DATABASES_MAX_PAGE);
    const char *listing = floe_call_printf(&call->super, "ListDatabases|%s", in->CatalogName);
    const char *after = athena_page_after(call, listing, in->NextToken);
    athena_catalog_kind_t kind;
    floe_namespace_row_t *rows;
    floe_bucket_row_t bucket;
    size_t n = 0;

    out->DatabaseList = FLOE_ATHENA_NEW(call, DatabaseList);
    if (after == NULL || resolve_catalog(call, in->CatalogName, &kind, &bucket))
        return FLOE_EFAIL;
    if (kind == CATALOG_DEFAULT)
        return list_default_databases(call, listing, after, page, out);
    if (kind != CATALOG_BUCKET)
        return FLOE_OK;
    if (floe_namespace_list(&call->super, bucket.id, after, NULL, page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing namespaces");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token(call, listing, rows[n - 1].name);
    }
    out->DatabaseList->n = n;
    out->DatabaseList->items = floe_call_alloc(&call->super, sizeof(floe_athena_Database) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        out->DatabaseList->items[i].Name = rows[i].name;
        out->DatabaseList->items[i].Parameters = parameters(call, 0, NULL);
    }
    return FLOE_OK;
}

/* A table as Athena describes an S3 table: an external Iceberg table with its current schema's
 * columns, typed as Glue names them. */
static int fill_table(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_athena_TableMetadata *m)
{
    const char *kv[4] = {"table_type", "ICEBERG", "metadata_location", t->metadata_location};
    floe_table_column_t *columns;
    size_t n;

    if (floe_table_schema_columns(&call->super, t, &columns, &n))
        return floe_athena_fail_internal(call, "reading a table's schema");
    m->Name = t->name;
    m->CreateTime = t->created_at;
    m->has_CreateTime = true;
    m->TableType = "EXTERNAL_TABLE";
    m->Columns = FLOE_ATHENA_NEW(call, ColumnList);
    m->Columns->items = floe_call_alloc(&call->super, sizeof(floe_athena_Column) * (n + 1));
    for (size_t i = 0; i < n; i++, m->Columns->n++) {
        m->Columns->items[i].Name = columns[i].name;
        m->Columns->items[i].Type = columns[i].type;
        m->Columns->items[i].Comment = columns[i].comment;
    }
    m->PartitionKeys = FLOE_ATHENA_NEW(call, ColumnList);
    m->Parameters = parameters(call, t->metadata_location != NULL ? 2 : 1, kv);
    return FLOE_OK;
}

/* ---- the tables of AwsDataCatalog's databases ---- */

static floe_athena_ColumnList *athena_columns(floe_awsjson_call_t *call, const floe_glue_table_column_t *c, size_t n)
{
    floe_athena_ColumnList *out = FLOE_ATHENA_NEW(call, ColumnList);

    out->items = floe_call_alloc(&call->super, sizeof(floe_athena_Column) * (n + 1));
    for (size_t i = 0; i < n; i++, out->n++) {
        out->items[i].Name = c[i].name;
        out->items[i].Type = c[i].type;
        out->items[i].Comment = c[i].comment;
    }
    return out;
}

/* Athena's Parameters of a Glue table: the table's own, then its storage as Athena names it (AWS
 * CLI's get-table-metadata example: location, inputformat, outputformat, serde.serialization.lib,
 * serde.param.<name>). */
static floe_athena_ParametersMap *athena_parameters(floe_awsjson_call_t *call, const floe_glue_table_summary_t *s)
{
    const char *storage[] = {"location", s->location, "inputformat", s->input_format, "outputformat",
                             s->output_format, "serde.serialization.lib", s->serde_library};
    size_t n_storage = sizeof(storage) / sizeof(storage[0]) / 2;
    size_t max = s->parameters.n + n_storage + s->serde_parameters.n;
    const char **kv = floe_call_alloc(&call->super, sizeof(char *) * 2 * (max + 1));
    size_t n = 0;

    for (size_t i = 0; i < s->parameters.n; i++, n++) {
        kv[2 * n] = s->parameters.keys[i];
        kv[2 * n + 1] = s->parameters.values[i];
    }
    for (size_t i = 0; i < n_storage; i++) {
        if (storage[2 * i + 1] != NULL) {
            kv[2 * n] = storage[2 * i];
            kv[2 * n++ + 1] = storage[2 * i + 1];
        }
    }
    for (size_t i = 0; i < s->serde_parameters.n; i++, n++) {
        kv[2 * n] = floe_call_printf(&call->super, "serde.param.%s", s->serde_parameters.keys[i]);
        kv[2 * n + 1] = s->serde_parameters.values[i];
    }
    return parameters(call, n, kv);
}

/* A table of an AwsDataCatalog database as Athena describes a Glue table. */
static int fill_default_table(floe_awsjson_call_t *call, const floe_glue_table_row_t *row, floe_athena_TableMetadata *m)
{
    floe_glue_table_summary_t s;

    if (floe_glue_table_summarize(&call->super, row, &s))
        return FLOE_EFAIL;
    m->Name = row->name;
    m->CreateTime = row->created_at;
    m->has_CreateTime = true;
    m->LastAccessTime = s.last_access_time;
    m->has_LastAccessTime = s.has_last_access_time;
    m->TableType = s.table_type;
    m->Columns = athena_columns(call, s.columns, s.n_columns);
    m->PartitionKeys = athena_columns(call, s.partition_keys, s.n_partition_keys);
    m->Parameters = athena_parameters(call, &s);
    return FLOE_OK;
}

static int get_default_table(floe_awsjson_call_t *call, const floe_glue_database_row_t *db, const char *name,
                             floe_athena_GetTableMetadataOutput *out)
{
    floe_glue_table_row_t row;
    int rc = floe_glue_table_read(&call->super, db->name, floe_glue_database_name(&call->super, name), &row);

    if (rc == FLOE_ENOTFOUND)
        return floe_athena_fail(call, FLOE_ATHENA_ERR_MetadataException, "Table %s not found.", name);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    out->TableMetadata = FLOE_ATHENA_NEW(call, TableMetadata);
    return fill_default_table(call, &row, out->TableMetadata);
}

static int list_default_tables(floe_awsjson_call_t *call, const floe_glue_database_row_t *db, const char *listing,
                               const char *after, int page, floe_athena_ListTableMetadataOutput *out)
{
    floe_glue_table_row_t *rows;
    size_t n;

    if (floe_glue_table_list(&call->super, db->name, after, page + 1, &rows, &n))
        return FLOE_EFAIL;
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token(call, listing, rows[n - 1].name);
    }
    out->TableMetadataList->items = floe_call_alloc(&call->super, sizeof(floe_athena_TableMetadata) * (n + 1));
    for (size_t i = 0; i < n; i++, out->TableMetadataList->n++) {
        if (fill_default_table(call, &rows[i], &out->TableMetadataList->items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_athena_handle_GetTableMetadata(floe_awsjson_call_t *call, const floe_athena_GetTableMetadataInput *in,
                                        floe_athena_GetTableMetadataOutput *out)
{
    floe_glue_database_row_t db;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t t;
    int rc = default_database(call, in->CatalogName, in->DatabaseName, &db);

    if (rc != FLOE_ENOTFOUND)
        return rc == FLOE_OK ? get_default_table(call, &db, in->TableName, out) : rc;
    if (resolve_database(call, in->CatalogName, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &ns, in->TableName, &t))
        return call->super.failure.code == FLOE_ENOTFOUND
                   ? floe_athena_fail(call, FLOE_ATHENA_ERR_MetadataException, "Table %s not found.", in->TableName)
                   : floe_athena_fail_internal(call, "reading a table");
    out->TableMetadata = FLOE_ATHENA_NEW(call, TableMetadata);
    return fill_table(call, &t, out->TableMetadata);
}

int floe_athena_handle_ListTableMetadata(floe_awsjson_call_t *call, const floe_athena_ListTableMetadataInput *in,
                                         floe_athena_ListTableMetadataOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, TABLES_DEFAULT_PAGE, TABLES_MAX_PAGE);
    const char *listing = floe_call_printf(&call->super, "ListTableMetadata|%s|%s", in->CatalogName, in->DatabaseName);
    const char *after = athena_page_after(call, listing, in->NextToken);
    floe_table_list_query_t q = {.limit = page + 1};
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_glue_database_row_t row;
    floe_table_row_t *rows;
    size_t n;
    int rc;

    out->TableMetadataList = FLOE_ATHENA_NEW(call, TableMetadataList);
    if (after == NULL)
        return FLOE_EFAIL;
    if ((rc = default_database(call, in->CatalogName, in->DatabaseName, &row)) != FLOE_ENOTFOUND)
        return rc == FLOE_OK ? list_default_tables(call, &row, listing, after, page, out) : rc;
    if (resolve_database(call, in->CatalogName, in->DatabaseName, &bucket, &ns))
        return FLOE_EFAIL;
    q.bucket = &bucket;
    q.ns = &ns;
    q.after_ns = after[0] != '\0' ? ns.name : NULL;
    q.after_name = after[0] != '\0' ? after : NULL;
    if (floe_table_list(&call->super, &q, &rows, &n))
        return floe_athena_fail_internal(call, "listing tables");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token(call, listing, rows[n - 1].name);
    }
    out->TableMetadataList->n = n;
    out->TableMetadataList->items = floe_call_alloc(&call->super, sizeof(floe_athena_TableMetadata) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        if (fill_table(call, &rows[i], &out->TableMetadataList->items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}
