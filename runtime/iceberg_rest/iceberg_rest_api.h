/*
 * What the Iceberg REST catalog's handlers (handlers/iceberg_rest/iceberg_*.c) are written against: the call
 * context, the error types of the spec, each served operation's typed input (`floe_iceberg_<op>_in`)
 * and each response schema's typed output (`floe_iceberg_<Schema>`, named as in the OpenAPI spec),
 * and the prototypes of the handlers the generated route table (generated/iceberg_routes.def)
 * names. This is the REST catalog's floe_api.h.
 *
 * Not for JSON: the runtime parses request bodies (iceberg_rest_request.h) and writes responses
 * (iceberg_rest_response.h). The parts of a body that are Iceberg metadata (a CreateTableRequest, a
 * commit's requirements and updates) reach handlers as opaque `const cJSON *` that they hand to the
 * Iceberg module (iceberg_create.h, iceberg_commit.h) without looking inside.
 *
 * Ownership: everything in an input is borrowed for the call; a handler builds its output from the
 * call's pool (floe_call_alloc on &call->super) or hands malloc'ed text to floe_iceberg_call_keep.
 */
#ifndef FLOE_ICEBERG_REST_API_H
#define FLOE_ICEBERG_REST_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call/call.h"

typedef struct cJSON cJSON;
struct floe_query_param;

/* ---- errors: the spec's `{"error": {"message", "type", "code"}}` ---- */

/** The error types Floe answers with; the name is the wire `type`, the table in
 * iceberg_rest_error.c gives the status. */
typedef enum floe_iceberg_err {
    FLOE_ICEBERG_ERR_NONE = 0,
    FLOE_ICEBERG_ERR_NotModified, /* 304, without a body: If-None-Match names the current version (not an
                                     error, but the one answer besides its success code a handler gives) */
    FLOE_ICEBERG_ERR_BadRequestException,           /* 400 */
    FLOE_ICEBERG_ERR_StageCreate,                   /* 400 `stage_create`: AWS's refusal of a staged create */
    FLOE_ICEBERG_ERR_NotAuthorizedException,        /* 403: a signature that does not verify */
    FLOE_ICEBERG_ERR_ForbiddenException,            /* 403: --enforce-iam refused the caller */
    FLOE_ICEBERG_ERR_NoSuchWarehouseException,      /* 404: the prefix names no table bucket */
    FLOE_ICEBERG_ERR_NoSuchNamespaceException,      /* 404 */
    FLOE_ICEBERG_ERR_NoSuchTableException,          /* 404 */
    FLOE_ICEBERG_ERR_NotFoundException,             /* 404: no route */
    FLOE_ICEBERG_ERR_MethodNotAllowedException,     /* 405 */
    FLOE_ICEBERG_ERR_AlreadyExistsException,        /* 409 */
    FLOE_ICEBERG_ERR_NamespaceNotEmptyException,    /* 409 */
    FLOE_ICEBERG_ERR_CommitFailedException,         /* 409 */
    FLOE_ICEBERG_ERR_UnprocessableEntityException,  /* 422 */
    FLOE_ICEBERG_ERR_InternalServerError,           /* 500 */
    FLOE_ICEBERG_ERR_UnsupportedOperationException, /* 501 */
    FLOE_ICEBERG_ERR__COUNT
} floe_iceberg_err_t;

/* ---- the call ---- */

/** One REST catalog call. `super` is the S3 Tables call context, so the shared helpers
 * (lookup.h, table.h, store.h) work unchanged; errors they record there are translated by the
 * handler into one of the types above. */
typedef struct floe_iceberg_call {
    floe_call_t super;
    floe_iceberg_err_t error; /* set by floe_iceberg_call_fail */
    const char *error_message;
    const char *s3_endpoint; /* "http://<host the request came to>": where clients reach Floe's S3 */
    const char *etag;        /* set by a handler: the ETag header of its answer (200 or 304) */
    /* The AWS Glue Iceberg REST endpoint (signed for glue): the runtime has already turned the
     * catalog the path or ?warehouse= names into the table bucket ARN handlers see as `warehouse`.
     * glue_prefix is the prefix GET /v1/config answers ("catalogs/<account>:s3tablescatalog:<bucket>"),
     * NULL when no warehouse was named. */
    bool is_glue;
    const char *glue_prefix;
} floe_iceberg_call_t;

