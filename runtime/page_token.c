/*
 * The continuation tokens of page_token.h: base64url (no padding) of a version tag and the key.
 * The tag lets a later release change the format and still refuse old tokens cleanly.
 */
#include <string.h>

#include "codec.h"
#include "page_token.h"

#define TOKEN_TAG "floe1:"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

char *floe_page_token_encode(floe_call_t *call, const char *last_key)
{
    char *plain = floe_call_printf(call, TOKEN_TAG "%s", last_key);
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

char *floe_page_token_decode(floe_call_t *call, const char *token)
{
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
    if (o != strlen(out) || strncmp(out, TOKEN_TAG, sizeof(TOKEN_TAG) - 1) != 0 ||
        !floe_codec_utf8_valid(out, o))
        return NULL;
    return out + sizeof(TOKEN_TAG) - 1;
}
