/*
 * Support the generated protocol layer is written against: the HTTP input a parser reads (path
 * labels, query pairs, body), member paths and constraint violations, typed JSON readers over
 * cJSON, readers of label and query text, UTF-8 and regular-expression helpers, and the shapes of
 * the generated operation and error tables.
 *
 * Not for handlers: they see typed structs only (floe_api.h). Not for HTTP parsing either: the
 * router fills floe_http_input_t from the raw request.
 */
#ifndef FLOE_HTTP_CODEC_H
#define FLOE_HTTP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <h2o/memory.h>

#include "base/json.h"
#include "floe_api.h"

typedef struct cJSON cJSON;

/** One decoded query pair. */
typedef struct floe_query_param {
    const char *key;
    const char *value;
} floe_query_param_t;

/** What a request parser reads: every string is percent-decoded and NUL-terminated. */
typedef struct floe_http_input {
    const char *const *labels; /* label values in URI-template order */
    size_t n_labels;
    const floe_query_param_t *query;
    size_t n_query;
    const char *body;          /* NULL or the request body, not NUL-terminated */
    size_t body_len;
} floe_http_input_t;

/** A member's path, built on the stack while walking a value: parent chain, name or index. */
typedef struct floe_path {
    const struct floe_path *parent;
    const char *name; /* NULL for a list element */
    long index;       /* list index, or -1 */
} floe_path_t;

#define FLOE_VIOLATION_MAX 512

/** The first constraint violation found, as the message a client sees. */
typedef struct floe_violation {
    char message[FLOE_VIOLATION_MAX];
} floe_violation_t;

/** Where an operation stands; the overlay is the one place this is written. */
typedef enum floe_status {
    FLOE_STATUS_NOT_IMPLEMENTED = 0,
    FLOE_STATUS_PARTIAL,
    FLOE_STATUS_IMPLEMENTED,
} floe_status_t;

#define FLOE_ERROR_BIT(e) (UINT32_C(1) << (e))

typedef struct floe_error_info {
    const char *name;
    int status;
    bool is_server_fault;
} floe_error_info_t;

typedef int (*floe_parse_fn)(floe_call_t *call, const floe_http_input_t *http, void *out, floe_violation_t *v);

typedef struct floe_operation_info {
    const char *name;
    floe_status_t status;
    int success_code;
    uint32_t errors; /* FLOE_ERROR_BIT of each error the model lists */
    size_t request_size;
    size_t response_size;
    int (*validate)(const void *in, floe_violation_t *v);
    int (*handle)(floe_call_t *call, const void *in, void *out); /* NULL: not implemented */
    void (*serialize)(const void *out, floe_json_t *w);          /* NULL: Unit output */
} floe_operation_info_t;

/* ---- violations ---- */

/** Sets the message "1 validation error detected: Value '<value>' at '<path>' failed to satisfy
 * constraint: <constraint>" (value NULL: "Value null"). */
void floe_violation_set(floe_violation_t *v, const floe_path_t *path, const char *value, const char *constraint);
/** As floe_violation_set, for a number. */
void floe_violation_set_int(floe_violation_t *v, const floe_path_t *path, int64_t value, const char *constraint);
/** Sets a type error: "<path> must be <expected>" (path NULL: "The request body"). */
void floe_violation_type(floe_violation_t *v, const floe_path_t *path, const char *expected);
/** Writes the dotted path ("a.b[2].c") into buf; returns buf. */
char *floe_path_format(const floe_path_t *path, char *buf, size_t size);

/* ---- query ---- */

/** The first value of `key`, or NULL. */
const char *floe_http_query_first(const floe_http_input_t *http, const char *key);
/** How many times `key` occurs. */
size_t floe_http_query_count(const floe_http_input_t *http, const char *key);
/** The i-th value of `key` (i < floe_http_query_count). */
const char *floe_http_query_nth(const floe_http_input_t *http, const char *key, size_t i);

/* ---- JSON readers: return 0, or -1 with *v set ---- */

