/*
 * SigV4 verification (sigv4_verify.h), following AWS's "Create a signed AWS API request" steps:
 * canonical request -> string to sign -> signing key -> signature, compared in constant time.
 *
 * Design notes:
 *  1. The canonical URI is built from the raw path. S3 signs the path as sent; every other
 *     service (s3tables) URI-encodes it once more, so an ARN label's "%3A" is signed as "%253A"
 *     (seen with aws-cli 2.9, boto3 1.26 and the JS SDK v3).
 *  2. The canonical query is rebuilt from decoded pairs re-encoded with AWS's UriEncode and sorted,
 *     as AWS does; X-Amz-Signature is left out of a presigned URL's.
 *  3. For S3 the payload hash is x-amz-content-sha256 when sent (S3 sends it always),
 *     UNSIGNED-PAYLOAD for a presigned URL, else the SHA-256 of the body; a hex hash that is not
 *     the body's is its own error, as on S3 (XAmzContentSHA256Mismatch). Every other service signs
 *     the hex SHA-256 of the body whatever x-amz-content-sha256 says: Apache Iceberg's REST SigV4
 *     signer (the AWS SDK v2's Aws4Signer with SHA-256 checksum parameters, in Trino and Spark)
 *     sends that header in base64 while signing the hex hash, and AWS's s3tables endpoint serves it.
 *  4. aws-chunked bodies (STREAMING-AWS4-HMAC-SHA256-PAYLOAD) have their seed signature checked
 *     here; the per-chunk signatures are not.
 *  5. A request signed in its headers is valid only within MAX_CLOCK_SKEW_S of its X-Amz-Date, as
 *     on AWS (S3: RequestTimeTooSkewed); without the window a request captured on the wire could
 *     be replayed for ever. A presigned URL lives from its X-Amz-Date to X-Amz-Expires later, and
 *     one dated in the future is refused the same way (AWS: "Request is not yet valid").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>

#include "base/failure.h"
#include "base/percent.h"
#include "base/pool_text.h"
#include "http/sigv4.h"
#include "http/sigv4_sign.h"
#include "http/sigv4_verify.h"
#include "http/uri.h"

#define ALGORITHM FLOE_SIGV4_ALGORITHM
#define MAX_PRESIGN_EXPIRES_S 604800 /* seven days, AWS's limit */
#define MAX_CLOCK_SKEW_S (15 * 60)    /* AWS's window around X-Amz-Date */
#define UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"

typedef struct signed_request {
    h2o_iovec_t credential;     /* AK/date/region/service/aws4_request */
    h2o_iovec_t signed_headers; /* host;x-amz-date */
    h2o_iovec_t signature;      /* 64 hex digits */
    h2o_iovec_t amz_date;       /* 20240101T000000Z */
    long expires_s;             /* presigned only; -1 otherwise */
} signed_request_t;


/* AWS's UriEncode: every byte but the unreserved ones (and '/' when keep_slash) as %XX. */
static void sb_uri_encode(floe_pool_text_t *b, const char *s, size_t n, int keep_slash)
{
    char chunk[FLOE_PERCENT_ENCODED_MAX(64)];

    for (size_t i = 0; i < n; i += 64) {
        size_t take = n - i < 64 ? n - i : 64;
        floe_pool_text_add(b, chunk, floe_percent_encode(chunk, s + i, take, keep_slash));
    }
}

/* ---- reading the signature fields ---- */

static h2o_iovec_t find_header(h2o_req_t *req, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < req->headers.size; i++) {
        h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len == n && strncasecmp(h->name->base, name, n) == 0)
            return h->value;
    }
    return h2o_iovec_init(NULL, 0);
}

