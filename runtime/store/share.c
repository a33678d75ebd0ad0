/*
 * Shared object files (share.h): the share that adds a second row naming a file.
 */
#include <string.h>

#include "base/failure.h"
#include "h2o/memory.h"
#include "store/object.h"
#include "store/row_ids.h"
#include "store/share.h"

FLOE_SQL(sql_share_bucket_exists, "SELECT 1 FROM s3_bucket WHERE id = ?1");

/* Inside the share's transaction: the destination row naming the source's file. *old_file gets
 * the file to remove after COMMIT ("" for none). */
static int share_row(floe_state_t *st, h2o_mem_pool_t *pool, int64_t src_bucket_id, const char *src_key,
                     int64_t dst_bucket_id, const char *dst_key, int64_t now_ms,
                     char old_file[FLOE_STORE_ID_LEN + 1])
{
    floe_store_object_t obj;
    int rc;
    int found;

    if ((rc = floe_db_probe(st, sql_share_bucket_exists, "i", dst_bucket_id)) != FLOE_OK ||
        (rc = floe_store_object_get(st, pool, src_bucket_id, src_key, &obj)) != FLOE_OK)
        return rc;
    if ((found = floe_store_object_current(st, dst_bucket_id, dst_key, old_file, NULL)) == FLOE_EFAIL)
        return FLOE_EFAIL;
    found = found == FLOE_OK; /* from here: whether the destination had a row */
    if (!found || strcmp(old_file, obj.file_id) == 0) {
        old_file[0] = '\0'; /* nothing replaced, or already shared: a replay */
        if (found)
            return FLOE_OK;
    }
    obj.key = (char *)dst_key;
    obj.last_modified_ms = now_ms;
    if (floe_store_object_upsert(st, dst_bucket_id, &obj) != 0)
        return FLOE_EFAIL;
    if (old_file[0] != '\0' && (found = floe_store_file_lookup_name(st, old_file)) != FLOE_ENOTFOUND) {
        old_file[0] = '\0'; /* still named (by a replica), or SQLite failed */
        return found == FLOE_OK ? FLOE_OK : FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_store_object_share(floe_state_t *st, const char *data_dir, int64_t src_bucket_id,
                            const char *src_key, int64_t dst_bucket_id, const char *dst_key,
                            int64_t now_ms)
{
    char old_file[FLOE_STORE_ID_LEN + 1] = "";
    h2o_mem_pool_t pool;
    int rc;

    h2o_mem_init_pool(&pool);
    if (floe_db_begin_own(st)) {
        h2o_mem_clear_pool(&pool);
        return FLOE_EFAIL;
    }
    rc = share_row(st, &pool, src_bucket_id, src_key, dst_bucket_id, dst_key, now_ms, old_file);
    if (rc == FLOE_OK && floe_state_commit(st) != 0)
        rc = FLOE_EFAIL;
    if (rc != FLOE_OK)
        floe_state_rollback(st);
    else if (old_file[0] != '\0')
        floe_store_file_remove(data_dir, old_file);
    h2o_mem_clear_pool(&pool);
    return rc;
}
