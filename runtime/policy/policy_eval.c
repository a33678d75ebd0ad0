/*
 * Evaluating one parsed policy against one request, as AWS reads a statement
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html):
 * a statement applies when its principal, action, resource and every condition match; a Deny
 * that applies wins over any Allow. Which policies a request meets, and how their answers
 * combine across identity and resource, is the caller's (runtime/authz/).
 *
 * Conditions: the keys of one operator are AND'ed, the values of one key OR'ed; a key the request
 * does not carry fails a positive operator and satisfies a negated one (StringNotEquals, ...),
 * IfExists makes it satisfy either, ForAllValues: holds over no values, ForAnyValue: does not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "policy/policy.h"
#include "policy/policy_doc.h"
#include "policy/policy_match.h"

#define OPERATOR_MAX 64

typedef enum qualifier { SINGLE, FOR_ANY, FOR_ALL } qualifier_t;

/* One condition operator taken apart: "ForAllValues:StringNotLikeIfExists". */
typedef struct op {
    qualifier_t qualifier;
    bool if_exists;
    bool negated;               /* a Not operator: true where its positive twin is false */
    char base[OPERATOR_MAX];    /* the positive twin, without qualifier or suffix: "StringLike" */
} op_t;

/* Each negated operator and its positive twin. */
static const char *const negations[][2] = {
    {"StringNotEquals", "StringEquals"}, {"StringNotEqualsIgnoreCase", "StringEqualsIgnoreCase"},
    {"StringNotLike", "StringLike"},     {"NumericNotEquals", "NumericEquals"},
    {"DateNotEquals", "DateEquals"},     {"NotIpAddress", "IpAddress"},
    {"ArnNotEquals", "ArnEquals"},       {"ArnNotLike", "ArnLike"},
};

static void op_parse(const char *name, op_t *op)
{
    size_t len;

    op->qualifier = SINGLE;
    if (strncmp(name, "ForAnyValue:", 12) == 0) {
        op->qualifier = FOR_ANY;
        name += 12;
    } else if (strncmp(name, "ForAllValues:", 13) == 0) {
        op->qualifier = FOR_ALL;
        name += 13;
    }
    snprintf(op->base, sizeof(op->base), "%s", name);
    len = strlen(op->base);
    op->if_exists = len > 8 && strcmp(op->base + len - 8, "IfExists") == 0;
    if (op->if_exists)
        op->base[len - 8] = '\0';
    op->negated = false;
    for (size_t i = 0; i < sizeof(negations) / sizeof(negations[0]); i++) {
        if (strcmp(op->base, negations[i][0]) == 0) {
            snprintf(op->base, sizeof(op->base), "%s", negations[i][1]);
            op->negated = true;
        }
    }
}

static bool compares(const char *base, const char *prefix, const char *v, const char *p)
{
    size_t n = strlen(prefix);
    int cmp;
    const char *rel = base + n;

    if (!floe_policy_compare(v, p, n == 4, &cmp))
        return false;
    if (strcmp(rel, "Equals") == 0)
        return cmp == 0;
    if (strcmp(rel, "LessThan") == 0)
        return cmp < 0;
    if (strcmp(rel, "LessThanEquals") == 0)
        return cmp <= 0;
    if (strcmp(rel, "GreaterThan") == 0)
        return cmp > 0;
    return strcmp(rel, "GreaterThanEquals") == 0 && cmp >= 0;
}

/* Whether the request's value `v` meets the policy's value `p` under the positive operator. */
static bool value_meets(const char *base, const char *v, const char *p)
{
    if (strcmp(base, "StringEquals") == 0 || strcmp(base, "BinaryEquals") == 0)
        return strcmp(v, p) == 0;
    if (strcmp(base, "StringEqualsIgnoreCase") == 0)
        return strcasecmp(v, p) == 0;
    if (strcmp(base, "StringLike") == 0)
        return floe_policy_glob(p, v, false);
    if (strcmp(base, "ArnEquals") == 0 || strcmp(base, "ArnLike") == 0)
        return floe_policy_arn_like(p, v);
    if (strcmp(base, "Bool") == 0)
        return strcasecmp(v, p) == 0;
    if (strcmp(base, "IpAddress") == 0)
        return floe_policy_ip_in(p, v);
    if (strncmp(base, "Numeric", 7) == 0)
        return compares(base, "Numeric", v, p);
    if (strncmp(base, "Date", 4) == 0)
        return compares(base, "Date", v, p);
    return false;
}

static bool value_meets_any(const op_t *op, const char *v, const cJSON *values)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, values) {
        if (value_meets(op->base, v, p->valuestring))
            return true;
    }
    return false;
}

/* Context keys are case-insensitive (reference_policies_condition-keys.html). */
static size_t context_values(const floe_policy_request_t *req, const char *key, const char **out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < req->n_context && n < max; i++) {
        if (req->context[i].value != NULL && strcasecmp(req->context[i].key, key) == 0)
            out[n++] = req->context[i].value;
    }
    return n;
}

/* Null: "true" holds when the key is absent, "false" when it is present. */
static bool null_holds(size_t n_values, const cJSON *values)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, values) {
        if ((strcasecmp(p->valuestring, "true") == 0) == (n_values == 0))
            return true;
    }
    return false;
}

