/*
 * The front door of front.h. Deciding the service is cheap (a prefix compare and a header scan),
 * so it happens on every request before anything is parsed.
 */
#include <string.h>
#include <time.h>

#include "athena_engine/authorize.h"
#include "awsjson/awsjson.h"
#include "base/engine_key.h"
#include "base/log.h"
#include "console/route.h"
#include "front.h"
#include "health.h"
#include "http/response.h"
#include "http/sigv4.h"
#include "http/sigv4_verify.h"
#include "iam/credential.h"
#include "iceberg_rest/iceberg_rest.h"
#include "maintenance/route.h"
#include "query/query.h"
#include "s3/s3.h"
#include "s3tables/dispatch.h"
#include "unemulated.h"

#define SIGNING_NAME_S3TABLES "s3tables"
#define SIGNING_NAME_GLUE "glue"
/* S3 refuses a request whose header section passes 8 KiB with RequestHeaderSectionTooLarge
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html); h2o 2.2 itself takes up
 * to H2O_MAX_REQLEN (~416 KiB). Each header counts its name, value, ": " and CRLF. */
#define MAX_HEADER_SECTION_BYTES 8192
#define HEADER_FRAMING_BYTES 4
/* What AWS answers an unsigned caller: S3 (for a bucket that grants anonymous users nothing) and
 * the query protocol's common error MissingAuthenticationToken. */
#define S3_MESSAGE_ANONYMOUS "Access Denied"
#define QUERY_MESSAGE_MISSING "Request is missing Authentication Token"
/* Iceberg REST paths all start with /v1/; under /iceberg an unsigned one is the catalog's. */
#define UNSIGNED_ICEBERG_PATH FLOE_ICEBERG_REST_BASE "/v1"

typedef struct front_handler {
    h2o_handler_t super;
} front_handler_t;

static int path_is(h2o_req_t *req, const char *literal)
{
    size_t len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
    return h2o_memis(req->input.path.base, len, literal, strlen(literal));
}

/* True when the path is `base` or lies below it ("/iceberg", "/iceberg/v1/config"). */
static int path_is_under(h2o_req_t *req, const char *base)
{
    size_t len = req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len, n = strlen(base);
    return len >= n && memcmp(req->input.path.base, base, n) == 0 && (len == n || req->input.path.base[n] == '/');
}

/* The length of the Iceberg REST catalog base path the request is under, or 0: /iceberg when signed
 * for s3tables or glue (AWS serves both endpoints there), /_floe/iceberg whether signed or not. */
static size_t iceberg_base_len(h2o_req_t *req, int is_catalog_signed)
{
    if (path_is_under(req, FLOE_ICEBERG_REST_UNSIGNED_BASE))
        return strlen(FLOE_ICEBERG_REST_UNSIGNED_BASE);
    if (is_catalog_signed && path_is_under(req, FLOE_ICEBERG_REST_BASE))
        return strlen(FLOE_ICEBERG_REST_BASE);
    return 0;
}

/* The S3 Tables API's answer to a signature that does not verify (403, as AWS answers); AWS's
 * Iceberg REST endpoints answer an unsigned request the same way, before any catalog runs. */
static void refuse_s3tables(h2o_req_t *req, floe_sigv4_result_t r)
{
    const char *name = r == FLOE_SIGV4_MISSING       ? "MissingAuthenticationTokenException"
                       : r == FLOE_SIGV4_UNKNOWN_KEY ? "UnrecognizedClientException"
                                                     : "InvalidSignatureException";
    floe_response_aws_error(req, r == FLOE_SIGV4_PAYLOAD_MISMATCH ? 400 : 403, name, floe_sigv4_result_message(r));
}

/* S3's answer, in its XML error shape: an anonymous caller is denied access, in S3's words. */
static void refuse_s3(h2o_req_t *req, floe_sigv4_result_t r)
{
    const char *code = r == FLOE_SIGV4_MISMATCH           ? "SignatureDoesNotMatch"
                       : r == FLOE_SIGV4_UNKNOWN_KEY      ? "InvalidAccessKeyId"
                       : r == FLOE_SIGV4_SKEWED           ? "RequestTimeTooSkewed"
                       : r == FLOE_SIGV4_PAYLOAD_MISMATCH ? "XAmzContentSHA256Mismatch"
                       : r == FLOE_SIGV4_MALFORMED        ? "AuthorizationHeaderMalformed"
                                                          : "AccessDenied";
    floe_s3_send_error(req, r == FLOE_SIGV4_PAYLOAD_MISMATCH || r == FLOE_SIGV4_MALFORMED ? 400 : 403, code,
                       r == FLOE_SIGV4_MISSING ? S3_MESSAGE_ANONYMOUS : floe_sigv4_result_message(r));
}

