/*
 * The tag storage of tags.h: table_bucket_tag for table buckets, s3table_tag for tables, each
 * keyed by (owner row id, tag key). tag_sql_for() picks an owner kind's statements.
 */
#include <assert.h>

#include "call/call_sql.h"
#include "catalog/tags.h"

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

FLOE_SQL(sql_table_tag_list, "SELECT tag_key, tag_value FROM s3table_tag WHERE table_id = ?1 ORDER BY tag_key");

static const tag_sql_t table_tag_sql = {
    sql_table_tag_upsert,
    sql_table_tag_remove,
    sql_table_tag_count,
    sql_table_tag_list,
};

/* The tag statements for an owner's kind; every kind floe_resource_t names has tags. */
static const tag_sql_t *tag_sql_for(const floe_resource_t *owner)
{
    assert(owner->kind == FLOE_RESOURCE_TABLE_BUCKET || owner->kind == FLOE_RESOURCE_TABLE);
    return owner->kind == FLOE_RESOURCE_TABLE_BUCKET ? &bucket_tag_sql : &table_tag_sql;
}

int floe_tags_upsert(floe_call_t *call, const floe_resource_t *owner, const floe_Tags *tags)
{
    const tag_sql_t *sql = tag_sql_for(owner);

    for (size_t i = 0; i < tags->n; i++) {
        if (floe_sql_exec(call, sql->upsert, "itt", owner->id, tags->keys[i], tags->values[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_tags_remove(floe_call_t *call, const floe_resource_t *owner, const floe_TagKeyList *keys)
{
    const tag_sql_t *sql = tag_sql_for(owner);

    for (size_t i = 0; i < keys->n; i++) {
        if (floe_sql_exec(call, sql->remove, "it", owner->id, keys->items[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_tags_count(floe_call_t *call, const floe_resource_t *owner, int64_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, tag_sql_for(owner)->count, "i", owner->id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    if ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) != FLOE_DB_ROW) {
        floe_db_reset(stmt);
        /* COUNT(*) always has its row: anything else is SQLite failing. */
        return rc == FLOE_EFAIL ? FLOE_EFAIL : floe_fail_internal(call, "counting tags returned no row");
    }
    *n = floe_db_column_int64(stmt, 0);
    floe_db_reset(stmt);
    return FLOE_OK;
}

int floe_tags_list(floe_call_t *call, const floe_resource_t *owner, size_t max, floe_Tags **out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, tag_sql_for(owner)->list, "i", owner->id);
    floe_Tags *tags;
    size_t n = 0;
    int rc = FLOE_DB_DONE;

    if (stmt == NULL)
        return FLOE_EFAIL;
    tags = floe_Tags_new(call, max);
    while (n < max && (rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        tags->keys[n] = floe_sql_text(call, stmt, 0);
        tags->values[n] = floe_sql_text(call, stmt, 1);
        n++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    tags->n = n;
    *out = tags;
    return FLOE_OK;
}

