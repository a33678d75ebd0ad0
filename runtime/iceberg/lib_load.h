/*
 * Loading a shared library on its first call: one definition that zstd_load.c, lz4_load.c and
 * brotli_load.c each expand over their library's function list, so an idle process never maps a
 * codec library only compaction needs (docs/benchmarks.md). A file lists its functions as
 *
 *     X(return type, name, parameters, arguments, result when the library is missing)
 *
 * and FLOE_LIB_LOAD_DEFINE then defines, in that file:
 *  - each listed function under its own name and prototype (the library's header, included first,
 *    checks them), forwarding to the library opened with dlopen on the first call from any thread,
 *    or giving the listed "missing" result (the library's own way of failing) when it cannot be;
 *  - load_fn (int (void): 0, or -1 when the library cannot be opened) and error_fn (const char
 *    *(void): why not, "" when it was), which callers use to report the reason.
 * The library stays loaded for the life of the process (no dlclose), and a function Floe starts
 * to use must be listed, or the link fails with its name.
 *
 * Not for: libavro (avro_load.c), whose void functions and own error reporting need their own
 * wrappers.
 */
#ifndef FLOE_ICEBERG_LIB_LOAD_H
#define FLOE_ICEBERG_LIB_LOAD_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define FLOE_LIB_POINTER(ret, name, params, args, ...) __typeof__(name) *name;
#define FLOE_LIB_RESOLVE(ret, name, params, args, ...)                                                         \
    (floe_lib.name = (__typeof__(floe_lib.name))dlsym(handle, #name)) != NULL &&
#define FLOE_LIB_WRAP(ret, name, params, args, missing)                                                        \
    ret name params                                                                                            \
    {                                                                                                          \
        return floe_lib_loaded() == 0 ? floe_lib.name args : (ret)(missing);                                   \
    }

#define FLOE_LIB_LOAD_DEFINE(load_fn, error_fn, soname, FUNCTIONS)                                             \
    static struct {                                                                                            \
        FUNCTIONS(FLOE_LIB_POINTER)                                                                            \
        int is_loaded;                                                                                         \
        char error[256];                                                                                       \
    } floe_lib;                                                                                                \
    static pthread_once_t floe_lib_once = PTHREAD_ONCE_INIT;                                                   \
    static void floe_lib_open(void)                                                                            \
    {                                                                                                          \
        void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);                                                  \
        if (handle == NULL) {                                                                                  \
            snprintf(floe_lib.error, sizeof(floe_lib.error), "%s", dlerror());                                 \
            return;                                                                                            \
        }                                                                                                      \
        if (!(FUNCTIONS(FLOE_LIB_RESOLVE) 1)) {                                                                \
            snprintf(floe_lib.error, sizeof(floe_lib.error), "%s lacks a function Floe calls: %s", soname,     \
                     dlerror());                                                                               \
            return;                                                                                            \
        }                                                                                                      \
        floe_lib.is_loaded = 1;                                                                                \
    }                                                                                                          \
    static int floe_lib_loaded(void)                                                                           \
    {                                                                                                          \
        pthread_once(&floe_lib_once, floe_lib_open);                                                           \
        return floe_lib.is_loaded ? 0 : -1;                                                                    \
    }                                                                                                          \
    int load_fn(void)                                                                                          \
    {                                                                                                          \
        return floe_lib_loaded();                                                                              \
    }                                                                                                          \
    const char *error_fn(void)                                                                                 \
    {                                                                                                          \
        return floe_lib_loaded() == 0 ? "" : floe_lib.error;                                                   \
    }                                                                                                          \
    FUNCTIONS(FLOE_LIB_WRAP)

#endif
