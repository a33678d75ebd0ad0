/*
 * Namespace rows and their Iceberg properties: inserting, listing and removing namespaces of a
 * table bucket, and reading and changing a namespace's properties (namespace_property).
 *
 * This is state only. AWS's naming rules and error messages stay with the API that applies them
 * (handlers/s3tables/namespace.c for both S3 Tables and the Iceberg REST catalog); a namespace is resolved
 * by name with floe_lookup_namespace (catalog/lookup.h). Every function fails the call with
 * a failure inside (FLOE_EFAIL) (a 500) when SQLite fails, and with nothing else: an outcome the
 * API answers with a modeled error (a taken name, a namespace that still has tables) is reported
 * through an OUT flag, so the caller chooses the error and its message.
 */
#ifndef FLOE_CATALOG_NAMESPACE_H
#define FLOE_CATALOG_NAMESPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call/call.h"
#include "catalog/lookup.h"

/** No limit, for floe_namespace_list. */
#define FLOE_NAMESPACE_LIST_ALL (-1)

/** A namespace's properties: parallel arrays sorted by key, in the call's pool. */
typedef struct floe_namespace_properties {
    size_t n;
    const char **keys;
    const char **values;
} floe_namespace_properties_t;

/**
 * Inserts namespace `name` into the table bucket of row id `bucket_id`, with a fresh namespaceId,
 * the call's clock as its creation time and the account as its creator. Runs in the caller's
 * transaction when one is open. Returns FLOE_OK with *is_taken false and *out filled (strings in the
 * call's pool), or FLOE_OK with *is_taken true and nothing written when the bucket already has a
 * namespace of that name; FLOE_EFAIL when the call failed.
 */
int floe_namespace_insert(floe_call_t *call, int64_t bucket_id, const char *name, floe_namespace_row_t *out /* OUT */,
                          bool *is_taken /* OUT */);

/**
 * Removes the namespace of row id `namespace_id` with its properties. Returns FLOE_OK with
 * *has_tables false when it is gone, or FLOE_OK with *has_tables true and nothing removed while a
 * table is still in it; FLOE_EFAIL when the call failed.
 */
int floe_namespace_remove(floe_call_t *call, int64_t namespace_id, bool *has_tables /* OUT */);

/**
 * The namespaces of the bucket of row id `bucket_id` whose names sort after `after` ("" from the
 * start) and begin with `prefix` (NULL: any), in name order, at most `limit` of them
 * (FLOE_NAMESPACE_LIST_ALL: all). *rows is an array of *n_rows rows in the call's pool.
 */
int floe_namespace_list(floe_call_t *call, int64_t bucket_id, const char *after, const char *prefix, int limit,
                        floe_namespace_row_t **rows /* OUT */, size_t *n_rows /* OUT */);

/** The properties of the namespace of row id `namespace_id`, sorted by key (in the call's pool). */
int floe_namespace_read_properties(floe_call_t *call, int64_t namespace_id,
                                   floe_namespace_properties_t *out /* OUT */);

/** Sets property `key` of the namespace of row id `namespace_id` to `value`, adding or replacing it. */
int floe_namespace_set_property(floe_call_t *call, int64_t namespace_id, const char *key, const char *value);

/** Removes property `key` of the namespace of row id `namespace_id`; *was_set says whether it had one. */
int floe_namespace_unset_property(floe_call_t *call, int64_t namespace_id, const char *key, bool *was_set /* OUT */);

#endif
