/*
 * How both API families (handlers/s3tables/namespace.c, handlers/iceberg_rest/iceberg_namespace.c)
 * create and delete namespaces, by the same rules and with the same messages. The rows themselves are catalog/namespace.h's.
 */
#ifndef FLOE_CATALOG_NAMESPACE_RULES_H
#define FLOE_CATALOG_NAMESPACE_RULES_H

#include "call/call.h"
#include "catalog/lookup.h"

/**
 * Creates namespace `name` in `bucket` (AWS's naming rules: FLOE_EINVAL; a taken name:
 * FLOE_EEXISTS). Joins the caller's transaction when one is open. Fills *out (strings in the
 * call's pool).
 */
int floe_namespace_create(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out /* OUT */);

/** Deletes namespace `ns`; FLOE_EINUSE while it still has tables. */
int floe_namespace_delete(floe_call_t *call, const floe_namespace_row_t *ns);

#endif
