/*
 * The resource-policy check of policy.h. The grammar and the messages are those of AWS access
 * policies (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html);
 * the messages are the MalformedPolicy wording S3 uses for bucket policies, since S3 Tables does
 * not document its own. The structure is checked here; what each statement says (its actions,
 * resources, principals, conditions) is then checked by the policy library, in IAM's words.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/failure.h"
#include "catalog/policy.h"
#include "policy/policy.h"

/* The policy language versions AWS accepts (IAM JSON policy elements: Version). */
static const char *const versions[] = {"2012-10-17", "2008-10-17"};

static int refuse(char *why, size_t why_len, const char *sentence)
{
    snprintf(why, why_len, "%s", sentence);
    return FLOE_EFAIL;
}

/* Policy element names are case-sensitive, unlike cJSON_HasObjectItem. */
static bool has_element(const cJSON *object, const char *element)
{
    return cJSON_GetObjectItemCaseSensitive(object, element) != NULL;
}

static bool has_either(const cJSON *statement, const char *element, const char *negated)
{
    return has_element(statement, element) || has_element(statement, negated);
}

static bool version_is_known(const cJSON *version)
{
    if (!cJSON_IsString(version))
        return false;
    for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
        if (strcmp(version->valuestring, versions[i]) == 0)
            return true;
    }
    return false;
}

/* One element of Statement: Effect, and each element a resource policy statement must have. */
static int check_statement(const cJSON *statement, char *why, size_t why_len)
{
    const cJSON *effect;

    if (!cJSON_IsObject(statement))
        return refuse(why, why_len, "Each policy statement must be a JSON object.");
    effect = cJSON_GetObjectItemCaseSensitive(statement, "Effect");
    if (effect == NULL)
        return refuse(why, why_len, "Missing required field Effect");
    if (!cJSON_IsString(effect) || (strcmp(effect->valuestring, "Allow") != 0 && strcmp(effect->valuestring, "Deny") != 0))
        return refuse(why, why_len, "Invalid effect: the Effect of a statement must be Allow or Deny");
    if (!has_either(statement, "Principal", "NotPrincipal"))
        return refuse(why, why_len, "Missing required field Principal");
    if (!has_either(statement, "Action", "NotAction"))
        return refuse(why, why_len, "Missing required field Action");
    if (!has_either(statement, "Resource", "NotResource"))
        return refuse(why, why_len, "Missing required field Resource");
    return 0;
}

static int check_statements(const cJSON *statements, char *why, size_t why_len)
{
    const cJSON *statement;

    if (cJSON_IsObject(statements))
        return check_statement(statements, why, why_len);
    if (!cJSON_IsArray(statements) || cJSON_GetArraySize(statements) == 0)
        return refuse(why, why_len, "Missing required field Statement");
    cJSON_ArrayForEach(statement, statements) {
        if (check_statement(statement, why, why_len))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* What the statements say, as IAM validates a resource policy (policy/policy.h): actions, resources,
 * principals and conditions of the forms a policy may take, so that what is stored takes effect. */
static int check_meaning(const char *doc, char *why, size_t why_len)
{
    floe_policy_t *parsed = floe_policy_parse(doc, strlen(doc), FLOE_POLICY_RESOURCE, why, why_len);

    if (parsed == NULL)
        return FLOE_EFAIL;
    floe_policy_free(parsed);
    return FLOE_OK;
}

int floe_policy_check(const char *doc, char *why, size_t why_len)
{
    cJSON *policy = cJSON_ParseWithOpts(doc, NULL, true); /* true: nothing may follow the object */
    int rc;

    if (!cJSON_IsObject(policy))
        rc = refuse(why, why_len, "Policies must be valid JSON and the first byte must be '{'");
    else if (!version_is_known(cJSON_GetObjectItemCaseSensitive(policy, "Version")))
        rc = refuse(why, why_len, "The policy must contain a valid version string");
    else if (!has_element(policy, "Statement"))
        rc = refuse(why, why_len, "Missing required field Statement");
    else
        rc = check_statements(cJSON_GetObjectItemCaseSensitive(policy, "Statement"), why, why_len);
    cJSON_Delete(policy);
    if (rc == FLOE_OK)
        rc = check_meaning(doc, why, why_len);
    return rc;
}
