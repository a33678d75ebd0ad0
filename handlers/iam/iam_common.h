/*
 * What IAM's handlers share: finding the user or role a request names (or failing with IAM's
 * NoSuchEntity message), checking a policy document (runtime/policy/), IAM's answer shapes for a
 * user and a role, policy documents URL-encoded as IAM sends them, and Marker/MaxItems paging.
 */
#ifndef FLOE_HANDLERS_IAM_COMMON_H
#define FLOE_HANDLERS_IAM_COMMON_H

#include <stddef.h>

#include "iam/entity.h"
#include "iam/managed_policy.h"
#include "iam_api.h"
#include "policy/policy.h"

/** The user whose access key signed the call (GetUser, CreateAccessKey, ListAccessKeys without a
 * UserName); ValidationError when a root or a role's session signed it, as IAM answers. */
int floe_iam_caller_user(floe_query_call_t *call, floe_iam_entity_t *out /* OUT */);

/** DeleteConflict for a user or role that `blocker` (entity.h) still hangs on, in IAM's words. */
int floe_iam_delete_conflict(floe_query_call_t *call, const char *blocker);

/** The customer managed policy `arn` names, or NoSuchEntity ("Policy <arn> was not found."). */
int floe_iam_find_policy(floe_query_call_t *call, const char *arn, floe_iam_managed_policy_t *out /* OUT */);

/** "user" or "role": how IAM's messages name the kind. */
const char *floe_iam_kind_word(floe_iam_kind_t kind);

/** The entity named `name`, or NoSuchEntity ("The user with name X cannot be found."). */
int floe_iam_find(floe_query_call_t *call, floe_iam_kind_t kind, const char *name, floe_iam_entity_t *out /* OUT */);

/** FLOE_OK when `document` is a policy of `kind`; else MalformedPolicyDocument with the parser's message. */
int floe_iam_check_document(floe_query_call_t *call, const char *document, floe_policy_kind_t kind);

/** The same check failing with `error` (the policy simulator's model answers InvalidInput). */
int floe_iam_check_policy(floe_query_call_t *call, const char *document, floe_policy_kind_t kind,
                          floe_iam_error_t error);

/** `document` percent-encoded (RFC 3986: all but unreserved characters), as IAM answers policy documents. */
char *floe_iam_url_encode(floe_query_call_t *call, const char *document);

/** A path as stored: the request's, or "/" when it names none. */
const char *floe_iam_path_or_default(const char *path);

/** IAM's User and Role shapes of an entity. */
void floe_iam_user_shape(floe_query_call_t *call, const floe_iam_entity_t *e, floe_iam_User *out /* OUT */);
void floe_iam_role_shape(floe_query_call_t *call, const floe_iam_entity_t *e, floe_iam_Role *out /* OUT */);

/** One page of `n` items by Marker (the index to start at, as IAM's opaque marker) and MaxItems
 * (default 100): [*start, *end), with the next page's marker (NULL on the last page) and whether
 * the answer is truncated. ValidationError for a marker this listing did not give. */
int floe_iam_page(floe_query_call_t *call, const char *marker, bool has_max, int32_t max, size_t n,
                  size_t *start /* OUT */, size_t *end /* OUT */, char **next_marker /* OUT */,
                  bool *is_truncated /* OUT */);

#endif
