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
    int (*init)(void);    /* compiles the service's patterns now, not on first use; FLOE_OK or FLOE_EFAIL */
} floe_query_service_t;

#endif
