/*
 * The shared names and error mapping of glue_names.h.
 */
#include <string.h>

#include "catalog/glue_integration.h"
#include "glue_names.h"

void glue_catalog_ref_parse(floe_awsjson_call_t *call, const char *catalog_id, glue_catalog_ref_t *out)
{
    const char *account = floe_call_account(&call->super), *rest = catalog_id;
    size_t n_account = strlen(account), n_root = strlen(FLOE_GLUE_S3TABLES_CATALOG);

    out->bucket = NULL;
    if (catalog_id == NULL || strcmp(catalog_id, account) == 0) {
        out->kind = GLUE_CATALOG_DEFAULT;
        return;
    }
    if (strncmp(rest, account, n_account) == 0 && rest[n_account] == ':')
        rest += n_account + 1;
    out->kind = GLUE_CATALOG_OTHER;
    if (strncmp(rest, FLOE_GLUE_S3TABLES_CATALOG, n_root) != 0)
        return;
    if (rest[n_root] == '\0') {
        out->kind = GLUE_CATALOG_S3TABLES;
    } else if (rest[n_root] == '/' && rest[n_root + 1] != '\0' && strchr(rest + n_root + 1, '/') == NULL) {
        out->kind = GLUE_CATALOG_BUCKET;
        out->bucket = floe_call_strdup(&call->super, rest + n_root + 1);
    }
}

int glue_fail_catalog_not_found(floe_awsjson_call_t *call, const char *catalog_id)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Catalog not found: %s",
                          catalog_id != NULL ? catalog_id : floe_call_account(&call->super));
}

int glue_bucket_of_catalog(floe_awsjson_call_t *call, const char *catalog_id, floe_bucket_row_t *out)
{
    glue_catalog_ref_t ref;
    bool is_integrated;

    glue_catalog_ref_parse(call, catalog_id, &ref);
    if (ref.kind != GLUE_CATALOG_BUCKET)
        return glue_fail_catalog_not_found(call, catalog_id);
    if (floe_glue_integration_read(&call->super, &is_integrated, NULL))
        return FLOE_EFAIL;
    if (!is_integrated)
        return glue_fail_catalog_not_found(call, catalog_id);
    if (floe_lookup_bucket(&call->super, floe_call_printf(&call->super, "%s%s", call->super.arn_bucket_prefix,
                                                          ref.bucket), out))
        return call->super.failure.code == FLOE_ENOTFOUND ? glue_fail_catalog_not_found(call, catalog_id)
                                                                 : FLOE_EFAIL;
    return FLOE_OK;
}

char *glue_child_catalog_id(floe_awsjson_call_t *call, const char *bucket)
{
    return floe_call_printf(&call->super, "%s:%s/%s", floe_call_account(&call->super), FLOE_GLUE_S3TABLES_CATALOG,
                            bucket);
}

int glue_page_size(bool has_max_results, int32_t max_results, int fallback, int max)
{
    int n = has_max_results && max_results > 0 ? max_results : fallback;
    return n > max ? max : n;
}
