/*
 * The console request of request.h: parameters, scopes and answers shared by every API route.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "console/request.h"
#include "http/response.h"

#define ARN_PREFIX "arn:aws:s3tables:"
#define MESSAGE_MAX 512
#define INTERNAL_ERROR "The server encountered an internal error."

const char *floe_console_param(floe_console_req_t *r, const char *key)
{
    for (size_t i = 0; i < r->n_query; i++) {
        if (strcmp(r->query[i].key, key) == 0)
            return r->query[i].value;
    }
    return NULL;
}

const char *floe_console_required(floe_console_req_t *r, const char *key)
{
    const char *value = floe_console_param(r, key);

    if (value == NULL || value[0] == '\0') {
        floe_console_fail(r, 400, "The query parameter '%s' is required.", key);
        return NULL;
    }
    return value;
}

static const char *error_name(int status)
{
    switch (status) {
    case 400: return "BadRequestException";
    case 403: return "AccessDeniedException";
    case 404: return "NotFoundException";
    case 405: return "MethodNotAllowedException";
    default: return "InternalServerErrorException";
    }
}

int floe_console_fail(floe_console_req_t *r, int status, const char *fmt, ...)
{
    char message[MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    floe_log_request(r->w->config, r->req, r->operation, status, r->started_us);
    floe_response_aws_error(r->req, status, error_name(status), message);
    return FLOE_EFAIL;
}

int floe_console_fail_call(floe_console_req_t *r)
{
    const char *message = r->call.failure.message != NULL ? r->call.failure.message : INTERNAL_ERROR;

    switch (r->call.failure.code) {
    case FLOE_ENOTFOUND: return floe_console_fail(r, 404, "%s", message);
    case FLOE_EINVAL: return floe_console_fail(r, 400, "%s", message);
    case FLOE_EDENIED:
    case FLOE_EREADONLY: return floe_console_fail(r, 403, "%s", message);
    default: return floe_console_fail(r, 500, INTERNAL_ERROR);
    }
}

bool floe_console_may_see(const floe_console_req_t *r, const char *account_id)
{
    return !r->is_signed_account || strcmp(r->account, account_id) == 0;
}

/* Sets the call's scope after checking the request may look at it. */
static int enter(floe_console_req_t *r, const floe_scope_t *scope)
{
    if (!floe_console_may_see(r, scope->account_id))
        return floe_console_fail(r, 403, "The credentials of account %s cannot see account %s.", r->account,
                                 scope->account_id);
    floe_call_set_scope(&r->call, scope);
    return FLOE_OK;
}

int floe_console_scope_from_params(floe_console_req_t *r)
{
    const char *account = floe_console_param(r, "account"), *region = floe_console_param(r, "region");
    floe_scope_t scope;

    floe_scope_default(r->w->config, &scope);
    if (r->is_signed_account)
        memcpy(scope.account_id, r->account, sizeof(scope.account_id));
    if (account != NULL) {
        if (!floe_scope_is_account_id(account, strlen(account)))
            return floe_console_fail(r, 400, "The account '%.40s' is not a 12-digit account id.", account);
        memcpy(scope.account_id, account, sizeof(scope.account_id));
    }
    if (region != NULL) {
        if (!floe_scope_is_region(region, strlen(region)))
            return floe_console_fail(r, 400, "The region '%.40s' is not a region name.", region);
        snprintf(scope.region, sizeof(scope.region), "%s", region);
    }
    return enter(r, &scope);
}

int floe_console_scope_from_arn(floe_console_req_t *r, const char *arn)
{
    const char *region = arn + strlen(ARN_PREFIX), *region_end, *account, *account_end;
    floe_scope_t scope;

    if (strncmp(arn, ARN_PREFIX, strlen(ARN_PREFIX)) != 0 || (region_end = strchr(region, ':')) == NULL ||
        (account_end = strchr(account = region_end + 1, ':')) == NULL ||
        !floe_scope_is_region(region, (size_t)(region_end - region)) ||
        !floe_scope_is_account_id(account, (size_t)(account_end - account)))
        return floe_console_fail(r, 400, "'%.200s' is not an S3 Tables ARN.", arn);
    floe_scope_from_arn(r->w->config, arn, &scope);
    return enter(r, &scope);
}

int floe_console_page_size(floe_console_req_t *r, int *out)
{
    const char *limit = floe_console_param(r, "limit");
    char *end;
    long n;

    *out = FLOE_CONSOLE_DEFAULT_PAGE;
    if (limit == NULL)
        return FLOE_OK;
    n = strtol(limit, &end, 10);
    if (limit[0] == '\0' || *end != '\0' || n < 1 || n > FLOE_CONSOLE_MAX_PAGE)
        return floe_console_fail(r, 400, "The limit must be a number from 1 to %d.", FLOE_CONSOLE_MAX_PAGE);
    *out = (int)n;
    return FLOE_OK;
}

floe_json_t *floe_console_json(floe_console_req_t *r)
{
    floe_json_reset(&r->w->json);
    return &r->w->json;
}

int floe_console_send_json(floe_console_req_t *r)
{
    floe_log_request(r->w->config, r->req, r->operation, 200, r->started_us);
    floe_response_send(r->req, 200, "application/json", r->w->json.buf, r->w->json.len);
    return FLOE_OK;
}

int floe_console_send_bytes(floe_console_req_t *r, const char *content_type, const char *data, size_t len)
{
    floe_log_request(r->w->config, r->req, r->operation, 200, r->started_us);
    floe_response_send(r->req, 200, content_type, data, len);
    return FLOE_OK;
}
