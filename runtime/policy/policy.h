/*
 * IAM policy documents: parsing and validating them as IAM does (identity-based, resource-based and
 * role trust policies), and evaluating one document against one request, as AWS's policy
 * evaluation logic reads a statement. Pure: text in, an answer out; it knows no call, no state.
 */
#ifndef FLOE_POLICY_H
#define FLOE_POLICY_H

#include <stddef.h>

typedef struct floe_policy floe_policy_t;

typedef enum floe_policy_kind {
    FLOE_POLICY_IDENTITY, /* a user's or role's policy: no Principal */
    FLOE_POLICY_RESOURCE, /* a table bucket's or table's policy: every statement names a Principal */
    FLOE_POLICY_TRUST,    /* a role's trust (assume role) policy */
} floe_policy_kind_t;

/**
 * Parses and validates `text` (`len` bytes) as a policy of `kind`. NULL when it is not one, with
 * IAM's MalformedPolicyDocument message in `err` (`err_size` bytes, always NUL-terminated).
 * The caller frees the result with floe_policy_free.
 */
floe_policy_t *floe_policy_parse(const char *text, size_t len, floe_policy_kind_t kind, char *err, size_t err_size);

void floe_policy_free(floe_policy_t *policy);

/** One condition key's value in a request's context ("aws:SourceIp", "s3tables:namespace", ...). */
typedef struct floe_policy_context_key {
    const char *key;
    const char *value;
} floe_policy_context_key_t;

/** What a request asks: who, which action, on what, and the condition keys it carries. */
typedef struct floe_policy_request {
    const char *principal_arn;     /* arn:aws:iam::<account>:root, :user/..., arn:aws:sts::<account>:assumed-role/... */
    const char *principal_account; /* 12 digits */
    const char *action;            /* "s3tables:GetTable" */
    const char *resource;          /* the resource ARN */
    const floe_policy_context_key_t *context; /* a key given more than once is multivalued */
    size_t n_context;
    const char *role_arn; /* an assumed role's arn:aws:iam::<account>:role/..., which a Principal may name; or NULL */
} floe_policy_request_t;

typedef enum floe_policy_effect {
    FLOE_POLICY_NO_MATCH, /* no statement applies */
    FLOE_POLICY_ALLOW,    /* an Allow statement applies, and no Deny does */
    FLOE_POLICY_DENY,     /* a Deny statement applies */
} floe_policy_effect_t;

/**
 * What `policy` says of `request`. `statement` (may be NULL) receives the deciding statement's
 * Sid, or "Statement[<index>]" (counted from 0) when it has none, owned by the policy; NULL on
 * FLOE_POLICY_NO_MATCH. A Deny that applies decides over any Allow; among statements of one
 * effect the first in the document decides. A resource or trust policy's statement applies only
 * to the principals it names (an account id or its root ARN names every principal of the account,
 * a role's ARN names its sessions); an identity policy's applies to its holder.
 */
floe_policy_effect_t floe_policy_evaluate(const floe_policy_t *policy, const floe_policy_request_t *request,
                                          const char **statement /* OUT */);

/**
 * Adds to `keys` (`*n` of `max` used; owned by the policy) each condition key a statement that
 * names `request`'s principal, action and resource tests and the request does not carry, once
 * each (compared ignoring case): IAM's simulator's MissingContextValues.
 */
void floe_policy_missing_keys(const floe_policy_t *policy, const floe_policy_request_t *request,
                              const char **keys /* IN/OUT */, size_t *n /* IN/OUT */, size_t max);

#endif
