/*
 * libbrotlidec, loaded when it is first called, as zstd_load.c loads libzstd (its notes hold
 * here): only compaction's deletion vectors on files with Brotli Parquet pages need it, so an idle
 * process does not map it. This file defines the libbrotlidec functions Floe calls, with their own
 * names and prototypes (from <brotli/decode.h>, which checks them), each forwarding to
 * libbrotlidec opened with dlopen on the first call from any thread.
 *
 * Not for: anything else. A libbrotlidec function Floe starts to use must be added to
 * BROTLI_FUNCTIONS below, or the link fails with its name. When libbrotlidec cannot be opened,
 * every call fails the way libbrotlidec reports failure (BROTLI_DECODER_RESULT_ERROR); callers
 * check floe_brotli_load() first to give the reason.
 */
#include "iceberg/brotli_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <brotli/decode.h>

#ifndef FLOE_BROTLI_SONAME
#error "FLOE_BROTLI_SONAME names the libbrotlidec to open (CMakeLists.txt sets it)"
#endif

/* X(return type, name, parameters, arguments, result when libbrotlidec is missing) */
#define BROTLI_FUNCTIONS(X)                                                                                    \
    X(BrotliDecoderResult, BrotliDecoderDecompress,                                                            \
      (size_t encoded_size, const uint8_t encoded_buffer[BROTLI_ARRAY_PARAM(encoded_size)],                    \
       size_t *decoded_size, uint8_t decoded_buffer[BROTLI_ARRAY_PARAM(*decoded_size)]),                       \
      (encoded_size, encoded_buffer, decoded_size, decoded_buffer), BROTLI_DECODER_RESULT_ERROR)

#define POINTER(ret, name, params, args, ...) __typeof__(name) *name;
static struct {
    BROTLI_FUNCTIONS(POINTER)
    int is_loaded;
    char error[256];
} brotli;

static pthread_once_t brotli_once = PTHREAD_ONCE_INIT;

#define RESOLVE(ret, name, params, args, ...) (brotli.name = (__typeof__(brotli.name))dlsym(handle, #name)) != NULL &&

static void load(void)
{
    void *handle = dlopen(FLOE_BROTLI_SONAME, RTLD_NOW | RTLD_LOCAL);

    if (handle == NULL) {
        snprintf(brotli.error, sizeof(brotli.error), "%s", dlerror());
        return;
    }
    if (!(BROTLI_FUNCTIONS(RESOLVE) 1)) {
        snprintf(brotli.error, sizeof(brotli.error), "%s lacks a function Floe calls: %s", FLOE_BROTLI_SONAME,
                 dlerror());
        return;
    }
    brotli.is_loaded = 1;
}

int floe_brotli_load(void)
{
    pthread_once(&brotli_once, load);
    return brotli.is_loaded ? 0 : -1;
}

const char *floe_brotli_load_error(void)
{
    return floe_brotli_load() == 0 ? "" : brotli.error;
}

#define WRAP(ret, name, params, args, missing)                                                                 \
    ret name params                                                                                            \
    {                                                                                                          \
        return floe_brotli_load() == 0 ? brotli.name args : (ret)(missing);                                    \
    }
BROTLI_FUNCTIONS(WRAP)
