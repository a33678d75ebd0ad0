/*
 * TableResource, the table itself: CreateTable, GetTable, ListTables, DeleteTable, RenameTable,
 * GetTableMetadataLocation and UpdateTableMetadataLocation. (The table's configuration operations
 * live in their own files.)
 *
 * Design notes:
 *  1. A table is a row of s3table plus a warehouse bucket in the S3 store, named as AWS names them
 *     ("<uuid prefix>-<random>--table-s3"). The ARN carries the table's UUID, so it survives a
 *     rename; so does the version token, which changes only when the metadata pointer moves.
 *  2. A table with metadata is created in three steps, shared by CreateTable and the Iceberg REST
 *     catalog (create-table, and a commit that creates): floe_table_draft checks the name and picks
 *     the ids, floe_table_store_first_metadata makes the warehouse and writes
 *     metadata/00000-<uuid>.metadata.json (fsynced), floe_table_insert inserts the row in one
 *     transaction. The row, and so the table, exists only once its metadata file does; if the
 *     insert loses (a racing create of the same name), the warehouse is queued for the janitor.
 *
 *        floe_table_draft ─▶ floe_table_store_first_metadata ─▶ floe_table_insert ─▶ table exists
 *                                     │ (bucket, then file)             │ conflict
 *                                     └─────────────────────────────────┴──▶ floe_janitor_enqueue
 *
 *  3. Every move of the metadata pointer is floe_table_swap_metadata(): one UPDATE guarded by the
 *     version token, so of K racing writers exactly one wins (SQLite serializes writers).
 *  4. DeleteTable deletes the row and queues the warehouse in one transaction; the janitor
 *     removes the objects later. DeleteNamespace and DeleteTableBucket refuse while tables exist
 *     (foreign keys without cascade).
 *  5. DeleteTable and RenameTable look the table up by name, then change it in one guarded
 *     statement that repeats the row id, the version token (when given) and the name and
 *     namespace looked up. A rename does not change the token, so without the name in the guard
 *     K racing renames on one token could all succeed (seen with tests/e2e/71-races.py on
 *     --threads 2). When the guard matches nothing, refused_change() answers as a later request
 *     would: NotFoundException if the name no longer names the table, else ConflictException.
 *
 * Messages are AWS's where known (as mirrored by moto): "A table with an identical name already
 * exists in the namespace.", "Provided version token does not match the table version token.".
 */
#include <string.h>

#include "catalog/arn.h"
#include "floe_api.h"
#include "iceberg_create.h"
#include "ids.h"
#include "catalog/janitor.h"
#include "catalog/lookup.h"
#include "catalog/page_token.h"
#include "catalog/state.h"
#include "store/store.h"
#include "table.h"
#include "table_encryption.h"
#include "table_storage_class.h"
#include "tags.h"

#define DEFAULT_PAGE_SIZE 1000
#define VERSION_TOKEN_LEN 32
#define WAREHOUSE_UUID_PREFIX_LEN 18 /* "xxxxxxxx-xxxx-xxxx" of the table's UUID */
#define WAREHOUSE_RANDOM_LEN 34      /* makes the name 63 characters, S3's limit, as AWS's are */
#define WAREHOUSE_SUFFIX "--table-s3"
#define FIRST_METADATA_PREFIX "metadata/00000-"
#define METADATA_SUFFIX ".metadata.json"
#define MESSAGE_TABLE_EXISTS "A table with an identical name already exists in the namespace."
#define MESSAGE_STALE_TOKEN "Provided version token does not match the table version token."

FLOE_SQL(sql_insert_table,
    "INSERT INTO s3table (table_bucket_id, namespace_id, name, table_id, format, version_token, metadata_location,"
    " warehouse_bucket, created_at, created_by, modified_at, modified_by)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?9, ?10)");

FLOE_SQL(sql_table_exists, "SELECT 1 FROM s3table WHERE namespace_id = ?1 AND name = ?2");

FLOE_SQL(sql_swap_metadata,
    "UPDATE s3table SET metadata_location = ?1, version_token = ?2, modified_at = ?3, modified_by = ?4"
    " WHERE id = ?5 AND version_token = ?6");

FLOE_SQL(sql_table_row_exists, "SELECT 1 FROM s3table WHERE id = ?1");

/* Deletes and renames are addressed by name: the guard repeats the name and namespace the
 * handler looked up, so a request never acts on a table that a concurrent rename moved away from
 * that name after the look-up (design note 5). */
