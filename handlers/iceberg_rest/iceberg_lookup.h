/*
 * Resolving what an Iceberg REST request names (the warehouse a prefix names, a namespace, a
 * table) with the spec's not-found errors, and reading a table's current metadata.json. Shared by
 * the handlers/iceberg_rest/iceberg_*.c files. A miss fails the call with the error the route's
 * spec names (NoSuchWarehouseException, NoSuchNamespaceException, NoSuchTableException), so a
 * handler can simply
 * `if (floe_iceberg_lookup_...) return FLOE_EFAIL;`.
 *
 * Also floe_iceberg_fail_from_api(): the REST catalog reuses the S3 Tables lookups and catalog
 * (catalog/lookup.h, catalog/table.h) and helpers (namespace.h, table.h), which fail the embedded
 * S3 Tables call; this turns their error into the REST error the spec names for the situation.
 * floe_iceberg_fail_from_table() does the same for a table catalog outcome.
 */
#ifndef FLOE_HANDLERS_ICEBERG_REST_ICEBERG_LOOKUP_H
#define FLOE_HANDLERS_ICEBERG_REST_ICEBERG_LOOKUP_H

#include "catalog/lookup.h"
#include "catalog/table.h"
#include "iceberg_rest/iceberg_rest_api.h"

/** The table bucket the decoded prefix (a table bucket ARN) names. */
int floe_iceberg_lookup_warehouse(floe_iceberg_call_t *call, const char *warehouse_arn,
                                  floe_bucket_row_t *out /* OUT */);

/** The warehouse and the namespace `name` in it. */
int floe_iceberg_lookup_namespace(floe_iceberg_call_t *call, const char *warehouse_arn, const char *name,
                                  floe_bucket_row_t *bucket /* OUT */, floe_namespace_row_t *ns /* OUT */);

/**
 * The same, failing a missing namespace with `missing`: NoSuchTableException on the routes that
 * name a table, whose only 404 in the spec it is (load, exists, drop, commit, rename's source).
 */
int floe_iceberg_lookup_namespace_as(floe_iceberg_call_t *call, const char *warehouse_arn, const char *name,
                                     floe_iceberg_err_t missing, floe_bucket_row_t *bucket /* OUT */,
                                     floe_namespace_row_t *ns /* OUT */);

/**
 * The table `name` in namespace `ns` of the warehouse: a missing warehouse is
 * NoSuchWarehouseException, a missing namespace or table NoSuchTableException.
 */
int floe_iceberg_lookup_table(floe_iceberg_call_t *call, const char *warehouse_arn, const char *ns, const char *name,
                              floe_table_row_t *out /* OUT */);

/**
 * The text of table t's current metadata.json, kept by the call (floe_iceberg_call_keep), in
 * *json; NULL when the table has no metadata yet (created by the S3 Tables API without it). A file
 * that cannot be read is a 500.
 */
int floe_iceberg_read_metadata(floe_iceberg_call_t *call, const floe_table_row_t *t, char **json /* OUT */);

/**
 * Fails the REST call with the error that matches the S3 Tables error an API helper recorded in
 * call->super: NotFoundException becomes `not_found`, ConflictException `conflict`,
 * BadRequestException stays a bad request, anything else is a 500. Returns FLOE_EFAIL.
 */
int floe_iceberg_fail_from_api(floe_iceberg_call_t *call, floe_iceberg_err_t not_found, floe_iceberg_err_t conflict);

/**
 * Fails the REST call for a table catalog outcome `rc` other than FLOE_OK:
 * FLOE_EEXISTS becomes `taken` (AlreadyExistsException, or CommitFailedException for a
 * create transaction) with AWS's message, FLOE_ENOTFOUND and FLOE_ECHANGED (the table moved
 * away from its name) NoSuchTableException, FLOE_EFAIL what the call's S3 Tables error maps
 * to (a 500 for SQLite failing). Returns FLOE_EFAIL.
 */
int floe_iceberg_fail_from_table(floe_iceberg_call_t *call, int rc, floe_iceberg_err_t taken);

#endif
