/*
 * The S3 Tables side of --enforce-iam (authorize.h). What a call names is read from its route's
 * labels and its query, by the model's member names (tableBucketARN, namespace, name, tableArn,
 * resourceArn), so no operation is named here; authz/table_access.h decides.
 */
#include <string.h>

#include "authz/table_access.h"
#include "s3tables/authorize.h"

#define ACTION_PREFIX "s3tables:"

/* Whether label `index` of `uri` is `name` ("/tables/{tableBucketARN}/{namespace}": 1 is "namespace"). */
static bool label_is(const char *uri, size_t index, const char *name)
{
    const char *open = uri;
    size_t len = strlen(name);

    for (size_t i = 0; (open = strchr(open, '{')) != NULL; i++, open++) {
        if (i == index)
            return strncmp(open + 1, name, len) == 0 && (open[1 + len] == '}' || open[1 + len] == '+');
    }
    return false;
}

static const char *member(const floe_route_match_t *match, const floe_http_input_t *http, const char *name)
{
    for (size_t i = 0; i < http->n_labels; i++) {
        if (label_is(match->route->uri, i, name))
            return http->labels[i];
    }
    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, name) == 0)
            return http->query[i].value;
    }
    return NULL;
}

int floe_s3tables_authorize(floe_call_t *call, const floe_route_match_t *match, const floe_http_input_t *http,
                            const char *access_key, const char *source_ip)
{
    floe_authz_target_t target = {member(match, http, "tableBucketARN"), member(match, http, "namespace"),
                                  member(match, http, "name")};
    floe_authz_decision_t decision;
    size_t len = strlen(call->operation);
    char *action = floe_call_alloc(call, sizeof(ACTION_PREFIX) + len);

    memcpy(action, ACTION_PREFIX, sizeof(ACTION_PREFIX) - 1);
    memcpy(action + sizeof(ACTION_PREFIX) - 1, call->operation, len + 1); /* not printf: it is per call */
    if (target.arn == NULL)
        target.arn = member(match, http, "tableArn");
    if (target.arn == NULL)
        target.arn = member(match, http, "resourceArn");
    if (floe_authz_table_access(call, access_key, source_ip, action, &target, &decision))
        return FLOE_EFAIL;
    if (!decision.is_allowed)
        return floe_fail(call, FLOE_EDENIED, FLOE_SUBJECT_REQUEST, "%s", floe_authz_message(call, &decision));
    return FLOE_OK;
}