FLOE_SQL(sql_delete_table,
    "DELETE FROM s3table WHERE id = ?1 AND (?2 IS NULL OR version_token = ?2) AND namespace_id = ?3 AND name = ?4"
    " RETURNING warehouse_bucket");

FLOE_SQL(sql_rename_table,
    "UPDATE s3table SET namespace_id = ?1, name = ?2, modified_at = ?3, modified_by = ?4"
    " WHERE id = ?5 AND (?6 IS NULL OR version_token = ?6) AND namespace_id = ?7 AND name = ?8");

FLOE_SQL(sql_table_still_named, "SELECT 1 FROM s3table WHERE id = ?1 AND namespace_id = ?2 AND name = ?3");

FLOE_SQL(sql_list_tables,
    "SELECT t.name, t.table_id, t.type, t.created_at, t.modified_at, n.name, n.namespace_id"
    " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.table_bucket_id = ?1 AND (?2 IS NULL OR t.namespace_id = ?2)"
    " AND (?3 IS NULL OR substr(t.name, 1, length(?3)) = ?3) AND (n.name, t.name) > (?4, ?5)"
    " ORDER BY n.name, t.name LIMIT ?6");

/* ---- names, tokens, locations ---- */

static bool is_letter_or_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* AWS: a table name begins and ends with a letter or number (the model checks length and the
 * characters a-z, 0-9 and _). */
static bool table_name_is_allowed(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && is_letter_or_digit(name[0]) && is_letter_or_digit(name[n - 1]);
}

static int refuse_table_name(floe_call_t *call)
{
    return floe_fail(call, FLOE_ERR_BadRequestException, "The specified table name is not valid.");
}

static char *new_version_token(floe_call_t *call)
{
    char *token = floe_call_alloc(call, VERSION_TOKEN_LEN + 1);
    floe_random_alnum(token, VERSION_TOKEN_LEN);
    return token;
}

/* AWS names a table's bucket "<first three groups of a UUID>-<random>--table-s3" (63 characters). */
static char *warehouse_bucket_name(floe_call_t *call, const char *table_id)
{
    char random[WAREHOUSE_RANDOM_LEN + 1];
    floe_random_alnum(random, WAREHOUSE_RANDOM_LEN);
    return floe_call_printf(call, "%.*s-%s" WAREHOUSE_SUFFIX, WAREHOUSE_UUID_PREFIX_LEN, table_id, random);
}

char *floe_table_warehouse_location(floe_call_t *call, const floe_table_row_t *table)
{
    return floe_call_printf(call, "s3://%s", table->warehouse_bucket);
}

int floe_table_location_is_inside(const floe_table_row_t *table, const char *location)
{
    size_t n = strlen(table->warehouse_bucket);
    return strncmp(location, "s3://", 5) == 0 && strncmp(location + 5, table->warehouse_bucket, n) == 0 &&
           location[5 + n] == '/' && location[6 + n] != '\0';
}

/* ---- the compare-and-swap (design note 3) ---- */

static int table_row_exists(floe_state_t *st, int64_t id)
{
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_table_row_exists);
    int found;
    if (stmt == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, id);
    found = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_reset(stmt);
    return found;
}

/* Why a guarded delete or rename of table `t` changed nothing (design note 5): the name the
 * request gave no longer names the table (NotFoundException), or its token moved on
 * (ConflictException). */
static int refused_change(floe_call_t *call, const floe_table_row_t *t)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_table_still_named);
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, t->id);
    sqlite3_bind_int64(stmt, 2, t->ns.id);
    sqlite3_bind_text(stmt, 3, t->name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_ROW)
        return floe_fail(call, FLOE_ERR_ConflictException, MESSAGE_STALE_TOKEN);
    if (rc == SQLITE_DONE)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table does not exist.");
    return floe_fail_internal(call, floe_state_errmsg(st));
}

floe_table_swap_rc_t floe_table_swap_metadata(floe_call_t *call, int64_t table_row_id, const char *expected_token,
                                              const char *metadata_location, char **new_token)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_swap_metadata);
    char *token = new_version_token(call);

    if (stmt == NULL)
        return FLOE_TABLE_FAILED;
    sqlite3_bind_text(stmt, 1, metadata_location, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, token, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, floe_call_now(call));
    sqlite3_bind_text(stmt, 4, floe_call_config(call)->account_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 5, table_row_id);
    sqlite3_bind_text(stmt, 6, expected_token, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return FLOE_TABLE_FAILED;
    if (sqlite3_changes(floe_state_db(st)) == 1) {
        *new_token = token;
        return FLOE_TABLE_SWAPPED;
    }
    switch (table_row_exists(st, table_row_id)) {
    case 1: return FLOE_TABLE_STALE;
    case 0: return FLOE_TABLE_GONE;
    default: return FLOE_TABLE_FAILED;
    }
}

