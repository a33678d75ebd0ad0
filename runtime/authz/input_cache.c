/*
 * The caches of input_cache.h: two direct-mapped tables (one entry a slot; a newcomer replaces the
 * slot's entry) under one mutex. A hit copies what it hands out into the call's pool, so an entry
 * can be replaced and freed while calls still use what they got from it; the policy texts are the
 * policy cache's, which live as long as the process.
 *
 * Why a kept entry is never stale: it was read at generation G and is used only while the
 * generation is G. G is read before the read's snapshot is taken (a call that already holds a
 * snapshot, which may be older than G, reads and keeps nothing), and a commit that changes a row
 * the entry was read from moves the generation once it is in the WAL, before its writer answers.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authz/input_cache.h"
#include "authz/policy_cache.h"
#include "base/xalloc.h"
#include "catalog/resource_policy.h"
#include "db/state.h"

#define PRINCIPAL_SLOTS 256 /* access keys whose principals are kept */
#define RESOURCE_SLOTS 1024 /* buckets and tables (as calls name them) whose policies are kept */
#define KEY_PARTS_MAX 5
#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
#define BUCKET_PART ":bucket/"
#define TABLE_PART "/table/"
#define ARN_PREFIX "arn:aws:s3tables:"

/* What an entry is found by: its key's parts, each with its NUL, one after the other. */
typedef struct cache_key {
    char *bytes;
    size_t len;
    uint64_t hash;
} cache_key_t;

typedef struct kept_principal {
    cache_key_t key;
    uint64_t generation;
    floe_principal_t principal; /* its strings are the entry's; its policies the policy cache's texts */
} kept_principal_t;

typedef struct kept_resource {
    cache_key_t key;
    uint64_t generation;
    char *arn;
    const char *bucket_policy; /* the policy cache's texts, or NULL */
    const char *table_policy;
} kept_resource_t;

