/*
 * The comparisons a policy makes of one value: wildcards in actions, resources and Like
 * conditions, ARNs component by component, addresses in CIDR blocks, numbers and dates. Pure.
 */
#ifndef FLOE_POLICY_MATCH_H
#define FLOE_POLICY_MATCH_H

#include <stdbool.h>

/** Whether `text` matches `pattern`, where '*' is any run of characters and '?' any one. */
bool floe_policy_glob(const char *pattern, const char *text, bool ignore_case);

/**
 * ArnLike and ArnEquals: each of the six colon-separated parts of `arn` matches the same part of
 * `pattern` (the resource part holds the rest, colons included).
 */
bool floe_policy_arn_like(const char *pattern, const char *arn);

/** IpAddress: whether `address` (IPv4 or IPv6) lies in `cidr` (a block, or one address). */
bool floe_policy_ip_in(const char *cidr, const char *address);

/**
 * `a` compared with `b` as numbers (is_date: as dates, ISO 8601 or epoch seconds): -1, 0 or 1 in
 * `cmp` (OUT). False when either is not one.
 */
bool floe_policy_compare(const char *a, const char *b, bool is_date, int *cmp /* OUT */);

#endif
