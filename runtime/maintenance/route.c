/*
 * The route of route.h: checks the body on the serving thread (a malformed one, an unknown type
 * or a bad time answers 400 at once), then queues the run for the maintenance thread and returns
 * to the event loop; the answer comes back through the worker's door (maintenance.h, design note
 * 2). The ARN and whether the job is enabled are checked by the runner.
 *
 * Under --enforce-iam, running a job on demand is authorized as the S3 Tables operation that
 * configures that job (no S3 Tables operation runs one): compaction and snapshot management
 * PutTableMaintenanceConfiguration, unreferenced file removal (a bucket's setting)
 * PutTableBucketMaintenanceConfiguration, record expiration PutTableRecordExpirationConfiguration,
 * each on the ARN the body names (docs/authorization.md).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "authz/table_access.h"
#include "base/failure.h"
#include "base/log.h"
#include "db/state.h"
#include "http/peer.h"
#include "http/response.h"
#include "http/sigv4.h"
#include "http/sigv4_verify.h"
#include "maintenance/maintenance.h"
#include "maintenance/route.h"

#define OPERATION "Maintenance:Run"
#define MESSAGE_MAX 512

/* The S3 Tables action that configures each job type, which running it on demand needs. */
static const char *const job_actions[FLOE_JOB_TYPE_COUNT + 1] = {
    [FLOE_JOB_COMPACTION] = "s3tables:PutTableMaintenanceConfiguration",
    [FLOE_JOB_SNAPSHOT_MANAGEMENT] = "s3tables:PutTableMaintenanceConfiguration",
    [FLOE_JOB_UNREFERENCED_FILE_REMOVAL] = "s3tables:PutTableBucketMaintenanceConfiguration",
    [FLOE_JOB_RECORD_EXPIRATION] = "s3tables:PutTableRecordExpirationConfiguration",
};

static void send_json(h2o_req_t *req, int status, const char *json)
{
    /* the job ran on the maintenance thread meanwhile: the line counts from the request's arrival */
    floe_log_request(floe_worker_of(req)->config, req, OPERATION, status, floe_log_request_started_us(req));
    floe_response_send(req, status, "application/json", json, strlen(json));
}

static void refuse(h2o_req_t *req, int status, const char *message)
{
    cJSON *o = cJSON_CreateObject();
    char *text;

    cJSON_AddStringToObject(o, "message", message);
    text = cJSON_PrintUnformatted(o);
    send_json(req, status, text);
    cJSON_free(text);
    cJSON_Delete(o);
}

static void on_done(h2o_req_t *req, floe_maintenance_result_t *result)
{
    send_json(req, result->http_status, result->json != NULL ? result->json : "{}");
    floe_maintenance_result_dispose(result);
}

/* Reads the body into *out (strings pointing into `body`); else answers 400 and returns -1. */
static int parse_body(h2o_req_t *req, cJSON *body, floe_maintenance_request_t *out)
{
    const cJSON *arn = cJSON_GetObjectItemCaseSensitive(body, "arn");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(body, "type");
    const cJSON *now = cJSON_GetObjectItemCaseSensitive(body, "now");

    memset(out, 0, sizeof(*out));
    if (!cJSON_IsObject(body) || !cJSON_IsString(arn) || !cJSON_IsString(type)) {
        refuse(req, 400, "The body must be a JSON object with the string members \"arn\" and \"type\" (and "
                         "optionally \"now\").");
        return FLOE_EFAIL;
    }
    if ((out->type = floe_job_type_from_name(type->valuestring)) == 0) {
        refuse(req, 400, "Unknown maintenance job type: \"type\" must be icebergCompaction, "
                         "icebergSnapshotManagement, icebergUnreferencedFileRemoval or recordExpiration.");
        return FLOE_EFAIL;
    }
    if (now != NULL && !cJSON_IsNull(now)) {
        if (!cJSON_IsString(now) || floe_maintenance_parse_time(now->valuestring, &out->now_ms)) {
            refuse(req, 400, "\"now\" must be an RFC 3339 time, such as 2026-12-03T10:00:00Z.");
            return FLOE_EFAIL;
        }
        out->has_now = true;
    }
    out->arn = arn->valuestring;
    return FLOE_OK;
}

