/*
 * The Iceberg REST catalog's response serializers (floe_iceberg_serialize_<Schema>, one per response
 * schema of the spec): typed handler output to the spec's JSON. Table metadata is written verbatim
 * (it is already canonical Iceberg JSON from the metadata module or the stored file), so 64-bit
 * snapshot ids reach the client exactly as stored.
 */
#include "iceberg_rest/iceberg_rest_response.h"

static void write_properties(floe_json_t *w, const char *key, const floe_iceberg_properties_t *p)
{
    floe_json_key(w, key);
    floe_json_object_begin(w);
    for (size_t i = 0; i < p->n; i++) {
        floe_json_key(w, p->keys[i]);
        floe_json_string(w, p->values[i]);
    }
    floe_json_object_end(w);
}

static void write_strings(floe_json_t *w, const char *key, const floe_iceberg_strings_t *s)
{
    floe_json_key(w, key);
    floe_json_array_begin(w);
    for (size_t i = 0; i < s->n; i++)
        floe_json_string(w, s->items[i]);
    floe_json_array_end(w);
}

/* A one-level Namespace: ["name"]. */
static void write_namespace(floe_json_t *w, const char *name)
{
    floe_json_array_begin(w);
    floe_json_string(w, name);
    floe_json_array_end(w);
}

/* "next-page-token": the token, or null on the last page of a paginated listing; omitted when the
 * client did not paginate (the spec's PageToken rules). */
static void write_page_token(floe_json_t *w, bool is_paginated, const char *token)
{
    if (!is_paginated)
        return;
    floe_json_key(w, "next-page-token");
    if (token != NULL)
        floe_json_string(w, token);
    else
        floe_json_raw(w, "null");
}

void floe_iceberg_serialize_NoContent(const floe_iceberg_NoContent *out, floe_json_t *w)
{
    (void)out;
    (void)w;
}

void floe_iceberg_serialize_CatalogConfig(const floe_iceberg_CatalogConfig *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    write_properties(w, "defaults", &out->defaults);
    write_properties(w, "overrides", &out->overrides);
    floe_json_key(w, "endpoints");
    floe_json_array_begin(w);
    for (size_t i = 0; i < out->n_endpoints; i++)
        floe_json_string(w, out->endpoints[i]);
    floe_json_array_end(w);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_ListNamespacesResponse(const floe_iceberg_ListNamespacesResponse *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    floe_json_key(w, "namespaces");
    floe_json_array_begin(w);
    for (size_t i = 0; i < out->namespaces.n; i++)
        write_namespace(w, out->namespaces.items[i]);
    floe_json_array_end(w);
    write_page_token(w, out->is_paginated, out->next_page_token);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_CreateNamespaceResponse(const floe_iceberg_CreateNamespaceResponse *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    floe_json_key(w, "namespace");
    write_namespace(w, out->namespace);
    write_properties(w, "properties", &out->properties);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_GetNamespaceResponse(const floe_iceberg_GetNamespaceResponse *out, floe_json_t *w)
{
    floe_iceberg_serialize_CreateNamespaceResponse(out, w);
}

void floe_iceberg_serialize_UpdateNamespacePropertiesResponse(const floe_iceberg_UpdateNamespacePropertiesResponse *out,
                                                              floe_json_t *w)
{
    floe_json_object_begin(w);
    write_strings(w, "updated", &out->updated);
    write_strings(w, "removed", &out->removed);
    /* Always present, empty or not: the spec marks it optional, but PyIceberg's response model
     * requires the key (0.12.0 fails to parse an answer without it), and Java's reference
     * server always sends it. */
    write_strings(w, "missing", &out->missing);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_ListTablesResponse(const floe_iceberg_ListTablesResponse *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    floe_json_key(w, "identifiers");
    floe_json_array_begin(w);
    for (size_t i = 0; i < out->n; i++) {
        floe_json_object_begin(w);
        floe_json_key(w, "namespace");
        write_namespace(w, out->identifiers[i].namespace);
        floe_json_key(w, "name");
        floe_json_string(w, out->identifiers[i].name);
        floe_json_object_end(w);
    }
    floe_json_array_end(w);
    write_page_token(w, out->is_paginated, out->next_page_token);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_LoadTableResult(const floe_iceberg_LoadTableResult *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    if (out->metadata_location != NULL) {
        floe_json_key(w, "metadata-location");
        floe_json_string(w, out->metadata_location);
    }
    floe_json_key(w, "metadata");
    floe_json_raw(w, out->metadata_json);
    write_properties(w, "config", &out->config);
    floe_json_object_end(w);
}

void floe_iceberg_serialize_CommitTableResponse(const floe_iceberg_CommitTableResponse *out, floe_json_t *w)
{
    floe_json_object_begin(w);
    floe_json_key(w, "metadata-location");
    floe_json_string(w, out->metadata_location);
    floe_json_key(w, "metadata");
    floe_json_raw(w, out->metadata_json);
    floe_json_object_end(w);
}
