/*
 * Checking that a resource policy document (PutTableBucketPolicy, PutTablePolicy) is shaped like an
 * AWS access policy, so handlers can refuse a malformed one without touching JSON themselves.
 * A document that passes is one runtime/policy/ parses as a resource policy, so --enforce-iam can
 * evaluate it; AWS may still refuse what Floe accepts (an action no service has, a public principal).
 */
#ifndef FLOE_CATALOG_POLICY_H
#define FLOE_CATALOG_POLICY_H

#include <stddef.h>

/**
 * Checks `doc` (NUL-terminated UTF-8) against the grammar of an AWS resource policy: a JSON object
 * with a Version of "2012-10-17" or "2008-10-17" and a Statement that is one statement object or a
 * non-empty array of them, each with Effect (Allow or Deny), Principal or NotPrincipal, Action or
 * NotAction, and Resource or NotResource; then each of those as IAM validates it (policy/policy.h).
 * Returns 0 if it conforms; otherwise -1 and a sentence saying what is wrong in why (OUT, always
 * NUL-terminated, cut to why_len).
 */
int floe_policy_check(const char *doc, char *why /* OUT */, size_t why_len);

#endif
