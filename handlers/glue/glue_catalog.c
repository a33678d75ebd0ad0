/*
 * Glue's catalogs, as the S3 Tables integration has them: CreateCatalog, GetCatalog, GetCatalogs
 * and DeleteCatalog for the federated catalog `s3tablescatalog` (catalog/glue_integration.h)
 * and its child catalogs, one per table bucket of the account and region (catalog/table_bucket.h),
 * plus GetCatalogImportStatus. The integration's input is the one AWS's guide gives
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-integrating-aws.html):
 *
 *   aws glue create-catalog --name s3tablescatalog --catalog-input (JSON):
 *     FederatedCatalog {Identifier arn:aws:s3tables:<region>:<account>:bucket/ followed by a star,
 *     ConnectionName aws:s3tables}, CreateDatabaseDefaultPermissions [], CreateTableDefaultPermissions []
 */
#include <string.h>

#include "catalog/glue_integration.h"
#include "catalog/table_bucket.h"
#include "glue_names.h"

#define CONNECTION_NAME "aws:s3tables"
#define GET_CATALOGS_DEFAULT_PAGE 100 /* AWS: MaxResults 1..1000 */
#define GET_CATALOGS_MAX_PAGE 1000

/* The Identifier the integration's FederatedCatalog must carry: every table bucket of the account
 * and region. */
static char *integration_identifier(floe_awsjson_call_t *call)
{
    return floe_call_printf(&call->super, "%s*", call->super.arn_bucket_prefix);
}

static int check_integration_input(floe_awsjson_call_t *call, const floe_glue_CreateCatalogRequest *in)
{
    const floe_glue_FederatedCatalog *fed = in->CatalogInput->FederatedCatalog;

    if (strcmp(in->Name, FLOE_GLUE_S3TABLES_CATALOG) != 0 || fed == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Floe's Glue Data Catalog creates only the S3 Tables integration: Name %s with a "
                              "FederatedCatalog whose ConnectionName is %s.",
                              FLOE_GLUE_S3TABLES_CATALOG, CONNECTION_NAME);
    if (fed->ConnectionName == NULL || strcmp(fed->ConnectionName, CONNECTION_NAME) != 0)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "ConnectionName must be %s.",
                              CONNECTION_NAME);
    if (fed->Identifier == NULL || strcmp(fed->Identifier, integration_identifier(call)) != 0)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "FederatedCatalog Identifier must be %s, every table bucket of the account and region.",
                              integration_identifier(call));
    return FLOE_OK;
}

