/*
 * The shape of an awsJson1_1 service's generated tables (generated/<prefix>_tables.c): one
 * descriptor per shape an operation reaches, the service's errors and its operations. The
 * runtime's generic codec (awsjson_codec.h) walks these descriptors to parse a request into the
 * handler's typed struct, check the model's constraints and write the typed answer as JSON, so
 * no per-shape function is generated. One floe_awsjson_service_t per service, listed in
 * generated/awsjson_services.def.
 *
 * Layout the descriptors describe (the generated <prefix>_api.h declares the same types):
 *  - a structure or union is a C struct of `size` bytes; member i sits at members[i].offset;
 *  - strings, blobs (base64 text) and documents (JSON text) are `char *`, NULL when absent;
 *  - structures, unions, lists and maps are pointers when they are members, NULL when absent;
 *  - an enum is an int (0 absent, i for values[i]);
 *  - a number, boolean or timestamp without a default has a `bool` presence flag at has_offset;
 *  - a list is {size_t n; T *items;} and a map {size_t n; char **keys; T *values;}, where T is a
 *    structure or union by value, a list or map by pointer, a scalar as above.
 *
 * Not for handlers: they see their service's generated API and awsjson_api.h only.
 */
#ifndef FLOE_AWSJSON_SERVICE_H
#define FLOE_AWSJSON_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "awsjson/awsjson_call.h"
#include "base/failure.h"
#include "http/codec.h"

typedef enum floe_awsjson_kind {
    FLOE_AWSJSON_STRING,
    FLOE_AWSJSON_ENUM,
    FLOE_AWSJSON_BOOLEAN,
    FLOE_AWSJSON_INTEGER,
    FLOE_AWSJSON_LONG,
    FLOE_AWSJSON_DOUBLE,
    FLOE_AWSJSON_TIMESTAMP,
    FLOE_AWSJSON_BLOB,
    FLOE_AWSJSON_DOCUMENT,
    FLOE_AWSJSON_STRUCTURE,
    FLOE_AWSJSON_UNION,
    FLOE_AWSJSON_LIST,
    FLOE_AWSJSON_MAP,
} floe_awsjson_kind_t;

/* floe_awsjson_member_t.flags */
#define FLOE_AWSJSON_REQUIRED 1u  /* @required */
#define FLOE_AWSJSON_DATE_TIME 2u /* @timestampFormat("date-time"): RFC 3339 text, not epoch seconds */

#define FLOE_AWSJSON_NO_FLAG (-1)
#define FLOE_AWSJSON_NO_PATTERN (-1)
#define FLOE_AWSJSON_NO_NAME UINT32_MAX /* a list item or map key or value */

/** A structure's or union's member, a list's item, or a map's key ([0]) and value ([1]). */
typedef struct floe_awsjson_member {
    uint32_t name;      /* the JSON key (structures and unions): an offset in the service's names */
    uint32_t target;    /* the member's shape: an index in the service's shapes */
    uint32_t offset;    /* of the field in its structure */
    int32_t has_offset; /* of its presence flag, or FLOE_AWSJSON_NO_FLAG */
    uint32_t flags;     /* FLOE_AWSJSON_REQUIRED, FLOE_AWSJSON_DATE_TIME */
} floe_awsjson_member_t;

/* Tables hold indices and offsets, never pointers: a pointer in a position-independent binary is
 * a relocation the loader applies at every start, and Glue's 1,630 shapes would make the loader
 * write (and keep resident) a third of a MiB of tables an idle server never reads. */
typedef struct floe_awsjson_shape {
    uint32_t name; /* the model's name, for messages: an offset in the service's names */
    uint8_t kind;  /* floe_awsjson_kind_t */
    bool has_constraint;
    int16_t pattern; /* index into the service's patterns, or FLOE_AWSJSON_NO_PATTERN */
    uint32_t size;   /* sizeof the C struct (structures and unions) */
    uint32_t n_members;
    uint32_t members; /* index of the first in the service's members */
    uint32_t n_values;
    uint32_t values;  /* an enum's wire values: index of the first in the service's values */
    int64_t min, max; /* @length (code points, or items) or @range; INT64_MIN/MAX when unbounded */
} floe_awsjson_shape_t;