static bool key_holds(const op_t *op, const char *key, const cJSON *values, const floe_policy_request_t *req)
{
    const char *ctx[req->n_context + 1];
    size_t n = context_values(req, key, ctx, req->n_context);
    size_t met = 0;

    if (strcmp(op->base, "Null") == 0)
        return null_holds(n, values);
    if (n == 0)
        return op->if_exists || op->qualifier == FOR_ALL || (op->qualifier == SINGLE && op->negated);
    for (size_t i = 0; i < n; i++)
        met += value_meets_any(op, ctx[i], values) != op->negated;
    if (op->qualifier == FOR_ALL)
        return met == n;
    if (op->qualifier == FOR_ANY)
        return met > 0;
    /* one value per key, or several read as IAM does without a set operator: any may match,
       and a negated operator holds only if none of them matches */
    return op->negated ? met == n : met > 0;
}

static bool conditions_hold(const cJSON *condition, const floe_policy_request_t *req)
{
    const cJSON *operator, *key;
    op_t op;

    if (condition == NULL)
        return true;
    for (operator = condition->child; operator != NULL; operator = operator->next) {
        op_parse(operator->string, &op);
        for (key = operator->child; key != NULL; key = key->next) {
            if (!key_holds(&op, key->string, key, req))
                return false;
        }
    }
    return true;
}

static bool list_matches(const cJSON *patterns, const char *value, bool ignore_case)
{
    const cJSON *p;

    if (value == NULL)
        return false;
    cJSON_ArrayForEach(p, patterns) {
        if (floe_policy_glob(p->valuestring, value, ignore_case))
            return true;
    }
    return false;
}

/* An AWS principal entry: "*", the account (its id or root ARN), the principal, or its role. */
static bool names_principal(const char *entry, const floe_policy_request_t *req)
{
    size_t account_len = req->principal_account ? strlen(req->principal_account) : 0;

    if (strcmp(entry, "*") == 0)
        return true;
    if (account_len > 0 && strcmp(entry, req->principal_account) == 0)
        return true;
    if (account_len > 0 && strncmp(entry, "arn:aws:iam::", 13) == 0 &&
        strncmp(entry + 13, req->principal_account, account_len) == 0 && strcmp(entry + 13 + account_len, ":root") == 0)
        return true;
    return (req->principal_arn && strcmp(entry, req->principal_arn) == 0) ||
           (req->role_arn && strcmp(entry, req->role_arn) == 0);
}

static bool principal_matches(const floe_policy_statement_t *st, const floe_policy_request_t *req)
{
    const cJSON *p;
    bool named = st->principal_any;

    if (!st->has_principal)
        return true;
    for (p = st->principals ? st->principals->child : NULL; p != NULL && !named; p = p->next)
        named = names_principal(p->valuestring, req);
    return named != st->is_not_principal;
}

/* Whether a statement names the request's principal, action and resource, its conditions aside. */
static bool statement_names(const floe_policy_statement_t *st, const floe_policy_request_t *req)
{
    if (!principal_matches(st, req))
        return false;
    if (list_matches(st->actions, req->action, true) == st->is_not_action)
        return false;
    return st->resources == NULL || list_matches(st->resources, req->resource, false) != st->is_not_resource;
}

static bool statement_applies(const floe_policy_statement_t *st, const floe_policy_request_t *req)
{
    return statement_names(st, req) && conditions_hold(st->condition, req);
}

static void add_key(const char *key, const char **keys, size_t *n, size_t max)
{
    for (size_t i = 0; i < *n; i++) {
        if (strcasecmp(keys[i], key) == 0)
            return;
    }
    if (*n < max)
        keys[(*n)++] = key;
}

void floe_policy_missing_keys(const floe_policy_t *policy, const floe_policy_request_t *request, const char **keys,
                              size_t *n, size_t max)
{
    const char *value;

    for (size_t i = 0; policy != NULL && i < policy->n_statements; i++) {
        const floe_policy_statement_t *st = &policy->statements[i];
        if (st->condition == NULL || !statement_names(st, request))
            continue;
        for (const cJSON *op = st->condition->child; op != NULL; op = op->next) {
            for (const cJSON *key = op->child; key != NULL; key = key->next) {
                if (context_values(request, key->string, &value, 1) == 0)
                    add_key(key->string, keys, n, max);
            }
        }
    }
}

floe_policy_effect_t floe_policy_evaluate(const floe_policy_t *policy, const floe_policy_request_t *request,
                                          const char **statement)
{
    const floe_policy_statement_t *allow = NULL;

    for (size_t i = 0; policy != NULL && i < policy->n_statements; i++) {
        const floe_policy_statement_t *st = &policy->statements[i];
        if (!statement_applies(st, request))
            continue;
        if (st->is_deny) {
            if (statement != NULL)
                *statement = st->label;
            return FLOE_POLICY_DENY;
        }
        if (allow == NULL)
            allow = st;
    }
    if (statement != NULL)
        *statement = allow ? allow->label : NULL;
    return allow ? FLOE_POLICY_ALLOW : FLOE_POLICY_NO_MATCH;
}
