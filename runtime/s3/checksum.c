/*
 * The checksums of checksum.h. CRC32 is zlib's; CRC32C uses the SSE4.2 instruction when the CPU
 * has it and a table otherwise; CRC64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, as S3
 * specifies) uses a table; SHA-1 and SHA-256 are OpenSSL's. Tables are built once, on first use.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "s3/checksum.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u
#define CRC32C_POLY_REFLECTED 0x82F63B78u
#define CRC64NVME_POLY_REFLECTED UINT64_C(0x9A6C9329AC4BC9B5)
#define ZLIB_MAX_CHUNK ((size_t)1 << 30) /* zlib takes a uInt length */

typedef struct alg_info {
    const char *name;
    const char *header;
    size_t size;
} alg_info_t;

static const alg_info_t algs[FLOE_S3_CK__COUNT] = {
    [FLOE_S3_CK_NONE] = {NULL, NULL, 0},
    [FLOE_S3_CK_CRC32] = {"CRC32", "x-amz-checksum-crc32", 4},
    [FLOE_S3_CK_CRC32C] = {"CRC32C", "x-amz-checksum-crc32c", 4},
    [FLOE_S3_CK_CRC64NVME] = {"CRC64NVME", "x-amz-checksum-crc64nvme", 8},
    [FLOE_S3_CK_SHA1] = {"SHA1", "x-amz-checksum-sha1", 20},
    [FLOE_S3_CK_SHA256] = {"SHA256", "x-amz-checksum-sha256", 32},
};

static uint32_t crc32c_table[256];
/* Slicing-by-8: [0] is the byte table; [k][i] is byte i's CRC followed by k zero bytes, so one
 * lookup per byte of an 8-byte word replaces eight dependent steps (several times faster on the
 * MiB bodies PyArrow's S3 client checksums with CRC64/NVME by default). */
static uint64_t crc64nvme_table[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c32 = i;
        uint64_t c64 = i;
        for (int k = 0; k < 8; k++) {
            c32 = c32 & 1 ? (c32 >> 1) ^ CRC32C_POLY_REFLECTED : c32 >> 1;
            c64 = c64 & 1 ? (c64 >> 1) ^ CRC64NVME_POLY_REFLECTED : c64 >> 1;
        }
        crc32c_table[i] = c32;
        crc64nvme_table[0][i] = c64;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t i = 0; i < 256; i++) {
            uint64_t prev = crc64nvme_table[k - 1][i];
            crc64nvme_table[k][i] = (prev >> 8) ^ crc64nvme_table[0][prev & 0xFF];
        }
}

const char *floe_s3_checksum_name(floe_s3_checksum_alg_t alg)
{
    return algs[alg].name;
}

const char *floe_s3_checksum_header(floe_s3_checksum_alg_t alg)
{
    return algs[alg].header;
}

size_t floe_s3_checksum_size(floe_s3_checksum_alg_t alg)
{
    return algs[alg].size;
}

/* A composite value ends in "-<part count>", a character base64 never holds. */
const char *floe_s3_checksum_type(const char *value)
{
    return strchr(value, '-') != NULL ? "COMPOSITE" : "FULL_OBJECT";
}

floe_s3_checksum_alg_t floe_s3_checksum_from_name(const char *s)
{
    for (int a = FLOE_S3_CK_CRC32; a < FLOE_S3_CK__COUNT; a++) {
        if (s != NULL && strcasecmp(s, algs[a].name) == 0)
            return (floe_s3_checksum_alg_t)a;
    }
    return FLOE_S3_CK_NONE;
}

uint32_t floe_s3_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;
    uLong c = crc;
    while (n > 0) {
        size_t step = n < ZLIB_MAX_CHUNK ? n : ZLIB_MAX_CHUNK;
        c = crc32(c, p, (uInt)step);
        p += step;
        n -= step;
    }
    return (uint32_t)c;
}