/** One error of a service, indexed by its generated error enum. */
typedef struct floe_awsjson_error_info {
    const char *name; /* `__type` on the wire */
    int status;
    bool is_server_fault;
    const char *message_key; /* the JSON key of its message, as the model spells it ("Message") */
    const char *detail_key;  /* its one other string member (Athena's AthenaErrorCode), or NULL */
} floe_awsjson_error_info_t;

/* floe_awsjson_rest_param_t.location: where a REST-JSON input member travels (else the body) */
#define FLOE_AWSJSON_IN_URI 1u   /* a {label} of the URI template, percent-encoded */
#define FLOE_AWSJSON_IN_QUERY 2u /* a query string parameter (repeated for a list) */

/** An input member a REST-JSON request carries outside its body. */
typedef struct floe_awsjson_rest_param {
    uint32_t member;   /* index among the input structure's members */
    uint32_t location; /* FLOE_AWSJSON_IN_URI or FLOE_AWSJSON_IN_QUERY */
    uint32_t wire;     /* the label or query parameter name: an offset in the service's names */
} floe_awsjson_rest_param_t;

/** An operation's REST-JSON route (from botocore's binding), or method == FLOE_AWSJSON_NO_NAME. */
typedef struct floe_awsjson_rest_route {
    uint32_t method;   /* "GET", "POST", ...: an offset in the service's names */
    uint32_t uri;      /* "/workgroups/{WorkGroup}": an offset in the service's names */
    uint32_t n_params;
    uint32_t params;   /* index of the first in the service's rest_params */
} floe_awsjson_rest_route_t;

#define FLOE_AWSJSON_ERROR_BIT(e) (UINT64_C(1) << (e))

/** What --enforce-iam decides an operation's "<signing name>:<Operation>" on (its overlay's "authorize"). */
typedef enum floe_awsjson_authorize_kind {
    FLOE_AWSJSON_AUTHORIZE_CATALOG,       /* the account's catalog, arn:aws:<svc>:<r>:<account>:catalog (Glue) */
    FLOE_AWSJSON_AUTHORIZE_NOT_EVALUATED, /* not decided: an operation Floe does not serve (answered 501) */
    FLOE_AWSJSON_AUTHORIZE_ANY,           /* "*": the action names no resource type */
    FLOE_AWSJSON_AUTHORIZE_NAMED,         /* <type>/<the member's value, else the rule's fallback> */
    FLOE_AWSJSON_AUTHORIZE_OWNER,         /* <type>/<what `owner` answers for the member's id, or each id of a list> */
} floe_awsjson_authorize_kind_t;

/**
 * The name of the resource that holds the stored object `id` (Athena: a query's workgroup), in the
 * call's pool: FLOE_OK with *found false when no such object exists (the handler answers that).
 */
typedef int (*floe_awsjson_owner_fn)(floe_awsjson_call_t *call, const char *id, bool *found /* OUT */, const char **name /* OUT */);

#define FLOE_AWSJSON_MAX_LEVELS 2

/** An operation's resource under --enforce-iam: arn:aws:<signing name>:<region>:<account>:<type>/<name>. */
typedef struct floe_awsjson_authorize {
    uint32_t kind;     /* floe_awsjson_authorize_kind_t */
    uint32_t type;     /* the ARN's resource type ("workgroup"): an offset in the service's names */
    uint32_t member;   /* index among the input's members of the one naming the resource, or FLOE_AWSJSON_NO_NAME */
    uint32_t fallback; /* the name when the request leaves the member out ("primary"), or FLOE_AWSJSON_NO_NAME */
    floe_awsjson_owner_fn owner; /* FLOE_AWSJSON_AUTHORIZE_OWNER */
    /* CATALOG: the resources under the account's catalog decided after it, in order, when the
     * request names that catalog (no CatalogId, or an account's id): templates such as
     * "table/{DatabaseName}/{TableInput.Name}" (offsets in the service's names; FLOE_AWSJSON_NO_NAME
     * ends them), each {path} an input string member, nested with dots, in lower case as Glue keeps
     * names; a level whose member is absent is skipped. The overlay's "authorizeLevels". */
    uint32_t levels[FLOE_AWSJSON_MAX_LEVELS];
} floe_awsjson_authorize_t;

