/*
 * The cache of policy_cache.h: an open-addressed table of CACHE_SLOTS entries under one mutex,
 * filled and never emptied, so a policy handed out is never freed under a reader. A text IAM
 * refuses is cached too (as no policy), so a bad stored document costs one parse.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authz/policy_cache.h"
#include "base/xalloc.h"

#define CACHE_SLOTS 1024 /* distinct policy texts a server keeps parsed; more are parsed per call */
#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
#define ERR_MAX 256

typedef struct entry {
    char *text; /* NULL: a free slot */
    floe_policy_kind_t kind;
    floe_policy_t *policy;
} entry_t;

static entry_t slots[CACHE_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash(const char *text, floe_policy_kind_t kind)
{
    uint64_t h = FNV_OFFSET ^ (uint64_t)kind;

    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * FNV_PRIME;
    return h;
}

static floe_policy_t *parse(const char *text, floe_policy_kind_t kind)
{
    char err[ERR_MAX];

    return floe_policy_parse(text, strlen(text), kind, err, sizeof(err));
}

const floe_policy_t *floe_policy_cache_get(const char *text, floe_policy_kind_t kind, floe_policy_t **uncached)
{
    uint64_t h = hash(text, kind);
    floe_policy_t *found = NULL;
    entry_t *e = NULL;

    *uncached = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        e = &slots[(h + i) % CACHE_SLOTS];
        if (e->text == NULL || (e->kind == kind && strcmp(e->text, text) == 0))
            break;
        e = NULL;
    }
    if (e != NULL && e->text == NULL) {
        e->text = floe_xstrdup(text);
        e->kind = kind;
        e->policy = parse(text, kind);
    }
    if (e != NULL)
        found = e->policy;
    pthread_mutex_unlock(&lock);
    if (e == NULL)
        found = *uncached = parse(text, kind);
    return found;
}