static uint32_t crc32c_table_update(uint32_t crc, const unsigned char *p, size_t n)
{
    while (n--)
        crc = crc32c_table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_update(uint32_t crc, const unsigned char *p, size_t n)
{
    uint64_t c = crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    crc = (uint32_t)c;
    while (n--)
        crc = _mm_crc32_u8(crc, *p++);
    return crc;
}
#endif

uint32_t floe_s3_crc32c(uint32_t crc, const void *data, size_t n)
{
    crc = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2"))
        return ~crc32c_hw_update(crc, data, n);
#endif
    pthread_once(&tables_once, build_tables);
    return ~crc32c_table_update(crc, data, n);
}

uint64_t floe_s3_crc64nvme(uint64_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;

    pthread_once(&tables_once, build_tables);
    crc = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t word = 0;
        for (int i = 0; i < 8; i++) /* little-endian load on any host; compilers make it one load */
            word |= (uint64_t)p[i] << (8 * i);
        crc ^= word;
        crc = crc64nvme_table[7][crc & 0xFF] ^ crc64nvme_table[6][(crc >> 8) & 0xFF] ^
              crc64nvme_table[5][(crc >> 16) & 0xFF] ^ crc64nvme_table[4][(crc >> 24) & 0xFF] ^
              crc64nvme_table[3][(crc >> 32) & 0xFF] ^ crc64nvme_table[2][(crc >> 40) & 0xFF] ^
              crc64nvme_table[1][(crc >> 48) & 0xFF] ^ crc64nvme_table[0][crc >> 56];
    }
    while (n--)
        crc = crc64nvme_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

/* a times b modulo the reflected polynomial poly of width bits (zlib's multmodp, any width to
 * 64): in the reflected form x^0 is the top bit. */
static uint64_t multmodp(uint64_t a, uint64_t b, uint64_t poly, int width)
{
    uint64_t m = (uint64_t)1 << (width - 1), p = 0;

    for (; m != 0; m >>= 1) {
        if (a & m)
            p ^= b;
        b = b & 1 ? (b >> 1) ^ poly : b >> 1;
    }
    return p;
}

/* x^(8 * n) modulo poly: what appending n zero bytes multiplies a CRC's register by. */
static uint64_t x8nmodp(uint64_t n, uint64_t poly, int width)
{
    uint64_t one = (uint64_t)1 << (width - 1), result = one, power = one >> 8; /* x^0, x^8 */

    for (; n != 0; n >>= 1) {
        if (n & 1)
            result = multmodp(power, result, poly, width);
        power = multmodp(power, power, poly, width);
    }
    return result;
}

bool floe_s3_checksum_is_crc(floe_s3_checksum_alg_t alg)
{
    return alg == FLOE_S3_CK_CRC32 || alg == FLOE_S3_CK_CRC32C || alg == FLOE_S3_CK_CRC64NVME;
}

uint64_t floe_s3_checksum_combine(floe_s3_checksum_alg_t alg, uint64_t crc1, uint64_t crc2, uint64_t len2)
{
    uint64_t poly = alg == FLOE_S3_CK_CRC64NVME ? CRC64NVME_POLY_REFLECTED
                    : alg == FLOE_S3_CK_CRC32C  ? CRC32C_POLY_REFLECTED
                                                : CRC32_POLY_REFLECTED;
    int width = alg == FLOE_S3_CK_CRC64NVME ? 64 : 32;

    /* The initial and final inversions cancel: crc(AB) = crc(A) * x^(8|B|) + crc(B) (zlib's crc32_combine). */
    return multmodp(x8nmodp(len2, poly, width), crc1, poly, width) ^ crc2;
}

void floe_s3_checksum_init(floe_s3_checksum_t *c, floe_s3_checksum_alg_t alg)
{
    memset(c, 0, sizeof(*c));
    c->alg = alg;
    if (alg == FLOE_S3_CK_SHA1 || alg == FLOE_S3_CK_SHA256) {
        c->md = EVP_MD_CTX_new();
        EVP_DigestInit_ex(c->md, alg == FLOE_S3_CK_SHA1 ? EVP_sha1() : EVP_sha256(), NULL);
    }
}

void floe_s3_checksum_update(floe_s3_checksum_t *c, const void *data, size_t n)
{
    switch (c->alg) {
    case FLOE_S3_CK_CRC32: c->crc = floe_s3_crc32((uint32_t)c->crc, data, n); break;
    case FLOE_S3_CK_CRC32C: c->crc = floe_s3_crc32c((uint32_t)c->crc, data, n); break;
    case FLOE_S3_CK_CRC64NVME: c->crc = floe_s3_crc64nvme(c->crc, data, n); break;
    case FLOE_S3_CK_SHA1:
    case FLOE_S3_CK_SHA256: EVP_DigestUpdate(c->md, data, n); break;
    default: break;
    }
}

static void put_big_endian(uint64_t v, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

size_t floe_s3_checksum_final(floe_s3_checksum_t *c, unsigned char out[FLOE_S3_CHECKSUM_MAX_BYTES])
{
    unsigned int n = 0;

    switch (c->alg) {
    case FLOE_S3_CK_CRC32:
    case FLOE_S3_CK_CRC32C:
    case FLOE_S3_CK_CRC64NVME: put_big_endian(c->crc, algs[c->alg].size, out); return algs[c->alg].size;
    case FLOE_S3_CK_SHA1:
    case FLOE_S3_CK_SHA256: EVP_DigestFinal_ex(c->md, out, &n); return n;
    default: return 0;
    }
}

void floe_s3_checksum_dispose(floe_s3_checksum_t *c)
{
    EVP_MD_CTX_free(c->md);
    c->md = NULL;
}

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t floe_s3_base64_encode(const unsigned char *src, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)src[i] << 16 | (i + 1 < n ? (uint32_t)src[i + 1] << 8 : 0) | (i + 2 < n ? src[i + 2] : 0);
        out[o++] = b64_alphabet[v >> 18 & 63];
        out[o++] = b64_alphabet[v >> 12 & 63];
        out[o++] = i + 1 < n ? b64_alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? b64_alphabet[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

static int b64_value(char c)
{
    const char *p = c != '\0' ? strchr(b64_alphabet, c) : NULL;
    return p != NULL ? (int)(p - b64_alphabet) : -1;
}

long floe_s3_base64_decode(const char *src, size_t n, unsigned char *out, size_t cap)
{
    size_t o = 0;

    if (n % 4 != 0)
        return -1;
    for (size_t i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            bool is_pad = src[i + k] == '=' && i + 4 == n && k >= 2;
            if (pad && !is_pad)
                return -1;
            pad += is_pad;
            v[k] = is_pad ? 0 : b64_value(src[i + k]);
            if (v[k] < 0)
                return -1;
        }
        uint32_t bits = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        if (o + 3 - (size_t)pad > cap)
            return -1;
        out[o++] = (unsigned char)(bits >> 16);
        if (pad < 2)
            out[o++] = (unsigned char)(bits >> 8);
        if (pad < 1)
            out[o++] = (unsigned char)bits;
    }
    return (long)o;
}
