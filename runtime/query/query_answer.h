/*
 * The XML documents of AWS's query protocol, as botocore's QueryParser reads them: the success
 * envelope around a generated serializer's members, and the error document. Each carries a
 * fresh request id in <RequestId> and in the x-amzn-RequestId header. Not for what goes inside
 * a result (the generated serializers) nor for deciding which error to answer (query.c).
 *
 *   <OpResponse xmlns="{service}"><OpResult>...</OpResult>
 *     <ResponseMetadata><RequestId>{id}</RequestId></ResponseMetadata></OpResponse>
 *   <ErrorResponse xmlns="{service}"><Error><Type>Sender</Type><Code>..</Code>
 *     <Message>..</Message></Error><RequestId>{id}</RequestId></ErrorResponse>
 */
#ifndef FLOE_QUERY_ANSWER_H
#define FLOE_QUERY_ANSWER_H

#include "call/worker.h"
#include "query/query_service.h"

/** Sends 200 with the operation's output `out` (Unit output: no Result element). */
void floe_query_answer_result(h2o_req_t *req, const floe_query_service_t *svc, const floe_query_operation_t *op,
                              const void *out);

/** Sends `status` with an error document; Type is Receiver for a server fault, else Sender. */
void floe_query_answer_error(h2o_req_t *req, const floe_query_service_t *svc, int status, const char *code,
                             bool is_server_fault, const char *message);

#endif
