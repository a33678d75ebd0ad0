/*
 * Readers of form values the shared text readers (codec.h: strings, integers, booleans, enums)
 * do not cover, for the generated awsQuery parsers: timestamps (ISO 8601, as botocore's
 * QuerySerializer writes them) and doubles. Each returns 0, or -1 with *v set to a type error
 * naming the member's path.
 */
#ifndef FLOE_QUERY_TEXT_H
#define FLOE_QUERY_TEXT_H

#include "http/codec.h"

/** "2024-01-02T03:04:05Z", with optional fractional seconds and a "+hh:mm" offset instead of Z;
 * also whole or fractional epoch seconds ("1704164645.5"). *out is milliseconds since the epoch. */
int floe_query_text_timestamp(const char *text, const floe_path_t *path, floe_timestamp_t *out, floe_violation_t *v);

/** A decimal number ("0.5", "-1e3"), or NaN, Infinity, -Infinity (Smithy's spelling). */
int floe_query_text_double(const char *text, const floe_path_t *path, double *out, floe_violation_t *v);

#endif
