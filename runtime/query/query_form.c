/*
 * The awsQuery form of query_form.h. Decoding reuses the query-string splitter the S3 Tables
 * router has (router.h: percent-decoding with '+' for space, as form encoding writes it); the
 * pairs are then sorted by key, so every lookup is a binary search and every key below a prefix
 * lies in one run. A form is at most as large as the request body Floe accepts, so the sort and
 * the list counting (one lookup per item) stay cheap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "http/uri.h"
#include "query/query_form.h"

#define INDEX_DIGITS_MAX 24 /* a size_t in decimal, with room for the NUL */

/* A pair and where it came from, so that of a repeated key the first one sent stays. */
typedef struct ranked_pair {
    floe_query_param_t pair;
    size_t rank;
} ranked_pair_t;

static int compare_ranked(const void *a, const void *b)
{
    const ranked_pair_t *x = a, *y = b;
    int c = strcmp(x->pair.key, y->pair.key);
    return c != 0 ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Sorts the n pairs into the form, keeping the first of each key. */
static void sort_pairs(h2o_mem_pool_t *pool, const floe_query_param_t *pairs, size_t n, floe_query_form_t *out)
{
    ranked_pair_t *ranked = h2o_mem_alloc_pool(pool, (n ? n : 1) * sizeof(*ranked));
    floe_query_param_t *sorted = h2o_mem_alloc_pool(pool, (n ? n : 1) * sizeof(*sorted));
    size_t kept = 0;

    for (size_t i = 0; i < n; i++) {
        ranked[i].pair = pairs[i];
        ranked[i].rank = i;
    }
    qsort(ranked, n, sizeof(*ranked), compare_ranked);
    for (size_t i = 0; i < n; i++) {
        if (kept == 0 || strcmp(sorted[kept - 1].key, ranked[i].pair.key) != 0)
            sorted[kept++] = ranked[i].pair;
    }
    out->pairs = sorted;
    out->n = kept;
}

int floe_query_form_decode(h2o_mem_pool_t *pool, const char *query, size_t query_len, const char *body,
                           size_t body_len, floe_query_form_t *out)
{
    floe_query_param_t *from_query = NULL, *from_body = NULL, *all;
    long n_query = 0, n_body = 0;

    /* The splitter refuses an encoded NUL; a raw one would cut its key or value short. */
    if ((query != NULL && memchr(query, '\0', query_len) != NULL) ||
        (body != NULL && memchr(body, '\0', body_len) != NULL))
        return FLOE_EFAIL;
    if (query != NULL && (n_query = floe_query_parse(pool, query, query_len, &from_query)) < 0)
        return FLOE_EFAIL;
    if (body != NULL && (n_body = floe_query_parse(pool, body, body_len, &from_body)) < 0)
        return FLOE_EFAIL;
    all = h2o_mem_alloc_pool(pool, ((size_t)(n_query + n_body) + 1) * sizeof(*all));
    if (n_query > 0)
        memcpy(all, from_query, (size_t)n_query * sizeof(*all));
    if (n_body > 0)
        memcpy(all + n_query, from_body, (size_t)n_body * sizeof(*all));
    sort_pairs(pool, all, (size_t)(n_query + n_body), out);
    return FLOE_OK;
}

/* A key being looked for, in up to three pieces (NULL for a missing one), so that list items
 * ("Parameters.member" ".2") and their members (".") are searched without building the text. */
typedef struct key_parts {
    const char *part[3];
} key_parts_t;

/* strcmp(key, the parts joined); with `as_prefix`, 0 when key merely starts with them. */
static int compare_parts(const char *key, const key_parts_t *k, bool as_prefix)
{
    for (int p = 0; p < 3; p++) {
        for (const char *c = k->part[p]; c != NULL && *c; c++, key++) {
            if (*key != *c)
                return (unsigned char)*key - (unsigned char)*c;
        }
    }
    return as_prefix ? 0 : *key != '\0';
}

/* The index of the first key not below the joined parts (they themselves, or where they would be). */
static size_t lower_bound(const floe_query_form_t *form, const key_parts_t *k)
{
    size_t lo = 0, hi = form->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare_parts(form->pairs[mid].key, k, false) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* True when a||b, or a key below it (a||b||"."...), is in the form. The keys below come after
 * those that continue with a smaller byte than '.' ("A-x" < "A.x"), so they have a search of
 * their own. */
static bool has_joined(const floe_query_form_t *form, const char *a, const char *b)
{
    key_parts_t exact = {{a, b, NULL}}, below = {{a, b, "."}};
    size_t i = lower_bound(form, &exact);

    if (i < form->n && compare_parts(form->pairs[i].key, &exact, false) == 0)
        return true;
    i = lower_bound(form, &below);
    return i < form->n && compare_parts(form->pairs[i].key, &below, true) == 0;
}

const char *floe_query_form_get(const floe_query_form_t *form, const char *key)
{
    key_parts_t k = {{key, NULL, NULL}};
    size_t i = lower_bound(form, &k);
    return i < form->n && strcmp(form->pairs[i].key, key) == 0 ? form->pairs[i].value : NULL;
}

bool floe_query_form_has(const floe_query_form_t *form, const char *key)
{
    return has_joined(form, key, NULL);
}

size_t floe_query_form_count(const floe_query_form_t *form, const char *key)
{
    char suffix[INDEX_DIGITS_MAX + 1];
    size_t n = 0;

    /* Each item needs a key of its own, so there are never more than form->n. */
    while (n < form->n) {
        snprintf(suffix, sizeof(suffix), ".%zu", n + 1);
        if (!has_joined(form, key, suffix))
            break;
        n++;
    }
    return n;
}

const char *floe_query_form_key(floe_call_t *call, const char *prefix, const char *name)
{
    return prefix == NULL ? name : floe_call_printf(call, "%s.%s", prefix, name);
}

const char *floe_query_form_index_key(floe_call_t *call, const char *prefix, size_t i)
{
    return floe_call_printf(call, "%s.%zu", prefix, i);
}
