/*
 * The health route of health.h. It touches no state, so it measures the bare cost of a request
 * through Floe (the benchmark compares API routes against it).
 */
#include "awsjson/awsjson.h"
#include "base/config.h"
#include "base/log.h"
#include "health.h"
#include "http/response.h"
#include "query/query.h"
#include "s3/s3.h"

/* The awsQuery services (CloudFormation, STS, IAM), each under its signing name, as clients name them. */
static void list_query_services(floe_json_t *json)
{
    size_t n;
    const floe_query_service_t *const *services = floe_query_services(&n);

    for (size_t i = 0; i < n; i++) {
        floe_json_key(json, services[i]->signing_name);
        floe_json_string(json, "available");
    }
}

/* The awsJson services (Glue, Athena), the same way. */
static void list_json_services(floe_json_t *json)
{
    size_t n;
    const floe_awsjson_service_t *const *services = floe_awsjson_services(&n);

    for (size_t i = 0; i < n; i++) {
        floe_json_key(json, services[i]->signing_name);
        floe_json_string(json, "available");
    }
}

void floe_health_send(floe_worker_t *w, h2o_req_t *req)
{
    uint64_t started = floe_log_now_us();
    floe_json_t *json = &w->json;

    floe_json_reset(json);
    floe_json_object_begin(json);
    floe_json_key(json, "status");
    floe_json_string(json, "ok");
    floe_json_key(json, "version");
    floe_json_string(json, FLOE_VERSION);
    floe_json_key(json, "services");
    floe_json_object_begin(json);
    floe_json_key(json, "s3tables");
    floe_json_string(json, "available");
    floe_json_key(json, "s3");
    floe_json_string(json, floe_s3_status());
    list_query_services(json);
    list_json_services(json);
    floe_json_object_end(json);
    floe_json_object_end(json);
    floe_log_request(w->config, req, "Health", 200, started);
    floe_response_send(req, 200, "application/json", json->buf, json->len);
}
