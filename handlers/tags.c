/*
 * The service-level tagging operations: TagResource, UntagResource and ListTagsForResource, on any
 * resource a ResourceArn can name (floe_lookup_resource). Tags are stored per kind of owner in
 * <owner>_tag tables that cascade with their owner; tag_sql_for() picks the statements for a kind.
 *
 * AWS's rules (https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_TagResource.html and
 * the model): at most 50 tags per resource; keys 1..128 and values 0..256 characters, which the
 * model checks; keys starting aws: are reserved for AWS.
 */
#include <strings.h>

#include "floe_api.h"
#include "catalog/lookup.h"
#include "catalog/state.h"
#include "tags.h"

/* TagResource, UntagResource and ListTagsForResource came with the same model version; each
 * handler also names its own. */
#ifdef FLOE_HAS_OP_TagResource

#define MAX_TAGS_PER_RESOURCE 50 /* TagResource: "You can add up to 50 tags for each S3 resource." */
#define RESERVED_TAG_PREFIX "aws:"

/* The statements on one kind of owner's tag table. ?1 is always the owner's row id. */
typedef struct tag_sql {
    const char *upsert; /* ?2 key, ?3 value */
    const char *remove; /* ?2 key */
    const char *count;
    const char *list; /* key, value, sorted by key */
} tag_sql_t;

FLOE_SQL(sql_bucket_tag_upsert,
    "INSERT INTO table_bucket_tag (table_bucket_id, tag_key, tag_value) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_bucket_id, tag_key) DO UPDATE SET tag_value = excluded.tag_value");

FLOE_SQL(sql_bucket_tag_remove, "DELETE FROM table_bucket_tag WHERE table_bucket_id = ?1 AND tag_key = ?2");

FLOE_SQL(sql_bucket_tag_count, "SELECT COUNT(*) FROM table_bucket_tag WHERE table_bucket_id = ?1");

FLOE_SQL(sql_bucket_tag_list,
    "SELECT tag_key, tag_value FROM table_bucket_tag WHERE table_bucket_id = ?1 ORDER BY tag_key");

static const tag_sql_t bucket_tag_sql = {
    sql_bucket_tag_upsert,
    sql_bucket_tag_remove,
    sql_bucket_tag_count,
    sql_bucket_tag_list,
};

FLOE_SQL(sql_table_tag_upsert,
    "INSERT INTO s3table_tag (table_id, tag_key, tag_value) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id, tag_key) DO UPDATE SET tag_value = excluded.tag_value");

FLOE_SQL(sql_table_tag_remove, "DELETE FROM s3table_tag WHERE table_id = ?1 AND tag_key = ?2");

FLOE_SQL(sql_table_tag_count, "SELECT COUNT(*) FROM s3table_tag WHERE table_id = ?1");

FLOE_SQL(sql_table_tag_list,
    "SELECT tag_key, tag_value FROM s3table_tag WHERE table_id = ?1 ORDER BY tag_key");

static const tag_sql_t table_tag_sql = {
    sql_table_tag_upsert,
    sql_table_tag_remove,
    sql_table_tag_count,
    sql_table_tag_list,
};

/* The tag statements for a resource's kind. */
static const tag_sql_t *tag_sql_for(const floe_resource_t *resource)
{
    switch (resource->kind) {
    case FLOE_RESOURCE_TABLE_BUCKET:
        return &bucket_tag_sql;
    case FLOE_RESOURCE_TABLE:
        return &table_tag_sql;
    default:
        return NULL;
    }
}

/* AWS reserves the aws: prefix for its own tags, in any letter case
 * (https://docs.aws.amazon.com/tag-editor/latest/userguide/best-practices-and-strats.html). The
 * message is the one S3's sibling service S3 Vectors answers (seen through CloudFormation). */
static bool tag_key_is_reserved(const char *key)
{
    return strncasecmp(key, RESERVED_TAG_PREFIX, sizeof(RESERVED_TAG_PREFIX) - 1) == 0;
}

static int refuse_reserved_key(floe_call_t *call)
{
    return floe_fail(call, FLOE_ERR_BadRequestException, "aws: prefixed tag key names are not allowed for external use.");
}

/* Fails the call unless the resource carries at most MAX_TAGS_PER_RESOURCE tags. */
static int check_tag_count(floe_call_t *call, const tag_sql_t *sql, const floe_resource_t *resource)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql->count);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, resource->id);
    if (sqlite3_step(stmt) != SQLITE_ROW)
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (sqlite3_column_int64(stmt, 0) > MAX_TAGS_PER_RESOURCE)
        return floe_fail(call, FLOE_ERR_BadRequestException, "A resource can have at most %d tags.",
                         MAX_TAGS_PER_RESOURCE);
    return FLOE_OK;
}

