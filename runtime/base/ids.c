/*
 * The identifier generators of ids.h. Request ids combine a per-thread random prefix with a
 * counter: unique per process, and cheap enough to make one per request.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#include "base/ids.h"

void floe_random_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            perror("floe: getrandom");
            abort();
        }
        p += got;
        n -= (size_t)got;
    }
}

void floe_uuid_v4(char out[FLOE_UUID_LEN + 1])
{
    unsigned char b[16];
    floe_random_bytes(b, sizeof(b));
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, FLOE_UUID_LEN + 1, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void floe_random_alnum(char *out, size_t n)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char b[64];
    for (size_t i = 0; i < n; i++) {
        if (i % sizeof(b) == 0)
            floe_random_bytes(b, sizeof(b));
        out[i] = alphabet[b[i % sizeof(b)] % (sizeof(alphabet) - 1)];
    }
    out[n] = '\0';
}

void floe_request_id(char out[FLOE_REQUEST_ID_LEN + 1])
{
    static const char hex[] = "0123456789ABCDEF";
    static __thread uint32_t prefix, counter;
    uint64_t id;

    if (prefix == 0)
        floe_random_bytes(&prefix, sizeof(prefix));
    id = (uint64_t)prefix << 32 | ++counter;
    for (int i = FLOE_REQUEST_ID_LEN - 1; i >= 0; i--, id >>= 4)
        out[i] = hex[id & 15];
    out[FLOE_REQUEST_ID_LEN] = '\0';
}
