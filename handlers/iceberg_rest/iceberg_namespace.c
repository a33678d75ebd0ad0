/*
 * The Iceberg REST catalog's namespaces: listNamespaces, createNamespace, loadNamespaceMetadata,
 * namespaceExists, dropNamespace and updateProperties.
 *
 * A REST namespace is an S3 Tables namespace (created and deleted through namespace.h, so both APIs
 * apply AWS's rules) plus its Iceberg properties, which this file answers for and the catalog keeps
 * (catalog/namespace.h; they are deleted with their namespace). S3 Tables namespaces have one level, so a
 * namespace is one name on the wire (["sales"]); the runtime refuses deeper ones with a 400.
 *
 * Choices where the spec leaves room:
 *  - Listings paginate only when the client sends pageToken (the spec's PageToken rule); the token
 *    resumes after the last name returned, so pages stay right while namespaces come and go.
 *  - S3 Tables has no nested namespaces: listing under an existing `parent` returns nothing, under a
 *    missing one 404 (the spec's NoSuchNamespaceException for `parent`).
 *  - updateProperties applies removals, then updates, in one transaction; a key in both is 422.
 */
#include <string.h>

#include "call/transaction.h"
#include "catalog/namespace.h"
#include "catalog/namespace_rules.h"
#include "catalog/page_token.h"
#include "iceberg_glue.h"
#include "iceberg_lookup.h"
#include "iceberg_rest/iceberg_rest_api.h"

#define LISTING_NAMESPACES "IcebergNamespaces|%s"
#define INITIAL_CAPACITY 16

/* ---- small helpers ---- */

/* Appends s to a growing list in the call's pool. */
static void push(floe_call_t *call, floe_iceberg_strings_t *list, size_t *cap, const char *s)
{
    if (list->n == *cap) {
        const char **grown;
        *cap = *cap ? *cap * 2 : INITIAL_CAPACITY;
        grown = floe_call_alloc(call, *cap * sizeof(char *));
        if (list->n > 0)
            memcpy(grown, list->items, list->n * sizeof(char *));
        list->items = grown;
    }
    list->items[list->n++] = s;
}

/* The namespace's properties, sorted by key. */
static int read_properties(floe_iceberg_call_t *call, const floe_namespace_row_t *ns, floe_iceberg_properties_t *out)
{
    floe_namespace_properties_t properties;

    if (floe_namespace_read_properties(&call->super, ns->id, &properties))
        return FLOE_EFAIL;
    out->n = properties.n;
    out->keys = properties.keys;
    out->values = properties.values;
    return FLOE_OK;
}

/* ---- listNamespaces ---- */

/* Reads one page (or, without a page token, everything) of names after `after`. */
static int list_names(floe_iceberg_call_t *call, const floe_bucket_row_t *bucket, const char *after, int limit,
                      floe_iceberg_strings_t *names)
{
    floe_namespace_row_t *rows;
    size_t n;

    if (floe_namespace_list(&call->super, bucket->id, after, NULL, limit, &rows, &n))
        return FLOE_EFAIL;
    names->items = floe_call_alloc(&call->super, (n ? n : 1) * sizeof(*names->items));
    for (size_t i = 0; i < n; i++)
        names->items[i] = rows[i].name;
    names->n = n;
    return FLOE_OK;
}

int floe_iceberg_handle_listNamespaces(floe_iceberg_call_t *call, const floe_iceberg_listNamespaces_in *in,
                                       floe_iceberg_ListNamespacesResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t parent;
    const char *listing, *after = "";

    if (in->parent != NULL)
        return floe_iceberg_lookup_namespace(call, in->warehouse, in->parent, &bucket, &parent);
    if (floe_iceberg_lookup_warehouse(call, in->warehouse, &bucket))
        return FLOE_EFAIL;
    out->is_paginated = in->page.has_token;
    listing = floe_call_printf(&call->super, LISTING_NAMESPACES, bucket.bucket_id);
    if (in->page.has_token && *in->page.token != '\0' &&
        (after = floe_page_token_decode(&call->super, listing, in->page.token)) == NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "The pageToken is not valid.");
    /* One more row than the page tells whether another page follows. */
    if (list_names(call, &bucket, after, in->page.has_token ? in->page.size + 1 : FLOE_NAMESPACE_LIST_ALL,
                   &out->namespaces))
        return FLOE_EFAIL;
    if (in->page.has_token && out->namespaces.n > (size_t)in->page.size) {
        out->namespaces.n = (size_t)in->page.size;
        out->next_page_token =
            floe_page_token_encode(&call->super, listing, out->namespaces.items[out->namespaces.n - 1]);
    }
    return FLOE_OK;
}

/* ---- createNamespace, loadNamespaceMetadata, namespaceExists, dropNamespace ---- */

