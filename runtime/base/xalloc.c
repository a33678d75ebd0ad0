/*
 * The aborting allocators of xalloc.h. An emulator that cannot allocate cannot answer correctly
 * either; dying loudly beats half-written state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void *check(void *p)
{
    if (p == NULL) {
        fputs("floe: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *floe_xmalloc(size_t size)
{
    return check(malloc(size ? size : 1));
}

void *floe_xcalloc(size_t n, size_t size)
{
    return check(calloc(n ? n : 1, size ? size : 1));
}

void *floe_xrealloc(void *p, size_t size)
{
    return check(realloc(p, size ? size : 1));
}

char *floe_xstrdup(const char *s)
{
    return check(strdup(s));
}