/* ---- creating a table, shared by CreateTable and the REST catalog (design note 2) ---- */

static int name_is_taken(floe_call_t *call, const floe_table_draft_t *t)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_table_exists);
    int taken;
    if (stmt == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, t->ns.id);
    sqlite3_bind_text(stmt, 2, t->name, -1, SQLITE_STATIC);
    taken = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_reset(stmt);
    return taken;
}

int floe_table_draft(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                     const char *name, const char *format, floe_table_draft_t *t)
{
    int rc;

    memset(t, 0, sizeof(*t));
    if (!table_name_is_allowed(name))
        return refuse_table_name(call);
    t->bucket = *bucket;
    t->ns = *ns;
    t->name = name;
    t->format = format;
    if ((rc = name_is_taken(call, t)) != 0)
        return rc > 0 ? floe_fail(call, FLOE_ERR_ConflictException, MESSAGE_TABLE_EXISTS)
                      : floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    floe_uuid_v4(t->table_id);
    t->warehouse = warehouse_bucket_name(call, t->table_id);
    t->version_token = new_version_token(call);
    return FLOE_OK;
}

static bool is_lower_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* A UUID as Iceberg writes table-uuid: 8-4-4-4-12 lowercase hex digits. */
static bool is_canonical_uuid(const char *s)
{
    if (strlen(s) != FLOE_UUID_LEN)
        return false;
    for (size_t i = 0; i < FLOE_UUID_LEN; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_lower_hex(s[i]))
            return false;
    }
    return true;
}

/* True when `name` is a warehouse bucket name warehouse_bucket_name() could give table `table_id`. */
static bool is_warehouse_name_for(const char *name, const char *table_id)
{
    size_t suffix_len = strlen(WAREHOUSE_SUFFIX);
    if (strlen(name) != WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN + suffix_len ||
        strncmp(name, table_id, WAREHOUSE_UUID_PREFIX_LEN) != 0 || name[WAREHOUSE_UUID_PREFIX_LEN] != '-' ||
        strcmp(name + WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN, WAREHOUSE_SUFFIX) != 0)
        return false;
    for (size_t i = WAREHOUSE_UUID_PREFIX_LEN + 1; i < WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN; i++) {
        if (!is_letter_or_digit(name[i]))
            return false;
    }
    return true;
}

int floe_table_draft_adopt(floe_call_t *call, floe_table_draft_t *t, const char *table_uuid, const char *location)
{
    char *name;
    size_t n;

    if (table_uuid != NULL) {
        if (!is_canonical_uuid(table_uuid))
            return floe_fail(call, FLOE_ERR_BadRequestException, "The table UUID %s is not a lowercase UUID.", table_uuid);
        memcpy(t->table_id, table_uuid, FLOE_UUID_LEN + 1);
        t->warehouse = warehouse_bucket_name(call, t->table_id);
    }
    if (location == NULL)
        return FLOE_OK;
    if (strncmp(location, "s3://", 5) != 0)
        return floe_fail(call, FLOE_ERR_BadRequestException, "The table location %s is not one S3 Tables gave.", location);
    name = floe_call_strdup(call, location + 5);
    n = strlen(name);
    while (n > 0 && name[n - 1] == '/')
        name[--n] = '\0';
    if (!is_warehouse_name_for(name, t->table_id))
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "The table location %s is not one S3 Tables gave: S3 Tables chooses each table's location.",
                         location);
    t->warehouse = name;
    return FLOE_OK;
}

int floe_table_store_first_metadata(floe_call_t *call, floe_table_draft_t *t, const char *json)
{
    floe_state_t *st = floe_call_state(call);
    char file_id[FLOE_UUID_LEN + 1], etag[33], *key;

    if (floe_store_create_bucket(st, t->warehouse, true, floe_call_now(call)) != FLOE_STORE_OK)
        return floe_fail_internal(call, "cannot create a warehouse bucket");
    floe_uuid_v4(file_id);
    key = floe_call_printf(call, FIRST_METADATA_PREFIX "%s" METADATA_SUFFIX, file_id);
    if (floe_store_put_object(st, floe_call_config(call)->data_dir, t->warehouse, key, json, strlen(json),
                              "application/json", floe_call_now(call), etag) != FLOE_STORE_OK) {
        floe_janitor_enqueue(st, t->warehouse, floe_call_now(call));
        return floe_fail_internal(call, "cannot write a table's first metadata file");
    }
    t->metadata_location = floe_call_printf(call, "s3://%s/%s", t->warehouse, key);
    return FLOE_OK;
}

