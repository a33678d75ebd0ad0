/*
 * The error table and error responses of iceberg_rest_error.h. Types and statuses follow the
 * spec's examples (components/examples: NoSuchTableError, NamespaceNotEmptyError, ...); the spec
 * has no example for an unserved operation, so 501 carries UnsupportedOperationException, the
 * type its 406 example uses and the exception Java's client raises for a 501.
 */
#include <string.h>

#include "http/response.h"
#include "iceberg_rest/iceberg_rest_error.h"

typedef struct error_info {
    const char *type;
    int status;
} error_info_t;

static const error_info_t errors[FLOE_ICEBERG_ERR__COUNT] = {
    [FLOE_ICEBERG_ERR_NONE] = {"InternalServerError", 500},
    [FLOE_ICEBERG_ERR_NotModified] = {"NotModified", 304},
    [FLOE_ICEBERG_ERR_BadRequestException] = {"BadRequestException", 400},
    /* Not an exception name: the type AWS's S3 Tables endpoint answers a stage-create with, as
     * DuckDB users have reported it (duckdb/duckdb-iceberg#1294). Clients go by the 400. */
    [FLOE_ICEBERG_ERR_StageCreate] = {"stage_create", 400},
    [FLOE_ICEBERG_ERR_NotAuthorizedException] = {"NotAuthorizedException", 403},
    [FLOE_ICEBERG_ERR_ForbiddenException] = {"ForbiddenException", 403},
    [FLOE_ICEBERG_ERR_NoSuchWarehouseException] = {"NoSuchWarehouseException", 404},
    [FLOE_ICEBERG_ERR_NoSuchNamespaceException] = {"NoSuchNamespaceException", 404},
    [FLOE_ICEBERG_ERR_NoSuchTableException] = {"NoSuchTableException", 404},
    [FLOE_ICEBERG_ERR_NotFoundException] = {"NotFoundException", 404},
    [FLOE_ICEBERG_ERR_MethodNotAllowedException] = {"MethodNotAllowedException", 405},
    [FLOE_ICEBERG_ERR_AlreadyExistsException] = {"AlreadyExistsException", 409},
    [FLOE_ICEBERG_ERR_NamespaceNotEmptyException] = {"NamespaceNotEmptyException", 409},
    [FLOE_ICEBERG_ERR_CommitFailedException] = {"CommitFailedException", 409},
    [FLOE_ICEBERG_ERR_UnprocessableEntityException] = {"UnprocessableEntityException", 422},
    [FLOE_ICEBERG_ERR_InternalServerError] = {"InternalServerError", 500},
    [FLOE_ICEBERG_ERR_UnsupportedOperationException] = {"UnsupportedOperationException", 501},
};

static const error_info_t *info(floe_iceberg_err_t e)
{
    return &errors[e > FLOE_ICEBERG_ERR_NONE && e < FLOE_ICEBERG_ERR__COUNT ? e : FLOE_ICEBERG_ERR_InternalServerError];
}

static floe_iceberg_err_t not_found_error(floe_subject_t subject, bool names_table)
{
    switch (subject) {
    case FLOE_SUBJECT_BUCKET: return FLOE_ICEBERG_ERR_NoSuchWarehouseException;
    case FLOE_SUBJECT_NAMESPACE:
        return names_table ? FLOE_ICEBERG_ERR_NoSuchTableException : FLOE_ICEBERG_ERR_NoSuchNamespaceException;
    default: return FLOE_ICEBERG_ERR_NoSuchTableException;
    }
}

floe_iceberg_err_t floe_iceberg_rest_error_of(const floe_failure_t *failure, bool names_table, bool is_commit)
{
    switch (failure->code) {
    case FLOE_ENOTFOUND: return not_found_error(failure->subject, names_table);
    case FLOE_EEXISTS:
        return is_commit ? FLOE_ICEBERG_ERR_CommitFailedException : FLOE_ICEBERG_ERR_AlreadyExistsException;
    case FLOE_EINUSE:
        return failure->subject == FLOE_SUBJECT_NAMESPACE ? FLOE_ICEBERG_ERR_NamespaceNotEmptyException
                                                          : FLOE_ICEBERG_ERR_CommitFailedException;
    case FLOE_ECHANGED:
    case FLOE_ESTATE: return FLOE_ICEBERG_ERR_CommitFailedException;
    case FLOE_EINVAL: return FLOE_ICEBERG_ERR_BadRequestException;
    case FLOE_EDENIED:
    case FLOE_EREADONLY: return FLOE_ICEBERG_ERR_NotAuthorizedException;
    default: return FLOE_ICEBERG_ERR_InternalServerError;
    }
}

const char *floe_iceberg_rest_error_type(floe_iceberg_err_t e)
{
    return info(e)->type;
}

int floe_iceberg_rest_error_status(floe_iceberg_err_t e)
{
    return info(e)->status;
}

void floe_iceberg_rest_send_error(h2o_req_t *req, floe_iceberg_err_t e, const char *message)
{
    floe_json_t *json = &floe_worker_of(req)->json;
    const error_info_t *ei = info(e);

    /* A HEAD answer and a 304 carry no body (RFC 9110 15.4.5). */
    if (ei->status == 304 || h2o_memis(req->input.method.base, req->input.method.len, H2O_STRLIT("HEAD"))) {
        floe_response_send(req, ei->status, NULL, NULL, 0);
        return;
    }
    floe_json_reset(json);
    floe_json_object_begin(json);
    floe_json_key(json, "error");
    floe_json_object_begin(json);
    floe_json_key(json, "message");
    floe_json_string(json, message);
    floe_json_key(json, "type");
    floe_json_string(json, ei->type);
    floe_json_key(json, "code");
    floe_json_int(json, ei->status);
    floe_json_object_end(json);
    floe_json_object_end(json);
    floe_response_send(req, ei->status, "application/json", json->buf, json->len);
}
