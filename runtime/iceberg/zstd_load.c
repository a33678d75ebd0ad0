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
#include <zstd.h>

#include "iceberg/lib_load.h"
#include "iceberg/zstd_load.h"

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

FLOE_LIB_LOAD_DEFINE(floe_zstd_load, floe_zstd_load_error, FLOE_ZSTD_SONAME, ZSTD_FUNCTIONS)
