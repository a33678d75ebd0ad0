/*
 * What authorizing a call reads, kept in memory: the principal an access key names (with its
 * identity-based policies) and the resource a call names (its ARN and its bucket's and table's
 * policies). Each is kept with the policy generation (db/state.h) it was read at and used only
 * while that is still the generation: a commit that changes any of those rows, on any thread,
 * moves the generation before its writer answers, so the very next call reads them again. The
 * policy texts are the policy cache's own (policy_cache.h), so evaluating them parses and hashes
 * nothing. A session's principal is also dropped when the session expires.
 */
#ifndef FLOE_AUTHZ_INPUT_CACHE_H
#define FLOE_AUTHZ_INPUT_CACHE_H

#include "authz/authz.h"
#include "call/call.h"
#include "iam/principal.h"

/** floe_principal_of_key, from memory while nothing it was read from has changed. */
int floe_authz_principal_of_key(floe_call_t *call, const char *access_key, floe_principal_t **out /* OUT */);

/**
 * Fills r's resource (the table's ARN when `arn`, or `arn` with `namespace_` and `name`, names an
 * existing table, else the bucket's), bucket_policy and table_policy, in the call's scope (the
 * owner's account by now), from memory while nothing they were read from has changed. An ARN that
 * is no S3 Tables ARN is its own resource, with no policy. FLOE_OK, or FLOE_EFAIL (recorded) when
 * SQLite fails.
 */
int floe_authz_resource_of(floe_call_t *call, const char *arn, const char *namespace_, const char *name,
                           floe_authz_request_t *r /* IN/OUT */);

#endif