/* An awsQuery service's answer (CloudFormation, STS), with the codes and messages of AWS's common errors. */
static void refuse_query(h2o_req_t *req, const floe_query_service_t *query, floe_sigv4_result_t r)
{
    const char *code = r == FLOE_SIGV4_MISSING       ? "MissingAuthenticationToken"
                       : r == FLOE_SIGV4_UNKNOWN_KEY ? "InvalidClientTokenId"
                       : r == FLOE_SIGV4_MALFORMED   ? "IncompleteSignature"
                       : r == FLOE_SIGV4_EXPIRED || r == FLOE_SIGV4_SKEWED ? "RequestExpired"
                                                                          : "SignatureDoesNotMatch";
    int status = r == FLOE_SIGV4_MALFORMED || r == FLOE_SIGV4_EXPIRED || r == FLOE_SIGV4_SKEWED ? 400 : 403;
    floe_query_refuse(req, query, status, code,
                      r == FLOE_SIGV4_MISSING ? QUERY_MESSAGE_MISSING : floe_sigv4_result_message(r));
}

/*
 * Strict mode's answer to a request with no signature at all (none of SigV4 and no SigV2
 * presigned URL), in the protocol of the API it is for. AWS tells the APIs apart by host name;
 * on Floe's one port they go by their signing name, which an unsigned request lacks, so its shape
 * decides: an X-Amz-Target of Glue's, a form naming a query service's Version, an S3 Tables call
 * (s3tables/dispatch.h), a path under /iceberg/v1/; anything else is S3's.
 */
static void refuse_unsigned(floe_worker_t *w, h2o_req_t *req)
{
    const floe_awsjson_service_t *json = floe_awsjson_service_of_target(req);
    const floe_query_service_t *query = json == NULL ? floe_query_service_of_form(req) : NULL;
    bool is_s3tables_host = /* S3 Tables and its Iceberg REST catalog: one host, one refusal on AWS */
        query == NULL && (path_is_under(req, UNSIGNED_ICEBERG_PATH) || floe_s3tables_is_unsigned_call(req));
    floe_sigv4_scope_t none;

    if (json != NULL) {
        memset(&none, 0, sizeof(none));
        floe_awsjson_handle(w, req, json, &none); /* refuses it before reading anything else */
        return;
    }
    floe_log_request(w->config, req,
                     query != NULL      ? "Query:Unauthorized"
                     : is_s3tables_host ? "S3Tables:Unauthorized"
                                        : "S3:Unauthorized",
                     403, floe_log_now_us());
    if (query != NULL)
        refuse_query(req, query, FLOE_SIGV4_MISSING);
    else if (is_s3tables_host)
        refuse_s3tables(req, FLOE_SIGV4_MISSING);
    else
        refuse_s3(req, FLOE_SIGV4_MISSING);
}

/* In strict mode, answers and returns 0 when the signature does not verify; else returns 1. The
 * refusal comes in the error shape of the API the request is for (`query`: an awsQuery service). */
static int signature_accepted(floe_worker_t *w, h2o_req_t *req, const floe_sigv4_scope_t *scope, int is_s3tables,
                              int is_iceberg, const floe_query_service_t *query)
{
    floe_sigv4_result_t r;
    int status;
    /* Floe's own engine key is always verified: what it may do, no client may claim (engine_key.h) */
    if (!w->config->strict_signatures &&
        (scope == NULL || !floe_engine_key_account(scope->access_key.base, scope->access_key.len, NULL)))
        return 1;
    if ((r = floe_sigv4_verify(req, w->config, !is_s3tables && !is_iceberg && query == NULL, (int64_t)time(NULL))) ==
        FLOE_SIGV4_OK)
        return 1;
    /* S3 still takes SigV2 presigned URLs, which boto3 and the aws CLI v1 make by default */
    if (r == FLOE_SIGV4_MISSING && !is_s3tables && !is_iceberg && query == NULL &&
        (r = floe_s3_sigv2_verify(req, w->config, (int64_t)time(NULL))) == FLOE_SIGV4_OK)
        return 1;
    if (r == FLOE_SIGV4_MISSING && !is_s3tables && !is_iceberg && query == NULL) {
        refuse_unsigned(w, req);
        return 0;
    }
    status = r == FLOE_SIGV4_PAYLOAD_MISMATCH ? 400 : 403;
    floe_log_request(w->config, req,
                     is_iceberg    ? "Iceberg:Unauthorized"
                     : is_s3tables ? "S3Tables:Unauthorized"
                     : query       ? "Query:Unauthorized"
                                   : "S3:Unauthorized",
                     status, floe_log_now_us());
    if (is_iceberg)
        floe_iceberg_rest_refuse(req, status, floe_sigv4_result_message(r));
    else if (is_s3tables)
        refuse_s3tables(req, r);
    else if (query != NULL)
        refuse_query(req, query, r);
    else
        refuse_s3(req, r);
    return 0;
}

/* The answer to an oversized header section, in the service's error shape (S3's own code; for
 * S3 Tables a BadRequestException, which every SDK knows; for an awsQuery service a Sender
 * error with S3's code, as no common error of theirs names it). */
