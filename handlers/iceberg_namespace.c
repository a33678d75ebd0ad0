/*
 * The Iceberg REST catalog's namespaces: listNamespaces, createNamespace, loadNamespaceMetadata,
 * namespaceExists, dropNamespace and updateProperties.
 *
 * A REST namespace is an S3 Tables namespace (created and deleted through namespace.h, so both APIs
 * apply AWS's rules) plus its Iceberg properties, which this file owns: rows of namespace_property,
 * deleted with their namespace (ON DELETE CASCADE). S3 Tables namespaces have one level, so a
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

#include "iceberg_lookup.h"
#include "iceberg_rest/iceberg_rest_api.h"
#include "namespace.h"
#include "catalog/page_token.h"
#include "catalog/state.h"

#define LISTING_NAMESPACES "IcebergNamespaces|%s"
#define INITIAL_CAPACITY 16

FLOE_SQL(sql_list_namespaces,
    "SELECT name FROM namespace WHERE table_bucket_id = ?1 AND name > ?2 ORDER BY name LIMIT ?3");

FLOE_SQL(sql_list_properties,
    "SELECT key, value FROM namespace_property WHERE namespace_id = ?1 ORDER BY key");

FLOE_SQL(sql_upsert_property,
    "INSERT INTO namespace_property (namespace_id, key, value) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (namespace_id, key) DO UPDATE SET value = excluded.value");

FLOE_SQL(sql_delete_property, "DELETE FROM namespace_property WHERE namespace_id = ?1 AND key = ?2");

/* ---- small helpers ---- */

/* Appends s to a growing list in the call's pool. */
static void push(floe_iceberg_call_t *call, floe_iceberg_strings_t *list, size_t *cap, const char *s)
{
    if (list->n == *cap) {
        const char **grown;
        *cap = *cap ? *cap * 2 : INITIAL_CAPACITY;
        grown = floe_call_alloc(&call->super, *cap * sizeof(char *));
        if (list->n > 0)
            memcpy(grown, list->items, list->n * sizeof(char *));
        list->items = grown;
    }
    list->items[list->n++] = s;
}

static int fail_sql(floe_iceberg_call_t *call)
{
    return floe_iceberg_call_fail_internal(call, floe_state_errmsg(floe_call_state(&call->super)));
}

/* The namespace's properties, sorted by key. */
static int read_properties(floe_iceberg_call_t *call, const floe_namespace_row_t *ns, floe_iceberg_properties_t *out)
{
    sqlite3_stmt *stmt = floe_state_stmt(floe_call_state(&call->super), sql_list_properties);
    floe_iceberg_strings_t keys = {0}, values = {0};
    size_t cap_keys = 0, cap_values = 0;
    int rc;

    if (stmt == NULL)
        return fail_sql(call);
    sqlite3_bind_int64(stmt, 1, ns->id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        push(call, &keys, &cap_keys, floe_column_text(&call->super, stmt, 0));
        push(call, &values, &cap_values, floe_column_text(&call->super, stmt, 1));
    }
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
        return fail_sql(call);
    out->n = keys.n;
    out->keys = keys.items;
    out->values = values.items;
    return FLOE_OK;
}

static int upsert_property(floe_iceberg_call_t *call, const floe_namespace_row_t *ns, const char *key,
                           const char *value)
{
    sqlite3_stmt *stmt = floe_state_stmt(floe_call_state(&call->super), sql_upsert_property);
    int rc;

    if (stmt == NULL)
        return fail_sql(call);
    sqlite3_bind_int64(stmt, 1, ns->id);
    sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, value, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? FLOE_OK : fail_sql(call);
}

/* Deletes one property: 1 when it was set, 0 when not, -1 on error (the call failed). */
static int delete_property(floe_iceberg_call_t *call, const floe_namespace_row_t *ns, const char *key)
{
    floe_state_t *st = floe_call_state(&call->super);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_delete_property);
    int rc;

    if (stmt == NULL)
        return fail_sql(call);
    sqlite3_bind_int64(stmt, 1, ns->id);
    sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
        return fail_sql(call);
    return sqlite3_changes(floe_state_db(st)) > 0;
}

/* ---- listNamespaces ---- */