/* Strict mode: answers 403 (400 for a body that is not the one signed) and returns -1 unless the
 * request carries a good signature. Whatever service it is signed for, it is checked by that
 * service's rule (S3's canonical path for s3, every other service's otherwise). */
static int check_signature(floe_worker_t *w, h2o_req_t *req)
{
    floe_sigv4_scope_t scope;
    floe_sigv4_result_t r;
    char message[MESSAGE_MAX];
    int is_s3;

    if (!w->config->strict_signatures)
        return FLOE_OK;
    is_s3 = floe_sigv4_request_scope(req, &scope) == 0 && floe_sigv4_scope_is_for(&scope, "s3");
    if ((r = floe_sigv4_verify(req, w->config, is_s3, (int64_t)time(NULL))) == FLOE_SIGV4_OK)
        return FLOE_OK;
    snprintf(message, sizeof(message),
             "The maintenance route needs a request signed with a configured key (strict signatures are on): %s",
             floe_sigv4_result_message(r));
    refuse(req, r == FLOE_SIGV4_PAYLOAD_MISMATCH ? 400 : 403, message);
    return FLOE_EFAIL;
}

/* Strict mode: a signed caller acts in its own account only (the account its key names, as for
 * every API); answers 403 and returns -1 for an ARN of another account. */
static int check_account(floe_worker_t *w, h2o_req_t *req, const char *arn)
{
    floe_scope_t signer, target;
    char message[MESSAGE_MAX];

    if (!w->config->strict_signatures)
        return FLOE_OK;
    floe_sigv4_request_account_scope(req, w->config, &signer);
    floe_scope_from_arn(w->config, arn, &target);
    if (strcmp(signer.account_id, target.account_id) == 0)
        return FLOE_OK;
    snprintf(message, sizeof(message), "The credentials of account %s cannot run maintenance in account %s.",
             signer.account_id, target.account_id);
    refuse(req, 403, message);
    return FLOE_EFAIL;
}

/* --enforce-iam: the signed caller's permission for the action that configures the job, on the
 * table or bucket the body names (a policy may grant another account); answers 403 with AWS's
 * sentence (500 when the decision failed) and returns -1 unless it is allowed. */
static int authorize(floe_worker_t *w, h2o_req_t *req, const floe_maintenance_request_t *request)
{
    floe_authz_target_t target = {request->arn, NULL, NULL};
    floe_authz_decision_t decision;
    floe_sigv4_scope_t signature;
    floe_scope_t signer;
    floe_call_t call;
    const char *key = NULL;
    int rc;

    if (floe_sigv4_request_scope(req, &signature) == 0)
        key = h2o_strdup(&req->pool, signature.access_key.base, signature.access_key.len).base;
    floe_call_init(&call, &req->pool, w->state, w->config);
    floe_sigv4_request_account_scope(req, w->config, &signer);
    floe_call_set_scope(&call, &signer);
    rc = floe_authz_table_access(&call, key, floe_http_peer_address(req), job_actions[request->type], &target,
                                 &decision);
    if (floe_state_end_call(w->state))
        floe_log("%s left a transaction open; it was rolled back", OPERATION);
    if (rc != FLOE_OK)
        refuse(req, 500, "The maintenance route could not authorize the request.");
    else if (!decision.is_allowed)
        refuse(req, 403, floe_authz_message(&call, &decision));
    return rc != FLOE_OK || !decision.is_allowed ? FLOE_EFAIL : FLOE_OK;
}

void floe_maintenance_route_handle(floe_worker_t *w, h2o_req_t *req)
{
    floe_maintenance_request_t request;
    cJSON *body;

    if (!h2o_memis(req->method.base, req->method.len, H2O_STRLIT("POST"))) {
        refuse(req, 405, "Use POST.");
        return;
    }
    if (check_signature(w, req) != 0)
        return;
    body = cJSON_ParseWithLength(req->entity.base, req->entity.len);
    if (body == NULL) {
        refuse(req, 400, "The body is not JSON.");
        return;
    }
    /* under --enforce-iam a policy decides who may act on the ARN, another account included */
    if (parse_body(req, body, &request) == 0 &&
        (w->config->enforce_iam ? authorize(w, req, &request) : check_account(w, req, request.arn)) == 0)
        floe_maintenance_submit(w, req, &request, on_done); /* copies the request */
    cJSON_Delete(body);
}
