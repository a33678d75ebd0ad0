/*
 * The Iceberg REST catalog's error answers: each error type's status, and the response in the
 * spec's shape, {"error": {"message": ..., "type": ..., "code": ...}} (schema IcebergErrorResponse).
 * Java's and PyIceberg's clients pick their exception from `code` and `type`
 * (NoSuchTableException, CommitFailedException, ...), so the type names are the spec's.
 *
 * Not for S3 Tables API errors (response.h writes those in AWS's restJson1 shape).
 */
#ifndef FLOE_ICEBERG_REST_ERROR_H
#define FLOE_ICEBERG_REST_ERROR_H

#include "call/worker.h"
#include "iceberg_rest/iceberg_rest_api.h"

/** The wire `type` of an error ("NoSuchTableException"). */
const char *floe_iceberg_rest_error_type(floe_iceberg_err_t e);

/** The HTTP status of an error (404 for NoSuchTableException). */
int floe_iceberg_rest_error_status(floe_iceberg_err_t e);

/**
 * The REST catalog's error for a failure recorded on the shared call (a house code and its
 * subject): the wing's one mapper. A miss names its subject's type (the warehouse, the namespace,
 * the table; a namespace of a request that names a table is NoSuchTableException), what exists
 * AlreadyExistsException (CommitFailedException on a commit route), a namespace in use
 * NamespaceNotEmptyException, a lost compare-and-swap CommitFailedException; a failure inside
 * InternalServerError.
 */
floe_iceberg_err_t floe_iceberg_rest_error_of(const floe_failure_t *failure, bool names_table, bool is_commit);

/** Sends the error in the spec's shape. A HEAD request, and NotModified (304), get the status
 * alone, without a body. */
void floe_iceberg_rest_send_error(h2o_req_t *req, floe_iceberg_err_t e, const char *message);

#endif