/* Reads "Credential=..., SignedHeaders=..., Signature=..." after the algorithm name. */
static int read_authorization(h2o_iovec_t v, signed_request_t *out)
{
    const char *p = v.base + sizeof(ALGORITHM) - 1, *end = v.base + v.len;

    if (v.len < sizeof(ALGORITHM) || memcmp(v.base, ALGORITHM " ", sizeof(ALGORITHM)) != 0)
        return FLOE_EFAIL;
    while (p < end) {
        const char *eq, *stop;
        while (p < end && (*p == ' ' || *p == ','))
            p++;
        eq = memchr(p, '=', (size_t)(end - p));
        if (eq == NULL)
            break;
        for (stop = eq + 1; stop < end && *stop != ',' && *stop != ' '; stop++)
            ;
        if (h2o_memis(p, (size_t)(eq - p), H2O_STRLIT("Credential")))
            out->credential = h2o_iovec_init(eq + 1, (size_t)(stop - eq - 1));
        else if (h2o_memis(p, (size_t)(eq - p), H2O_STRLIT("SignedHeaders")))
            out->signed_headers = h2o_iovec_init(eq + 1, (size_t)(stop - eq - 1));
        else if (h2o_memis(p, (size_t)(eq - p), H2O_STRLIT("Signature")))
            out->signature = h2o_iovec_init(eq + 1, (size_t)(stop - eq - 1));
        p = stop;
    }
    return out->credential.base && out->signed_headers.base && out->signature.base ? FLOE_OK : FLOE_EFAIL;
}

static int read_presigned(const floe_query_param_t *q, long n, signed_request_t *out)
{
    const char *algorithm = NULL, *expires = NULL;
    for (long i = 0; i < n; i++) {
        h2o_iovec_t v = h2o_iovec_init(q[i].value, strlen(q[i].value));
        if (strcmp(q[i].key, "X-Amz-Algorithm") == 0)
            algorithm = q[i].value;
        else if (strcmp(q[i].key, "X-Amz-Credential") == 0)
            out->credential = v;
        else if (strcmp(q[i].key, "X-Amz-SignedHeaders") == 0)
            out->signed_headers = v;
        else if (strcmp(q[i].key, "X-Amz-Signature") == 0)
            out->signature = v;
        else if (strcmp(q[i].key, "X-Amz-Date") == 0)
            out->amz_date = v;
        else if (strcmp(q[i].key, "X-Amz-Expires") == 0)
            expires = q[i].value;
    }
    if (algorithm == NULL || strcmp(algorithm, ALGORITHM) != 0 || !out->credential.base || !out->signed_headers.base ||
        !out->signature.base || !out->amz_date.base || expires == NULL)
        return FLOE_EFAIL;
    out->expires_s = strtol(expires, NULL, 10);
    return out->expires_s > 0 && out->expires_s <= MAX_PRESIGN_EXPIRES_S ? FLOE_OK : FLOE_EFAIL;
}

/* "20240101T000000Z" as seconds since the epoch, or -1. */
static int64_t amz_date_seconds(h2o_iovec_t d)
{
    struct tm tm = {0};
    char text[17];

    if (d.len == 16) {
        memcpy(text, d.base, 16);
        text[16] = '\0';
        if (strptime(text, "%Y%m%dT%H%M%SZ", &tm) != NULL)
            return (int64_t)timegm(&tm);
    }
    return -1;
}

/* ---- the canonical request ---- */

static void add_canonical_uri(floe_pool_text_t *b, h2o_req_t *req, int is_s3)
{
    size_t path_len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    if (path_len == 0) {
        floe_pool_text_char(b, '/');
        return;
    }
    if (is_s3)
        floe_pool_text_add(b, req->input.path.base, path_len);
    else
        sb_uri_encode(b, req->input.path.base, path_len, 1);
}

typedef struct kv {
    const char *key, *value;
} kv_t;

static int compare_kv(const void *a, const void *b)
{
    const kv_t *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : strcmp(x->value, y->value);
}

