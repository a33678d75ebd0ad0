/*
 * Athena's catalogs as Trino catalogs. Athena names a table bucket `s3tablescatalog/<bucket>` (in
 * QueryExecutionContext.Catalog, and quoted in the SQL as AWS's examples quote it), which is no
 * legal Trino catalog name; each gets one behind the scenes, "s3tb_<account>__<region>__<bucket>"
 * with '-' as '_' (neither regions nor bucket names have '_', so the name reads back), and the
 * user never sees it: the SQL is rewritten on the way in and Trino's messages on the way out.
 *
 * Glue's default catalog (`AwsDataCatalog`, the context when a query names none) is two Trino
 * catalogs on Floe's own Glue API, as Athena reads both kinds of table Glue holds there: Iceberg's
 * connector ("adci_<account>__<region>", the one a query sees, so CREATE TABLE makes Iceberg
 * tables), which hands a Hive table (awswrangler's staged Parquet) to Hive's ("adc_..."), and back.
 */
#ifndef FLOE_ATHENA_ENGINE_CATALOGS_H
#define FLOE_ATHENA_ENGINE_CATALOGS_H

#include <stdbool.h>
#include <stddef.h>

#define FLOE_CATALOG_PREFIX "s3tablescatalog/"
#define FLOE_DEFAULT_CATALOG "AwsDataCatalog"
#define FLOE_TRINO_CATALOG_MAX 160

/** The catalogs a query names: table buckets, each once (malloc'ed names), and the default one. */
typedef struct floe_bucket_names {
    char **names;
    size_t n;
    bool default_catalog;
} floe_bucket_names_t;

void floe_bucket_names_add(floe_bucket_names_t *b, const char *name, size_t len);
void floe_bucket_names_dispose(floe_bucket_names_t *b);

/** The Trino catalog of table bucket `bucket` of account and region. */
void floe_trino_catalog_name(const char *account, const char *region, const char *bucket,
                             char out[FLOE_TRINO_CATALOG_MAX]);

/** The account, region and bucket a Trino catalog name names; false for another catalog. */
bool floe_trino_catalog_parts(const char *catalog, char account[FLOE_TRINO_CATALOG_MAX],
                              char region[FLOE_TRINO_CATALOG_MAX], char bucket[FLOE_TRINO_CATALOG_MAX]);

/** The Trino catalog of the default catalog of account and region: Iceberg's, or Hive's. */
void floe_trino_default_catalog_name(const char *account, const char *region, bool hive,
                                     char out[FLOE_TRINO_CATALOG_MAX]);

/** True when `catalog` is one of the default catalog's Trino catalogs; its account and region. */
bool floe_trino_default_catalog_parts(const char *catalog, char account[FLOE_TRINO_CATALOG_MAX],
                                      char region[FLOE_TRINO_CATALOG_MAX]);

/** True when `sql` names a Floe catalog (s3tb_..., adc_..., adci_...) of another account than `account` by its
 * hidden name: the query is refused, since catalogs of every account live in one Trino. */
bool floe_catalogs_name_foreign(const char *sql, const char *account);

/**
 * `sql` with each "s3tablescatalog/<bucket>" quoted identifier (outside string literals and
 * comments) replaced by its Trino catalog, the buckets going to *named; and `awsdatacatalog`
 * (quoted or not, any case) before a '.' by the default catalog's, setting named->default_catalog.
 * Malloc'ed.
 */
char *floe_catalogs_rewrite(const char *sql, const char *account, const char *region, floe_bucket_names_t *named);

/** `text` with the Trino catalog of each bucket of `named`, and the default catalog's, replaced by
 * its Athena name. Malloc'ed. */
char *floe_catalogs_unmap(const char *text, const char *account, const char *region, const floe_bucket_names_t *named);

/**
 * The CREATE CATALOG statement of bucket `bucket`: Trino's Iceberg connector on Floe's Iceberg REST
 * catalog (`floe_url`/iceberg, SigV4 for s3tables with the engine key) and Floe's S3, configured
 * as AWS's guide configures Trino for S3 Tables. Malloc'ed.
 */
char *floe_catalog_create_sql(const char *catalog, const char *floe_url, const char *account, const char *region,
                              const char *bucket, const char *engine_secret);

/**
 * The CREATE CATALOG statement of the default catalog's Trino catalog `catalog` (Hive's when `hive`):
 * Trino's connector with Floe's Glue API as its metastore (`floe_url`, SigV4 for glue with the
 * engine key, the account's catalog id) and Floe's S3, each handing the other kind of table to
 * `other`. Malloc'ed.
 */
char *floe_default_catalog_create_sql(const char *catalog, bool hive, const char *other, const char *floe_url,
                                      const char *account, const char *region, const char *engine_secret);

#endif