/* Inserts the row; SQLITE_CONSTRAINT when the name (or the table id) was taken meanwhile. */
static int insert_table_row(floe_call_t *call, const floe_table_draft_t *t)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_insert_table);
    if (stmt == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(stmt, 1, t->bucket.id);
    sqlite3_bind_int64(stmt, 2, t->ns.id);
    sqlite3_bind_text(stmt, 3, t->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, t->table_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, t->format, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, t->version_token, -1, SQLITE_STATIC);
    if (t->metadata_location != NULL)
        sqlite3_bind_text(stmt, 7, t->metadata_location, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 8, t->warehouse, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 9, floe_call_now(call));
    sqlite3_bind_text(stmt, 10, floe_call_config(call)->account_id, -1, SQLITE_STATIC);
    return sqlite3_step(stmt) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(floe_state_db(st));
}

/* What CreateTable sets on the new table besides the row itself, in the row's transaction: the
 * encryption and storage class it gives or else inherits from its bucket (table_encryption.c,
 * table_storage_class.c), and its tags. A refused setting creates no table. */
static int apply_creation_settings(floe_call_t *call, const floe_CreateTableRequest *in)
{
    int64_t table_id = sqlite3_last_insert_rowid(floe_state_db(floe_call_state(call)));
#if defined(FLOE_HAS_MEMBER_CreateTableRequest_encryptionConfiguration) || \
    defined(FLOE_HAS_MEMBER_CreateTableRequest_storageClassConfiguration)
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
#endif
#ifdef FLOE_HAS_MEMBER_CreateTableRequest_encryptionConfiguration
    if (floe_table_encryption_create(call, table_id, bucket.id, in->encryptionConfiguration))
        return FLOE_EFAIL;
#endif
#ifdef FLOE_HAS_MEMBER_CreateTableRequest_storageClassConfiguration
    if (floe_table_storage_class_create(call, table_id, bucket.id, in->storageClassConfiguration))
        return FLOE_EFAIL;
#endif
#ifdef FLOE_HAS_MEMBER_CreateTableRequest_tags
    if (in->tags != NULL) {
        floe_resource_t table = {FLOE_RESOURCE_TABLE, table_id};
        return floe_tags_add(call, &table, in->tags);
    }
#endif
    (void)in; /* older models give CreateTable none of these members */
    (void)table_id;
    return FLOE_OK;
}

/* Gives up on a draft whose warehouse exists already: the janitor removes it (note 2). */
static void abandon_warehouse(floe_call_t *call, const floe_table_draft_t *t)
{
    if (t->metadata_location != NULL)
        floe_janitor_enqueue(floe_call_state(call), t->warehouse, floe_call_now(call));
}

/* Step 3 of note 2: the row, in one transaction with the warehouse bucket when there is no
 * metadata file (and so no bucket yet). A lost race gives the warehouse to the janitor. */
