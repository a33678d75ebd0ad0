/*
 * The cache of policy_cache.h: an open-addressed table of CACHE_SLOTS entries under one mutex,
 * filled and never emptied, so a policy (and an interned text) handed out is never freed under a
 * reader. A text IAM refuses is cached too (as no policy), so a bad stored document costs one
 * parse. A second table finds an entry by the address of its own copy of the text, so a text
 * that floe_policy_cache_intern gave out is found without hashing or comparing it.
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
static entry_t *by_address[CACHE_SLOTS]; /* the filled slots, by the address of their text */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash(const char *text, floe_policy_kind_t kind)
{
    uint64_t h = FNV_OFFSET ^ (uint64_t)kind;

    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * FNV_PRIME;
    return h;
}

static size_t address_slot(const char *text)
{
    uint64_t h = (uint64_t)(uintptr_t)text;

    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) % CACHE_SLOTS;
}

static floe_policy_t *parse(const char *text, floe_policy_kind_t kind)
{
    char err[ERR_MAX];

    return floe_policy_parse(text, strlen(text), kind, err, sizeof(err));
}

/* The entry whose own text `text` is (an interned text), or NULL; under the lock. */
static entry_t *by_text_address(const char *text, floe_policy_kind_t kind)
{
    size_t at = address_slot(text);

    for (size_t i = 0; i < CACHE_SLOTS && by_address[(at + i) % CACHE_SLOTS] != NULL; i++) {
        entry_t *e = by_address[(at + i) % CACHE_SLOTS];
        if (e->text == text)
            return e->kind == kind ? e : NULL;
    }
    return NULL;
}

/* The entry of `text`, filled (parsed) when new, or NULL when the table is full; under the lock. */
static entry_t *entry_of(const char *text, floe_policy_kind_t kind)
{
    uint64_t h = hash(text, kind);
    entry_t *e;
    size_t at;

    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        e = &slots[(h + i) % CACHE_SLOTS];
        if (e->text != NULL && (e->kind != kind || strcmp(e->text, text) != 0))
            continue;
        if (e->text == NULL) {
            e->text = floe_xstrdup(text);
            e->kind = kind;
            e->policy = parse(text, kind);
            at = address_slot(e->text);
            while (by_address[at] != NULL)
                at = (at + 1) % CACHE_SLOTS; /* as many addresses as slots: there is room */
            by_address[at] = e;
        }
        return e;
    }
    return NULL;
}

const floe_policy_t *floe_policy_cache_get(const char *text, floe_policy_kind_t kind, floe_policy_t **uncached)
{
    floe_policy_t *found = NULL;
    entry_t *e;

    *uncached = NULL;
    pthread_mutex_lock(&lock);
    if ((e = by_text_address(text, kind)) == NULL)
        e = entry_of(text, kind);
    if (e != NULL)
        found = e->policy;
    pthread_mutex_unlock(&lock);
    if (e == NULL)
        found = *uncached = parse(text, kind);
    return found;
}

const char *floe_policy_cache_intern(const char *text, floe_policy_kind_t kind)
{
    entry_t *e;

    pthread_mutex_lock(&lock);
    e = entry_of(text, kind);
    pthread_mutex_unlock(&lock);
    return e != NULL ? e->text : NULL;
}
