/*
 * Allocation that cannot fail: on exhaustion the process aborts, as h2o_mem_alloc does, so
 * callers skip NULL checks that could never fire. Memory for one request comes from the request
 * pool instead (call.h); these are for objects that outlive a request.
 */
#ifndef FLOE_BASE_XALLOC_H
#define FLOE_BASE_XALLOC_H

#include <stddef.h>

/** malloc that aborts on failure; the caller frees. */
void *floe_xmalloc(size_t size);
/** calloc that aborts on failure; the caller frees. */
void *floe_xcalloc(size_t n, size_t size);
/** realloc that aborts on failure. */
void *floe_xrealloc(void *p, size_t size);
/** strdup that aborts on failure; the caller frees. */
char *floe_xstrdup(const char *s);

#endif
