/*
 * IAM's customer managed policies as the state stores them, per account: each with its versions
 * (CreatePolicy makes v1, the default) and the users and roles it is attached to (entity.h).
 * AWS managed policies (arn:aws:iam::aws:policy/...) are not stored: Floe has none.
 *
 * State only, as entity.h: FLOE_EEXISTS, FLOE_ENOTFOUND, FLOE_EINUSE for IAM's modeled errors,
 * FLOE_EFAIL (the call failed, a 500) for SQLite's.
 */
#ifndef FLOE_IAM_MANAGED_POLICY_H
#define FLOE_IAM_MANAGED_POLICY_H

#include <stdint.h>

#include "call/call.h"

/** A managed policy; strings in the call's pool. */
typedef struct floe_iam_managed_policy {
    int64_t row;
    char *name;
    char *path;
    char *id;  /* ANPA... */
    char *arn; /* arn:aws:iam::<account>:policy<path><name> */
    char *description;
    char *default_version;
    floe_timestamp_t created_at;
    floe_timestamp_t updated_at;
    int32_t attachment_count;
} floe_iam_managed_policy_t;

/** Stores a new policy from p's name, path and description with `document` as its version v1,
 * created now; fills the rest of p. FLOE_EEXISTS when the account has a policy of that name. */
int floe_iam_policy_create(floe_call_t *call, floe_iam_managed_policy_t *p /* IN/OUT */, const char *document);

/** The policy `arn` names, in the call's account. FLOE_ENOTFOUND when there is none (another
 * account's, an AWS managed policy's, or not an ARN at all). */
int floe_iam_policy_get(floe_call_t *call, const char *arn, floe_iam_managed_policy_t *out /* OUT */);

/** Version `version_id` of the policy at `row`: its document and when it was made. FLOE_ENOTFOUND. */
int floe_iam_policy_version(floe_call_t *call, int64_t row, const char *version_id, char **document /* OUT */,
                            floe_timestamp_t *created_at /* OUT */);

/** Replaces the document of the policy's default version (a stack's update in place; the API's
 * CreatePolicyVersion is not implemented), and its description. */
int floe_iam_policy_set_document(floe_call_t *call, const floe_iam_managed_policy_t *p, const char *document,
                                 const char *description);

/** Deletes the policy at `row` with its versions, in one transaction. FLOE_EINUSE while it is
 * attached to a user or role. */
int floe_iam_policy_delete(floe_call_t *call, int64_t row);

#endif
