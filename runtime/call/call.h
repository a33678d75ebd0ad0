/*
 * The context of one S3 Tables operation call, as handlers see it: memory from the request pool,
 * the thread's SQLite state, the settings, the call's clock, and floe_fail() to record why it
 * failed: a house code, its subject and a message, never a protocol's modeled error (each
 * protocol's wire mapper chooses that).
 *
 * Ownership: everything allocated through a call lives until the response has been sent; handlers
 * never malloc or free. Text a library hands back malloc'ed is given to the call with
 * floe_call_keep, which frees it when the request's pool is cleared.
 */
#ifndef FLOE_CALL_H
#define FLOE_CALL_H

#include <stdarg.h>
#include <stddef.h>

#include <h2o/memory.h>

#include "base/config.h"
#include "base/failure.h"
#include "base/scope.h"
#include "floe_api.h"

struct floe_state;

struct floe_call {
    h2o_mem_pool_t *pool;
    struct floe_state *state;
    const floe_config_t *config;
    floe_timestamp_t now;
    floe_scope_t scope;             /* the account and region the call acts in */
    const char *arn_bucket_prefix;  /* "arn:aws:s3tables:{region}:{account}:bucket/", in the pool */
    const char *operation;  /* the S3 Tables operation served, which AWS's authorization names as the
                               action "s3tables:<operation>"; NULL off that API (REST catalog,
                               background steps, stacks) */
    const char *access_key; /* the key that signed the call (in the pool), NULL when unsigned or unknown */
    bool by_engine;         /* signed with Floe's own engine key (base/engine_key.h), verified: Athena's Trino */
    floe_failure_t failure; /* set by floe_fail; code FLOE_OK until then */
};

/** Prepares a call over `pool`; `state` and `config` may be NULL in tests that need neither. */
void floe_call_init(floe_call_t *call, h2o_mem_pool_t *pool, struct floe_state *state, const floe_config_t *config);

/** Sets the account and region the call acts in (the server's defaults until then). */
void floe_call_set_scope(floe_call_t *call, const floe_scope_t *scope);
/** The call's account id (12 digits) and region, owned by the call. */
char *floe_call_account(floe_call_t *call);
char *floe_call_region(floe_call_t *call);

/** Zeroed memory from the call's pool. */
void *floe_call_alloc(floe_call_t *call, size_t size);
/**
 * Room for one more element of `size` bytes in `items` (n in use, *cap allocated): the same
 * array while it has room, else a doubled copy in the call's pool (*cap updated). For lists a
 * call builds row by row.
 */
void *floe_call_grow(floe_call_t *call, void *items, size_t n, size_t *cap /* IN/OUT */, size_t size);

/** A copy of s in the call's pool (NULL stays NULL). */
char *floe_call_strdup(floe_call_t *call, const char *s);
/** A copy of the first n bytes of s, NUL-terminated, in the call's pool. */
char *floe_call_strndup(floe_call_t *call, const char *s, size_t n);
/** printf into the call's pool. */
char *floe_call_printf(floe_call_t *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** vprintf into the call's pool (for the protocols' own fail functions). */
char *floe_call_vprintf(floe_call_t *call, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/** Takes ownership of `malloced` (may be NULL): it is freed when the request's pool is cleared,
 * after the response has been sent. Returns `malloced`, so `char *s = floe_call_keep(call, f());`. */
void *floe_call_keep(floe_call_t *call, void *malloced);

/**
 * Records that the call fails with the house code `code` (FLOE_ENOTFOUND, FLOE_EINVAL, ...) about
 * `subject`, and a message; returns FLOE_EFAIL for `return`.
 */
int floe_fail(floe_call_t *call, int code, floe_subject_t subject, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** floe_fail, naming the subject (failure.name): the namespace or table name the request gave. */
int floe_fail_about(floe_call_t *call, int code, floe_subject_t subject, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Logs `context` and fails the call inside (FLOE_EFAIL): every protocol answers its 500. */
int floe_fail_internal(floe_call_t *call, const char *context);

/** Forgets a recorded failure: for a caller to whom the failure was an answer (a miss it expected). */
void floe_call_clear_failure(floe_call_t *call);

/** The thread's SQLite state. */
struct floe_state *floe_call_state(floe_call_t *call);
/** The process settings (region, account id, ...). */
const floe_config_t *floe_call_config(floe_call_t *call);
/** The call's clock: one value for the whole call, so every timestamp it writes agrees. */
floe_timestamp_t floe_call_now(floe_call_t *call);

#endif