static int upsert_tag(floe_call_t *call, const tag_sql_t *sql, const floe_resource_t *resource, const char *key,
                      const char *value)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql->upsert);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, resource->id);
    sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, value, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags)
{
    const tag_sql_t *sql = tag_sql_for(resource);

    if (sql == NULL)
        return floe_fail_internal(call, "tags: no tag table for this kind of resource");
    for (size_t i = 0; i < tags->n; i++) {
        if (tag_key_is_reserved(tags->keys[i]))
            return refuse_reserved_key(call);
    }
    for (size_t i = 0; i < tags->n; i++) {
        if (upsert_tag(call, sql, resource, tags->keys[i], tags->values[i]))
            return FLOE_EFAIL;
    }
    return check_tag_count(call, sql, resource);
}

#ifdef FLOE_HAS_OP_TagResource
/* The body of TagResource, inside its transaction: the count limit is checked after the writes. */
static int tag_resource(floe_call_t *call, void *arg)
{
    const floe_TagResourceRequest *in = arg;
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return floe_tags_add(call, &resource, in->tags);
}

int floe_handle_TagResource(floe_call_t *call, const floe_TagResourceRequest *in, floe_TagResourceResponse *out)
{
    (void)out;
    return floe_call_in_transaction(call, tag_resource, (void *)in);
}
#endif

#ifdef FLOE_HAS_OP_UntagResource
static int remove_tags(floe_call_t *call, const floe_resource_t *resource, const floe_TagKeyList *keys)
{
    floe_state_t *st = floe_call_state(call);
    const tag_sql_t *sql = tag_sql_for(resource);
    sqlite3_stmt *stmt;

    if (sql == NULL)
        return floe_fail_internal(call, "tags: no tag table for this kind of resource");
    for (size_t i = 0; i < keys->n; i++) {
        if (tag_key_is_reserved(keys->items[i]))
            return refuse_reserved_key(call);
    }
    for (size_t i = 0; i < keys->n; i++) {
        if ((stmt = floe_state_stmt(st, sql->remove)) == NULL)
            return floe_fail_internal(call, floe_state_errmsg(st));
        sqlite3_bind_int64(stmt, 1, resource->id);
        sqlite3_bind_text(stmt, 2, keys->items[i], -1, SQLITE_STATIC);
        if (sqlite3_step(stmt) != SQLITE_DONE)
            return floe_fail_internal(call, floe_state_errmsg(st));
    }
    return FLOE_OK;
}

/* Removing a key the resource does not carry is not an error: the key is simply absent after.
 * Keys starting aws: are refused here too, since AWS's own tags are not the caller's to remove. */
static int untag_resource(floe_call_t *call, void *arg)
{
    const floe_UntagResourceRequest *in = arg;
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return remove_tags(call, &resource, in->tagKeys);
}

int floe_handle_UntagResource(floe_call_t *call, const floe_UntagResourceRequest *in, floe_UntagResourceResponse *out)
{
    (void)out;
    return floe_call_in_transaction(call, untag_resource, (void *)in);
}
#endif

#ifdef FLOE_HAS_OP_ListTagsForResource
int floe_handle_ListTagsForResource(floe_call_t *call, const floe_ListTagsForResourceRequest *in,
                                    floe_ListTagsForResourceResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    floe_resource_t resource;
    const tag_sql_t *sql;
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc = SQLITE_DONE;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    if ((sql = tag_sql_for(&resource)) == NULL)
        return floe_fail_internal(call, "tags: no tag table for this kind of resource");
    if ((stmt = floe_state_stmt(st, sql->list)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, resource.id);
    out->tags = floe_Tags_new(call, MAX_TAGS_PER_RESOURCE);
    /* TagResource keeps every resource at MAX_TAGS_PER_RESOURCE or fewer. */
    while (n < MAX_TAGS_PER_RESOURCE && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        out->tags->keys[n] = floe_column_text(call, stmt, 0);
        out->tags->values[n] = floe_column_text(call, stmt, 1);
        n++;
    }
    if (n < MAX_TAGS_PER_RESOURCE && rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->tags->n = n;
    return FLOE_OK;
}
#endif
#endif /* FLOE_HAS_OP_TagResource */
