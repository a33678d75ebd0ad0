/*
 * IAM's users and roles as the state stores them, one account at a time (IAM is global: the call's
 * account, never its region), with what hangs on each: inline policies and attached managed
 * policies. Users and roles are stored alike, so every function takes the kind. Names are unique
 * per account whatever their case, as in IAM.
 *
 * This is state only: IAM's rules and messages are in handlers/iam/. A SQLite failure fails the
 * call (a 500) and returns FLOE_EFAIL; what IAM answers with a modeled error comes back as a code:
 * FLOE_EEXISTS (the name is taken), FLOE_ENOTFOUND, FLOE_EINUSE (a delete while something hangs on
 * the entity).
 */
#ifndef FLOE_IAM_ENTITY_H
#define FLOE_IAM_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "call/call.h"

typedef enum floe_iam_kind {
    FLOE_IAM_USER,
    FLOE_IAM_ROLE,
} floe_iam_kind_t;

#define FLOE_IAM_DEFAULT_PATH "/"
#define FLOE_IAM_DEFAULT_MAX_SESSION_S 3600

/** A user or a role; strings in the call's pool. */
typedef struct floe_iam_entity {
    int64_t row;
    char *name;
    char *path;   /* "/" or "/a/b/" */
    char *id;     /* AIDA... (user) or AROA... (role) */
    char *arn;    /* arn:aws:iam::<account>:user<path><name>, or :role<path><name> */
    floe_timestamp_t created_at;
    char *trust_policy;           /* a role's AssumeRolePolicyDocument; NULL for a user */
    char *description;            /* a role's; may be NULL */
    int32_t max_session_duration; /* a role's, in seconds */
} floe_iam_entity_t;

/** A managed policy attached to a user or role. */
typedef struct floe_iam_attached {
    char *name;
    char *arn;
} floe_iam_attached_t;

/** The entity's ARN: arn:aws:iam::<account>:<user|role><path><name>, in the call's pool. */
char *floe_iam_entity_arn(floe_call_t *call, floe_iam_kind_t kind, const char *account, const char *path,
                          const char *name);

/** Stores a new entity from e's name and path (and a role's fields), created now; fills e's row,
 * id, arn and created_at. FLOE_EEXISTS when the name is taken. */
int floe_iam_entity_create(floe_call_t *call, floe_iam_kind_t kind, floe_iam_entity_t *e /* IN/OUT */);

/** The entity named `name` (any case). FLOE_ENOTFOUND when there is none. */
int floe_iam_entity_get(floe_call_t *call, floe_iam_kind_t kind, const char *name, floe_iam_entity_t *out /* OUT */);

/** The entity named `name` in account `account` (AssumeRole's role may be another account's). */
int floe_iam_entity_get_in(floe_call_t *call, floe_iam_kind_t kind, const char *account, const char *name,
                           floe_iam_entity_t *out /* OUT */);

/** The entities whose path starts with `path_prefix` (NULL: all), by name. */
int floe_iam_entity_list(floe_call_t *call, floe_iam_kind_t kind, const char *path_prefix,
                         floe_iam_entity_t **out /* OUT */, size_t *n /* OUT */);

/** Changes the entity at `row` to e's path (and a role's trust policy, description and maximum
 * session duration): a stack's update in place. */
int floe_iam_entity_update(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const floe_iam_entity_t *e);

/**
 * Deletes the entity at `row` (a role's sessions end with it), in one transaction. FLOE_EINUSE with
 * *blocker naming what still hangs on it ("access keys", "policies", "attached policies") and
 * nothing deleted.
 */
int floe_iam_entity_delete(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char **blocker /* OUT */);

/** Writes (adds or replaces) the inline policy `name` of the entity at `row`. */
int floe_iam_inline_put(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name, const char *document);

/** The inline policy `name` (any case): its stored name and document. FLOE_ENOTFOUND. */
int floe_iam_inline_get(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name,
                        char **stored_name /* OUT */, char **document /* OUT */);

/** Deletes the inline policy `name`. FLOE_ENOTFOUND when the entity has none of that name. */
int floe_iam_inline_delete(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name);

/** The names of the entity's inline policies, in order. */
int floe_iam_inline_list(floe_call_t *call, floe_iam_kind_t kind, int64_t row, char ***names /* OUT */,
                         size_t *n /* OUT */);

/** Attaches the managed policy at `policy_row` (attaching it again changes nothing). */
int floe_iam_attach(floe_call_t *call, floe_iam_kind_t kind, int64_t row, int64_t policy_row);

/** Detaches it. FLOE_ENOTFOUND when it was not attached. */
int floe_iam_detach(floe_call_t *call, floe_iam_kind_t kind, int64_t row, int64_t policy_row);

/** The managed policies attached to the entity, by name. */
int floe_iam_attached_list(floe_call_t *call, floe_iam_kind_t kind, int64_t row, floe_iam_attached_t **out /* OUT */,
                           size_t *n /* OUT */);

/** The entity's identity-based policy documents: its inline policies, then the default version of
 * each managed policy attached to it. */
int floe_iam_entity_documents(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char ***out /* OUT */,
                              size_t *n /* OUT */);

/** Writes `n` random characters of IAM's identifier alphabet (A-Z, 2-7) after `prefix` into `out`
 * (strlen(prefix) + n + 1 bytes). */
void floe_iam_random_id(char *out, const char *prefix, size_t n);

#endif