static kept_principal_t *principals[PRINCIPAL_SLOTS];
static kept_resource_t *resources[RESOURCE_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static cache_key_t key_of(floe_call_t *call, const char *const *parts, size_t n)
{
    size_t lens[KEY_PARTS_MAX];
    cache_key_t k = {NULL, 0, FNV_OFFSET};
    char *at;

    for (size_t i = 0; i < n; i++)
        k.len += (lens[i] = strlen(parts[i])) + 1;
    at = k.bytes = floe_call_alloc(call, k.len);
    for (size_t i = 0; i < n; i++) {
        memcpy(at, parts[i], lens[i] + 1);
        at += lens[i] + 1;
    }
    for (size_t i = 0; i < k.len; i++)
        k.hash = (k.hash ^ (unsigned char)k.bytes[i]) * FNV_PRIME;
    return k;
}

static bool is_key(const cache_key_t *kept, const cache_key_t *k)
{
    return kept->hash == k->hash && kept->len == k->len && memcmp(kept->bytes, k->bytes, k->len) == 0;
}

static cache_key_t key_copy(const cache_key_t *k)
{
    cache_key_t copy = *k;

    copy.bytes = floe_xmalloc(k->len);
    memcpy(copy.bytes, k->bytes, k->len);
    return copy;
}

/* The generation a read made now is current at; false when the call holds a snapshot already,
 * whose rows may be older than that: then the read is not kept. */
static bool read_generation(floe_call_t *call, uint64_t *generation)
{
    bool is_keepable = call->state != NULL && !floe_state_is_reading(call->state);

    *generation = floe_state_policy_generation();
    return is_keepable;
}

static char *dup_or_null(const char *s)
{
    return s != NULL ? floe_xstrdup(s) : NULL;
}

static void free_principal(kept_principal_t *e)
{
    if (e == NULL)
        return;
    free(e->key.bytes);
    free((char *)e->principal.arn);
    free((char *)e->principal.role_arn);
    free((char *)e->principal.user_id);
    free((void *)e->principal.policies);
    free(e);
}

/* An entry for `p`, or NULL when the policy cache has no room for one of its policies. */
static kept_principal_t *kept_principal(const cache_key_t *key, uint64_t generation, const floe_principal_t *p)
{
    const char **policies = floe_xcalloc(p->n_policies + 1, sizeof(*policies));
    kept_principal_t *e;

    for (size_t i = 0; i < p->n_policies; i++) {
        if ((policies[i] = floe_policy_cache_intern(p->policies[i], FLOE_POLICY_IDENTITY)) == NULL) {
            free(policies);
            return NULL;
        }
    }
    e = floe_xcalloc(1, sizeof(*e));
    e->key = key_copy(key);
    e->generation = generation;
    e->principal = *p;
    e->principal.arn = dup_or_null(p->arn);
    e->principal.role_arn = dup_or_null(p->role_arn);
    e->principal.user_id = dup_or_null(p->user_id);
    e->principal.policies = policies;
    return e;
}

static floe_principal_t *principal_copy(floe_call_t *call, const floe_principal_t *kept)
{
    floe_principal_t *p = floe_call_alloc(call, sizeof(*p));
    const char **policies = floe_call_alloc(call, sizeof(*policies) * (kept->n_policies + 1));

    *p = *kept;
    p->arn = floe_call_strdup(call, kept->arn);
    p->role_arn = floe_call_strdup(call, kept->role_arn);
    p->user_id = floe_call_strdup(call, kept->user_id);
    memcpy(policies, kept->policies, sizeof(*policies) * kept->n_policies);
    p->policies = policies;
    return p;
}

int floe_authz_principal_of_key(floe_call_t *call, const char *access_key, floe_principal_t **out)
{
    const char *parts[] = {access_key != NULL ? access_key : "", call->scope.account_id};
    cache_key_t key = key_of(call, parts, 2);
    kept_principal_t **slot = &principals[key.hash % PRINCIPAL_SLOTS], *e, *old;
    uint64_t generation;
    bool is_keepable = read_generation(call, &generation);
    floe_timestamp_t now = floe_call_now(call);
    int rc;

    pthread_mutex_lock(&lock);
    e = *slot;
    if (e != NULL && e->generation == generation && is_key(&e->key, &key) &&
        (e->principal.expires_at == 0 || e->principal.expires_at > now)) {
        *out = principal_copy(call, &e->principal);
        pthread_mutex_unlock(&lock);
        return FLOE_OK;
    }
    pthread_mutex_unlock(&lock);
    if ((rc = floe_principal_of_key(call, access_key, out)) != FLOE_OK || !is_keepable ||
        (e = kept_principal(&key, generation, *out)) == NULL)
        return rc;
    pthread_mutex_lock(&lock);
    old = *slot;
    *slot = e;
    pthread_mutex_unlock(&lock);
    free_principal(old);
    return FLOE_OK;
}

/* The bucket name and, for a table ARN, the table id an S3 Tables ARN names; false for another ARN. */
static bool arn_parts(floe_call_t *call, const char *arn, char **bucket, char **table_id)
{
    const char *b = strstr(arn, BUCKET_PART), *t;

    if (strncmp(arn, ARN_PREFIX, strlen(ARN_PREFIX)) != 0 || b == NULL)
        return false;
    b += strlen(BUCKET_PART);
    t = strstr(b, TABLE_PART);
    *bucket = floe_call_strdup(call, b);
    (*bucket)[t ? (size_t)(t - b) : strlen(b)] = '\0';
    *table_id = t ? floe_call_strdup(call, t + strlen(TABLE_PART)) : NULL;
    return **bucket != '\0';
}

/* The resource and its policies, read in the call's scope. */
static int read_resource(floe_call_t *call, const char *arn, const char *namespace_, const char *name,
                         floe_authz_request_t *r)
{
    floe_resource_policies_t policies;
    char *bucket, *table_id;
    int prefix_len;

    if (!arn_parts(call, arn, &bucket, &table_id)) {
        r->resource = arn; /* not an S3 Tables ARN: the operation refuses it */
        return FLOE_OK;
    }
    if (floe_resource_policies_get(call, bucket, namespace_, name, table_id, &policies))
        return FLOE_EFAIL;
    r->bucket_policy = policies.bucket_policy;
    r->table_policy = policies.table_policy;
    prefix_len = (int)((size_t)(strstr(arn, BUCKET_PART) - arn) + strlen(BUCKET_PART));
    r->resource = policies.has_table
                      ? floe_call_printf(call, "%.*s%s" TABLE_PART "%s", prefix_len, arn, bucket, policies.table_id)
                      : floe_call_printf(call, "%.*s%s", prefix_len, arn, bucket);
    return FLOE_OK;
}

static void free_resource(kept_resource_t *e)
{
    if (e == NULL)
        return;
    free(e->key.bytes);
    free(e->arn);
    free(e);
}

/* An entry for what `r` says, or NULL when the policy cache has no room for one of its policies. */
static kept_resource_t *kept_resource(const cache_key_t *key, uint64_t generation, const floe_authz_request_t *r)
{
    const char *bucket_policy = NULL, *table_policy = NULL;
    kept_resource_t *e;

    if ((r->bucket_policy != NULL &&
         (bucket_policy = floe_policy_cache_intern(r->bucket_policy, FLOE_POLICY_RESOURCE)) == NULL) ||
        (r->table_policy != NULL &&
         (table_policy = floe_policy_cache_intern(r->table_policy, FLOE_POLICY_RESOURCE)) == NULL))
        return NULL;
    e = floe_xcalloc(1, sizeof(*e));
    e->key = key_copy(key);
    e->generation = generation;
    e->arn = floe_xstrdup(r->resource);
    e->bucket_policy = bucket_policy;
    e->table_policy = table_policy;
    return e;
}

int floe_authz_resource_of(floe_call_t *call, const char *arn, const char *namespace_, const char *name,
                           floe_authz_request_t *r)
{
    const char *parts[] = {floe_call_region(call), floe_call_account(call), arn, namespace_ ? namespace_ : "",
                           name ? name : ""};
    cache_key_t key = key_of(call, parts, KEY_PARTS_MAX);
    kept_resource_t **slot = &resources[key.hash % RESOURCE_SLOTS], *e, *old;
    uint64_t generation;
    bool is_keepable = read_generation(call, &generation);

    pthread_mutex_lock(&lock);
    e = *slot;
    if (e != NULL && e->generation == generation && is_key(&e->key, &key)) {
        r->resource = floe_call_strdup(call, e->arn);
        r->bucket_policy = e->bucket_policy;
        r->table_policy = e->table_policy;
        pthread_mutex_unlock(&lock);
        return FLOE_OK;
    }
    pthread_mutex_unlock(&lock);
    if (read_resource(call, arn, namespace_, name, r))
        return FLOE_EFAIL;
    if (!is_keepable || (e = kept_resource(&key, generation, r)) == NULL)
        return FLOE_OK;
    r->bucket_policy = e->bucket_policy; /* the same texts, which the policy cache finds by address */
    r->table_policy = e->table_policy;
    pthread_mutex_lock(&lock);
    old = *slot;
    *slot = e;
    pthread_mutex_unlock(&lock);
    free_resource(old);
    return FLOE_OK;
}
