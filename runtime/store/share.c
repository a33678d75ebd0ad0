/*
 * Shared object files (share.h): the release that removes a file only when no row names it, and
 * the share that adds a second row naming a file.
 */
#include <string.h>

#include "h2o/memory.h"
#include "store/object.h"
#include "store/share.h"

FLOE_SQL(sql_share_file_is_named,
    "SELECT 1 FROM s3_object WHERE file_id = ?1 UNION ALL SELECT 1 FROM s3_part WHERE file_id = ?1 LIMIT 1");
FLOE_SQL(sql_share_bucket_exists, "SELECT 1 FROM s3_bucket WHERE id = ?1");

void floe_store_file_release(floe_state_t *st, const char *data_dir, const char *file_id)
{
    /* Only a definite "no row" lets the file go; on an error the start-up sweep decides later. */
    if (floe_store_probe(st, sql_share_file_is_named, "t", file_id) == FLOE_STORE_NOT_FOUND)
        floe_store_file_remove(data_dir, file_id);
}

void floe_store_ids_release(floe_state_t *st, floe_store_ids_t *list, const char *data_dir)
{
    for (size_t i = 0; i < list->n; i++)
        floe_store_file_release(st, data_dir, list->ids[i]);
    floe_store_ids_dispose(list);
}

/* Inside the share's transaction: the destination row naming the source's file. *old_file gets
 * the file the destination named before ("" for none, or the same file). */
static floe_store_rc_t share_row(floe_state_t *st, h2o_mem_pool_t *pool, int64_t src_bucket_id, const char *src_key,
                                 int64_t dst_bucket_id, const char *dst_key, int64_t now_ms,
                                 char old_file[FLOE_STORE_ID_LEN + 1])
{
    floe_store_object_t obj;
    floe_store_rc_t rc;
    int found;

    if ((rc = floe_store_probe(st, sql_share_bucket_exists, "i", dst_bucket_id)) != FLOE_STORE_OK ||
        (rc = floe_store_object_get(st, pool, src_bucket_id, src_key, &obj)) != FLOE_STORE_OK)
        return rc;
    if ((found = floe_store_object_current(st, dst_bucket_id, dst_key, old_file, NULL)) < 0)
        return FLOE_STORE_ERROR;
    if (found && strcmp(old_file, obj.file_id) == 0) {
        old_file[0] = '\0'; /* already shared: a replay */
        return FLOE_STORE_OK;
    }
    if (!found)
        old_file[0] = '\0';
    obj.key = (char *)dst_key;
    obj.last_modified_ms = now_ms;
    return floe_store_object_upsert(st, dst_bucket_id, &obj) == 0 ? FLOE_STORE_OK : FLOE_STORE_ERROR;
}

floe_store_rc_t floe_store_object_share(floe_state_t *st, const char *data_dir, int64_t src_bucket_id,
                                        const char *src_key, int64_t dst_bucket_id, const char *dst_key,
                                        int64_t now_ms)
{
    char old_file[FLOE_STORE_ID_LEN + 1] = "";
    h2o_mem_pool_t pool;
    floe_store_rc_t rc;

    h2o_mem_init_pool(&pool);
    if (floe_store_begin_own(st)) {
        h2o_mem_clear_pool(&pool);
        return FLOE_STORE_ERROR;
    }
    rc = share_row(st, &pool, src_bucket_id, src_key, dst_bucket_id, dst_key, now_ms, old_file);
    if (rc == FLOE_STORE_OK && floe_state_commit(st) != 0)
        rc = FLOE_STORE_ERROR;
    if (rc != FLOE_STORE_OK)
        floe_state_rollback(st);
    else if (old_file[0] != '\0')
        floe_store_file_release(st, data_dir, old_file);
    h2o_mem_clear_pool(&pool);
    return rc;
}
