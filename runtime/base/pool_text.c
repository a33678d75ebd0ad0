/*
 * A growable string in an h2o memory pool (pool_text.h). The pool frees it with the request, so an
 * outgrown buffer is simply left behind.
 */
#include <string.h>

#include "base/pool_text.h"

#define POOL_TEXT_FIRST_CAP 256

void floe_pool_text_add(floe_pool_text_t *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : POOL_TEXT_FIRST_CAP;
        char *np;
        while (cap < t->len + n + 1)
            cap *= 2;
        np = h2o_mem_alloc_pool(t->pool, cap);
        if (t->len)
            memcpy(np, t->p, t->len);
        t->p = np;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void floe_pool_text_str(floe_pool_text_t *t, const char *s)
{
    floe_pool_text_add(t, s, strlen(s));
}

void floe_pool_text_char(floe_pool_text_t *t, char c)
{
    floe_pool_text_add(t, &c, 1);
}
