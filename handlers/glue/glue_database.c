/*
 * Glue's databases in a table bucket's child catalog (`<account>:s3tablescatalog/<bucket>`): each
 * is a namespace of the bucket, read from and written to the same rows the S3 Tables API uses
 * (catalog/namespace.h), so a namespace made either way is a database at once. GetDatabase,
 * GetDatabases, CreateDatabase, DeleteDatabase. The account's default catalog (no CatalogId, or
 * the account's id) holds databases of its own (catalog/glue_database.h), made by CreateDatabase
 * or Athena's CREATE SCHEMA in AwsDataCatalog, which hold the tables of glue_table_default.c;
 * DeleteDatabase deletes those too.
 */
#include <string.h>

#include "catalog/glue_database.h"
#include "catalog/glue_table.h"
#include "catalog/namespace.h"
#include "catalog/page_token.h"
#include "catalog/rules.h"
#include "glue_names.h"

#define GET_DATABASES_DEFAULT_PAGE 100 /* AWS: MaxResults 1..100 */
#define GET_DATABASES_MAX_PAGE 100
#define NAMESPACE_NAME_MAX 255

static void fill_database(floe_awsjson_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                          floe_glue_Database *d)
{
    d->Name = ns->name;
    d->CatalogId = glue_child_catalog_id(call, bucket->name);
    d->CreateTime = ns->created_at;
    d->has_CreateTime = true;
    d->CreateTableDefaultPermissions = FLOE_GLUE_NEW(call, PrincipalPermissionsList);
}

static int database_not_found(floe_awsjson_call_t *call, const char *name)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Database %s not found.", name);
}

/* ---- the default catalog's own databases ---- */

static void fill_default_database(floe_awsjson_call_t *call, const floe_glue_database_row_t *row,
                                  floe_glue_Database *d)
{
    d->Name = row->name;
    d->Description = row->description;
    d->LocationUri = row->location_uri;
    d->Parameters = FLOE_GLUE_NEW(call, ParametersMap);
    d->Parameters->n = row->n_parameters;
    d->Parameters->keys = row->keys;
    d->Parameters->values = row->values;
    d->CatalogId = (char *)floe_call_account(&call->super);
    d->CreateTime = row->created_at;
    d->has_CreateTime = true;
    d->CreateTableDefaultPermissions = FLOE_GLUE_NEW(call, PrincipalPermissionsList);
}

static int get_default_database(floe_awsjson_call_t *call, const char *name, floe_glue_GetDatabaseResponse *out)
{
    floe_glue_database_row_t row;
    int rc = floe_glue_database_read(&call->super, floe_glue_database_name(&call->super, name), &row);

    if (rc == FLOE_ENOTFOUND)
        return database_not_found(call, name);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    out->Database = FLOE_GLUE_NEW(call, Database);
    fill_default_database(call, &row, out->Database);
    return FLOE_OK;
}

/* The cursor a NextToken of `listing` carries ("" without one), or NULL after failing the call. */
static const char *page_after(floe_awsjson_call_t *call, const char *listing, const char *next_token)
{
    const char *after = next_token != NULL ? floe_page_token_decode(&call->super, listing, next_token) : "";

    if (after == NULL)
        floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The next token is not valid.");
    return after;
}

/* Room for the n databases a listing read: one more than the page tells whether another follows. */
static floe_glue_Database *page_items(floe_awsjson_call_t *call, size_t n, floe_glue_GetDatabasesResponse *out)
{
    out->DatabaseList->n = n;
    out->DatabaseList->items = floe_call_alloc(&call->super, sizeof(floe_glue_Database) * (n + 1));
    return out->DatabaseList->items;
}

/* Cuts the filled list to the page, with NextToken its last name when another page follows. */
static void finish_page(floe_awsjson_call_t *call, const char *listing, int page_size,
                        floe_glue_GetDatabasesResponse *out)
{
    if (out->DatabaseList->n > (size_t)page_size) {
        out->DatabaseList->n = (size_t)page_size;
        out->NextToken = floe_page_token_encode(&call->super, listing, out->DatabaseList->items[page_size - 1].Name);
    }
}

static int list_default_databases(floe_awsjson_call_t *call, const floe_glue_GetDatabasesRequest *in, int page_size,
                                  floe_glue_GetDatabasesResponse *out)
{
    const char *listing = floe_call_printf(&call->super, "GetDatabases|default|%s", floe_call_region(&call->super));
    const char *after = page_after(call, listing, in->NextToken);
    floe_glue_database_row_t *rows;
    floe_glue_Database *items;
    size_t n;

    if (after == NULL || floe_glue_database_list(&call->super, after, page_size + 1, &rows, &n))
        return FLOE_EFAIL;
    items = page_items(call, n, out);
    for (size_t i = 0; i < n; i++)
        fill_default_database(call, &rows[i], &items[i]);
    finish_page(call, listing, page_size, out);
    return FLOE_OK;
}

