/*
 * libzstd, loaded when it is first called, as avro_load.c loads Avro C (its design notes 1 and 3
 * hold here too): only compaction's deletion vectors (ZSTD Parquet pages) and zstandard Avro
 * manifests need it, so an idle process does not map it. This file defines the libzstd functions
 * Floe and its tests call, with their own names and prototypes (from <zstd.h>, which checks them),
 * each forwarding to libzstd opened with dlopen on the first call from any thread.
 *
 * Not for: anything else. A libzstd function Floe starts to use must be added to ZSTD_FUNCTIONS
 * below, or the link fails with its name. When libzstd cannot be opened, every call fails the way
 * libzstd reports failure (an error code, NULL, ZSTD_CONTENTSIZE_ERROR); callers check
 * floe_zstd_load() first to give the reason.
 */
#include "iceberg/zstd_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <zstd.h>

#ifndef FLOE_ZSTD_SONAME
#error "FLOE_ZSTD_SONAME names the libzstd to open (CMakeLists.txt sets it)"
#endif

#define ZSTD_FAILED ((size_t)-1) /* an error code: ZSTD_isError is true of it */

/* X(return type, name, parameters, arguments, result when libzstd is missing) */
#define ZSTD_FUNCTIONS(X)                                                                                      \
    X(unsigned, ZSTD_isError, (size_t code), (code), 1)                                                        \
    X(unsigned long long, ZSTD_getFrameContentSize, (const void *src, size_t srcSize), (src, srcSize),         \
      ZSTD_CONTENTSIZE_ERROR)                                                                                  \
    X(size_t, ZSTD_decompress, (void *dst, size_t dstCapacity, const void *src, size_t compressedSize),        \
      (dst, dstCapacity, src, compressedSize), ZSTD_FAILED)                                                    \
    X(size_t, ZSTD_compressBound, (size_t srcSize), (srcSize), 0)                                              \
    X(size_t, ZSTD_compress, (void *dst, size_t dstCapacity, const void *src, size_t srcSize, int level),      \
      (dst, dstCapacity, src, srcSize, level), ZSTD_FAILED)                                                    \
    X(ZSTD_DCtx *, ZSTD_createDCtx, (void), (), NULL)                                                          \
    X(size_t, ZSTD_freeDCtx, (ZSTD_DCtx * dctx), (dctx), 0)                                                    \
    X(size_t, ZSTD_decompressStream, (ZSTD_DCtx * zds, ZSTD_outBuffer * output, ZSTD_inBuffer * input),        \
      (zds, output, input), ZSTD_FAILED)                                                                       \
    X(ZSTD_CCtx *, ZSTD_createCCtx, (void), (), NULL)                                                          \
    X(size_t, ZSTD_freeCCtx, (ZSTD_CCtx * cctx), (cctx), 0)                                                    \
    X(size_t, ZSTD_compressStream2,                                                                            \
      (ZSTD_CCtx * cctx, ZSTD_outBuffer * output, ZSTD_inBuffer * input, ZSTD_EndDirective endOp),             \
      (cctx, output, input, endOp), ZSTD_FAILED)

#define POINTER(ret, name, params, args, ...) __typeof__(name) *name;
static struct {
    ZSTD_FUNCTIONS(POINTER)
    int is_loaded;
    char error[256];
} zstd;

static pthread_once_t zstd_once = PTHREAD_ONCE_INIT;

#define RESOLVE(ret, name, params, args, ...) (zstd.name = (__typeof__(zstd.name))dlsym(handle, #name)) != NULL &&

static void load(void)
{
    void *handle = dlopen(FLOE_ZSTD_SONAME, RTLD_NOW | RTLD_LOCAL);

    if (handle == NULL) {
        snprintf(zstd.error, sizeof(zstd.error), "%s", dlerror());
        return;
    }
    if (!(ZSTD_FUNCTIONS(RESOLVE) 1)) {
        snprintf(zstd.error, sizeof(zstd.error), "%s lacks a function Floe calls: %s", FLOE_ZSTD_SONAME, dlerror());
        return;
    }
    zstd.is_loaded = 1;
}

int floe_zstd_load(void)
{
    pthread_once(&zstd_once, load);
    return zstd.is_loaded ? 0 : -1;
}

const char *floe_zstd_load_error(void)
{
    return floe_zstd_load() == 0 ? "" : zstd.error;
}

#define WRAP(ret, name, params, args, missing)                                                                 \
    ret name params                                                                                            \
    {                                                                                                          \
        return floe_zstd_load() == 0 ? zstd.name args : (ret)(missing);                                        \
    }
ZSTD_FUNCTIONS(WRAP)
