/*
 * The first metadata.json of a new Iceberg table: from S3 Tables CreateTable's `metadata.iceberg`
 * (written to metadata/00000-<uuid>.metadata.json) and from the Iceberg REST catalog's
 * CreateTableRequest. Both go through floe_iceberg_new_table, which does what Java's
 * TableMetadata.newTableMetadata does. CloudFormation's AWS::S3Tables::Table gives its
 * IcebergMetadata as CreateTable's shape (cloudformation/provision_table.c).
 *
 * Rules:
 *  - Field ids are assigned fresh, 1..n, in AssignFreshIds order (iceberg_schema.h); the input's
 *    own ids are not kept. Partition and sort source-ids, and identifier-field-ids, refer to the
 *    input's ids and are translated to the fresh ones. A field of S3 Tables' `schema` without an
 *    `id` is referred to by its 1-based position (the id it receives).
 *  - The schema gets schema-id 0; the partition spec gets spec-id 0 and field ids from 1000 (an
 *    unpartitioned table has last-partition-id 999); a write order with fields becomes sort order
 *    1, the default; without fields the table is unsorted (order 0). Input spec and order ids are
 *    ignored, as Java does.
 *  - Types are checked and written canonically (iceberg_types.h); transforms are checked against
 *    their source column's type.
 *  - Properties are kept, except the reserved ones Java drops (uuid, snapshot-count,
 *    current-snapshot-*, current-schema, default-partition-spec, default-sort-order);
 *    "format-version", if given, must be "2" or "3" (S3 Tables CreateTable carries it the same
 *    way, in metadata.iceberg.properties) and is not stored as a property, as in Java.
 *  - The schema must suit the format version (iceberg_evolve.h: v3-only types, defaults).
 *  - The table is format version 2 (or the one asked for), last-sequence-number 0, next-row-id 0
 *    in v3, with no snapshots.
 *
 * Not for writing the file: the caller stores the text (and names it with
 * floe_iceberg_metadata_next_file_name).
 */
#ifndef FLOE_CATALOG_ICEBERG_CREATE_H
#define FLOE_CATALOG_ICEBERG_CREATE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "floe_api.h"
#include "iceberg/iceberg_error.h"
#include "iceberg/iceberg_metadata.h"

/**
 * The metadata.json text for S3 Tables CreateTable with `metadata.iceberg` = *in: format
 * version 2 (3 when its properties say so) with every required field, properties, no snapshots, empty refs and logs.
 * `table_uuid` is the table's id and `location` its warehouse location (for example
 * "s3://<warehouse bucket>"); now_ms becomes last-updated-ms. Uses `schemaV2` when the model has
 * it and it is set, else `schema` (both set is an error). `in == NULL`, or metadata without a
 * schema, gives a table with an empty schema: callers write no file when CreateTable carries no
 * metadata, but the function still answers sensibly.
 *
 * Returns 0 with *json_out set (malloc'ed, the caller frees), or FLOE_ICEBERG_EINVALID with a
 * one-sentence reason in `why` (for FLOE_EINVAL) and *json_out untouched.
 */
int floe_iceberg_metadata_create(const floe_IcebergMetadata *in /* may be NULL */, const char *table_uuid,
                                 const char *location, int64_t now_ms, char **json_out /* OUT */, char *why,
                                 size_t why_len);

/**
 * The metadata.json text for the REST catalog's CreateTableRequest `request` ({name, schema,
 * partition-spec?, write-order?, properties?, ...}); `location` is where the catalog puts the
 * table (the request's own "location" is the caller's to honour or not). Returns 0 with
 * *json_out (malloc'ed, the caller frees), or FLOE_ICEBERG_EINVALID with err set.
 */
int floe_iceberg_metadata_create_from_request(const cJSON *request, const char *table_uuid, const char *location,
                                              int64_t now_ms, char **json_out /* OUT */,
                                              floe_iceberg_error_t *err /* OUT */);

/**
 * Builds a new table in *md from Iceberg-JSON parts: `schema` (a struct schema, ids optional),
 * `spec` ({fields: [...]}, NULL for unpartitioned), `order` ({fields: [...]}, NULL for
 * unsorted) and `properties` (an object of strings, or NULL), following the rules above.
 * Returns 0 with *md filled (release with floe_iceberg_metadata_dispose), or
 * FLOE_ICEBERG_EINVALID with err set and *md zeroed.
 */
int floe_iceberg_new_table(const cJSON *schema, const cJSON *spec, const cJSON *order, const cJSON *properties,
                           const char *table_uuid, const char *location, int64_t now_ms,
                           floe_iceberg_metadata_t *md /* OUT */, floe_iceberg_error_t *err /* OUT */);

#endif