static void refuse_oversized(floe_worker_t *w, h2o_req_t *req, int is_s3tables, const floe_query_service_t *query)
{
    static const char message[] = "Your request header section exceeds the maximum allowed size.";

    floe_log_request(w->config, req,
                     is_s3tables ? "S3Tables:BadRequest"
                     : query     ? "Query:BadRequest"
                                 : "S3:BadRequest",
                     400, floe_log_now_us());
    if (is_s3tables)
        floe_response_aws_error(req, 400, "BadRequestException", message);
    else if (query != NULL)
        floe_query_refuse(req, query, 400, "RequestHeaderSectionTooLarge", message);
    else
        floe_s3_send_error(req, 400, "RequestHeaderSectionTooLarge", message);
}

/* Refuses (and returns 0 for) a header section over MAX_HEADER_SECTION_BYTES; else returns 1.
 * (h2o keeps Host and Content-Length out of req->headers, so they do not count.) */
static int header_section_accepted(floe_worker_t *w, h2o_req_t *req, int is_s3tables,
                                   const floe_query_service_t *query)
{
    size_t bytes = 0;

    for (size_t i = 0; i < req->headers.size; i++)
        bytes += req->headers.entries[i].name->len + req->headers.entries[i].value.len + HEADER_FRAMING_BYTES;
    if (bytes <= MAX_HEADER_SECTION_BYTES)
        return 1;
    refuse_oversized(w, req, is_s3tables, query);
    return 0;
}

static int on_req(h2o_handler_t *self, h2o_req_t *req)
{
    floe_worker_t *w = floe_worker_of(req);
    const floe_query_service_t *query = NULL;
    floe_sigv4_scope_t scope;
    size_t iceberg_base;
    int is_signed, is_s3tables;
    (void)self;

    /* The credential scope is read once here and handed on to the service's front. */
    is_signed = floe_sigv4_request_scope(req, &scope) == 0;
    is_s3tables = is_signed && floe_sigv4_scope_is_for(&scope, SIGNING_NAME_S3TABLES);
    if (is_signed && !is_s3tables)
        query = floe_query_service_of(&scope);
    if (!header_section_accepted(w, req, is_s3tables, query))
        return 0;
    if (path_is(req, FLOE_HEALTH_PATH)) {
        floe_health_send(w, req);
        return 0;
    }
    if (path_is_under(req, FLOE_CONSOLE_BASE)) { /* checks its own signatures (console/route.h) */
        floe_console_handle(w, req);
        return 0;
    }
    if (path_is_under(req, FLOE_ENGINE_AUTHORIZE_BASE)) { /* Floe's own Trino; its path carries the engine secret */
        floe_engine_authorize_handle(w, req);
        return 0;
    }
    if (path_is(req, FLOE_MAINTENANCE_RUN_PATH)) {
        floe_maintenance_route_handle(w, req);
        return 0;
    }
    iceberg_base =
        iceberg_base_len(req, is_s3tables || (is_signed && floe_sigv4_scope_is_for(&scope, SIGNING_NAME_GLUE)));
    /* an awsJson service (Glue) checks its own signature; Glue's /iceberg is its REST catalog */
    if (is_signed && !is_s3tables && query == NULL && !path_is_under(req, FLOE_ICEBERG_REST_BASE) &&
        floe_awsjson_service_of(&scope) != NULL) {
        floe_awsjson_handle(w, req, floe_awsjson_service_of(&scope), &scope);
        return 0;
    }
    if (is_signed && !is_s3tables && query == NULL && iceberg_base == 0 && floe_unemulated_is(&scope)) {
        floe_unemulated_refuse(w, req, &scope); /* touches no state: no signature needed to learn it */
        return 0;
    }
    if (!signature_accepted(w, req, is_signed ? &scope : NULL, is_s3tables, iceberg_base != 0, query))
        return 0;
    if (iceberg_base != 0)
        floe_iceberg_rest_handle(w, req, iceberg_base);
    else if (is_s3tables)
        floe_dispatch_s3tables(w, req, &scope);
    else if (query != NULL)
        floe_query_handle(w, req, query, &scope);
    else
        floe_s3_handle(w, req);
    return 0;
}

/* The key source of sigv4.h: a key IAM or STS issued, read from the serving thread's database at
 * the moment of the request, so a new key works at once and a deleted or expired one stops. */
static bool issued_key(h2o_req_t *req, h2o_iovec_t access_key, floe_sigv4_key_t *out)
{
    floe_iam_key_t key;

    if (floe_engine_key_account(access_key.base, access_key.len, out->account_id)) {
        out->secret = floe_worker_of(req)->config->engine_secret;
        return true;
    }
    if (!floe_iam_key_is_issued(access_key.base, access_key.len) ||
        floe_iam_key_lookup(floe_worker_of(req)->state, &req->pool, access_key.base, access_key.len,
                            (floe_timestamp_t)time(NULL) * 1000, &key) != FLOE_OK)
        return false;
    out->secret = key.secret;
    out->session_token = key.session_token;
    memcpy(out->account_id, key.account_id, sizeof(out->account_id));
    return true;
}

void floe_front_register(h2o_pathconf_t *pathconf)
{
    front_handler_t *h = (front_handler_t *)h2o_create_handler(pathconf, sizeof(*h));
    h->super.on_req = on_req;
    floe_sigv4_set_key_source(issued_key);
}