typedef struct floe_awsjson_operation {
    uint32_t name; /* after the target prefix in X-Amz-Target: an offset in the service's names */
    floe_status_t status;
    uint64_t errors; /* FLOE_AWSJSON_ERROR_BIT of each error it may answer (modeled and common) */
    uint32_t input;  /* shape indices */
    uint32_t output;
    int (*handle)(floe_awsjson_call_t *call, const void *in, void *out); /* NULL: not implemented */
    floe_awsjson_rest_route_t rest; /* its REST-JSON binding, when the service has one */
    floe_awsjson_authorize_t authorize;
} floe_awsjson_operation_t;

typedef struct floe_awsjson_service {
    const char *name;          /* the SDK's name for it: "Glue" */
    const char *signing_name;  /* SigV4 service name: requests signed for it are this service's */
    const char *target_prefix; /* X-Amz-Target is "<target_prefix>.<Operation>": the service shape's name */
    const char *docs;          /* its capability docs, for messages */
    const floe_awsjson_operation_t *operations; /* sorted by name */
    size_t n_operations;
    const floe_awsjson_shape_t *shapes;
    const floe_awsjson_member_t *members;
    const uint32_t *values; /* enum wire values, as offsets in names */
    const char *names;      /* every name and enum value, NUL-separated */
    const floe_awsjson_rest_param_t *rest_params; /* NULL: the service has no REST-JSON binding */
    const floe_awsjson_error_info_t *errors; /* indexed by the service's error enum */
    size_t n_errors;
    int validation_error;    /* answers a constraint violation */
    const char *validation_detail; /* and the detail member it carries (Athena: INVALID_INPUT), or NULL */
    int serialization_error; /* answers a body that is not the input's JSON */
    int internal_error;      /* answers a failure inside */
    /* What a failure recorded on the shared call answers, by its house code (the overlay's
     * "failures"); -1: internal_error. */
    int not_found_error; /* FLOE_ENOTFOUND */
    int exists_error;    /* FLOE_EEXISTS, FLOE_EINUSE, FLOE_ECHANGED, FLOE_ESTATE */
    int invalid_error;   /* FLOE_EINVAL */
    int denied_error;    /* FLOE_EDENIED, FLOE_EREADONLY, and --enforce-iam's refusals */
    int denied_status;   /* without denied_error, the status of a refusal's common AccessDeniedException */
    /* How the service words a miss of a subject the failure names, "{name}" standing for the name
     * (the overlay's "notFoundMessages"); NULL: the failure's own message. */
    const char *not_found_messages[FLOE_SUBJECT__COUNT];
    const char *const *patterns; /* the model's @pattern expressions */
    size_t n_patterns;
    void **compiled; /* n_patterns compiled patterns, each filled on first use (atomically) */
} floe_awsjson_service_t;

/** The shape of index i. */
static inline const floe_awsjson_shape_t *floe_awsjson_shape(const floe_awsjson_service_t *svc, uint32_t i)
{
    return &svc->shapes[i];
}

/** Member i of shape s. */
static inline const floe_awsjson_member_t *floe_awsjson_member(const floe_awsjson_service_t *svc,
                                                               const floe_awsjson_shape_t *s, uint32_t i)
{
    return &svc->members[s->members + i];
}

/** The text at offset `name` of the service's names. */
static inline const char *floe_awsjson_name(const floe_awsjson_service_t *svc, uint32_t name)
{
    return svc->names + name;
}

/** Enum shape s's wire value i (1..n_values). */
static inline const char *floe_awsjson_value(const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *s,
                                             uint32_t i)
{
    return svc->names + svc->values[s->values + i - 1];
}

#endif
