/*
 * liblz4, loaded when it is first called, as zstd_load.c loads libzstd (its notes hold here): only
 * compaction's deletion vectors on files with LZ4_RAW Parquet pages need it, so an idle process
 * does not map it. This file defines the liblz4 functions Floe calls, with their own names and
 * prototypes (from <lz4.h>, which checks them), each forwarding to liblz4 opened with dlopen on
 * the first call from any thread.
 *
 * Not for: anything else. A liblz4 function Floe starts to use must be added to LZ4_FUNCTIONS
 * below, or the link fails with its name. When liblz4 cannot be opened, every call fails the way
 * liblz4 reports failure (a negative result); callers check floe_lz4_load() first to give the
 * reason.
 */
#include "iceberg/lz4_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <lz4.h>

#ifndef FLOE_LZ4_SONAME
#error "FLOE_LZ4_SONAME names the liblz4 to open (CMakeLists.txt sets it)"
#endif

/* X(return type, name, parameters, arguments, result when liblz4 is missing) */
#define LZ4_FUNCTIONS(X)                                                                                       \
    X(int, LZ4_decompress_safe, (const char *src, char *dst, int compressedSize, int dstCapacity),             \
      (src, dst, compressedSize, dstCapacity), -1)

#define POINTER(ret, name, params, args, ...) __typeof__(name) *name;
static struct {
    LZ4_FUNCTIONS(POINTER)
    int is_loaded;
    char error[256];
} lz4;

static pthread_once_t lz4_once = PTHREAD_ONCE_INIT;

#define RESOLVE(ret, name, params, args, ...) (lz4.name = (__typeof__(lz4.name))dlsym(handle, #name)) != NULL &&

static void load(void)
{
    void *handle = dlopen(FLOE_LZ4_SONAME, RTLD_NOW | RTLD_LOCAL);

    if (handle == NULL) {
        snprintf(lz4.error, sizeof(lz4.error), "%s", dlerror());
        return;
    }
    if (!(LZ4_FUNCTIONS(RESOLVE) 1)) {
        snprintf(lz4.error, sizeof(lz4.error), "%s lacks a function Floe calls: %s", FLOE_LZ4_SONAME, dlerror());
        return;
    }
    lz4.is_loaded = 1;
}

int floe_lz4_load(void)
{
    pthread_once(&lz4_once, load);
    return lz4.is_loaded ? 0 : -1;
}

const char *floe_lz4_load_error(void)
{
    return floe_lz4_load() == 0 ? "" : lz4.error;
}

#define WRAP(ret, name, params, args, missing)                                                                 \
    ret name params                                                                                            \
    {                                                                                                          \
        return floe_lz4_load() == 0 ? lz4.name args : (ret)(missing);                                          \
    }
LZ4_FUNCTIONS(WRAP)
