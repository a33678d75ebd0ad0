/*
 * Glue's databases in a table bucket's child catalog (`<account>:s3tablescatalog/<bucket>`): each
 * is a namespace of the bucket, read from and written to the same rows the S3 Tables API uses
 * (catalog/namespace.h), so a namespace made either way is a database at once. GetDatabase,
 * GetDatabases, CreateDatabase, DeleteDatabase. Floe's default catalog (no CatalogId) holds no
 * databases.
 */
#include <string.h>

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

int floe_glue_handle_GetDatabase(floe_awsjson_call_t *call, const floe_glue_GetDatabaseRequest *in,
                                 floe_glue_GetDatabaseResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return database_not_found(call, in->Name);
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
    const char *listing, *after = "";
    floe_namespace_row_t *rows;
    floe_bucket_row_t bucket;
    glue_catalog_ref_t ref;
    size_t n;

    out->DatabaseList = FLOE_GLUE_NEW(call, DatabaseList);
    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_DEFAULT)
        return FLOE_OK;
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket))
        return FLOE_EFAIL;
    listing = floe_call_printf(&call->super, "GetDatabases|%s", bucket.bucket_id);
    if (in->NextToken != NULL && (after = floe_page_token_decode(&call->super, listing, in->NextToken)) == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The next token is not valid.");
    /* one more row than the page tells whether another page follows */
    if (floe_namespace_list(&call->super, bucket.id, after, NULL, page_size + 1, &rows, &n))
        return FLOE_EFAIL;
    if (n > (size_t)page_size) {
        n = (size_t)page_size;
        out->NextToken = floe_page_token_encode(&call->super, listing, rows[n - 1].name);
    }
    out->DatabaseList->n = n;
    out->DatabaseList->items = floe_call_alloc(&call->super, sizeof(floe_glue_Database) * (n + 1));
    for (size_t i = 0; i < n; i++)
        fill_database(call, &bucket, &rows[i], &out->DatabaseList->items[i]);
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
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Floe's Glue Data Catalog holds databases only in a table bucket's catalog "
                              "(CatalogId <account>:s3tablescatalog/<bucket>).");
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
        return database_not_found(call, in->Name);
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
