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
#include <lz4.h>

#include "iceberg/lib_load.h"
#include "iceberg/lz4_load.h"

#ifndef FLOE_LZ4_SONAME
#error "FLOE_LZ4_SONAME names the liblz4 to open (CMakeLists.txt sets it)"
#endif

/* X(return type, name, parameters, arguments, result when liblz4 is missing) */
#define LZ4_FUNCTIONS(X)                                                                                       \
    X(int, LZ4_decompress_safe, (const char *src, char *dst, int compressedSize, int dstCapacity),             \
      (src, dst, compressedSize, dstCapacity), -1)

FLOE_LIB_LOAD_DEFINE(floe_lz4_load, floe_lz4_load_error, FLOE_LZ4_SONAME, LZ4_FUNCTIONS)