/** Parses the body when there is one: *out is NULL for an empty body, else a cJSON value the
 * caller deletes. Malformed JSON is a violation. */
int floe_codec_body(const floe_http_input_t *http, cJSON **out, floe_violation_t *v);
/** True when the member is missing or JSON null. */
bool floe_codec_is_absent(const cJSON *item);
int floe_codec_expect_object(const cJSON *j, const floe_path_t *path, floe_violation_t *v);
int floe_codec_expect_array(const cJSON *j, const floe_path_t *path, floe_violation_t *v);
/** A string (or, for a document, any value as JSON text) copied into `pool`, the call's request pool. */
int floe_codec_string(h2o_mem_pool_t *pool, const cJSON *j, const floe_path_t *path, char **out, floe_violation_t *v);
int floe_codec_document(h2o_mem_pool_t *pool, const cJSON *j, const floe_path_t *path, char **out, floe_violation_t *v);
int floe_codec_int32(const cJSON *j, const floe_path_t *path, int32_t *out, floe_violation_t *v);
int floe_codec_int64(const cJSON *j, const floe_path_t *path, int64_t *out, floe_violation_t *v);
int floe_codec_bool(const cJSON *j, const floe_path_t *path, bool *out, floe_violation_t *v);
int floe_codec_timestamp(const cJSON *j, const floe_path_t *path, floe_timestamp_t *out, floe_violation_t *v);
/** Reads a JSON string that must be one of values[1..count]; *out is its index. A NULL entry is
 * a value this model version lacks (floe_<Enum>_wire_values), which no string matches. */
int floe_codec_enum(const cJSON *j, const floe_path_t *path, const char *const *values, int count,
                    const char *message, int *out, floe_violation_t *v);

/* ---- readers of label and query text ---- */
int floe_codec_text_string(h2o_mem_pool_t *pool, const char *text, const floe_path_t *path, char **out, floe_violation_t *v);
int floe_codec_text_int32(const char *text, const floe_path_t *path, int32_t *out, floe_violation_t *v);
int floe_codec_text_int64(const char *text, const floe_path_t *path, int64_t *out, floe_violation_t *v);
int floe_codec_text_bool(const char *text, const floe_path_t *path, bool *out, floe_violation_t *v);
int floe_codec_text_enum(const char *text, const floe_path_t *path, const char *const *values, int count,
                         const char *message, int *out, floe_violation_t *v);

/* ---- strings and patterns ---- */

/** Code points in a valid UTF-8 string. */
size_t floe_codec_utf8_length(const char *s);
/** True when the n bytes at s are valid UTF-8 with no NUL. */
bool floe_codec_utf8_valid(const char *s, size_t n);
/** Compiles an ECMA-262-style pattern (unanchored search, $ only at the very end); NULL on error.
 * The result lives for the process. */
void *floe_codec_regex_compile(const char *pattern);
/** Frees a pattern floe_codec_regex_compile made (NULL is fine). */
void floe_codec_regex_free(void *compiled);
/** True when the compiled pattern matches somewhere in s. */
bool floe_codec_regex_match(void *compiled, const char *s);

/** A pattern compiled on its first use, so that start-up compiles none: a generated validator
 * keeps a static array of them, each initialised with its source only. Shared by every thread. */
typedef struct floe_codec_pattern {
    const char *source;        /* as floe_codec_regex_compile takes it */
    void *_Atomic compiled;    /* NULL until the first use; then set once, never changed */
} floe_codec_pattern_t;

/** Compiles p now unless it already is (any thread may call it, and race another). FLOE_OK, or
 * FLOE_EFAIL (logged) when the source does not compile. */
int floe_codec_pattern_prepare(floe_codec_pattern_t *p);
/** True when p matches somewhere in s; compiles p first if no thread has yet. A pattern that does
 * not compile matches nothing. */
bool floe_codec_pattern_match(floe_codec_pattern_t *p, const char *s);
/** Frees this thread's match data; call before a thread that matched patterns exits. */
void floe_codec_thread_exit(void);

#endif
