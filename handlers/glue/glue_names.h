/*
 * What every Glue handler shares: reading a CatalogId as the S3 Tables integration names
 * catalogs, resolving a child catalog to its table bucket, Glue's names and ARNs for what the S3
 * Tables API holds. A catalog failure stays recorded on call->super: awsjson.c maps it to Glue's error.
 *
 * Names (AWS, "Integrating Amazon S3 Tables with AWS analytics services"): the integration's
 * federated catalog is `s3tablescatalog`, each table bucket a child catalog
 * `<account>:s3tablescatalog/<bucket>`, each namespace a database and each table a table. A
 * CatalogId may leave out `<account>:`; naming another account's catalogs finds nothing.
 */
#ifndef FLOE_HANDLERS_GLUE_NAMES_H
#define FLOE_HANDLERS_GLUE_NAMES_H

#include "catalog/lookup.h"
#include "glue_api.h"

/** What a CatalogId names. */
typedef enum glue_catalog_kind {
    GLUE_CATALOG_DEFAULT = 1, /* absent, or the account's own id: Floe's default catalog, empty */
    GLUE_CATALOG_S3TABLES,    /* s3tablescatalog */
    GLUE_CATALOG_BUCKET,      /* s3tablescatalog/<bucket> */
    GLUE_CATALOG_OTHER,       /* anything else: no such catalog here */
} glue_catalog_kind_t;

typedef struct glue_catalog_ref {
    glue_catalog_kind_t kind;
    const char *bucket; /* GLUE_CATALOG_BUCKET: the table bucket's name, in the pool */
} glue_catalog_ref_t;

/** Reads `catalog_id` (NULL: the default catalog) in the call's account. */
void glue_catalog_ref_parse(floe_awsjson_call_t *call, const char *catalog_id, glue_catalog_ref_t *out /* OUT */);

/**
 * The table bucket the child catalog `catalog_id` names, when the account and region has the
 * integration and the bucket exists; else fails the call with EntityNotFoundException and AWS's
 * message. FLOE_OK or FLOE_EFAIL.
 */
int glue_bucket_of_catalog(floe_awsjson_call_t *call, const char *catalog_id, floe_bucket_row_t *out /* OUT */);

/** "<account>:s3tablescatalog/<bucket>", in the pool. */
char *glue_child_catalog_id(floe_awsjson_call_t *call, const char *bucket);

/** The EntityNotFoundException of a catalog. */
int glue_fail_catalog_not_found(floe_awsjson_call_t *call, const char *catalog_id);

/** The page size of a listing: MaxResults when given, else `fallback`; never above `max`. */
int glue_page_size(bool has_max_results, int32_t max_results, int fallback, int max);

#endif
