/*
 * The generic awsJson1_1 codec: reads a request body into an operation's typed input, checks the
 * model's constraints on it, and writes a typed output as JSON, all by walking the generated
 * shape descriptors (awsjson_service.h). The same few functions serve every operation of every
 * awsJson service, which is what keeps Glue's 265 operations out of generated C functions.
 *
 * Not for the envelope (X-Amz-Target, errors, request ids: awsjson.c) nor for handlers.
 */
#ifndef FLOE_AWSJSON_CODEC_H
#define FLOE_AWSJSON_CODEC_H

#include "awsjson/awsjson_service.h"
#include "base/json.h"

/** How a parse failed: the body is not the input's JSON, or a value breaks the model (an enum
 * value it lacks). */
typedef enum floe_awsjson_parse_rc {
    FLOE_AWSJSON_PARSED = 0,
    FLOE_AWSJSON_NOT_SHAPED = -1, /* a type error: SerializationException */
    FLOE_AWSJSON_INVALID = -2,    /* a constraint: ValidationException */
} floe_awsjson_parse_rc_t;

/**
 * Parses `body` (n bytes of JSON text; NULL or empty is `{}`) into `out`, a zeroed struct of
 * `shape` (a structure of the service `svc`), allocating everything from the call's pool. Members the model does not
 * name are ignored. Returns FLOE_AWSJSON_PARSED, or another rc with *v set.
 */
floe_awsjson_parse_rc_t floe_awsjson_parse(floe_call_t *call, const floe_awsjson_service_t *svc,
                                           const floe_awsjson_shape_t *shape, const char *body, size_t n, void *out,
                                           floe_violation_t *v);

/**
 * Checks the model's @required, @length, @range and @pattern on the parsed input `in` of
 * `shape`, stopping at the first violation (its path named as AWS names it, lowerCamel). A
 * pattern is compiled the first time a value meets it. Returns FLOE_OK, or FLOE_EFAIL with *v set.
 */
int floe_awsjson_validate(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape, const void *in,
                          floe_violation_t *v);

/** Writes `out`, a struct of `shape`, as one JSON object: present members only. */
void floe_awsjson_serialize(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape, const void *out,
                            floe_json_t *w);

/** `value`, a struct of shape index `shape`, as JSON text in the call's pool: what a store keeps
 * of a typed value (the generated floe_<prefix>_<Shape>_to_json). */
char *floe_awsjson_to_json(floe_call_t *call, const floe_awsjson_service_t *svc, uint32_t shape, const void *value);

/** Reads `json` (floe_awsjson_to_json's text) into `out`, a struct of shape index `shape`, zeroed
 * here, in the call's pool: FLOE_OK, or FLOE_EFAIL when the text is not that shape's. */
int floe_awsjson_from_json(floe_call_t *call, const floe_awsjson_service_t *svc, uint32_t shape, const char *json,
                           void *out);

/** Compiles every pattern of the service now (the tests' check that each one compiles; serving
 * compiles them on first use); FLOE_OK, or FLOE_EFAIL naming the one that fails. */
int floe_awsjson_compile(const floe_awsjson_service_t *svc);

#endif