/* Reads one page (or, without a page token, everything) of names after `after`. */
static int list_names(floe_iceberg_call_t *call, const floe_bucket_row_t *bucket, const char *after, int limit,
                      floe_iceberg_strings_t *names)
{
    sqlite3_stmt *stmt = floe_state_stmt(floe_call_state(&call->super), sql_list_namespaces);
    size_t cap = 0;
    int rc;

    if (stmt == NULL)
        return fail_sql(call);
    sqlite3_bind_int64(stmt, 1, bucket->id);
    sqlite3_bind_text(stmt, 2, after, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 3, limit);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        push(call, names, &cap, floe_column_text(&call->super, stmt, 0));
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? FLOE_OK : fail_sql(call);
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
    /* One more row than the page tells whether another page follows; -1 is no limit. */
    if (list_names(call, &bucket, after, in->page.has_token ? in->page.size + 1 : -1, &out->namespaces))
        return FLOE_EFAIL;
    if (in->page.has_token && out->namespaces.n > (size_t)in->page.size) {
        out->namespaces.n = (size_t)in->page.size;
        out->next_page_token =
            floe_page_token_encode(&call->super, listing, out->namespaces.items[out->namespaces.n - 1]);
    }
    return FLOE_OK;
}

/* ---- createNamespace, loadNamespaceMetadata, namespaceExists, dropNamespace ---- */

static int insert_properties(floe_iceberg_call_t *call, const floe_namespace_row_t *ns,
                             const floe_iceberg_properties_t *properties)
{
    for (size_t i = 0; i < properties->n; i++) {
        if (upsert_property(call, ns, properties->keys[i], properties->values[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_iceberg_handle_createNamespace(floe_iceberg_call_t *call, const floe_iceberg_createNamespace_in *in,
                                        floe_iceberg_CreateNamespaceResponse *out)
{
    floe_state_t *st = floe_call_state(&call->super);
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (floe_iceberg_lookup_warehouse(call, in->warehouse, &bucket))
        return FLOE_EFAIL;
    if (floe_state_begin(st))
        return fail_sql(call);
    if (floe_namespace_create(&call->super, &bucket, in->namespace, &ns)) {
        floe_state_rollback(st);
        return floe_iceberg_fail_from_api(call, FLOE_ICEBERG_ERR_InternalServerError,
                                          FLOE_ICEBERG_ERR_AlreadyExistsException);
    }
    if (insert_properties(call, &ns, &in->properties) || floe_state_commit(st)) {
        floe_state_rollback(st);
        return call->error != FLOE_ICEBERG_ERR_NONE ? FLOE_EFAIL : fail_sql(call);
    }
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
        return floe_iceberg_fail_from_api(call, FLOE_ICEBERG_ERR_NoSuchNamespaceException,
                                          FLOE_ICEBERG_ERR_NamespaceNotEmptyException);
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

static int apply_property_changes(floe_iceberg_call_t *call, const floe_namespace_row_t *ns,
                                  const floe_iceberg_updateProperties_in *in,
                                  floe_iceberg_UpdateNamespacePropertiesResponse *out)
{
    size_t cap_removed = 0, cap_missing = 0, cap_updated = 0;

    for (size_t i = 0; i < in->removals.n; i++) {
        int was_set = delete_property(call, ns, in->removals.items[i]);
        if (was_set < 0)
            return FLOE_EFAIL;
        push(call, was_set ? &out->removed : &out->missing, was_set ? &cap_removed : &cap_missing,
             in->removals.items[i]);
    }
    for (size_t i = 0; i < in->updates.n; i++) {
        if (upsert_property(call, ns, in->updates.keys[i], in->updates.values[i]))
            return FLOE_EFAIL;
        push(call, &out->updated, &cap_updated, in->updates.keys[i]);
    }
    return FLOE_OK;
}

int floe_iceberg_handle_updateProperties(floe_iceberg_call_t *call, const floe_iceberg_updateProperties_in *in,
                                         floe_iceberg_UpdateNamespacePropertiesResponse *out)
{
    floe_state_t *st = floe_call_state(&call->super);
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    const char *both;

    if ((both = key_both_updated_and_removed(in)) != NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_UnprocessableEntityException,
                                      "The property %s is both updated and removed.", both);
    if (floe_iceberg_lookup_namespace(call, in->ns.warehouse, in->ns.namespace, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_state_begin(st))
        return fail_sql(call);
    if (apply_property_changes(call, &ns, in, out) || floe_state_commit(st)) {
        floe_state_rollback(st);
        return call->error != FLOE_ICEBERG_ERR_NONE ? FLOE_EFAIL : fail_sql(call);
    }
    return FLOE_OK;
}
