/*
 * JSON for Iceberg metadata with exact 64-bit integers. cJSON keeps numbers as doubles, which
 * cannot hold Iceberg's snapshot ids (random 63-bit longs): 3051729675574597004 would come back
 * as 3.0517296755745971e+18. Here an integer literal of magnitude 2^53 or more is kept as a
 * cJSON_Raw node holding its digits, and every integer is read and written through these helpers,
 * so ids survive a read-modify-write byte for byte. Smaller integers stay ordinary cJSON numbers.
 *
 * Also: typed member readers that report a one-sentence error, and a compact writer over
 * runtime/base/json.h. Not for Iceberg semantics (iceberg_metadata.h and friends).
 */
#ifndef FLOE_ICEBERG_JSON_H
#define FLOE_ICEBERG_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/json.h"
#include "iceberg/iceberg_error.h"

/** Deepest nesting accepted: the writer (json.h) tracks commas for FLOE_JSON_MAX_DEPTH levels. */
#define FLOE_ICEBERG_JSON_MAX_DEPTH (FLOE_JSON_MAX_DEPTH - 2)

/**
 * Parses `len` bytes of JSON text (one value, optional surrounding whitespace), keeping integers
 * exact as described above. Returns a tree the caller releases with cJSON_Delete, or NULL with err
 * set to FLOE_ICEBERG_EINVALID (malformed text, an integer outside int64, or nesting deeper than
 * FLOE_ICEBERG_JSON_MAX_DEPTH). Request bodies that carry snapshot ids must be parsed with this,
 * not cJSON_Parse: floe_iceberg_json_int64 refuses a double that has lost precision.
 */
cJSON *floe_iceberg_json_parse(const char *text, size_t len, floe_iceberg_error_t *err /* OUT */);

/**
 * Reads an integer: a cJSON number with an integral value below 2^53 in magnitude, or a Raw integer made by
 * floe_iceberg_json_parse. Returns 0 and sets *out, or -1 for anything else (including a double
 * of 2^53 or more, which can no longer be trusted to be the integer that was sent).
 */
int floe_iceberg_json_int64(const cJSON *item, int64_t *out /* OUT */);

/** A new integer node holding v exactly; the caller owns it (or hands it to a parent). */
cJSON *floe_iceberg_json_new_int(int64_t v);

/** Sets object[key] to `value` (ownership passes to object), replacing an existing member in
 * place so member order is kept, or appending. */
void floe_iceberg_json_set(cJSON *object, const char *key, cJSON *value);
/** floe_iceberg_json_set with an integer. */
void floe_iceberg_json_set_int(cJSON *object, const char *key, int64_t v);

/*
 * Member readers. `where` names the object in the message ("snapshot", "add-spec update"). Each
 * returns 0, or FLOE_ICEBERG_EINVALID with err set to "<where>: '<key>' is required" or
 * "<where>: '<key>' must be <kind>". The _opt forms return 0 and leave *out alone when the member
 * is missing or null.
 */
int floe_iceberg_json_get_int64(const cJSON *object, const char *key, const char *where, int64_t *out /* OUT */,
                                floe_iceberg_error_t *err /* OUT */);
int floe_iceberg_json_get_int32(const cJSON *object, const char *key, const char *where, int32_t *out /* OUT */,
                                floe_iceberg_error_t *err /* OUT */);
int floe_iceberg_json_get_opt_int64(const cJSON *object, const char *key, const char *where, int64_t *out /* OUT */,
                                    floe_iceberg_error_t *err /* OUT */);
int floe_iceberg_json_get_opt_int32(const cJSON *object, const char *key, const char *where, int32_t *out /* OUT */,
                                    floe_iceberg_error_t *err /* OUT */);
/** *out points into `object`; it lives as long as the object. */
int floe_iceberg_json_get_string(const cJSON *object, const char *key, const char *where, const char **out /* OUT */,
                                 floe_iceberg_error_t *err /* OUT */);
int floe_iceberg_json_get_bool(const cJSON *object, const char *key, const char *where, bool *out /* OUT */,
                               floe_iceberg_error_t *err /* OUT */);
/** *out points to the member (an array, or an object for _get_object) inside `object`. */
int floe_iceberg_json_get_array(const cJSON *object, const char *key, const char *where, const cJSON **out /* OUT */,
                                floe_iceberg_error_t *err /* OUT */);
int floe_iceberg_json_get_object(const cJSON *object, const char *key, const char *where, const cJSON **out /* OUT */,
                                 floe_iceberg_error_t *err /* OUT */);

/** Writes v as compact JSON into w, integers exact, members in the tree's order. */
void floe_iceberg_json_write(floe_json_t *w, const cJSON *v);

/** v as compact JSON text; malloc'ed, the caller frees. */
char *floe_iceberg_json_print(const cJSON *v);

#endif
