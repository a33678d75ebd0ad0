/*
 * The documents of query_answer.h, written with the shared XML writer into a malloc'ed buffer
 * that floe_response_send_with_id copies into the request pool.
 */
#include "base/ids.h"
#include "http/response.h"
#include "query/query_answer.h"

#define CONTENT_TYPE "text/xml" /* what AWS's query services answer with */

static void write_request_id(floe_xml_t *x, const char *id, int in_metadata)
{
    if (in_metadata)
        floe_xml_open(x, "ResponseMetadata");
    floe_xml_elem(x, "RequestId", id);
    if (in_metadata)
        floe_xml_close(x, "ResponseMetadata");
}

static void send_document(h2o_req_t *req, int status, const char *id, floe_xml_t *x)
{
    floe_response_send_with_id(req, status, id, CONTENT_TYPE, x->buf, x->len);
    floe_xml_dispose(x);
}

void floe_query_answer_result(h2o_req_t *req, const floe_query_service_t *svc, const floe_query_operation_t *op,
                              const void *out)
{
    char id[FLOE_REQUEST_ID_LEN + 1];
    floe_xml_t x;

    floe_request_id(id);
    floe_xml_begin(&x);
    floe_xml_open_ns(&x, op->response_element, svc->xmlns);
    if (op->result_element != NULL) {
        floe_xml_open(&x, op->result_element);
        if (op->serialize != NULL)
            op->serialize(out, &x);
        floe_xml_close(&x, op->result_element);
    }
    write_request_id(&x, id, 1);
    floe_xml_close(&x, op->response_element);
    send_document(req, 200, id, &x);
}

void floe_query_answer_error(h2o_req_t *req, const floe_query_service_t *svc, int status, const char *code,
                             bool is_server_fault, const char *message)
{
    char id[FLOE_REQUEST_ID_LEN + 1];
    floe_xml_t x;

    floe_request_id(id);
    floe_xml_begin(&x);
    floe_xml_open_ns(&x, "ErrorResponse", svc->xmlns);
    floe_xml_open(&x, "Error");
    floe_xml_elem(&x, "Type", is_server_fault ? "Receiver" : "Sender");
    floe_xml_elem(&x, "Code", code);
    floe_xml_elem(&x, "Message", message);
    floe_xml_close(&x, "Error");
    write_request_id(&x, id, 0);
    floe_xml_close(&x, "ErrorResponse");
    send_document(req, status, id, &x);
}
