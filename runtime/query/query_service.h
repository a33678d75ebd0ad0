/*
 * The shape of an awsQuery service's generated table (generated/<prefix>_operation_table.c):
 * what runtime/query/ needs to dispatch a request by its Action without ever naming an
 * operation. One floe_query_service_t per service, listed in generated/query_services.def.
 *
 * Not for handlers: they see their service's generated API and query_api.h only.
 */
#ifndef FLOE_QUERY_SERVICE_H
#define FLOE_QUERY_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http/codec.h"
#include "http/xml_writer.h"
#include "query/query_call.h"
#include "query/query_form.h"

/** One error of a service, indexed by its generated error enum. */
typedef struct floe_query_error_info {
    const char *code;     /* <Code> on the wire: the @awsQueryError code, else the shape name */
    int status;           /* HTTP status */
    bool is_server_fault; /* <Type>Receiver</Type>, else Sender */
} floe_query_error_info_t;

#define FLOE_QUERY_ERROR_BIT(e) (UINT64_C(1) << (e))

/** What --enforce-iam decides an operation's "<signing name>:<Action>" on (its overlay's "authorize"). */
typedef enum floe_query_authorize_kind {
    FLOE_QUERY_AUTHORIZE_NOT_EVALUATED, /* the service's overlay authorizes nothing (CloudFormation) */
    FLOE_QUERY_AUTHORIZE_FREE,          /* no permission needed (sts:GetCallerIdentity) */
    FLOE_QUERY_AUTHORIZE_HANDLER,       /* the handler decides (sts:AssumeRole and a role's trust policy) */
    FLOE_QUERY_AUTHORIZE_ANY,           /* "*": the action names no resource type */
    FLOE_QUERY_AUTHORIZE_ARN,           /* the ARN member `arn` gives */
    FLOE_QUERY_AUTHORIZE_USER,          /* the IAM user `name` names (absent: the caller) */
    FLOE_QUERY_AUTHORIZE_ROLE,          /* the IAM role `name` names */
    FLOE_QUERY_AUTHORIZE_POLICY,        /* the managed policy `arn` gives, or `path` and `name` make */
} floe_query_authorize_kind_t;

typedef struct floe_query_authorize {
    floe_query_authorize_kind_t kind;
    const char *name; /* form keys of the members naming the resource, or NULL */
    const char *arn;
    const char *path;
} floe_query_authorize_t;

typedef struct floe_query_operation {
    const char *name;             /* the Action */
    const char *response_element; /* "<name>Response" */
    const char *result_element;   /* "<name>Result", NULL when the output is Unit */
    floe_status_t status;
    uint64_t errors; /* FLOE_QUERY_ERROR_BIT of each error it may answer (modeled and common) */
    size_t request_size;
    size_t response_size;
    int (*parse)(floe_call_t *call, const floe_query_form_t *form, void *in, floe_violation_t *v);
    int (*validate)(const void *in, floe_violation_t *v);
    int (*handle)(floe_query_call_t *call, const void *in, void *out); /* NULL: not implemented */
    void (*serialize)(const void *out, floe_xml_t *w);                 /* NULL: Unit output */
    floe_query_authorize_t authorize;
} floe_query_operation_t;

typedef struct floe_query_service {
    const char *name;         /* the SDK's name for it: "CloudFormation", "STS" */
    const char *signing_name; /* SigV4 service name: requests signed for it are this service's */
    const char *version;      /* the API version ("2010-05-15") */
    const char *xmlns;        /* the namespace of its XML documents */
    const char *docs;         /* its capability docs, for messages */
    const floe_query_operation_t *operations;
    size_t n_operations;
    const floe_query_error_info_t *errors; /* indexed by the service's error enum */
    size_t n_errors;
    int validation_error; /* the enum value of ValidationError: violations and type errors */
    int internal_error;   /* the enum value of InternalFailure */
    int denied_error;     /* the enum value of AccessDenied: a refusal under --enforce-iam */
    int (*init)(void);    /* compiles the service's patterns now, not on first use; FLOE_OK or FLOE_EFAIL */
} floe_query_service_t;

#endif