int floe_table_insert(floe_call_t *call, const floe_table_draft_t *t, floe_table_settings_fn settings,
                      const void *settings_ctx)
{
    floe_state_t *st = floe_call_state(call);
    int rc;

    if (floe_state_begin(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (t->metadata_location == NULL &&
        floe_store_create_bucket(st, t->warehouse, true, floe_call_now(call)) != FLOE_STORE_OK) {
        floe_state_rollback(st);
        return floe_fail_internal(call, "cannot create a warehouse bucket");
    }
    rc = insert_table_row(call, t);
    if (rc == SQLITE_CONSTRAINT) {
        floe_state_rollback(st);
        abandon_warehouse(call, t);
        return floe_fail(call, FLOE_ERR_ConflictException, MESSAGE_TABLE_EXISTS);
    }
    if (rc != SQLITE_OK) {
        floe_state_rollback(st);
        return floe_fail_internal(call, floe_state_errmsg(st));
    }
    if (settings != NULL && settings(call, settings_ctx) != FLOE_OK) {
        floe_state_rollback(st);
        abandon_warehouse(call, t);
        return FLOE_EFAIL;
    }
    if (floe_state_commit(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

/* ---- CreateTable ---- */

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
        return floe_fail(call, FLOE_ERR_BadRequestException, "%s", why);
    return FLOE_OK;
}

static int creation_settings(floe_call_t *call, const void *in)
{
    return apply_creation_settings(call, in);
}

int floe_handle_CreateTable(floe_call_t *call, const floe_CreateTableRequest *in, floe_CreateTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_draft_t t;
    char *json = NULL;
    int rc;

    if (!table_name_is_allowed(in->name))
        return refuse_table_name(call);
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    if (floe_table_draft(call, &bucket, &ns, in->name, floe_OpenTableFormat_values[in->format], &t) ||
        render_metadata(call, in, &t, &json))
        return FLOE_EFAIL;
    rc = json != NULL ? floe_table_store_first_metadata(call, &t, json) : FLOE_OK;
    free(json);
    if (rc != FLOE_OK || floe_table_insert(call, &t, creation_settings, in) != FLOE_OK)
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
#ifdef FLOE_HAS_MEMBER_GetTableRequest_tableArn
    if (in->tableArn != NULL) {
        if (in->tableBucketARN != NULL || in->namespace != NULL || in->name != NULL)
            return floe_fail(call, FLOE_ERR_BadRequestException,
                             "Specify either tableArn, or tableBucketARN, namespace and name, not both.");
        return floe_lookup_table_by_arn(call, in->tableArn, t);
    }
#endif
    if (in->tableBucketARN == NULL || in->namespace == NULL || in->name == NULL)
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "Specify either tableArn, or tableBucketARN, namespace and name.");
    return floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, t);
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
    out->modifiedBy = t.modified_by;
    out->ownerAccountId = floe_call_config(call)->account_id;
    out->format = floe_OpenTableFormat_from_string(t.format);
#ifdef FLOE_HAS_MEMBER_GetTableResponse_namespaceId
    out->namespaceId = t.ns.namespace_id;
#endif
#ifdef FLOE_HAS_MEMBER_GetTableResponse_tableBucketId
    out->tableBucketId = t.bucket.bucket_id;
#endif
    return FLOE_OK;
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
        return floe_fail(call, FLOE_ERR_BadRequestException, "The continuation token is not valid.");
    *slash = '\0';
    *ns = key;
    *name = slash + 1;
    return FLOE_OK;
}

static void read_table_summary(floe_call_t *call, sqlite3_stmt *stmt, const floe_bucket_row_t *bucket,
                               floe_TableSummary *s)
{
    s->name = floe_column_text(call, stmt, 0);
    s->tableARN = floe_arn_table(call, bucket->name, (const char *)sqlite3_column_text(stmt, 1));
    s->type = floe_TableType_from_string((const char *)sqlite3_column_text(stmt, 2));
    s->createdAt = sqlite3_column_int64(stmt, 3);
    s->has_createdAt = true;
    s->modifiedAt = sqlite3_column_int64(stmt, 4);
    s->has_modifiedAt = true;
    s->namespace = namespace_list(call, floe_column_text(call, stmt, 5));
#ifdef FLOE_HAS_MEMBER_TableSummary_namespaceId
    s->namespaceId = floe_column_text(call, stmt, 6);
#endif
#ifdef FLOE_HAS_MEMBER_TableSummary_tableBucketId
    s->tableBucketId = bucket->bucket_id;
#endif
}

int floe_handle_ListTables(floe_call_t *call, const floe_ListTablesRequest *in, floe_ListTablesResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    int page_size = in->has_maxTables ? in->maxTables : DEFAULT_PAGE_SIZE;
    const char *after_ns, *after_name;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc;

    const char *listing;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        (in->namespace != NULL && floe_lookup_namespace(call, &bucket, in->namespace, &ns)))
        return FLOE_EFAIL;
    listing = floe_call_printf(call, "ListTables|%s|%s|%s", bucket.bucket_id, in->namespace ? in->namespace : "",
                               in->prefix ? in->prefix : "");
    if (read_list_cursor(call, listing, in->continuationToken, &after_ns, &after_name))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_list_tables)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, bucket.id);
    if (in->namespace != NULL)
        sqlite3_bind_int64(stmt, 2, ns.id);
    if (in->prefix != NULL)
        sqlite3_bind_text(stmt, 3, in->prefix, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, after_ns, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 5, after_name, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 6, page_size + 1); /* one more tells whether another page follows */
    out->tables = floe_TableSummaryList_new(call, (size_t)page_size);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (n == (size_t)page_size) {
            floe_TableSummary *last = &out->tables->items[n - 1];
            out->continuationToken =
                floe_page_token_encode(call, listing, floe_call_printf(call, "%s/%s", last->namespace->items[0], last->name));
            break;
        }
        read_table_summary(call, stmt, &bucket, &out->tables->items[n++]);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->tables->n = n;
    return FLOE_OK;
}

