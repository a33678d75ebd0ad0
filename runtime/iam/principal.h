/*
 * Who signed a call, as IAM names them: an account's root (a 12-digit access key given with
 * --credentials, or any other configured key, which acts as the server's default account), an
 * IAM user (a key IAM created), or an assumed role's session (a key STS issued). Authorization
 * evaluates what the principal's identity-based policies, and the resource's policy, allow.
 */
#ifndef FLOE_IAM_PRINCIPAL_H
#define FLOE_IAM_PRINCIPAL_H

#include <stddef.h>

#include "base/scope.h"
#include "call/call.h"

typedef enum floe_principal_kind {
    FLOE_PRINCIPAL_ROOT,
    FLOE_PRINCIPAL_USER,
    FLOE_PRINCIPAL_ASSUMED_ROLE,
} floe_principal_kind_t;

typedef struct floe_principal {
    floe_principal_kind_t kind;
    char account_id[FLOE_ACCOUNT_ID_LEN + 1];
    /* arn:aws:iam::<account>:root, arn:aws:iam::<account>:user/<path><name>, or
       arn:aws:sts::<account>:assumed-role/<role>/<session> */
    const char *arn;
    const char *role_arn; /* an assumed role's arn:aws:iam::<account>:role/<path><name>; else NULL */
    /* The identity-based policy documents (JSON text): the user's or the role's inline policies
       and the default versions of the managed policies attached to it. None for a root. */
    const char *const *policies;
    size_t n_policies;
    /* GetCallerIdentity's UserId: the account ID for a root, the user's AIDA... id, or an assumed
       role's AROA...:<session> */
    const char *user_id;
    floe_timestamp_t expires_at; /* an assumed role's session ends then (ms since the epoch); else 0 */
} floe_principal_t;

/**
 * The principal whose access key (`access_key`, NUL-terminated; NULL for the server's default
 * account) signed the call, allocated from the call's pool. FLOE_ENOTFOUND when the key is no
 * one's (never configured, or deleted, or an expired session's).
 */
int floe_principal_of_key(floe_call_t *call, const char *access_key, floe_principal_t **out /* OUT */);

/**
 * The principal an ARN names, as floe_principal_of_key finds it for a key: `arn:aws:iam::<account>:root`,
 * a user's `arn:aws:iam::<account>:user/<path><name>` or a session's
 * `arn:aws:sts::<account>:assumed-role/<role>/<session>`, with the identity-based policies the user
 * or role has now. For work done on a caller's behalf after the call (a CloudFormation stack's
 * steps). FLOE_ENOTFOUND when the user or role is gone or the ARN names none of these.
 */
int floe_principal_of_arn(floe_call_t *call, const char *arn, floe_principal_t **out /* OUT */);

#endif