static int create_default_database(floe_awsjson_call_t *call, const floe_glue_DatabaseInput *in)
{
    floe_glue_database_row_t row = {.name = floe_glue_database_name(&call->super, in->Name), .description = in->Description,
                                    .location_uri = in->LocationUri};
    int rc;

    if (in->Parameters != NULL) {
        row.n_parameters = in->Parameters->n;
        row.keys = in->Parameters->keys;
        row.values = in->Parameters->values;
    }
    rc = floe_glue_database_insert(&call->super, &row);
    if (rc == FLOE_EEXISTS)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Database already exists.");
    return rc;
}

static int delete_default_database(floe_awsjson_call_t *call, const char *name)
{
    int rc = floe_glue_table_drop_database(&call->super, floe_glue_database_name(&call->super, name));

    return rc == FLOE_ENOTFOUND ? database_not_found(call, name) : rc;
}

/* ---- the operations ---- */

int floe_glue_handle_GetDatabase(floe_awsjson_call_t *call, const floe_glue_GetDatabaseRequest *in,
                                 floe_glue_GetDatabaseResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return get_default_database(call, in->Name, out);
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket) ||
        floe_lookup_namespace(&call->super, &bucket, in->Name, &ns))
        return FLOE_EFAIL;
    out->Database = FLOE_GLUE_NEW(call, Database);
    fill_database(call, &bucket, &ns, out->Database);
    return FLOE_OK;
}

int floe_glue_handle_GetDatabases(floe_awsjson_call_t *call, const floe_glue_GetDatabasesRequest *in,
                                  floe_glue_GetDatabasesResponse *out)
{
    int page_size = glue_page_size(in->has_MaxResults, in->MaxResults, GET_DATABASES_DEFAULT_PAGE,
                                   GET_DATABASES_MAX_PAGE);
    const char *listing, *after;
    floe_namespace_row_t *rows;
    floe_glue_Database *items;
    floe_bucket_row_t bucket;
    glue_catalog_ref_t ref;
    size_t n;

    out->DatabaseList = FLOE_GLUE_NEW(call, DatabaseList);
    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return list_default_databases(call, in, page_size, out);
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket))
        return FLOE_EFAIL;
    listing = floe_call_printf(&call->super, "GetDatabases|%s", bucket.bucket_id);
    if ((after = page_after(call, listing, in->NextToken)) == NULL ||
        floe_namespace_list(&call->super, bucket.id, after, NULL, page_size + 1, &rows, &n))
        return FLOE_EFAIL;
    items = page_items(call, n, out);
    for (size_t i = 0; i < n; i++)
        fill_database(call, &bucket, &rows[i], &items[i]);
    finish_page(call, listing, page_size, out);
    return FLOE_OK;
}

/* S3 Tables' namespace rules (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html):
 * 1 to 255 lowercase letters, numbers and underscores, beginning and ending with a letter or a
 * number, not beginning with aws. Glue's own rule (any single line) is wider. */
static bool namespace_name_is_valid(const char *name)
{
    size_t n = strlen(name);

    if (n == 0 || n > NAMESPACE_NAME_MAX || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return false;
    return floe_rules_namespace_name_is_allowed(name);
}

int floe_glue_handle_CreateDatabase(floe_awsjson_call_t *call, const floe_glue_CreateDatabaseRequest *in,
                                    floe_glue_CreateDatabaseResponse *out)
{
    const char *name = in->DatabaseInput->Name;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    glue_catalog_ref_t ref;
    bool is_taken;
    (void)out;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return create_default_database(call, in->DatabaseInput);
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket))
        return FLOE_EFAIL;
    if (!namespace_name_is_valid(name))
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The specified namespace name is not valid.");
    if (floe_namespace_insert(&call->super, bucket.id, name, &ns, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Database already exists.");
    return FLOE_OK;
}

int floe_glue_handle_DeleteDatabase(floe_awsjson_call_t *call, const floe_glue_DeleteDatabaseRequest *in,
                                    floe_glue_DeleteDatabaseResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    glue_catalog_ref_t ref;
    bool has_tables;
    (void)out;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return delete_default_database(call, in->Name);
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket) ||
        floe_lookup_namespace(&call->super, &bucket, in->Name, &ns))
        return FLOE_EFAIL;
    if (floe_namespace_remove(&call->super, ns.id, &has_tables))
        return FLOE_EFAIL;
    if (has_tables)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Database %s is not empty: delete its tables first.", in->Name);
    return FLOE_OK;
}
