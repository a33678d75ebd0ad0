/*
 * Identifiers: random UUIDs (tableBucketId, namespaceId, table ids), random lowercase names
 * (warehouse buckets) and request ids. Randomness comes from getrandom(2).
 */
#ifndef FLOE_BASE_IDS_H
#define FLOE_BASE_IDS_H

#include <stddef.h>

#define FLOE_UUID_LEN 36
#define FLOE_REQUEST_ID_LEN 16

/** Writes a random (version 4) UUID, lower-case, NUL-terminated, into out. */
void floe_uuid_v4(char out[FLOE_UUID_LEN + 1]);
/** Writes n random characters of [a-z0-9] and a NUL into out. */
void floe_random_alnum(char *out, size_t n);
/** Writes a fresh request id (upper-case hex) and a NUL into out. */
void floe_request_id(char out[FLOE_REQUEST_ID_LEN + 1]);
/** Fills buf with n random bytes. */
void floe_random_bytes(void *buf, size_t n);

#endif
