/*
 * TableResource, the table itself: CreateTable, GetTable, ListTables, DeleteTable, RenameTable,
 * GetTableMetadataLocation and UpdateTableMetadataLocation. (The table's configuration operations
 * live in their own files.)
 *
 * Each handler checks AWS's rules, calls the table catalog (catalog/table.h, whose design notes
 * say how a table is created, how its metadata pointer moves and how deletes and renames are
 * guarded), and turns each outcome into the operation's error with AWS's message. The table name
 * rule and those messages are shared with the Iceberg REST handlers through catalog/table_rules.h.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/arn.h"
#include "catalog/iceberg_create.h"
#include "catalog/lookup.h"
#include "catalog/page_token.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"
#include "catalog/rules.h"
#include "catalog/table.h"
#include "catalog/table_rules.h"
#include "floe_api.h"
#include "table_encryption.h"
#include "table_storage_class.h"

#define DEFAULT_PAGE_SIZE 1000

/* ---- AWS's rules and messages ---- */

/* The error a catalog outcome other than FLOE_OK answers with. */
static int fail_from_catalog(floe_call_t *call, int rc)
{
    switch (rc) {
    case FLOE_ECHANGED: return floe_fail(call, FLOE_ECHANGED, FLOE_SUBJECT_TABLE, FLOE_TABLE_MESSAGE_STALE_TOKEN);
    case FLOE_ENOTFOUND: return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_TABLE, FLOE_TABLE_MESSAGE_NOT_FOUND);
    case FLOE_EEXISTS: return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_TABLE, FLOE_TABLE_MESSAGE_EXISTS);
    default:
        assert(rc == FLOE_EFAIL && call->failure.code != FLOE_OK); /* the call holds its error */
        return FLOE_EFAIL;
    }
}

/* ---- CreateTable ---- */

/* What CreateTable sets on the new table besides the row itself, in the row's transaction: the
 * encryption and storage class it gives or else inherits from its bucket (table_encryption.c,
 * table_storage_class.c), and its tags. A refused setting creates no table. */
static int apply_creation_settings(floe_call_t *call, int64_t table_id, int64_t bucket_id, const void *ctx)
{
    const floe_CreateTableRequest *in = ctx;
    if (floe_table_encryption_create(call, table_id, bucket_id, in->encryptionConfiguration))
        return FLOE_EFAIL;
    if (floe_table_storage_class_create(call, table_id, bucket_id, in->storageClassConfiguration))
        return FLOE_EFAIL;
    if (in->tags != NULL) {
        floe_resource_t table = {FLOE_RESOURCE_TABLE, table_id};
        return floe_rules_tags_add(call, &table, in->tags);
    }
    return FLOE_OK;
}

/* Renders the first metadata file of the table, or fails the call with BadRequestException. */
static int render_metadata(floe_call_t *call, const floe_CreateTableRequest *in, const floe_table_draft_t *t,
                           char **json)
{
    char why[256], *location = floe_call_printf(call, "s3://%s", t->warehouse);

    *json = NULL;
    if (in->metadata == NULL || in->metadata->tag != FLOE_TableMetadata_TAG_iceberg)
        return FLOE_OK;
    if (floe_iceberg_metadata_create(in->metadata->iceberg, t->table_id, location, floe_call_now(call), json, why,
                                     sizeof(why)) != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", why);
    return FLOE_OK;
}

/* Design note 2 of catalog/table.c: the metadata file first, then the row. */
static int store_table(floe_call_t *call, const floe_CreateTableRequest *in, floe_table_draft_t *t)
{
    char *json;
    int rc;
    int stored;

    if (render_metadata(call, in, t, &json))
        return FLOE_EFAIL;
    floe_call_keep(call, json); /* the Iceberg module's malloc'ed text: freed with the request */
    stored = json != NULL ? floe_table_store_first_metadata(call, t, json) : FLOE_OK;
    if (stored != FLOE_OK)
        return FLOE_EFAIL;
    rc = floe_table_insert(call, t, apply_creation_settings, in);
    return rc == FLOE_OK ? FLOE_OK : fail_from_catalog(call, rc);
}

int floe_handle_CreateTable(floe_call_t *call, const floe_CreateTableRequest *in, floe_CreateTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_draft_t t;
    int rc;

    if (floe_table_check_name(call, in->name))
        return FLOE_EFAIL;
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    rc = floe_table_draft(call, &bucket, &ns, in->name, floe_OpenTableFormat_values[in->format], &t);
    if (rc != FLOE_OK)
        return fail_from_catalog(call, rc);
    if (store_table(call, in, &t))
        return FLOE_EFAIL;
    out->tableARN = floe_arn_table(call, t.bucket.name, t.table_id);
    out->versionToken = t.version_token;
    return FLOE_OK;
}

/* ---- reads ---- */

static floe_NamespaceList *namespace_list(floe_call_t *call, char *name)
{
    floe_NamespaceList *list = floe_NamespaceList_new(call, 1);
    list->items[0] = name;
    return list;
}

/* Resolves GetTable's two ways of naming a table: tableArn, or bucket ARN + namespace + name. */
static int lookup_get_table_target(floe_call_t *call, const floe_GetTableRequest *in, floe_table_row_t *t)
{
    if (in->tableArn != NULL) {
        if (in->tableBucketARN != NULL || in->namespace != NULL || in->name != NULL)
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                             "Specify either tableArn, or tableBucketARN, namespace and name, not both.");
        return floe_lookup_table_by_arn(call, in->tableArn, t);
    }
    if (in->tableBucketARN == NULL || in->namespace == NULL || in->name == NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "Specify either tableArn, or tableBucketARN, namespace and name.");
    return floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, t);
}

