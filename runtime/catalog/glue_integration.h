/*
 * The Glue Data Catalog's S3 Tables integration as the catalog stores it: whether an account and
 * region has the federated catalog `s3tablescatalog` (AWS: "Integrating Amazon S3 Tables with AWS
 * analytics services"), with what it was created with. Its child catalogs (one per table bucket),
 * databases (namespaces) and tables are the S3 Tables rows themselves, read through
 * catalog/table_bucket.h, namespace.h and table.h, so Glue always sees their current state.
 *
 * This is state only: the Glue API's rules and messages are in handlers/glue/. A SQLite failure
 * fails the call with a failure inside (FLOE_EFAIL) and returns FLOE_EFAIL; what the API answers
 * with a modeled error (the catalog exists already, or not at all) comes back as an OUT flag.
 */
#ifndef FLOE_CATALOG_GLUE_INTEGRATION_H
#define FLOE_CATALOG_GLUE_INTEGRATION_H

#include <stdbool.h>

#include "call/call.h"

/** The name of the federated catalog the integration creates. */
#define FLOE_GLUE_S3TABLES_CATALOG "s3tablescatalog"

/** The integration's catalog as stored; strings in the call's pool. */
typedef struct floe_glue_catalog_row {
    char *name;
    char *description;
    char *identifier;      /* FederatedCatalog.Identifier: arn:aws:s3tables:<region>:<account>:bucket/ and a star */
    char *connection_name; /* FederatedCatalog.ConnectionName: aws:s3tables */
    char *allow_full_table_external_data_access; /* "True", "False" or NULL */
    floe_timestamp_t created_at;
} floe_glue_catalog_row_t;

/**
 * Whether the call's account and region has the s3tablescatalog integration. FLOE_OK with
 * *is_integrated set (and *out filled when `out` is not NULL and it is), or FLOE_EFAIL.
 */
int floe_glue_integration_read(floe_call_t *call, bool *is_integrated /* OUT */,
                               floe_glue_catalog_row_t *out /* OUT, may be NULL */);

/**
 * Whether account `account_id` has the integration in `region`, for callers that are not Glue
 * requests (the Glue Iceberg REST endpoint, the console). FLOE_OK with *is_integrated set, or
 * FLOE_EFAIL.
 */
int floe_glue_integration_exists(floe_call_t *call, const char *account_id, const char *region,
                                 bool *is_integrated /* OUT */);

/** Stores the integration of the call's account and region, created now. FLOE_OK with *is_taken
 * false, or with *is_taken true and nothing written when it exists already; FLOE_EFAIL. */
int floe_glue_integration_insert(floe_call_t *call, const floe_glue_catalog_row_t *row, bool *is_taken /* OUT */);

/** Removes the integration of the call's account and region; *was_there says whether it existed.
 * The table buckets and everything in them stay. */
int floe_glue_integration_remove(floe_call_t *call, bool *was_there /* OUT */);

#endif
