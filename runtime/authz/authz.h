/*
 * Authorization as AWS evaluates it (--enforce-iam): who signed the call (iam/principal.h), the
 * action, the resource's ARN and the request's condition keys in; allowed or denied out, with the
 * deciding statement and the reason AWS's message names. It reads the resource policies of the
 * table bucket and table (catalog/resource_policy.h) and keeps their parsed form in memory. Each
 * protocol renders a denial in its own error shape; this wing knows no wire.
 */
#ifndef FLOE_AUTHZ_H
#define FLOE_AUTHZ_H

#include <stdbool.h>
#include <stddef.h>

#include "call/call.h"
#include "iam/principal.h"
#include "policy/policy.h"

typedef enum floe_authz_reason {
    FLOE_AUTHZ_ALLOWED,
    FLOE_AUTHZ_NO_IDENTITY_ALLOW, /* "because no identity-based policy allows the <action> action" */
    FLOE_AUTHZ_IDENTITY_DENY,     /* "with an explicit deny in an identity-based policy" */
    FLOE_AUTHZ_RESOURCE_DENY,     /* "with an explicit deny in a resource-based policy" */
    FLOE_AUTHZ_NO_RESOURCE_ALLOW, /* "because no resource-based policy allows the <action> action" */
} floe_authz_reason_t;

/** What a call asks, in the words of a policy. */
typedef struct floe_authz_request {
    const char *action;       /* "s3tables:GetTable" */
    const char *resource;     /* the resource's ARN */
    const char *owner;        /* the resource's account (12 digits) */
    const char *namespace_;   /* s3tables:namespace, or NULL */
    const char *table_name;   /* s3tables:tableName, or NULL */
    const char *source_ip;    /* aws:SourceIp, or NULL */
    const char *bucket_policy; /* the resource policies that apply (documents as stored), or NULL */
    const char *table_policy;
    const floe_policy_context_key_t *context; /* more condition keys (a simulation's ContextEntries), or NULL */
    size_t n_context;
} floe_authz_request_t;

/** Which policy decided: one of the principal's identity policies, or a resource policy. */
typedef enum floe_authz_source {
    FLOE_AUTHZ_SOURCE_NONE,
    FLOE_AUTHZ_SOURCE_IDENTITY, /* principal->policies[source_index] */
    FLOE_AUTHZ_SOURCE_BUCKET,
    FLOE_AUTHZ_SOURCE_TABLE,
} floe_authz_source_t;

typedef struct floe_authz_decision {
    bool is_allowed;
    floe_authz_reason_t reason;
    const char *principal; /* the caller's ARN */
    const char *action;
    const char *resource;
    const char *statement; /* the deciding statement (its Sid or "Statement[<index>]"), or NULL */
    floe_authz_source_t source; /* the policy that holds it */
    size_t source_index;
    floe_policy_effect_t identity_effect; /* what each side said on its own (a simulation's details) */
    floe_policy_effect_t resource_effect;
} floe_authz_decision_t;

/**
 * Evaluates `request` for `principal` as AWS does: an explicit Deny in any policy refuses; in the
 * resource's own account an Allow of an identity-based policy or of a resource policy grants (an
 * account's root is allowed everything in its account); from another account both the caller's
 * identity side and the resource policy must allow. Fills `out` (strings in the call's pool) and
 * logs a denial. FLOE_OK whatever the answer.
 */
int floe_authz_decide(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                      floe_authz_decision_t *out /* OUT */);

/** The decision of floe_authz_decide without its log line: what IAM's policy simulator answers, so
 * that a simulation and an enforced call are decided by the same code. */
int floe_authz_evaluate(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                        floe_authz_decision_t *out /* OUT */);

/** The condition keys that the statements naming `request`'s principal, action and resource test and
 * the request does not carry (IAM's simulator's MissingContextValues), in the call's pool. */
int floe_authz_missing_keys(floe_call_t *call, const floe_principal_t *principal, const floe_authz_request_t *request,
                            const char ***keys /* OUT */, size_t *n /* OUT */);

/** AWS's sentence for a denial: "User: <arn> is not authorized to perform: <action> on resource: <arn> because ...", in the call's pool. */
const char *floe_authz_message(floe_call_t *call, const floe_authz_decision_t *decision);

#endif