static int add_canonical_query(floe_pool_text_t *b, h2o_req_t *req)
{
    const char *q, *end;
    size_t n = 0, cap = 1;
    kv_t *pairs;

    if (req->input.query_at == SIZE_MAX)
        return FLOE_OK;
    q = req->input.path.base + req->input.query_at + 1;
    end = req->input.path.base + req->input.path.len;
    for (const char *p = q; p < end; p++)
        cap += *p == '&';
    pairs = h2o_mem_alloc_pool(&req->pool, cap * sizeof(*pairs));
    while (q < end) {
        const char *amp = memchr(q, '&', (size_t)(end - q)), *stop = amp ? amp : end;
        const char *eq = memchr(q, '=', (size_t)(stop - q));
        const char *key_end = eq ? eq : stop;
        if (stop > q) {
            char *key = floe_percent_decode(&req->pool, q, (size_t)(key_end - q), 0);
            char *value = eq ? floe_percent_decode(&req->pool, eq + 1, (size_t)(stop - eq - 1), 0) : "";
            if (key == NULL || value == NULL)
                return FLOE_EFAIL;
            if (strcmp(key, "X-Amz-Signature") != 0) {
                floe_pool_text_t k = {&req->pool, NULL, 0, 0}, v = {&req->pool, NULL, 0, 0};
                sb_uri_encode(&k, key, strlen(key), 0);
                sb_uri_encode(&v, value, strlen(value), 0);
                pairs[n].key = k.p ? k.p : "";
                pairs[n++].value = v.p ? v.p : "";
            }
        }
        q = stop + 1;
    }
    qsort(pairs, n, sizeof(*pairs), compare_kv);
    for (size_t i = 0; i < n; i++) {
        if (i)
            floe_pool_text_char(b, '&');
        floe_pool_text_str(b, pairs[i].key);
        floe_pool_text_char(b, '=');
        floe_pool_text_str(b, pairs[i].value);
    }
    return FLOE_OK;
}

/* Appends a header value trimmed, with runs of spaces folded to one (AWS's Trimall). */
static void add_trimmed(floe_pool_text_t *b, h2o_iovec_t v)
{
    size_t i = 0, n = v.len;
    while (i < n && isspace((unsigned char)v.base[i]))
        i++;
    while (n > i && isspace((unsigned char)v.base[n - 1]))
        n--;
    for (int space = 0; i < n; i++) {
        if (isspace((unsigned char)v.base[i])) {
            space = 1;
            continue;
        }
        if (space)
            floe_pool_text_char(b, ' ');
        space = 0;
        floe_pool_text_char(b, v.base[i]);
    }
}

static void add_header_values(floe_pool_text_t *b, h2o_req_t *req, const char *name, size_t n)
{
    int seen = 0;
    if (h2o_memis(name, n, H2O_STRLIT("host"))) {
        add_trimmed(b, req->input.authority);
        return;
    }
    for (size_t i = 0; i < req->headers.size; i++) {
        h2o_header_t *h = &req->headers.entries[i];
        if (h->name->len != n || strncasecmp(h->name->base, name, n) != 0)
            continue;
        if (seen++)
            floe_pool_text_char(b, ',');
        add_trimmed(b, h->value);
    }
    /* h2o 2.2 keeps Content-Length out of req->headers and buffers the whole body, so the length
     * the client signed (the AWS SDK for JavaScript v3 signs it) is the entity's. */
    if (!seen && h2o_memis(name, n, H2O_STRLIT("content-length"))) {
        char len[24];
        snprintf(len, sizeof(len), "%zu", req->entity.len);
        floe_pool_text_add(b, len, strlen(len));
    }
}

static void add_canonical_headers(floe_pool_text_t *b, h2o_req_t *req, h2o_iovec_t signed_headers)
{
    const char *p = signed_headers.base, *end = p + signed_headers.len;
    while (p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p)), *stop = semi ? semi : end;
        floe_pool_text_add(b, p, (size_t)(stop - p));
        floe_pool_text_char(b, ':');
        add_header_values(b, req, p, (size_t)(stop - p));
        floe_pool_text_char(b, '\n');
        p = stop + 1;
    }
}

/* The payload hash the client signed: see design note 3. */
static const char *payload_hash(h2o_req_t *req, int is_s3, int is_presigned)
{
    h2o_iovec_t sent = is_s3 ? find_header(req, "x-amz-content-sha256") : h2o_iovec_init(NULL, 0);
    char *hex;
    if (sent.base != NULL)
        return h2o_strdup(&req->pool, sent.base, sent.len).base;
    if (is_s3 && is_presigned)
        return UNSIGNED_PAYLOAD;
    hex = h2o_mem_alloc_pool(&req->pool, 65);
    floe_sigv4_sha256_hex(req->entity.base ? req->entity.base : "", req->entity.len, hex);
    return hex;
}

