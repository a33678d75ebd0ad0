/*
 * Parsed policies kept in memory, keyed by their text and kind: authorizing a call parses a
 * document once, however many calls meet it. A changed policy is another text, so a change takes
 * effect on the very next call, with nothing to invalidate. The cache holds a bounded number of
 * texts; past that, a text is parsed for the call that needs it and freed after. The decision
 * inputs that authorization keeps per principal and per resource (input_cache.h) hold the cache's
 * own copies of their texts (floe_policy_cache_intern), which it finds by address.
 */
#ifndef FLOE_AUTHZ_POLICY_CACHE_H
#define FLOE_AUTHZ_POLICY_CACHE_H

#include "policy/policy.h"

/**
 * The parsed form of `text` as a policy of `kind`, or NULL when the text is not a valid policy.
 * A cached policy lives as long as the process; one the cache had no room for is also put in
 * `*uncached`, which the caller frees with floe_policy_free (NULL otherwise).
 */
const floe_policy_t *floe_policy_cache_get(const char *text, floe_policy_kind_t kind, floe_policy_t **uncached /* OUT */);

/**
 * The cache's own copy of `text`, parsed as a policy of `kind` (valid or not), which lives as long
 * as the process and which floe_policy_cache_get finds without reading it; NULL when the cache is
 * full.
 */
const char *floe_policy_cache_intern(const char *text, floe_policy_kind_t kind);

#endif
