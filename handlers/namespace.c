/*
 * NamespaceResource: create, read, list and delete namespaces inside a table bucket.
 *
 * A namespace is a row of namespace, unique by (bucket, name). floe_namespace_create and
 * floe_namespace_delete (namespace.h) are shared with the Iceberg REST catalog, which adds
 * properties (handlers/iceberg_namespace.c; they go with the row, ON DELETE CASCADE). Names follow AWS's rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html#naming-rules-namespace):
 * the model checks length and characters, namespace_name_is_allowed() the rest.
 */
#include <string.h>

#include "floe_api.h"
#include "ids.h"
#include "catalog/lookup.h"
#include "namespace.h"
#include "catalog/page_token.h"
#include "catalog/rules.h"
#include "catalog/state.h"

#define DEFAULT_PAGE_SIZE 1000

FLOE_SQL(sql_insert_namespace,
    "INSERT INTO namespace (table_bucket_id, name, namespace_id, created_at, created_by) VALUES (?1, ?2, ?3, ?4, ?5)");

FLOE_SQL(sql_delete_namespace, "DELETE FROM namespace WHERE id = ?1");

FLOE_SQL(sql_list_namespaces,
    "SELECT name, namespace_id, created_by, created_at FROM namespace"
    " WHERE table_bucket_id = ?1 AND name > ?2 AND (?3 IS NULL OR substr(name, 1, length(?3)) = ?3)"
    " ORDER BY name LIMIT ?4");

/* AWS: a namespace name begins and ends with a letter or number and must not start with the
 * reserved prefix aws (catalog/rules.h, shared with CloudFormation). */
static bool namespace_name_is_allowed(const char *name)
{
    return floe_rules_namespace_name_is_allowed(name);
}

/* A one-element NamespaceList, as the API returns namespaces. */
static floe_NamespaceList *namespace_list(floe_call_t *call, char *name)
{
    floe_NamespaceList *list = floe_NamespaceList_new(call, 1);
    list->items[0] = name;
    return list;
}

int floe_namespace_create(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;
    int rc;

    if (!namespace_name_is_allowed(name))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The specified namespace name is not valid.");
    if ((stmt = floe_state_stmt(st, sql_insert_namespace)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->name = floe_call_strdup(call, name);
    out->namespace_id = floe_call_alloc(call, FLOE_UUID_LEN + 1);
    out->created_at = floe_call_now(call);
    out->created_by = floe_call_config(call)->account_id;
    floe_uuid_v4(out->namespace_id);
    sqlite3_bind_int64(stmt, 1, bucket->id);
    sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, out->namespace_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 4, out->created_at);
    sqlite3_bind_text(stmt, 5, out->created_by, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException,
                         "A namespace with an identical name already exists in the bucket.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->id = sqlite3_last_insert_rowid(floe_state_db(st));
    return FLOE_OK;
}

int floe_handle_CreateNamespace(floe_call_t *call, const floe_CreateNamespaceRequest *in,
                                floe_CreateNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (!namespace_name_is_allowed(in->namespace->items[0]))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The specified namespace name is not valid.");
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_namespace_create(call, &bucket, in->namespace->items[0], &ns))
        return FLOE_EFAIL;
    out->tableBucketARN = bucket.arn;
    out->namespace = namespace_list(call, ns.name);
    return FLOE_OK;
}

int floe_handle_GetNamespace(floe_call_t *call, const floe_GetNamespaceRequest *in, floe_GetNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    out->namespace = namespace_list(call, ns.name);
    out->createdAt = ns.created_at;
    out->has_createdAt = true;
    out->createdBy = ns.created_by;
    out->ownerAccountId = floe_call_config(call)->account_id;
    out->namespaceId = ns.namespace_id;
    out->tableBucketId = bucket.bucket_id;
    return FLOE_OK;
}

/* Reads one row of sql_list_namespaces into a summary. */
static void read_namespace_summary(floe_call_t *call, sqlite3_stmt *stmt, const floe_bucket_row_t *bucket,
                                   floe_NamespaceSummary *s)
{
    s->namespace = namespace_list(call, floe_column_text(call, stmt, 0));
    s->createdBy = floe_column_text(call, stmt, 2);
    s->createdAt = sqlite3_column_int64(stmt, 3);
    s->has_createdAt = true;
    s->ownerAccountId = floe_call_config(call)->account_id;
    s->namespaceId = floe_column_text(call, stmt, 1);
    s->tableBucketId = bucket->bucket_id;
}

int floe_handle_ListNamespaces(floe_call_t *call, const floe_ListNamespacesRequest *in,
                               floe_ListNamespacesResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    int page_size = in->has_maxNamespaces ? in->maxNamespaces : DEFAULT_PAGE_SIZE;
    const char *after = "";
    floe_bucket_row_t bucket;
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc;

    const char *listing;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    listing = floe_call_printf(call, "ListNamespaces|%s|%s", bucket.bucket_id, in->prefix ? in->prefix : "");
    if (in->continuationToken != NULL && (after = floe_page_token_decode(call, listing, in->continuationToken)) == NULL)
        return floe_fail(call, FLOE_ERR_BadRequestException, "The continuation token is not valid.");
    if ((stmt = floe_state_stmt(st, sql_list_namespaces)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket.id);
    sqlite3_bind_text(stmt, 2, after, -1, SQLITE_STATIC);
    if (in->prefix != NULL)
        sqlite3_bind_text(stmt, 3, in->prefix, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 4, page_size + 1); /* one more tells whether another page follows */
    out->namespaces = floe_NamespaceSummaryList_new(call, (size_t)page_size);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (n == (size_t)page_size) {
            out->continuationToken =
                floe_page_token_encode(call, listing, out->namespaces->items[n - 1].namespace->items[0]);
            break;
        }
        read_namespace_summary(call, stmt, &bucket, &out->namespaces->items[n++]);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->namespaces->n = n;
    return FLOE_OK;
}

int floe_namespace_delete(floe_call_t *call, const floe_namespace_row_t *ns)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;
    int rc;

    if ((stmt = floe_state_stmt(st, sql_delete_namespace)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, ns->id);
    rc = sqlite3_step(stmt);
    /* Tables reference their namespace without ON DELETE CASCADE: a namespace that still has a
     * table fails the foreign key, atomically with the delete. */
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException, "The namespace that you tried to delete is not empty.");
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_handle_DeleteNamespace(floe_call_t *call, const floe_DeleteNamespaceRequest *in, floe_Unit *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    return floe_namespace_delete(call, &ns);
}
