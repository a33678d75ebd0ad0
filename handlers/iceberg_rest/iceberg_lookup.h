/*
 * Resolving what an Iceberg REST request names (the warehouse a prefix names, a namespace, a
 * table), and reading a table's current metadata.json. Shared by the handlers/iceberg_rest/iceberg_*.c
 * files. The lookups are the catalog's (catalog/lookup.h), so a miss is recorded on the shared call
 * with its subject, which the wing's mapper (floe_iceberg_rest_error_of) turns into the error the
 * route's spec names (NoSuchWarehouseException, NoSuchNamespaceException, NoSuchTableException):
 * a handler simply `if (floe_iceberg_lookup_...) return FLOE_EFAIL;`.
 *
 * Also floe_iceberg_fail_from_table(), for a table catalog outcome the catalog returns without
 * recording it (FLOE_EEXISTS, FLOE_ENOTFOUND, FLOE_ECHANGED).
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
 * Fails the REST call for a table catalog outcome `rc` other than FLOE_OK:
 * FLOE_EEXISTS becomes `taken` (AlreadyExistsException, or CommitFailedException for a
 * create transaction) with AWS's message, FLOE_ENOTFOUND and FLOE_ECHANGED (the table moved
 * away from its name) NoSuchTableException; FLOE_EFAIL is already recorded on the shared call.
 * Returns FLOE_EFAIL.
 */
int floe_iceberg_fail_from_table(floe_iceberg_call_t *call, int rc, floe_iceberg_err_t taken);

#endif
