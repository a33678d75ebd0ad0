/*
 * The call context of call.h. A call is a thin view over the h2o request pool plus the thread's
 * state; it owns nothing that outlives the request.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "call/call.h"

void floe_call_init(floe_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state, const floe_config_t *config)
{
    struct timeval tv;

    memset(call, 0, sizeof(*call));
    call->pool = pool;
    call->state = state;
    call->config = config;
    gettimeofday(&tv, NULL);
    call->now = (floe_timestamp_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    if (config != NULL) {
        floe_scope_default(config, &call->scope);
        call->arn_bucket_prefix = config->arn_bucket_prefix;
    }
}

static bool is_default_scope(const floe_call_t *call, const floe_scope_t *scope)
{
    const floe_config_t *c = call->config;

    if (c == NULL || c->arn_bucket_prefix == NULL || c->account_id == NULL || c->region == NULL)
        return false;
    return strcmp(c->account_id, scope->account_id) == 0 && strcmp(c->region, scope->region) == 0;
}

void floe_call_set_scope(floe_call_t *call, const floe_scope_t *scope)
{
    static const char head[] = "arn:aws:s3tables:", tail[] = ":bucket/";
    size_t n_region = strlen(scope->region), n_account = strlen(scope->account_id);
    char *p;

    call->scope = *scope;
    if (is_default_scope(call, scope)) { /* the common case: the prefix made once at start-up */
        call->arn_bucket_prefix = call->config->arn_bucket_prefix;
        return;
    }
    /* By hand, not printf: this runs on every request, and printf cost more than the rest of the
     * scope work together (bench/core's GetTableBucket). */
    p = h2o_mem_alloc_pool(call->pool, sizeof(head) - 1 + n_region + 1 + n_account + sizeof(tail));
    call->arn_bucket_prefix = p;
    memcpy(p, head, sizeof(head) - 1);
    p += sizeof(head) - 1;
    memcpy(p, scope->region, n_region);
    p += n_region;
    *p++ = ':';
    memcpy(p, scope->account_id, n_account);
    memcpy(p + n_account, tail, sizeof(tail));
}

char *floe_call_account(floe_call_t *call)
{
    return call->scope.account_id;
}

char *floe_call_region(floe_call_t *call)
{
    return call->scope.region;
}

void *floe_call_alloc(floe_call_t *call, size_t size)
{
    void *p = h2o_mem_alloc_pool(call->pool, size ? size : 1);
    memset(p, 0, size ? size : 1);
    return p;
}

typedef struct kept {
    void *p;
} kept_t;

static void on_pool_clear(void *entry)
{
    free(((kept_t *)entry)->p);
}

void *floe_call_keep(floe_call_t *call, void *malloced)
{
    if (malloced != NULL) {
        kept_t *k = h2o_mem_alloc_shared(call->pool, sizeof(*k), on_pool_clear);
        k->p = malloced;
    }
    return malloced;
}

#define GROW_FIRST_CAPACITY 16

void *floe_call_grow(floe_call_t *call, void *items, size_t n, size_t *cap, size_t size)
{
    void *grown;

    assert(n <= *cap);
    if (n < *cap)
        return items;
    *cap = *cap ? *cap * 2 : GROW_FIRST_CAPACITY;
    grown = floe_call_alloc(call, *cap * size);
    if (n > 0)
        memcpy(grown, items, n * size);
    return grown;
}

char *floe_call_strndup(floe_call_t *call, const char *s, size_t n)
{
    char *copy = h2o_mem_alloc_pool(call->pool, n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

char *floe_call_strdup(floe_call_t *call, const char *s)
{
    return s == NULL ? NULL : floe_call_strndup(call, s, strlen(s));
}

char *floe_call_vprintf(floe_call_t *call, const char *fmt, va_list ap)
{
    va_list copy;
    int n;
    char *buf;

    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    buf = h2o_mem_alloc_pool(call->pool, (size_t)n + 1);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    return buf;
}

char *floe_call_printf(floe_call_t *call, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = floe_call_vprintf(call, fmt, ap);
    va_end(ap);
    return s;
}

static int vfail(floe_call_t *call, int code, floe_subject_t subject, const char *name, const char *fmt, va_list ap)
{
    call->failure.code = code;
    call->failure.subject = subject;
    call->failure.name = floe_call_strdup(call, name);
    call->failure.message = floe_call_vprintf(call, fmt, ap);
    return FLOE_EFAIL;
}

int floe_fail(floe_call_t *call, int code, floe_subject_t subject, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail(call, code, subject, NULL, fmt, ap);
    va_end(ap);
    return rc;
}

int floe_fail_about(floe_call_t *call, int code, floe_subject_t subject, const char *name, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail(call, code, subject, name, fmt, ap);
    va_end(ap);
    return rc;
}

void floe_call_clear_failure(floe_call_t *call)
{
    call->failure = (floe_failure_t){FLOE_OK, FLOE_SUBJECT_REQUEST, NULL, NULL};
}

int floe_fail_internal(floe_call_t *call, const char *context)
{
    fprintf(stderr, "floe: internal error: %s\n", context);
    return floe_fail(call, FLOE_EFAIL, FLOE_SUBJECT_REQUEST, "The server encountered an internal error.");
}

struct floe_state *floe_call_state(floe_call_t *call)
{
    return call->state;
}

const floe_config_t *floe_call_config(floe_call_t *call)
{
    return call->config;
}

floe_timestamp_t floe_call_now(floe_call_t *call)
{
    return call->now;
}
