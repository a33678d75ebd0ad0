/*
 * Avro C, loaded when it is first called. Only manifest reading and writing (maintenance and
 * replication) use it, and libavro brings jansson, lzma, snappy and libstdc++ with it: linked
 * normally, every process would map them at start and pay for them in launch time and resident
 * memory while idle. So Floe does not link libavro. This file defines the Avro C functions the
 * Iceberg library calls, with their own names and prototypes (from <avro.h>, which checks them),
 * and each one forwards to libavro, opened with dlopen on the first call from any thread.
 *
 * Not for: anything else. The rest of the library keeps calling Avro C as written; a function it
 * starts to use must be added to AVRO_FUNCTIONS below, or the link fails with its name.
 *
 * Design notes:
 *  1. The executable does not export these names (it is not linked with -rdynamic), so libavro's
 *     own calls between its functions bind inside libavro, never back to these wrappers.
 *  2. When libavro cannot be opened, every call that creates an Avro object fails the way
 *     libavro reports failure (NULL or non-zero), and avro_strerror() says why, so the caller's
 *     usual error path reports "libavro.so.N: cannot open shared object file". Calls that take
 *     an object can then never be reached with a valid one; they fail the same way.
 *  3. libavro stays loaded for the life of the process (no dlclose): its objects may outlive any
 *     caller.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include <avro.h>

#include "iceberg/avro_load.h"

#ifndef FLOE_AVRO_SONAME
#error "FLOE_AVRO_SONAME names the libavro to open (CMakeLists.txt sets it)"
#endif

/* X(return type, name, parameters, arguments, result when libavro is missing) */
#define AVRO_FUNCTIONS(X)                                                                                      \
    X(avro_value_iface_t *, avro_generic_class_from_schema, (avro_schema_t schema), (schema), NULL)             \
    X(int, avro_generic_value_new, (avro_value_iface_t * iface, avro_value_t *dest), (iface, dest), EINVAL)     \
    X(avro_reader_t, avro_reader_memory, (const char *buf, int64_t len), (buf, len), NULL)                      \
    X(avro_writer_t, avro_writer_memory, (const char *buf, int64_t len), (buf, len), NULL)                      \
    X(avro_schema_t, avro_schema_array_items, (avro_schema_t array), (array), NULL)                             \
    X(int, avro_schema_decref, (avro_schema_t schema), (schema), 0)                                             \
    X(int, avro_schema_enum_number_of_symbols, (const avro_schema_t enump), (enump), -1)                        \
    X(int64_t, avro_schema_fixed_size, (const avro_schema_t fixed), (fixed), -1)                                \
    X(int, avro_schema_from_json_length, (const char *jsontext, size_t length, avro_schema_t *schema),          \
      (jsontext, length, schema), EINVAL)                                                                       \
    X(avro_schema_t, avro_schema_link_target, (avro_schema_t schema), (schema), NULL)                           \
    X(avro_schema_t, avro_schema_map_values, (avro_schema_t map), (map), NULL)                                  \
    X(avro_schema_t, avro_schema_record_field_get_by_index, (const avro_schema_t record, int index),            \
      (record, index), NULL)                                                                                    \
    X(size_t, avro_schema_record_size, (const avro_schema_t record), (record), 0)                               \
    X(avro_schema_t, avro_schema_union_branch, (avro_schema_t union_schema, int branch_index),                  \
      (union_schema, branch_index), NULL)                                                                       \
    X(size_t, avro_schema_union_size, (const avro_schema_t union_schema), (union_schema), 0)                    \
    X(int, avro_value_read, (avro_reader_t reader, avro_value_t *dest), (reader, dest), EINVAL)                 \
    X(int, avro_value_sizeof, (avro_value_t * src, size_t *size), (src, size), EINVAL)                          \
    X(int, avro_value_write, (avro_writer_t writer, avro_value_t *src), (writer, src), EINVAL)

/* Functions without a result, and avro_strerror, which reports a failed load itself. */
#define AVRO_PROCEDURES(X)                                                                                     \
    X(avro_reader_free, (avro_reader_t reader), (reader))                                                      \
    X(avro_writer_free, (avro_writer_t writer), (writer))                                                      \
    X(avro_value_decref, (avro_value_t * value), (value))

#define POINTER(ret, name, params, args, ...) __typeof__(name) *name;
#define PROCEDURE_POINTER(name, params, args) __typeof__(name) *name;
static struct {
    AVRO_FUNCTIONS(POINTER)
    AVRO_PROCEDURES(PROCEDURE_POINTER)
    __typeof__(avro_strerror) *avro_strerror;
    int is_loaded;
    char error[256];
} avro;

static pthread_once_t avro_once = PTHREAD_ONCE_INIT;

#define RESOLVE(name) (avro.name = (__typeof__(avro.name))dlsym(handle, #name)) != NULL &&
#define RESOLVE_FUNCTION(ret, name, params, args, ...) RESOLVE(name)
#define RESOLVE_PROCEDURE(name, params, args) RESOLVE(name)

static void load(void)
{
    void *handle = dlopen(FLOE_AVRO_SONAME, RTLD_NOW | RTLD_LOCAL);

    if (handle == NULL) {
        snprintf(avro.error, sizeof(avro.error), "%s", dlerror());
        return;
    }
    if (!(AVRO_FUNCTIONS(RESOLVE_FUNCTION) AVRO_PROCEDURES(RESOLVE_PROCEDURE) RESOLVE(avro_strerror) 1)) {
        snprintf(avro.error, sizeof(avro.error), "%s lacks a function Floe calls: %s", FLOE_AVRO_SONAME, dlerror());
        return;
    }
    avro.is_loaded = 1;
}

int floe_avro_load(void)
{
    pthread_once(&avro_once, load);
    return avro.is_loaded ? 0 : -1;
}

#define WRAP_FUNCTION(ret, name, params, args, missing)                                                        \
    ret name params                                                                                            \
    {                                                                                                          \
        return floe_avro_load() == 0 ? avro.name args : (ret)(missing);                                        \
    }
#define WRAP_PROCEDURE(name, params, args)                                                                     \
    void name params                                                                                           \
    {                                                                                                          \
        if (floe_avro_load() == 0)                                                                             \
            avro.name args;                                                                                    \
    }
AVRO_FUNCTIONS(WRAP_FUNCTION)
AVRO_PROCEDURES(WRAP_PROCEDURE)

const char *avro_strerror(void)
{
    return floe_avro_load() == 0 ? avro.avro_strerror() : avro.error;
}
