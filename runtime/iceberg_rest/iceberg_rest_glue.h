/*
 * The names the AWS Glue Iceberg REST endpoint (https://glue.<region>.amazonaws.com/iceberg, signed
 * for glue) gives a table bucket: once a bucket is integrated with the AWS analytics services it is
 * a child catalog of the federated `s3tablescatalog` catalog, named `<account>:s3tablescatalog/<bucket>`
 * in a client's `warehouse`. Glue's REST paths put every catalog under `/v1/catalogs/{catalog}`, and
 * {catalog} spells the nesting with ':' in place of '/' ("prefix style": `<account>:s3tablescatalog:<bucket>`),
 * so GET /v1/config answers the prefix `catalogs/<account>:s3tablescatalog:<bucket>`.
 * Pure functions: no state, no I/O.
 */
#ifndef FLOE_ICEBERG_REST_GLUE_H
#define FLOE_ICEBERG_REST_GLUE_H

#include <stddef.h>

#include "base/scope.h"

/** The federated catalog S3 table buckets are children of. */
#define FLOE_GLUE_S3TABLES_CATALOG "s3tablescatalog"
/** The literal path segment Glue's prefixes start with: /v1/catalogs/{catalog}/... */
#define FLOE_GLUE_CATALOGS_SEGMENT "catalogs"
#define FLOE_GLUE_BUCKET_NAME_MAX 63
/** Room for "catalogs/<account>:s3tablescatalog:<bucket>" and its NUL. */
#define FLOE_GLUE_PREFIX_MAX 128

typedef enum floe_glue_catalog_kind {
    FLOE_GLUE_CATALOG_TABLE_BUCKET = 0, /* <account>:s3tablescatalog/<bucket>, in either style */
    FLOE_GLUE_CATALOG_OTHER,            /* a well-formed Glue catalog id that names no table bucket
                                           (the default catalog, s3tablescatalog itself, another
                                           catalog): Glue serves it, Floe does not emulate it */
    FLOE_GLUE_CATALOG_MALFORMED,        /* not a Glue catalog id */
} floe_glue_catalog_kind_t;

/** A table bucket's catalog id, taken apart. */
typedef struct floe_glue_catalog {
    char account_id[FLOE_ACCOUNT_ID_LEN + 1]; /* "" when the id names no account (the caller's) */
    char bucket[FLOE_GLUE_BUCKET_NAME_MAX + 1];
} floe_glue_catalog_t;

/**
 * Reads a catalog id (decoded): `[<account>:]s3tablescatalog/<bucket>` as a warehouse spells it, or
 * `[<account>:]s3tablescatalog:<bucket>` as a path prefix does. *out is filled only for
 * FLOE_GLUE_CATALOG_TABLE_BUCKET.
 */
floe_glue_catalog_kind_t floe_glue_catalog_parse(const char *id, floe_glue_catalog_t *out /* OUT */);

/** The prefix GET /v1/config answers for table bucket `bucket` of `account_id`:
 * "catalogs/<account>:s3tablescatalog:<bucket>". Writes at most `size` bytes. */
void floe_glue_catalog_prefix(const char *account_id, const char *bucket, char *buf /* OUT */, size_t size);

/** What floe_glue_warehouse_of found. */
typedef enum floe_glue_warehouse_rc {
    FLOE_GLUE_WAREHOUSE_OK = 0,
    FLOE_GLUE_WAREHOUSE_MALFORMED,     /* not a Glue catalog id: 400 */
    FLOE_GLUE_WAREHOUSE_NOT_EMULATED,  /* a Glue catalog that is no table bucket's: 501 */
    FLOE_GLUE_WAREHOUSE_OTHER_ACCOUNT, /* a table bucket of another account than the request's: 403 */
} floe_glue_warehouse_rc_t;

#define FLOE_GLUE_ARN_MAX 192

/** A table bucket as both endpoints name it. */
typedef struct floe_glue_warehouse {
    char arn[FLOE_GLUE_ARN_MAX];       /* arn:aws:s3tables:<region>:<account>:bucket/<bucket>: the S3 Tables name */
    char prefix[FLOE_GLUE_PREFIX_MAX]; /* catalogs/<account>:s3tablescatalog:<bucket>: Glue's prefix */
} floe_glue_warehouse_t;

/**
 * The table bucket the catalog id (decoded, from a path prefix or a warehouse) names, in the
 * request's `scope`: its region (a Glue catalog id names none: Glue answers in the region it is
 * called in) and its account, which the id must name or leave out. *out is filled only on
 * FLOE_GLUE_WAREHOUSE_OK.
 */
floe_glue_warehouse_rc_t floe_glue_warehouse_of(const char *catalog_id, const floe_scope_t *scope,
                                                floe_glue_warehouse_t *out /* OUT */);

#endif
