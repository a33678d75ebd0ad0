/*
 * What an S3 request's URL addresses: the bucket (from a virtual-hosted Host header or the first
 * path segment), the key (the rest of the raw path, percent-decoded) and the query parameters.
 * A URL that cannot be read is answered here, with InvalidURI or KeyTooLongError. Not for the
 * request context itself (request.c) or for choosing the operation (route.c).
 */
#ifndef FLOE_S3_ADDRESS_H
#define FLOE_S3_ADDRESS_H

#include <stddef.h>

#include "s3/request.h"

/**
 * Fills r->bucket, r->key, r->is_virtual_host and the query parameters of r (initialised by
 * floe_s3_request_init) from its Host header and raw path. Returns 0, or -1 after answering
 * InvalidURI (bad percent-encoding, a key that is not UTF-8) or KeyTooLongError. The strings live
 * in the request pool.
 */
int floe_s3_address(floe_s3_req_t *r);

/**
 * Splits a Host header value into a virtual-hosted bucket name: the first label when it is a
 * plausible bucket name and the rest of the host is not an IP address ("b.localhost:4566",
 * "b.s3.localhost", "b.127.0.0.1.nip.io"). Returns the label's length, or 0 for path-style hosts
 * ("localhost", "127.0.0.1", "s3.localhost", "[::1]").
 */
size_t floe_s3_virtual_host_bucket(const char *host, size_t host_len);

#endif
