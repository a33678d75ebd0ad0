/*
 * SigV4 signing (sigv4_sign.h), following AWS's "Create a signed AWS API request": signing key
 * from the secret, date, region and service; canonical request -> string to sign -> signature.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "base/percent.h"
#include "base/xalloc.h"
#include "http/sigv4_sign.h"

#define KEY_MAX 256
#define DIGEST_LEN 32

static void hex_encode(const unsigned char *in, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static void hmac(const void *key, size_t key_len, const char *msg, size_t msg_len, unsigned char out[DIGEST_LEN])
{
    unsigned int len = DIGEST_LEN;
    HMAC(EVP_sha256(), key, (int)key_len, (const unsigned char *)msg, msg_len, out, &len);
}

void floe_sigv4_sha256_hex(const void *data, size_t n, char out[FLOE_SIGV4_HEX_LEN + 1])
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(data, n, digest);
    hex_encode(digest, sizeof(digest), out);
}

void floe_sigv4_signature(const char *secret, const floe_sigv4_scope_t *scope, const char *string_to_sign,
                          char out[FLOE_SIGV4_HEX_LEN + 1])
{
    unsigned char k_date[DIGEST_LEN], k_region[DIGEST_LEN], k_service[DIGEST_LEN], k_signing[DIGEST_LEN],
        sig[DIGEST_LEN];
    char key[KEY_MAX];
    int n = snprintf(key, sizeof(key), "AWS4%s", secret);

    if (n >= (int)sizeof(key))
        n = (int)sizeof(key) - 1;
    hmac(key, (size_t)n, scope->date.base, scope->date.len, k_date);
    hmac(k_date, DIGEST_LEN, scope->region.base, scope->region.len, k_region);
    hmac(k_region, DIGEST_LEN, scope->service.base, scope->service.len, k_service);
    hmac(k_service, DIGEST_LEN, "aws4_request", strlen("aws4_request"), k_signing);
    hmac(k_signing, DIGEST_LEN, string_to_sign, strlen(string_to_sign), sig);
    hex_encode(sig, DIGEST_LEN, out);
    OPENSSL_cleanse(key, sizeof(key));
}

/* AWS's UriEncode of a path: every byte but the unreserved ones and '/' as %XX; the caller frees. */
static char *encode_path(const char *path)
{
    size_t n = strlen(path);
    char *out = floe_xmalloc(FLOE_PERCENT_ENCODED_MAX(n));

    floe_percent_encode(out, path, n, true);
    return out;
}

/* Formats "fmt" into a malloc'ed string. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap, again;
    int n;
    char *s;

    va_start(ap, fmt);
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = floe_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *floe_sigv4_sign_request(const floe_sigv4_signer_t *signer, const char *method, const char *host,
                              const char *path, const char *body, size_t body_len, time_t now,
                              char amz_date[FLOE_SIGV4_AMZ_DATE_LEN + 1])
{
    char date[9], payload[FLOE_SIGV4_HEX_LEN + 1], canonical_hash[FLOE_SIGV4_HEX_LEN + 1],
        signature[FLOE_SIGV4_HEX_LEN + 1];
    char *uri = encode_path(*path ? path : "/"), *canonical, *to_sign, *authorization;
    struct tm tm;
    floe_sigv4_scope_t scope;

    gmtime_r(&now, &tm);
    strftime(amz_date, FLOE_SIGV4_AMZ_DATE_LEN + 1, "%Y%m%dT%H%M%SZ", &tm);
    memcpy(date, amz_date, 8);
    date[8] = '\0';
    floe_sigv4_sha256_hex(body != NULL ? body : "", body != NULL ? body_len : 0, payload);
    canonical = format("%s\n%s\n\nhost:%s\nx-amz-date:%s\n\nhost;x-amz-date\n%s", method, uri, host, amz_date, payload);
    floe_sigv4_sha256_hex(canonical, strlen(canonical), canonical_hash);
    to_sign = format(FLOE_SIGV4_ALGORITHM "\n%s\n%s/%s/%s/aws4_request\n%s", amz_date, date, signer->region,
                     signer->service, canonical_hash);
    scope = (floe_sigv4_scope_t){
        .access_key = h2o_iovec_init(signer->access_key, strlen(signer->access_key)),
        .date = h2o_iovec_init(date, 8),
        .region = h2o_iovec_init(signer->region, strlen(signer->region)),
        .service = h2o_iovec_init(signer->service, strlen(signer->service)),
    };
    floe_sigv4_signature(signer->secret_key, &scope, to_sign, signature);
    authorization = format(FLOE_SIGV4_ALGORITHM " Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=host;x-amz-date, "
                                                "Signature=%s",
                           signer->access_key, date, signer->region, signer->service, signature);
    free(uri);
    free(canonical);
    free(to_sign);
    return authorization;
}