int floe_glue_handle_CreateCatalog(floe_awsjson_call_t *call, const floe_glue_CreateCatalogRequest *in,
                                   floe_glue_CreateCatalogResponse *out)
{
    const floe_glue_CatalogInput *input = in->CatalogInput;
    floe_glue_catalog_row_t row = {0};
    bool is_taken;
    (void)out;

    if (check_integration_input(call, in))
        return FLOE_EFAIL;
    row.name = in->Name;
    row.description = input->Description;
    row.identifier = input->FederatedCatalog->Identifier;
    row.connection_name = input->FederatedCatalog->ConnectionName;
    if (input->AllowFullTableExternalDataAccess != 0)
        row.allow_full_table_external_data_access =
            input->AllowFullTableExternalDataAccess == FLOE_GLUE_AllowFullTableExternalDataAccessEnum_True ? "True"
                                                                                                            : "False";
    if (floe_glue_integration_insert(&call->super, &row, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Catalog already exists: %s", in->Name);
    return FLOE_OK;
}

static floe_glue_PrincipalPermissionsList *no_permissions(floe_awsjson_call_t *call)
{
    return FLOE_GLUE_NEW(call, PrincipalPermissionsList);
}

/* The integration's own catalog as GetCatalog answers it. */
static void fill_root(floe_awsjson_call_t *call, const floe_glue_catalog_row_t *row, floe_glue_Catalog *c)
{
    const char *account = floe_call_account(&call->super);

    c->CatalogId = floe_call_printf(&call->super, "%s:%s", account, FLOE_GLUE_S3TABLES_CATALOG);
    c->Name = row->name;
    c->ResourceArn = floe_call_printf(&call->super, "arn:aws:glue:%s:%s:catalog/%s", floe_call_region(&call->super),
                                      account, row->name);
    c->Description = row->description;
    c->CreateTime = c->UpdateTime = row->created_at;
    c->has_CreateTime = c->has_UpdateTime = true;
    c->FederatedCatalog = FLOE_GLUE_NEW(call, FederatedCatalog);
    c->FederatedCatalog->Identifier = row->identifier;
    c->FederatedCatalog->ConnectionName = row->connection_name;
    c->CreateTableDefaultPermissions = no_permissions(call);
    c->CreateDatabaseDefaultPermissions = no_permissions(call);
    if (row->allow_full_table_external_data_access != NULL)
        c->AllowFullTableExternalDataAccess = strcmp(row->allow_full_table_external_data_access, "True") == 0
                                                  ? FLOE_GLUE_AllowFullTableExternalDataAccessEnum_True
                                                  : FLOE_GLUE_AllowFullTableExternalDataAccessEnum_False;
}

/* A table bucket's child catalog. */
static void fill_child(floe_awsjson_call_t *call, const floe_bucket_row_t *bucket, floe_glue_Catalog *c)
{
    c->CatalogId = glue_child_catalog_id(call, bucket->name);
    c->Name = bucket->name;
    c->ResourceArn = floe_call_printf(&call->super, "arn:aws:glue:%s:%s:catalog/%s/%s", floe_call_region(&call->super),
                                      floe_call_account(&call->super), FLOE_GLUE_S3TABLES_CATALOG, bucket->name);
    c->CreateTime = c->UpdateTime = bucket->created_at;
    c->has_CreateTime = c->has_UpdateTime = true;
    c->FederatedCatalog = FLOE_GLUE_NEW(call, FederatedCatalog);
    c->FederatedCatalog->Identifier = bucket->arn;
    c->FederatedCatalog->ConnectionName = CONNECTION_NAME;
    c->CreateTableDefaultPermissions = no_permissions(call);
    c->CreateDatabaseDefaultPermissions = no_permissions(call);
}

/* The integration's row, or EntityNotFoundException naming `catalog_id` when there is none. */
static int read_integration(floe_awsjson_call_t *call, const char *catalog_id, floe_glue_catalog_row_t *row)
{
    bool is_integrated;

    if (floe_glue_integration_read(&call->super, &is_integrated, row))
        return FLOE_EFAIL;
    return is_integrated ? FLOE_OK : glue_fail_catalog_not_found(call, catalog_id);
}

int floe_glue_handle_GetCatalog(floe_awsjson_call_t *call, const floe_glue_GetCatalogRequest *in,
                                floe_glue_GetCatalogResponse *out)
{
    floe_glue_catalog_row_t row;
    floe_bucket_row_t bucket;
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    out->Catalog = FLOE_GLUE_NEW(call, Catalog);
    if (ref.kind == GLUE_CATALOG_S3TABLES) {
        if (read_integration(call, in->CatalogId, &row))
            return FLOE_EFAIL;
        fill_root(call, &row, out->Catalog);
        return FLOE_OK;
    }
    if (ref.kind != GLUE_CATALOG_BUCKET)
        return glue_fail_catalog_not_found(call, in->CatalogId);
    if (glue_bucket_of_catalog(call, in->CatalogId, &bucket))
        return FLOE_EFAIL;
    fill_child(call, &bucket, out->Catalog);
    return FLOE_OK;
}

/* One page of child catalogs after the root (when `with_root`), resuming at `token`. */
static int list_children(floe_awsjson_call_t *call, const floe_glue_catalog_row_t *root, const char *token,
                         int page_size, floe_glue_GetCatalogsResponse *out)
{
    floe_table_bucket_page_t page;
    int rc = floe_table_bucket_list(&call->super, NULL, NULL, token, page_size, &page);
    size_t extra = root != NULL ? 1 : 0;

    if (rc == FLOE_EINVAL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "The next token is not valid.");
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    out->CatalogList = FLOE_GLUE_NEW(call, CatalogList);
    out->CatalogList->n = page.n + extra;
    out->CatalogList->items = floe_call_alloc(&call->super, sizeof(floe_glue_Catalog) * (page.n + extra + 1));
    if (root != NULL)
        fill_root(call, root, &out->CatalogList->items[0]);
    for (size_t i = 0; i < page.n; i++)
        fill_child(call, &page.items[i], &out->CatalogList->items[i + extra]);
    out->NextToken = page.continuation_token;
    return FLOE_OK;
}

int floe_glue_handle_GetCatalogs(floe_awsjson_call_t *call, const floe_glue_GetCatalogsRequest *in,
                                 floe_glue_GetCatalogsResponse *out)
{
    int page_size =
        glue_page_size(in->has_MaxResults, in->MaxResults, GET_CATALOGS_DEFAULT_PAGE, GET_CATALOGS_MAX_PAGE);
    floe_glue_catalog_row_t row;
    glue_catalog_ref_t ref;
    bool is_integrated;

    glue_catalog_ref_parse(call, in->ParentCatalogId, &ref);
    if (ref.kind != GLUE_CATALOG_DEFAULT && ref.kind != GLUE_CATALOG_S3TABLES)
        return glue_fail_catalog_not_found(call, in->ParentCatalogId);
    if (floe_glue_integration_read(&call->super, &is_integrated, &row))
        return FLOE_EFAIL;
    if (ref.kind == GLUE_CATALOG_S3TABLES) {
        if (!is_integrated)
            return glue_fail_catalog_not_found(call, in->ParentCatalogId);
        return list_children(call, NULL, in->NextToken, page_size, out);
    }
    /* the default catalog's children: the integration, and with Recursive its children too */
    if (in->Recursive && is_integrated)
        return list_children(call, in->NextToken == NULL ? &row : NULL, in->NextToken, page_size, out);
    out->CatalogList = FLOE_GLUE_NEW(call, CatalogList);
    if (is_integrated) {
        out->CatalogList->n = 1;
        out->CatalogList->items = FLOE_GLUE_NEW(call, Catalog);
        fill_root(call, &row, &out->CatalogList->items[0]);
    }
    return FLOE_OK;
}

int floe_glue_handle_DeleteCatalog(floe_awsjson_call_t *call, const floe_glue_DeleteCatalogRequest *in,
                                   floe_glue_DeleteCatalogResponse *out)
{
    glue_catalog_ref_t ref;
    bool was_there;
    (void)out;

    glue_catalog_ref_parse(call, in->CatalogId, &ref);
    if (ref.kind == GLUE_CATALOG_BUCKET)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "A table bucket's catalog goes with its table bucket: delete the bucket with the S3 "
                              "Tables API.");
    if (ref.kind != GLUE_CATALOG_S3TABLES)
        return glue_fail_catalog_not_found(call, in->CatalogId);
    if (floe_glue_integration_remove(&call->super, &was_there))
        return FLOE_EFAIL;
    return was_there ? FLOE_OK : glue_fail_catalog_not_found(call, in->CatalogId);
}

int floe_glue_handle_GetCatalogImportStatus(floe_awsjson_call_t *call,
                                            const floe_glue_GetCatalogImportStatusRequest *in,
                                            floe_glue_GetCatalogImportStatusResponse *out)
{
    (void)in;
    out->ImportStatus = FLOE_GLUE_NEW(call, CatalogImportStatus);
    out->ImportStatus->ImportCompleted = true; /* there never was an Athena catalog to import */
    return FLOE_OK;
}
