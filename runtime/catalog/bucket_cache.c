/*
 * The cache of bucket_cache.h: a direct-mapped table (one entry a slot; a newcomer replaces the
 * slot's entry) under one mutex, shared by every thread. A hit copies the row into the call's pool,
 * so an entry can be replaced and freed while calls still use what they got from it.
 *
 * Why a kept row is never stale: it was read at generation G and is used only while the
 * generation is G. G is read before the read's snapshot is taken (a call that already holds a
 * snapshot reads and keeps nothing), and a commit that inserts, deletes or updates a table bucket
 * moves the generation once it is in the WAL, before its writer answers (db/checkpoint.c). The key
 * is the whole ARN, which names the account and the region with the bucket; the caller looks only
 * after the ARN has parsed in the call's own scope.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "catalog/bucket_cache.h"
#include "db/state.h"

#define SLOTS 256 /* power of two; buckets a server serves at once */
#define HASH_MULTIPLIER 0x9E3779B97F4A7C15ull

typedef struct kept_bucket {
    uint64_t generation;
    size_t arn_len;
    char *arn; /* the key */
    char *bucket_id;
    char *type;
    int64_t id;
    floe_timestamp_t created_at;
} kept_bucket_t;

static kept_bucket_t *slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* A word at a time: an ARN is some 60 bytes, and a lookup hashes one per call. */
static size_t slot_of(const char *arn, size_t len)
{
    uint64_t h = len, w;

    for (; len >= sizeof(w); arn += sizeof(w), len -= sizeof(w)) {
        memcpy(&w, arn, sizeof(w));
        h = (h ^ w) * HASH_MULTIPLIER;
    }
    for (; len > 0; arn++, len--)
        h = (h ^ (unsigned char)*arn) * HASH_MULTIPLIER;
    return (size_t)(h >> 32) & (SLOTS - 1);
}

bool floe_bucket_cache_generation(floe_call_t *call, uint64_t *generation)
{
    bool is_keepable = call->state != NULL && !floe_state_is_reading(call->state);

    *generation = floe_state_policy_generation();
    return is_keepable;
}

bool floe_bucket_cache_find(floe_call_t *call, const char *arn, char *name, uint64_t generation,
                            floe_bucket_row_t *out)
{
    size_t len = strlen(arn);
    kept_bucket_t *e;
    bool is_hit;

    pthread_mutex_lock(&lock);
    e = slots[slot_of(arn, len)];
    is_hit = e != NULL && e->generation == generation && e->arn_len == len && memcmp(e->arn, arn, len) == 0;
    if (is_hit) {
        out->id = e->id;
        out->name = name;
        out->arn = floe_call_strndup(call, e->arn, len);
        out->bucket_id = floe_call_strdup(call, e->bucket_id);
        out->type = floe_call_strdup(call, e->type);
        out->created_at = e->created_at;
    }
    pthread_mutex_unlock(&lock);
    return is_hit;
}

static void free_kept(kept_bucket_t *e)
{
    if (e == NULL)
        return;
    free(e->arn);
    free(e->bucket_id);
    free(e->type);
    free(e);
}

void floe_bucket_cache_keep(const floe_bucket_row_t *row, uint64_t generation)
{
    kept_bucket_t *e = floe_xcalloc(1, sizeof(*e)), *old;
    size_t slot;

    e->generation = generation;
    e->arn_len = strlen(row->arn);
    e->arn = floe_xstrdup(row->arn);
    e->bucket_id = floe_xstrdup(row->bucket_id);
    e->type = floe_xstrdup(row->type);
    e->id = row->id;
    e->created_at = row->created_at;
    slot = slot_of(e->arn, e->arn_len);
    pthread_mutex_lock(&lock);
    old = slots[slot];
    slots[slot] = e;
    pthread_mutex_unlock(&lock);
    free_kept(old);
}
