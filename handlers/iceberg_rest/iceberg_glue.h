/*
 * What the AWS Glue Iceberg REST endpoint serves of the Iceberg REST catalog, for the handlers
 * that answer differently when call->is_glue. AWS's Glue guide
 * (https://docs.aws.amazon.com/glue/latest/dg/connect-glu-iceberg-rest.html) lists the operations
 * the endpoint supports: GetConfig, ListNamespaces, CreateNamespace, LoadNamespaceMetadata,
 * UpdateNamespaceProperties, DeleteNamespace, ListTables, CreateTable, LoadTable, TableExists,
 * UpdateTable and DeleteTable. Of the routes Floe serves, that leaves out renameTable,
 * commitTransaction, namespaceExists and reportMetrics: Glue's /v1/config does not advertise them
 * (clients then fall back, as PyIceberg and Iceberg's Java client do for namespaceExists, or refuse
 * the call themselves) and a client that calls them anyway gets a 501.
 */
#ifndef FLOE_HANDLERS_ICEBERG_REST_ICEBERG_GLUE_H
#define FLOE_HANDLERS_ICEBERG_REST_ICEBERG_GLUE_H

#include <stddef.h>

#include "iceberg_rest/iceberg_rest_api.h"

/** Fails the call with 501 UnsupportedOperationException: Glue's endpoint does not serve `operation`. */
int floe_iceberg_glue_unsupported(floe_iceberg_call_t *call, const char *operation);

/** The endpoints GET /v1/config advertises on Glue's endpoint: floe_iceberg_rest_endpoints() less
 * the routes Glue does not serve. In the call's pool. */
const char *const *floe_iceberg_glue_endpoints(floe_iceberg_call_t *call, size_t *n /* OUT */);

#endif
