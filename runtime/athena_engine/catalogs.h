/*
 * Table buckets as Trino catalogs. Athena names a table bucket `s3tablescatalog/<bucket>` (in
 * QueryExecutionContext.Catalog, and quoted in the SQL as AWS's examples quote it), which is no
 * legal Trino catalog name; each gets one behind the scenes, "s3tb_<account>__<region>__<bucket>"
 * with '-' as '_' (neither regions nor bucket names have '_', so the name reads back), and the
 * user never sees it: the SQL is rewritten on the way in and Trino's messages on the way out.
 */
#ifndef FLOE_ATHENA_ENGINE_CATALOGS_H
#define FLOE_ATHENA_ENGINE_CATALOGS_H

#include <stdbool.h>
#include <stddef.h>

#define FLOE_CATALOG_PREFIX "s3tablescatalog/"
#define FLOE_TRINO_CATALOG_MAX 160

/** The table buckets a query names, each once (malloc'ed names). */
typedef struct floe_bucket_names {
    char **names;
    size_t n;
} floe_bucket_names_t;

void floe_bucket_names_add(floe_bucket_names_t *b, const char *name, size_t len);
void floe_bucket_names_dispose(floe_bucket_names_t *b);

/** The Trino catalog of table bucket `bucket` of account and region. */
void floe_trino_catalog_name(const char *account, const char *region, const char *bucket,
                             char out[FLOE_TRINO_CATALOG_MAX]);

/** The account, region and bucket a Trino catalog name names; false for another catalog. */
bool floe_trino_catalog_parts(const char *catalog, char account[FLOE_TRINO_CATALOG_MAX],
                              char region[FLOE_TRINO_CATALOG_MAX], char bucket[FLOE_TRINO_CATALOG_MAX]);

/** True when `sql` names a Floe catalog (s3tb_...) of another account than `account` by its
 * hidden name: the query is refused, since catalogs of every account live in one Trino. */
bool floe_catalogs_name_foreign(const char *sql, const char *account);

/**
 * `sql` with each "s3tablescatalog/<bucket>" quoted identifier (outside string literals and
 * comments) replaced by its Trino catalog; the buckets go to *named. Malloc'ed.
 */
char *floe_catalogs_rewrite(const char *sql, const char *account, const char *region, floe_bucket_names_t *named);

/** `text` with the Trino catalog of each bucket of `named` replaced by its Athena name. Malloc'ed. */
char *floe_catalogs_unmap(const char *text, const char *account, const char *region, const floe_bucket_names_t *named);

/**
 * The CREATE CATALOG statement of bucket `bucket`: Trino's Iceberg connector on Floe's Iceberg REST
 * catalog (`floe_url`/iceberg, SigV4 for s3tables with the engine key) and Floe's S3, configured
 * as AWS's guide configures Trino for S3 Tables. Malloc'ed.
 */
char *floe_catalog_create_sql(const char *catalog, const char *floe_url, const char *account, const char *region,
                              const char *bucket, const char *engine_secret);

#endif
