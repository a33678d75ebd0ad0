/*
 * Complete (non-streaming) HTTP responses: status, a few headers and a body copied into the
 * request pool, with the request id AWS clients log. Also the AWS JSON error shape used by the
 * S3 Tables API. Streaming bodies (S3 GET) do not come through here.
 */
#ifndef FLOE_HTTP_RESPONSE_H
#define FLOE_HTTP_RESPONSE_H

#include <stddef.h>

#include <h2o.h>

/** Adds a header whose name keeps its case (h2o lower-cases token headers). */
void floe_response_header(h2o_req_t *req, const char *name, const char *value, size_t value_len);

/** Sends status and body (copied) with the given content type; body may be NULL for none. */
void floe_response_send(h2o_req_t *req, int status, const char *content_type, const char *body, size_t body_len);

/** As floe_response_send, with the request id the body already carries (AWS's query protocol
 * writes it in <RequestId> too). */
void floe_response_send_with_id(h2o_req_t *req, int status, const char *request_id, const char *content_type,
                                const char *body, size_t body_len);

/**
 * Sends an AWS restJson1 error: `x-amzn-ErrorType: <name>` and the body {"message": ...}, the
 * shape botocore and the JS SDK map to modeled exceptions.
 */
void floe_response_aws_error(h2o_req_t *req, int status, const char *name, const char *message);

/** The standard reason phrase for a status code. */
const char *floe_response_reason(int status);

#endif
