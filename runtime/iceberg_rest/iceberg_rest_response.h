/*
 * The Iceberg REST catalog's response serializers (iceberg_rest_response.c): one per response
 * schema of the spec, from a handler's typed output to the spec's JSON. Called only by the
 * router's table (iceberg_rest_router.c).
 */
#ifndef FLOE_ICEBERG_REST_RESPONSE_H
#define FLOE_ICEBERG_REST_RESPONSE_H

#include "base/json.h"
#include "iceberg_rest/iceberg_rest_api.h"

void floe_iceberg_serialize_NoContent(const floe_iceberg_NoContent *out, floe_json_t *w);
void floe_iceberg_serialize_CatalogConfig(const floe_iceberg_CatalogConfig *out, floe_json_t *w);
void floe_iceberg_serialize_ListNamespacesResponse(const floe_iceberg_ListNamespacesResponse *out, floe_json_t *w);
void floe_iceberg_serialize_CreateNamespaceResponse(const floe_iceberg_CreateNamespaceResponse *out, floe_json_t *w);
void floe_iceberg_serialize_GetNamespaceResponse(const floe_iceberg_GetNamespaceResponse *out, floe_json_t *w);
void floe_iceberg_serialize_UpdateNamespacePropertiesResponse(const floe_iceberg_UpdateNamespacePropertiesResponse *out,
                                                              floe_json_t *w);
void floe_iceberg_serialize_ListTablesResponse(const floe_iceberg_ListTablesResponse *out, floe_json_t *w);
/** The metadata is written verbatim: it is already canonical Iceberg JSON. */
void floe_iceberg_serialize_LoadTableResult(const floe_iceberg_LoadTableResult *out, floe_json_t *w);
void floe_iceberg_serialize_CommitTableResponse(const floe_iceberg_CommitTableResponse *out, floe_json_t *w);

#endif