/* ---- writes ---- */

int floe_handle_UpdateTableMetadataLocation(floe_call_t *call, const floe_UpdateTableMetadataLocationRequest *in,
                                            floe_UpdateTableMetadataLocationResponse *out)
{
    floe_table_row_t t;
    char *token;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t))
        return FLOE_EFAIL;
    if (!floe_table_location_is_inside(&t, in->metadataLocation))
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "The specified metadata location is not valid: it must be inside the table's warehouse %s.",
                         floe_table_warehouse_location(call, &t));
    switch (floe_table_swap_metadata(call, t.id, in->versionToken, in->metadataLocation, &token)) {
    case FLOE_TABLE_SWAPPED:
        break;
    case FLOE_TABLE_STALE:
        return floe_fail(call, FLOE_ERR_ConflictException, MESSAGE_STALE_TOKEN);
    case FLOE_TABLE_GONE:
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified table does not exist.");
    default:
        return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    }
    out->name = t.name;
    out->tableARN = t.arn;
    out->namespace = namespace_list(call, t.ns.name);
    out->versionToken = token;
    out->metadataLocation = floe_call_strdup(call, in->metadataLocation);
    return FLOE_OK;
}

int floe_table_delete(floe_call_t *call, const floe_table_row_t *t, const char *token)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;
    int rc;

    if (floe_state_begin(st) || (stmt = floe_state_stmt(st, sql_delete_table)) == NULL)
        return -1;
    sqlite3_bind_int64(stmt, 1, t->id);
    if (token != NULL)
        sqlite3_bind_text(stmt, 2, token, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, t->ns.id);
    sqlite3_bind_text(stmt, 4, t->name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE) {
        floe_state_rollback(st);
        return 0;
    }
    if (rc != SQLITE_ROW || floe_janitor_enqueue(st, t->warehouse_bucket, floe_call_now(call)) != 0 ||
        floe_state_commit(st) != 0) {
        floe_state_rollback(st);
        return -1;
    }
    return 1;
}

int floe_handle_DeleteTable(floe_call_t *call, const floe_DeleteTableRequest *in, floe_Unit *out)
{
    floe_table_row_t t;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t))
        return FLOE_EFAIL;
    switch (floe_table_delete(call, &t, in->versionToken)) {
    case 1: return FLOE_OK;
    case 0: return refused_change(call, &t);
    default: return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    }
}

int floe_table_rename(floe_call_t *call, const floe_table_row_t *t, const floe_namespace_row_t *dest,
                      const char *new_name, const char *token)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;
    int rc;

    if (!table_name_is_allowed(new_name))
        return refuse_table_name(call);
    if ((stmt = floe_state_stmt(st, sql_rename_table)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, dest->id);
    sqlite3_bind_text(stmt, 2, new_name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, floe_call_now(call));
    sqlite3_bind_text(stmt, 4, floe_call_config(call)->account_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 5, t->id);
    if (token != NULL)
        sqlite3_bind_text(stmt, 6, token, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 7, t->ns.id);
    sqlite3_bind_text(stmt, 8, t->name, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_CONSTRAINT)
        return floe_fail(call, FLOE_ERR_ConflictException, MESSAGE_TABLE_EXISTS);
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (sqlite3_changes(floe_state_db(st)) == 0)
        return refused_change(call, t);
    return FLOE_OK;
}

int floe_handle_RenameTable(floe_call_t *call, const floe_RenameTableRequest *in, floe_Unit *out)
{
    floe_namespace_row_t dest;
    floe_table_row_t t;
    (void)out;

    if (in->newNamespaceName == NULL && in->newName == NULL)
        return floe_fail(call, FLOE_ERR_BadRequestException,
                         "Neither a new namespace name nor a new table name is specified.");
    if (in->newName != NULL && !table_name_is_allowed(in->newName))
        return refuse_table_name(call);
    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &t))
        return FLOE_EFAIL;
    dest = t.ns;
    if (in->newNamespaceName != NULL && floe_lookup_namespace(call, &t.bucket, in->newNamespaceName, &dest))
        return floe_fail(call, FLOE_ERR_NotFoundException, "The specified destination namespace does not exist.");
    return floe_table_rename(call, &t, &dest, in->newName != NULL ? in->newName : t.name, in->versionToken);
}