static int is_hex_hash(const char *s)
{
    if (strlen(s) != 64)
        return 0;
    for (; *s; s++) {
        if (!isxdigit((unsigned char)*s))
            return 0;
    }
    return 1;
}

/* ---- signing ---- */

/* The session token the request carries: the X-Amz-Security-Token header, or the query parameter
 * of that name (a presigned URL; SigV2's spells it in lower case). */
static h2o_iovec_t session_token_of(h2o_req_t *req)
{
    h2o_iovec_t token = find_header(req, "x-amz-security-token");
    floe_query_param_t *q;
    long n;

    if (token.base != NULL || req->input.query_at == SIZE_MAX)
        return token;
    n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                         req->input.path.len - req->input.query_at - 1, &q);
    for (long i = 0; i < n; i++) {
        if (strcasecmp(q[i].key, "X-Amz-Security-Token") == 0)
            return h2o_iovec_init(q[i].value, strlen(q[i].value));
    }
    return token;
}

const char *floe_sigv4_secret_for(h2o_req_t *req, const floe_config_t *config, h2o_iovec_t access_key)
{
    floe_sigv4_key_t key;
    h2o_iovec_t token;

    for (size_t i = 0; i < config->n_credentials; i++) {
        if (h2o_memis(access_key.base, access_key.len, config->credentials[i].access_key,
                      strlen(config->credentials[i].access_key)))
            return config->credentials[i].secret_key;
    }
    if (!floe_sigv4_issued_key(req, access_key, &key))
        return NULL;
    /* a temporary key without its own session token is no one's, as AWS answers it */
    if (key.session_token != NULL &&
        ((token = session_token_of(req)).base == NULL ||
         !h2o_memis(token.base, token.len, key.session_token, strlen(key.session_token))))
        return NULL;
    return key.secret;
}

/* The signature's parts, from the Authorization header or a presigned query: FLOE_OK, FLOE_ENOTFOUND
 * when the request is not signed, FLOE_EFAIL when a part is missing or malformed. */
static int read_signed_request(h2o_req_t *req, signed_request_t *s)
{
    h2o_iovec_t auth = find_header(req, "authorization");
    memset(s, 0, sizeof(*s));
    s->expires_s = -1;
    if (auth.base != NULL) {
        if (read_authorization(auth, s) != 0)
            return FLOE_EFAIL;
        s->amz_date = find_header(req, "x-amz-date");
        return s->amz_date.base != NULL ? FLOE_OK : FLOE_EFAIL;
    }
    if (req->input.query_at != SIZE_MAX) {
        floe_query_param_t *q;
        long n = floe_query_parse(&req->pool, req->input.path.base + req->input.query_at + 1,
                                  req->input.path.len - req->input.query_at - 1, &q);
        if (n > 0 && floe_http_query_first(&(floe_http_input_t){.query = q, .n_query = (size_t)n},
                                           "X-Amz-Signature") != NULL)
            return read_presigned(q, n, s);
    }
    return FLOE_ENOTFOUND; /* unsigned */
}

/* Design note 5: header-signed within MAX_CLOCK_SKEW_S of now; presigned not dated in the future. */
static bool is_timely(const signed_request_t *s, int64_t now_s)
{
    int64_t signed_s = amz_date_seconds(s->amz_date);

    if (s->expires_s >= 0)
        return signed_s <= now_s + MAX_CLOCK_SKEW_S;
    return signed_s >= now_s - MAX_CLOCK_SKEW_S && signed_s <= now_s + MAX_CLOCK_SKEW_S;
}

