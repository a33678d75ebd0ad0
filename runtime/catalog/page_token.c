/*
 * The continuation tokens of page_token.h: base64url (no padding) of
 * "floe1:<listing fingerprint>:<key>". The version tag lets a later release change the format and
 * still refuse old tokens cleanly; the fingerprint (FNV-1a of the listing's description) ties a
 * token to its listing without making it long.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "catalog/page_token.h"
#include "http/codec.h"

#define TOKEN_TAG "floe1:"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static uint64_t fingerprint(const char *listing)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (const unsigned char *p = (const unsigned char *)listing; *p; p++)
        h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

static char *tagged_prefix(floe_call_t *call, const char *listing)
{
    return floe_call_printf(call, TOKEN_TAG "%016" PRIx64 ":", fingerprint(listing));
}

char *floe_page_token_encode(floe_call_t *call, const char *listing, const char *last_key)
{
    char *plain = floe_call_printf(call, "%s%s", tagged_prefix(call, listing), last_key);
    size_t n = strlen(plain), o = 0;
    char *out = floe_call_alloc(call, (n + 2) / 3 * 4 + 1);

    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)plain[i] << 16;
        if (i + 1 < n)
            v |= (unsigned char)plain[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)plain[i + 2];
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        if (i + 1 < n)
            out[o++] = alphabet[(v >> 6) & 63];
        if (i + 2 < n)
            out[o++] = alphabet[v & 63];
    }
    out[o] = '\0';
    return out;
}

char *floe_page_token_decode(floe_call_t *call, const char *listing, const char *token)
{
    const char *prefix = tagged_prefix(call, listing);
    size_t n = strlen(token), o = 0;
    char *out = floe_call_alloc(call, n + 1);
    unsigned acc = 0;
    int bits = 0;

    for (size_t i = 0; i < n; i++) {
        const char *pos = strchr(alphabet, token[i]);
        if (pos == NULL || token[i] == '\0')
            return NULL;
        acc = (acc << 6) | (unsigned)(pos - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xFF);
        }
    }
    out[o] = '\0';
    if (o != strlen(out) || strncmp(out, prefix, strlen(prefix)) != 0 || !floe_codec_utf8_valid(out, o))
        return NULL;
    return out + strlen(prefix);
}
