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
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <brotli/decode.h>

#include "iceberg/brotli_load.h"
#include "iceberg/lib_load.h"

#ifndef FLOE_BROTLI_SONAME
#error "FLOE_BROTLI_SONAME names the libbrotlidec to open (CMakeLists.txt sets it)"
#endif

/* X(return type, name, parameters, arguments, result when libbrotlidec is missing) */
#define BROTLI_FUNCTIONS(X)                                                                                    \
    X(BrotliDecoderResult, BrotliDecoderDecompress,                                                            \
      (size_t encoded_size, const uint8_t encoded_buffer[BROTLI_ARRAY_PARAM(encoded_size)],                    \
       size_t *decoded_size, uint8_t decoded_buffer[BROTLI_ARRAY_PARAM(*decoded_size)]),                       \
      (encoded_size, encoded_buffer, decoded_size, decoded_buffer), BROTLI_DECODER_RESULT_ERROR)

FLOE_LIB_LOAD_DEFINE(floe_brotli_load, floe_brotli_load_error, FLOE_BROTLI_SONAME, BROTLI_FUNCTIONS)