typedef struct create_args {
    const floe_iceberg_createNamespace_in *in;
    const floe_bucket_row_t *bucket;
    floe_namespace_row_t *ns;
} create_args_t;

/* The namespace and its properties, in one transaction. */
static int create_namespace(floe_call_t *call, void *arg)
{
    const create_args_t *a = arg;
    const floe_iceberg_properties_t *properties = &a->in->properties;

    if (floe_namespace_create(call, a->bucket, a->in->namespace, a->ns))
        return FLOE_EFAIL;
    for (size_t i = 0; i < properties->n; i++) {
        if (floe_namespace_set_property(call, a->ns->id, properties->keys[i], properties->values[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_iceberg_handle_createNamespace(floe_iceberg_call_t *call, const floe_iceberg_createNamespace_in *in,
                                        floe_iceberg_CreateNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    create_args_t args = {in, &bucket, &ns};

    if (floe_iceberg_lookup_warehouse(call, in->warehouse, &bucket))
        return FLOE_EFAIL;
    if (floe_call_in_transaction(&call->super, create_namespace, &args))
        return FLOE_EFAIL;
    out->namespace = ns.name;
    return read_properties(call, &ns, &out->properties);
}

int floe_iceberg_handle_loadNamespaceMetadata(floe_iceberg_call_t *call, const floe_iceberg_loadNamespaceMetadata_in *in,
                                              floe_iceberg_GetNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (floe_iceberg_lookup_namespace(call, in->warehouse, in->namespace, &bucket, &ns))
        return FLOE_EFAIL;
    out->namespace = ns.name;
    return read_properties(call, &ns, &out->properties);
}

int floe_iceberg_handle_namespaceExists(floe_iceberg_call_t *call, const floe_iceberg_namespaceExists_in *in,
                                        floe_iceberg_NoContent *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    (void)out;

    if (call->is_glue)
        return floe_iceberg_glue_unsupported(call, "NamespaceExists");
    return floe_iceberg_lookup_namespace(call, in->warehouse, in->namespace, &bucket, &ns);
}

int floe_iceberg_handle_dropNamespace(floe_iceberg_call_t *call, const floe_iceberg_dropNamespace_in *in,
                                      floe_iceberg_NoContent *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    (void)out;

    if (floe_iceberg_lookup_namespace(call, in->warehouse, in->namespace, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_namespace_delete(&call->super, &ns))
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* ---- updateProperties ---- */

/* The spec's 422: "keys in two or more fields which should be disjoint sets". */
static const char *key_both_updated_and_removed(const floe_iceberg_updateProperties_in *in)
{
    for (size_t i = 0; i < in->removals.n; i++) {
        for (size_t j = 0; j < in->updates.n; j++) {
            if (strcmp(in->removals.items[i], in->updates.keys[j]) == 0)
                return in->removals.items[i];
        }
    }
    return NULL;
}

typedef struct update_args {
    const floe_iceberg_updateProperties_in *in;
    const floe_namespace_row_t *ns;
    floe_iceberg_UpdateNamespacePropertiesResponse *out;
} update_args_t;

/* Removals, then updates, in one transaction. */
static int apply_property_changes(floe_call_t *call, void *arg)
{
    const update_args_t *a = arg;
    size_t cap_removed = 0, cap_missing = 0, cap_updated = 0;
    bool was_set;

    for (size_t i = 0; i < a->in->removals.n; i++) {
        const char *key = a->in->removals.items[i];
        if (floe_namespace_unset_property(call, a->ns->id, key, &was_set))
            return FLOE_EFAIL;
        push(call, was_set ? &a->out->removed : &a->out->missing, was_set ? &cap_removed : &cap_missing, key);
    }
    for (size_t i = 0; i < a->in->updates.n; i++) {
        if (floe_namespace_set_property(call, a->ns->id, a->in->updates.keys[i], a->in->updates.values[i]))
            return FLOE_EFAIL;
        push(call, &a->out->updated, &cap_updated, a->in->updates.keys[i]);
    }
    return FLOE_OK;
}

int floe_iceberg_handle_updateProperties(floe_iceberg_call_t *call, const floe_iceberg_updateProperties_in *in,
                                         floe_iceberg_UpdateNamespacePropertiesResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    update_args_t args = {in, &ns, out};
    const char *both;

    if ((both = key_both_updated_and_removed(in)) != NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_UnprocessableEntityException,
                                      "The property %s is both updated and removed.", both);
    if (floe_iceberg_lookup_namespace(call, in->ns.warehouse, in->ns.namespace, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_call_in_transaction(&call->super, apply_property_changes, &args))
        return FLOE_EFAIL;
    return FLOE_OK;
}