/* A replica's source, as GetTable reports it (managedTableInformation.replicationInformation);
 * NULL for a table that is no replica. */
static int replica_information(floe_call_t *call, const floe_table_row_t *t, floe_ManagedTableInformation **out)
{
    char *source_arn;

    if (floe_replication_source_of(call, t->id, &source_arn))
        return FLOE_EFAIL;
    if (source_arn == NULL)
        return FLOE_OK;
    *out = floe_call_alloc(call, sizeof(**out));
    (*out)->replicationInformation = floe_call_alloc(call, sizeof(*(*out)->replicationInformation));
    (*out)->replicationInformation->sourceTableARN = source_arn;
    return FLOE_OK;
}

int floe_handle_GetTable(floe_call_t *call, const floe_GetTableRequest *in, floe_GetTableResponse *out)
{
    floe_table_row_t t;

    if (lookup_get_table_target(call, in, &t))
        return FLOE_EFAIL;
    out->name = t.name;
    out->type = floe_TableType_from_string(t.type);
    out->tableARN = t.arn;
    out->namespace = namespace_list(call, t.ns.name);
    out->versionToken = t.version_token;
    out->metadataLocation = t.metadata_location;
    out->warehouseLocation = floe_table_warehouse_location(call, &t);
    out->createdAt = t.created_at;
    out->has_createdAt = true;
    out->createdBy = t.created_by;
    out->modifiedAt = t.modified_at;
    out->has_modifiedAt = true;
    /* AWS leaves modifiedBy out until something modifies the table (seen by Terraform's acceptance
     * tests); '' is how the catalog marks a table never modified (migration 7 marks older rows).
     * A modification in the millisecond of the creation still counts. */
    if (t.modified_by != NULL && *t.modified_by != '\0')
        out->modifiedBy = t.modified_by;
    out->ownerAccountId = floe_call_account(call);
    out->format = floe_OpenTableFormat_from_string(t.format);
    out->namespaceId = t.ns.namespace_id;
    out->tableBucketId = t.bucket.bucket_id;
    return replica_information(call, &t, &out->managedTableInformation);
}

int floe_handle_GetTableMetadataLocation(floe_call_t *call, const floe_GetTableMetadataLocationRequest *in,
                                         floe_GetTableMetadataLocationResponse *out)
{
    floe_table_row_t t;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t))
        return FLOE_EFAIL;
    out->versionToken = t.version_token;
    out->metadataLocation = t.metadata_location;
    out->warehouseLocation = floe_table_warehouse_location(call, &t);
    return FLOE_OK;
}

/* The page token's key is "<namespace>/<table>": neither name can hold a '/'. */
static int read_list_cursor(floe_call_t *call, const char *listing, const char *token, const char **ns,
                            const char **name)
{
    char *key, *slash;
    *ns = "";
    *name = "";
    if (token == NULL)
        return FLOE_OK;
    if ((key = floe_page_token_decode(call, listing, token)) == NULL || (slash = strchr(key, '/')) == NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "The continuation token is not valid.");
    *slash = '\0';
    *ns = key;
    *name = slash + 1;
    return FLOE_OK;
}

