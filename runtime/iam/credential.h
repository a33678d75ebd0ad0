/*
 * The credentials IAM and STS issue, as the state stores them: a user's access keys (AKIA..., a
 * 40-character secret) and an assumed role's temporary credentials (ASIA..., a secret and a
 * session token, until they expire). Strict signatures look a key's secret up here
 * (floe_iam_key_lookup), and the principal of a call is found from its key (floe_iam_key_owner).
 *
 * State only, as entity.h.
 */
#ifndef FLOE_IAM_CREDENTIAL_H
#define FLOE_IAM_CREDENTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/scope.h"
#include "call/call.h"
#include "db/state.h"

#define FLOE_IAM_ACCESS_KEY_LEN 20
#define FLOE_IAM_SECRET_LEN 40
#define FLOE_IAM_MAX_ACCESS_KEYS 2 /* IAM's quota AccessKeysPerUser */

/** An access key; strings in the call's pool. */
typedef struct floe_iam_access_key {
    char *id;
    char *secret; /* only when just created; NULL when listed */
    char *status; /* "Active" or "Inactive" */
    floe_timestamp_t created_at;
} floe_iam_access_key_t;

/** Temporary credentials of a role's session; strings in the call's pool. */
typedef struct floe_iam_session {
    char *access_key_id;
    char *secret;
    char *session_token;
    floe_timestamp_t expires_at;
} floe_iam_session_t;

/** Whose an issued key is (floe_iam_key_owner); strings in the call's pool. */
typedef struct floe_iam_key_owner {
    bool is_session;  /* an assumed role's session (else a user's access key) */
    int64_t row;      /* the user's or the role's row */
    char *name;       /* the user's or the role's name */
    char *path;
    char *id;         /* AIDA... or AROA... */
    char *session_name;
    floe_timestamp_t expires_at; /* a session's end; 0 for an access key */
    char account_id[FLOE_ACCOUNT_ID_LEN + 1];
} floe_iam_key_owner_t;

/** A secret as a signature check needs it; strings in `pool`. */
typedef struct floe_iam_key {
    char *secret;
    char *session_token; /* a session's, which the request must carry; NULL for an access key */
    char account_id[FLOE_ACCOUNT_ID_LEN + 1];
} floe_iam_key_t;

/** True when `key` (`len` bytes) has the shape of a key IAM or STS issues: AKIA or ASIA, 20 characters. */
bool floe_iam_key_is_issued(const char *key, size_t len);

/** Makes a new Active access key for the user at `user_row`. FLOE_ESTATE when the user has
 * FLOE_IAM_MAX_ACCESS_KEYS already (in one transaction with the count). */
int floe_iam_access_key_create(floe_call_t *call, int64_t user_row, floe_iam_access_key_t *out /* OUT */);

/** The user's access keys, oldest first (no secrets). */
int floe_iam_access_key_list(floe_call_t *call, int64_t user_row, floe_iam_access_key_t **out /* OUT */,
                             size_t *n /* OUT */);

/** Deletes the user's access key `id`: it stops working at once. FLOE_ENOTFOUND when the user has
 * no such key. */
int floe_iam_access_key_delete(floe_call_t *call, int64_t user_row, const char *id);

/** Sets the status ("Active" or "Inactive") of the user's access key `id`. FLOE_ENOTFOUND. */
int floe_iam_access_key_set_status(floe_call_t *call, int64_t user_row, const char *id, const char *status);

/** Issues temporary credentials for the role at `role_row`, valid `duration_s` seconds from now. */
int floe_iam_session_create(floe_call_t *call, int64_t role_row, const char *session_name, int32_t duration_s,
                            floe_iam_session_t *out /* OUT */);

/** Who key `access_key` belongs to: an Active access key's user, or an unexpired session's role.
 * FLOE_ENOTFOUND when it is neither. */
int floe_iam_key_owner(floe_call_t *call, const char *access_key, floe_iam_key_owner_t *out /* OUT */);

/**
 * The secret of key `access_key` (`len` bytes) at `now` (ms), for a signature check that has no
 * call: the thread's connection `st`, strings in `pool`. FLOE_OK, FLOE_ENOTFOUND when the key is no
 * one's (deleted, inactive, expired), FLOE_EFAIL (logged) when SQLite fails.
 */
int floe_iam_key_lookup(floe_state_t *st, h2o_mem_pool_t *pool, const char *access_key, size_t len,
                        floe_timestamp_t now, floe_iam_key_t *out /* OUT */);

#endif
