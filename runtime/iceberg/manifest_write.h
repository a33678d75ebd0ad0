/*
 * What the manifest and manifest-list writers share: setting fields of Avro C records (with the
 * ["null", T] unions Floe writes) and encoding a whole file (schema, header, datums, deflate).
 * Internal to runtime/iceberg/manifest_*.c; callers use manifest.h.
 */
#ifndef FLOE_ICEBERG_MANIFEST_WRITE_H
#define FLOE_ICEBERG_MANIFEST_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avro.h>

#include "iceberg/avro_container.h"
#include "iceberg/manifest.h"

/** Room for the header entries of a manifest or manifest list, avro.schema and avro.codec included. */
#define FLOE_ICEBERG_MANIFEST_META_MAX 8

/** Sets record `value` from the i-th item of arg; returns 0 or -1 with a reason in err. */
typedef int (*floe_manifest_set_fn)(avro_value_t *value, const void *arg, size_t i, char *err, size_t err_size);

/** Field setters: 0, or -1 when the record has no such field or the value does not fit it. The
 * optional ones write the null branch when `has` is false. */
int floe_manifest_set_null_field(avro_value_t *rec, const char *name);
/** Selects the value branch of optional field `name`; *value is the branch to fill. */
int floe_manifest_set_opt_field(avro_value_t *rec, const char *name, avro_value_t *value /* OUT */);
int floe_manifest_set_int_field(avro_value_t *rec, const char *name, int32_t v);
int floe_manifest_set_long_field(avro_value_t *rec, const char *name, int64_t v);
int floe_manifest_set_string_field(avro_value_t *rec, const char *name, const char *s);
int floe_manifest_set_opt_long_field(avro_value_t *rec, const char *name, bool has, int64_t v);
int floe_manifest_set_opt_int_field(avro_value_t *rec, const char *name, bool has, int32_t v);
int floe_manifest_set_opt_bytes_field(avro_value_t *rec, const char *name, bool has, floe_iceberg_bytes_t v);

/**
 * Encodes n records of `schema_json`, each filled by set(value, arg, i), into datums; offsets
 * (n + 1 entries) receives where each starts and the end. Returns 0 or -1 ("entry I: reason").
 */
int floe_manifest_encode_all(const char *schema_json, size_t n, floe_manifest_set_fn set, const void *arg,
                         floe_avro_buf_t *datums, size_t *offsets, char *err, size_t err_size);

/**
 * A whole deflated container of n records: `meta` (n_meta entries, room for two more) gets
 * avro.schema and avro.codec appended. Returns 0 with *out malloc'd (caller frees), or -1.
 */
int floe_manifest_write_file(const char *schema_json, floe_avro_meta_t *meta, size_t n_meta, size_t n, floe_manifest_set_fn set,
                         const void *arg, uint8_t **out /* OUT */, size_t *out_len /* OUT */, char *err, size_t err_size);

#endif