floe_sigv4_result_t floe_sigv4_verify(h2o_req_t *req, const floe_config_t *config, int is_s3, int64_t now_s)
{
    signed_request_t s;
    floe_sigv4_scope_t scope;
    floe_pool_text_t canonical = {&req->pool, NULL, 0, 0}, to_sign = {&req->pool, NULL, 0, 0};
    const char *secret, *payload;
    char canonical_hash[65], expected[65];
    int rc = read_signed_request(req, &s);

    if (rc == FLOE_ENOTFOUND)
        return FLOE_SIGV4_MISSING;
    if (rc != FLOE_OK || floe_sigv4_parse_credential(s.credential.base, s.credential.len, &scope) != 0 ||
        amz_date_seconds(s.amz_date) < 0)
        return FLOE_SIGV4_MALFORMED;
    if ((secret = floe_sigv4_secret_for(req, config, scope.access_key)) == NULL)
        return FLOE_SIGV4_UNKNOWN_KEY;
    if (!is_timely(&s, now_s))
        return FLOE_SIGV4_SKEWED;
    if (s.expires_s >= 0 && now_s > amz_date_seconds(s.amz_date) + s.expires_s)
        return FLOE_SIGV4_EXPIRED;
    payload = payload_hash(req, is_s3, s.expires_s >= 0);

    floe_pool_text_add(&canonical, req->input.method.base, req->input.method.len);
    floe_pool_text_char(&canonical, '\n');
    add_canonical_uri(&canonical, req, is_s3);
    floe_pool_text_char(&canonical, '\n');
    if (add_canonical_query(&canonical, req) != 0)
        return FLOE_SIGV4_MALFORMED;
    floe_pool_text_char(&canonical, '\n');
    add_canonical_headers(&canonical, req, s.signed_headers);
    floe_pool_text_char(&canonical, '\n');
    floe_pool_text_add(&canonical, s.signed_headers.base, s.signed_headers.len);
    floe_pool_text_char(&canonical, '\n');
    floe_pool_text_str(&canonical, payload);
    floe_sigv4_sha256_hex(canonical.p, canonical.len, canonical_hash);

    floe_pool_text_str(&to_sign, ALGORITHM "\n");
    floe_pool_text_add(&to_sign, s.amz_date.base, s.amz_date.len);
    floe_pool_text_char(&to_sign, '\n');
    floe_pool_text_add(&to_sign, scope.date.base, scope.date.len);
    floe_pool_text_char(&to_sign, '/');
    floe_pool_text_add(&to_sign, scope.region.base, scope.region.len);
    floe_pool_text_char(&to_sign, '/');
    floe_pool_text_add(&to_sign, scope.service.base, scope.service.len);
    floe_pool_text_str(&to_sign, "/aws4_request\n");
    floe_pool_text_str(&to_sign, canonical_hash);
    floe_sigv4_signature(secret, &scope, to_sign.p, expected);

    if (s.signature.len != 64 || CRYPTO_memcmp(expected, s.signature.base, 64) != 0)
        return FLOE_SIGV4_MISMATCH;
    if (is_hex_hash(payload)) {
        char actual[65];
        floe_sigv4_sha256_hex(req->entity.base ? req->entity.base : "", req->entity.len, actual);
        if (strcasecmp(actual, payload) != 0)
            return FLOE_SIGV4_PAYLOAD_MISMATCH;
    }
    return FLOE_SIGV4_OK;
}

const char *floe_sigv4_result_message(floe_sigv4_result_t r)
{
    switch (r) {
    case FLOE_SIGV4_OK: return "The signature is valid.";
    case FLOE_SIGV4_MISSING: return "Missing Authentication Token";
    case FLOE_SIGV4_MALFORMED: return "The request signature is malformed.";
    case FLOE_SIGV4_UNKNOWN_KEY: return "The security token included in the request is invalid.";
    case FLOE_SIGV4_EXPIRED: return "Request has expired";
    case FLOE_SIGV4_SKEWED: return "The difference between the request time and the current time is too large.";
    case FLOE_SIGV4_PAYLOAD_MISMATCH:
        return "The provided 'x-amz-content-sha256' header does not match what was computed.";
    case FLOE_SIGV4_MISMATCH:
    default:
        return "The request signature we calculated does not match the signature you provided. Check your AWS "
               "Secret Access Key and signing method. Consult the service documentation for details.";
    }
}
