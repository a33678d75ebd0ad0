/*
 * IAM policy documents. For now a document is only checked to be a JSON object with a Statement,
 * and no statement is evaluated yet.
 */
#include "policy/policy.h"

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base/xalloc.h"

struct floe_policy {
    cJSON *document;
};

floe_policy_t *floe_policy_parse(const char *text, size_t len, floe_policy_kind_t kind, char *err, size_t err_size)
{
    cJSON *doc = cJSON_ParseWithLength(text, len);
    floe_policy_t *policy;

    (void)kind;
    if (doc == NULL || !cJSON_IsObject(doc) || cJSON_GetObjectItemCaseSensitive(doc, "Statement") == NULL) {
        cJSON_Delete(doc);
        snprintf(err, err_size, "Syntax errors in policy.");
        return NULL;
    }
    policy = floe_xcalloc(1, sizeof(*policy));
    policy->document = doc;
    return policy;
}

void floe_policy_free(floe_policy_t *policy)
{
    if (policy == NULL)
        return;
    cJSON_Delete(policy->document);
    free(policy);
}

floe_policy_effect_t floe_policy_evaluate(const floe_policy_t *policy, const floe_policy_request_t *request,
                                          const char **statement)
{
    (void)policy;
    (void)request;
    if (statement != NULL)
        *statement = NULL;
    return FLOE_POLICY_NO_MATCH;
}
