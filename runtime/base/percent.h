/*
 * Percent-encoding as RFC 3986 and AWS's UriEncode define it, the one encoder every wing uses:
 * SigV4's canonical URIs, S3's encoding-type=url listings, Iceberg REST path segments and IAM's
 * URL-encoded policy documents differ only in whether '/' stays.
 */
#ifndef FLOE_BASE_PERCENT_H
#define FLOE_BASE_PERCENT_H

#include <stdbool.h>
#include <stddef.h>

/** The most bytes floe_percent_encode writes for n input bytes, its NUL included. */
#define FLOE_PERCENT_ENCODED_MAX(n) (3 * (n) + 1)

/**
 * Writes s[0..n) to out percent-encoded: the unreserved characters (A-Z a-z 0-9 - _ . ~), and '/'
 * when keep_slash, stay as they are; every other byte is %XX in uppercase hex. out has room for
 * FLOE_PERCENT_ENCODED_MAX(n) bytes; it is NUL-terminated. Returns the encoded length.
 */
size_t floe_percent_encode(char *out, const char *s, size_t n, bool keep_slash);

#endif