/** Records that the call fails with `error` and a message; returns FLOE_EFAIL for `return`. */
int floe_iceberg_call_fail(floe_iceberg_call_t *call, floe_iceberg_err_t error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** Logs `context` and fails the call with a 500. */
int floe_iceberg_call_fail_internal(floe_iceberg_call_t *call, const char *context);

/** Takes ownership of `malloced` (freed when the call ends) and returns it, so a handler can put
 * text from the Iceberg module or the store into its output without copying it. */
void *floe_iceberg_call_keep(floe_iceberg_call_t *call, void *malloced);

/** The endpoints GET /v1/config advertises ("GET /v1/{prefix}/namespaces", ...): every served route
 * under the prefix, from the generated route table. Static storage. */
const char *const *floe_iceberg_rest_endpoints(size_t *n /* OUT */);

/** `value` percent-encoded as one path segment (an ARN becomes the {prefix} clients send:
 * "arn%3Aaws%3As3tables%3A...%3Abucket%2Fname"), in the call's pool. */
char *floe_iceberg_rest_encode_segment(floe_call_t *call, const char *value);

/* ---- shared input and output pieces ---- */

/** A string-to-string map (namespace properties, config), in the pool. */
typedef struct floe_iceberg_properties {
    size_t n;
    const char **keys;
    const char **values;
} floe_iceberg_properties_t;

/** A list of strings, in the pool. */
typedef struct floe_iceberg_strings {
    size_t n;
    const char **items;
} floe_iceberg_strings_t;

/** A TableIdentifier: S3 Tables has one namespace level, so a namespace is one name. */
typedef struct floe_iceberg_identifier {
    const char *namespace;
    const char *name;
} floe_iceberg_identifier_t;

/** A page request: paginate only when the client sent pageToken (the spec's rule). */
typedef struct floe_iceberg_page {
    bool has_token;
    const char *token; /* "" starts the listing */
    int size;          /* pageSize, or the default */
} floe_iceberg_page_t;

/** A namespace named by the path: /v1/{prefix}/namespaces/{namespace}. */
typedef struct floe_iceberg_namespace_ref {
    const char *warehouse; /* the decoded prefix: a table bucket ARN */
    const char *namespace;
} floe_iceberg_namespace_ref_t;

/** A table named by the path: /v1/{prefix}/namespaces/{namespace}/tables/{table}. */
typedef struct floe_iceberg_table_ref {
    const char *warehouse;
    const char *namespace;
    const char *table;
} floe_iceberg_table_ref_t;

/** One table's CommitTableRequest, with the facts a handler needs pulled out of the updates. */
typedef struct floe_iceberg_table_change {
    bool has_identifier;
    floe_iceberg_identifier_t identifier; /* required in a transaction */
    const cJSON *requirements;            /* for floe_iceberg_commit */
    const cJSON *updates;
    bool asserts_create;       /* an assert-create requirement: a create transaction */
    const char *assigned_uuid; /* the last assign-uuid update's uuid, or NULL */
    const char *new_location;  /* the last set-location update's location, or NULL */
} floe_iceberg_table_change_t;

/* ---- inputs, one per served operation ---- */

typedef struct floe_iceberg_getConfig_in {
    const char *warehouse; /* ?warehouse=, NULL when absent */
} floe_iceberg_getConfig_in;

typedef struct floe_iceberg_listNamespaces_in {
    const char *warehouse;
    const char *parent; /* NULL when absent or empty */
    floe_iceberg_page_t page;
} floe_iceberg_listNamespaces_in;

typedef struct floe_iceberg_createNamespace_in {
    const char *warehouse;
    const char *namespace;
    floe_iceberg_properties_t properties;
} floe_iceberg_createNamespace_in;

typedef floe_iceberg_namespace_ref_t floe_iceberg_loadNamespaceMetadata_in;
typedef floe_iceberg_namespace_ref_t floe_iceberg_namespaceExists_in;
typedef floe_iceberg_namespace_ref_t floe_iceberg_dropNamespace_in;

typedef struct floe_iceberg_updateProperties_in {
    floe_iceberg_namespace_ref_t ns;
    floe_iceberg_strings_t removals;
    floe_iceberg_properties_t updates;
} floe_iceberg_updateProperties_in;

typedef struct floe_iceberg_listTables_in {
    floe_iceberg_namespace_ref_t ns;
    floe_iceberg_page_t page;
} floe_iceberg_listTables_in;

typedef struct floe_iceberg_createTable_in {
    floe_iceberg_namespace_ref_t ns;
    const char *name;
    const char *location; /* the client's, or NULL */
    bool stage_create;
    const cJSON *request; /* the whole CreateTableRequest, for floe_iceberg_metadata_create_from_request */
} floe_iceberg_createTable_in;

typedef struct floe_iceberg_loadTable_in {
    floe_iceberg_table_ref_t table;
    const char *if_none_match; /* the If-None-Match header, or NULL */
} floe_iceberg_loadTable_in;
typedef floe_iceberg_table_ref_t floe_iceberg_tableExists_in;
typedef floe_iceberg_table_ref_t floe_iceberg_reportMetrics_in;

typedef struct floe_iceberg_dropTable_in {
    floe_iceberg_table_ref_t table;
    bool purge_requested;
} floe_iceberg_dropTable_in;

typedef struct floe_iceberg_updateTable_in {
    floe_iceberg_table_ref_t table;
    floe_iceberg_table_change_t change;
} floe_iceberg_updateTable_in;

typedef struct floe_iceberg_renameTable_in {
    const char *warehouse;
    floe_iceberg_identifier_t source;
    floe_iceberg_identifier_t destination;
} floe_iceberg_renameTable_in;

typedef struct floe_iceberg_commitTransaction_in {
    const char *warehouse;
    size_t n_changes;
    floe_iceberg_table_change_t *changes;
} floe_iceberg_commitTransaction_in;

/* ---- outputs, named after the spec's response schemas ---- */

typedef struct floe_iceberg_NoContent {
    char unused;
} floe_iceberg_NoContent;

typedef struct floe_iceberg_CatalogConfig {
    floe_iceberg_properties_t defaults;
    floe_iceberg_properties_t overrides;
    const char *const *endpoints; /* floe_iceberg_rest_endpoints() */
    size_t n_endpoints;
} floe_iceberg_CatalogConfig;

typedef struct floe_iceberg_ListNamespacesResponse {
    floe_iceberg_strings_t namespaces; /* one-level namespaces */
    const char *next_page_token;       /* NULL: the last page (written as null when paginating) */
    bool is_paginated;
} floe_iceberg_ListNamespacesResponse;

typedef struct floe_iceberg_CreateNamespaceResponse {
    const char *namespace;
    floe_iceberg_properties_t properties;
} floe_iceberg_CreateNamespaceResponse;

typedef floe_iceberg_CreateNamespaceResponse floe_iceberg_GetNamespaceResponse;

typedef struct floe_iceberg_UpdateNamespacePropertiesResponse {
    floe_iceberg_strings_t updated;
    floe_iceberg_strings_t removed;
    floe_iceberg_strings_t missing; /* always written, [] when none */
} floe_iceberg_UpdateNamespacePropertiesResponse;

typedef struct floe_iceberg_ListTablesResponse {
    size_t n;
    floe_iceberg_identifier_t *identifiers;
    const char *next_page_token;
    bool is_paginated;
} floe_iceberg_ListTablesResponse;

typedef struct floe_iceberg_LoadTableResult {
    const char *metadata_location; /* NULL for a staged create */
    const char *metadata_json;     /* metadata.json text, written verbatim */
    floe_iceberg_properties_t config;
} floe_iceberg_LoadTableResult;

typedef struct floe_iceberg_CommitTableResponse {
    const char *metadata_location;
    const char *metadata_json;
} floe_iceberg_CommitTableResponse;

/* ---- what the runtime reads for a parser: decoded path labels, query pairs, the body ---- */

typedef struct floe_iceberg_input {
    const char *prefix;    /* decoded {prefix}, or NULL on /v1/config */
    const char *namespace; /* decoded {namespace} (one level), or NULL */
    const char *table;     /* decoded {table}, or NULL */
    const struct floe_query_param *query; /* codec.h */
    size_t n_query;
    const cJSON *body; /* parsed with floe_iceberg_json_parse; NULL when the request has none */
    const char *if_none_match; /* the If-None-Match header, or NULL */
} floe_iceberg_input_t;

/* ---- prototypes of every served operation's handler, from the route table ---- */

#define FLOE_ICEBERG_ROUTE(op, method, path, code, response, statuses, parse, handle)                          \
    int handle(floe_iceberg_call_t *call, const floe_iceberg_##op##_in *in, floe_iceberg_##response *out /* OUT */);
#include "iceberg_routes.def"

#endif