static void fill_table_summary(floe_call_t *call, const floe_table_row_t *t, floe_TableSummary *s)
{
    s->name = t->name;
    s->tableARN = t->arn;
    s->type = floe_TableType_from_string(t->type);
    s->createdAt = t->created_at;
    s->has_createdAt = true;
    s->modifiedAt = t->modified_at;
    s->has_modifiedAt = true;
    s->namespace = namespace_list(call, t->ns.name);
    s->namespaceId = t->ns.namespace_id;
    s->tableBucketId = t->bucket.bucket_id;
}

int floe_handle_ListTables(floe_call_t *call, const floe_ListTablesRequest *in, floe_ListTablesResponse *out)
{
    int page_size = in->has_maxTables ? in->maxTables : DEFAULT_PAGE_SIZE;
    floe_table_list_query_t q = {0};
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t *rows;
    const char *listing;
    size_t n;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        (in->namespace != NULL && floe_lookup_namespace(call, &bucket, in->namespace, &ns)))
        return FLOE_EFAIL;
    listing = floe_call_printf(call, "ListTables|%s|%s|%s", bucket.bucket_id, in->namespace ? in->namespace : "",
                               in->prefix ? in->prefix : "");
    if (read_list_cursor(call, listing, in->continuationToken, &q.after_ns, &q.after_name))
        return FLOE_EFAIL;
    q.bucket = &bucket;
    q.ns = in->namespace != NULL ? &ns : NULL;
    q.prefix = in->prefix;
    q.limit = page_size + 1; /* one more tells whether another page follows */
    if (floe_table_list(call, &q, &rows, &n))
        return FLOE_EFAIL;
    if (n > (size_t)page_size) {
        const floe_table_row_t *last = &rows[page_size - 1];
        n = (size_t)page_size;
        out->continuationToken =
            floe_page_token_encode(call, listing, floe_call_printf(call, "%s/%s", last->ns.name, last->name));
    }
    out->tables = floe_TableSummaryList_new(call, n);
    for (size_t i = 0; i < n; i++)
        fill_table_summary(call, &rows[i], &out->tables->items[i]);
    return FLOE_OK;
}

/* ---- writes ---- */

int floe_handle_UpdateTableMetadataLocation(floe_call_t *call, const floe_UpdateTableMetadataLocationRequest *in,
                                            floe_UpdateTableMetadataLocationResponse *out)
{
    floe_table_row_t t;
    int rc;
    char *token;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t) ||
        floe_replication_refuse_replica(call, &t))
        return FLOE_EFAIL;
    if (!floe_table_location_is_inside(&t, in->metadataLocation))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE,
                         "The specified metadata location is not valid: it must be inside the table's warehouse %s.",
                         floe_table_warehouse_location(call, &t));
    rc = floe_table_swap_metadata(call, &t, in->versionToken, in->metadataLocation, &token);
    if (rc != FLOE_OK)
        return fail_from_catalog(call, rc);
    out->name = t.name;
    out->tableARN = t.arn;
    out->namespace = namespace_list(call, t.ns.name);
    out->versionToken = token;
    out->metadataLocation = floe_call_strdup(call, in->metadataLocation);
    return FLOE_OK;
}

int floe_handle_DeleteTable(floe_call_t *call, const floe_DeleteTableRequest *in, floe_Unit *out)
{
    floe_table_row_t t;
    int rc;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t))
        return FLOE_EFAIL;
    rc = floe_table_delete(call, &t, in->versionToken);
    return rc == FLOE_OK ? FLOE_OK : fail_from_catalog(call, rc);
}

int floe_handle_RenameTable(floe_call_t *call, const floe_RenameTableRequest *in, floe_Unit *out)
{
    floe_namespace_row_t dest;
    floe_table_row_t t;
    int rc;
    (void)out;

    if (in->newNamespaceName == NULL && in->newName == NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                         "Neither a new namespace name nor a new table name is specified.");
    if (in->newName != NULL && floe_table_check_name(call, in->newName))
        return FLOE_EFAIL;
    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t) ||
        floe_replication_refuse_replica(call, &t))
        return FLOE_EFAIL;
    dest = t.ns;
    if (in->newNamespaceName != NULL && floe_lookup_namespace(call, &t.bucket, in->newNamespaceName, &dest))
        return call->failure.code == FLOE_ENOTFOUND
                   ? floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_NAMESPACE,
                               "The specified destination namespace does not exist.")
                   : FLOE_EFAIL;
    rc = floe_table_rename(call, &t, &dest, in->newName != NULL ? in->newName : t.name, in->versionToken);
    return rc == FLOE_OK ? FLOE_OK : fail_from_catalog(call, rc);
}
