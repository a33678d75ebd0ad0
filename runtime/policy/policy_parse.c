/*
 * Parsing and validating a policy document as IAM does
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html): the
 * elements a statement may have, the ones its kind requires or forbids, and the form of each
 * action, resource, principal and condition. The messages are IAM's MalformedPolicyDocument
 * ones (seen with aws-cli 2.x against IAM). The document is normalized as it is checked (every
 * list an array of strings), so the evaluator (policy_eval.c) trusts what it reads.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "policy/policy.h"
#include "policy/policy_doc.h"

#define SYNTAX_ERRORS "Syntax errors in policy."
#define VENDOR_PREFIX "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc."
#define LABEL_MAX 32
#define NUMBER_TEXT_MAX 64

/* The condition operators IAM knows (reference_policies_elements_condition_operators.html). */
static const char *const operators[] = {
    "StringEquals", "StringNotEquals", "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase", "StringLike",
    "StringNotLike", "NumericEquals", "NumericNotEquals", "NumericLessThan", "NumericLessThanEquals",
    "NumericGreaterThan", "NumericGreaterThanEquals", "DateEquals", "DateNotEquals", "DateLessThan",
    "DateLessThanEquals", "DateGreaterThan", "DateGreaterThanEquals", "Bool", "BinaryEquals", "IpAddress",
    "NotIpAddress", "ArnEquals", "ArnLike", "ArnNotEquals", "ArnNotLike", "Null",
};

typedef struct parse {
    char *err;
    size_t err_size;
} parse_t;

static int refuse(parse_t *p, const char *fmt, const char *arg)
{
    snprintf(p->err, p->err_size, fmt, arg);
    return FLOE_EFAIL;
}

/* A scalar as the text IAM compares: strings as they are, numbers and booleans spelled out. */
static cJSON *scalar_text(const cJSON *v)
{
    char text[NUMBER_TEXT_MAX];

    if (cJSON_IsString(v))
        return cJSON_CreateString(v->valuestring);
    if (cJSON_IsBool(v))
        return cJSON_CreateString(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsNumber(v)) {
        snprintf(text, sizeof(text), "%.17g", v->valuedouble);
        return cJSON_CreateString(text);
    }
    return NULL;
}

/*
 * `parent[name]` (case-sensitive) replaced by an array of strings: a scalar becomes a one-element
 * array. NULL when the element is neither a scalar nor an array of scalars.
 */
static const cJSON *string_list(cJSON *parent, cJSON *item)
{
    cJSON *list = cJSON_CreateArray(), *v, *s;

    if (cJSON_IsArray(item)) {
        cJSON_ArrayForEach(v, item) {
            if ((s = scalar_text(v)) == NULL) {
                cJSON_Delete(list);
                return NULL;
            }
            cJSON_AddItemToArray(list, s);
        }
    } else if ((s = scalar_text(item)) != NULL) {
        cJSON_AddItemToArray(list, s);
    } else {
        cJSON_Delete(list);
        return NULL;
    }
    list->string = item->string; /* the element keeps its name and its place */
    item->string = NULL;
    cJSON_ReplaceItemViaPointer(parent, item, list);
    return list;
}

static bool is_vendor_char(char c)
{
    return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-' || isupper((unsigned char)c);
}

static bool is_action_char(char c)
{
    return isalnum((unsigned char)c) || c == '*' || c == '?' || c == '-' || c == '_';
}

/* "*" or "<vendor>:<name>", the name of letters, digits and wildcards. */
static int check_action(parse_t *p, const char *action)
{
    const char *colon = strchr(action, ':');

    if (strcmp(action, "*") == 0)
        return FLOE_OK;
    if (colon == NULL || colon == action)
        return refuse(p, "%s", VENDOR_PREFIX);
    for (const char *c = action; c < colon; c++) {
        if (!is_vendor_char(*c))
            return refuse(p, "%s", VENDOR_PREFIX);
    }
    if (strchr(colon + 1, ':') != NULL)
        return refuse(p, "%s", "Actions/Condition can contain only one colon.");
    if (colon[1] == '\0')
        return refuse(p, "%s", "Policy has invalid action");
    for (const char *c = colon + 1; *c; c++) {
        if (!is_action_char(*c))
            return refuse(p, "%s", "Policy has invalid action");
    }
    return FLOE_OK;
}

/* "*" or an ARN: arn:<partition>:<service>:<region>:<account>:<resource>. */
static int check_resource(parse_t *p, const char *resource)
{
    int colons = 0;

    if (strcmp(resource, "*") == 0)
        return FLOE_OK;
    for (const char *c = resource; *c; c++)
        colons += *c == ':';
    if (strncmp(resource, "arn:", 4) != 0 || colons < 5)
        return refuse(p, "Resource %s must be in ARN format or \"*\".", resource);
    return FLOE_OK;
}

static bool is_account_id(const char *s)
{
    size_t n = strlen(s);

    if (n != 12)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
    }
    return true;
}

/*
 * After "arn:aws:<service>::": a 12-digit account, ':', then one of `kinds`: exactly, or, for a
 * kind ending in '/', followed by a name.
 */
static bool arn_account_then(const char *rest, const char *const *kinds, size_t n_kinds)
{
    char account[13];

    if (strlen(rest) < 13 || rest[12] != ':')
        return false;
    memcpy(account, rest, 12);
    account[12] = '\0';
    if (!is_account_id(account))
        return false;
    for (size_t i = 0; i < n_kinds; i++) {
        size_t len = strlen(kinds[i]);
        if (kinds[i][len - 1] == '/' ? strncmp(rest + 13, kinds[i], len) == 0 && rest[13 + len] != '\0'
                                     : strcmp(rest + 13, kinds[i]) == 0)
            return true;
    }
    return false;
}

/* An AWS principal IAM accepts: "*", an account id, or an account's root, user or role ARN. */
static bool aws_principal_is_valid(const char *s)
{
    static const char *const iam_kinds[] = {"root", "user/", "role/", "federated-user/"};
    static const char *const sts_kinds[] = {"assumed-role/", "federated-user/"};

    if (strcmp(s, "*") == 0 || is_account_id(s))
        return true;
    if (strncmp(s, "arn:aws:iam::", 13) == 0)
        return arn_account_then(s + 13, iam_kinds, sizeof(iam_kinds) / sizeof(iam_kinds[0]));
    if (strncmp(s, "arn:aws:sts::", 13) == 0)
        return arn_account_then(s + 13, sts_kinds, sizeof(sts_kinds) / sizeof(sts_kinds[0]));
    return false;
}

static int check_principal_list(parse_t *p, const char *kind, const cJSON *list)
{
    const cJSON *v;

    cJSON_ArrayForEach(v, list) {
        bool ok = strcmp(kind, "AWS") == 0 ? aws_principal_is_valid(v->valuestring) : v->valuestring[0] != '\0';
        if (!ok) {
            snprintf(p->err, p->err_size, "Invalid principal in policy: \"%s\":\"%s\"", kind, v->valuestring);
            return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

/* Principal or NotPrincipal: "*", or an object of AWS, Service, Federated, CanonicalUser lists. */
static int parse_principal(parse_t *p, cJSON *element, floe_policy_statement_t *st)
{
    static const char *const kinds[] = {"AWS", "Service", "Federated", "CanonicalUser"};
    cJSON *kind;
    const cJSON *list;

    if (cJSON_IsString(element) && strcmp(element->valuestring, "*") == 0) {
        st->principal_any = true;
        return FLOE_OK;
    }
    if (!cJSON_IsObject(element) || element->child == NULL)
        return refuse(p, "%s", "Invalid principal in policy");
    for (kind = element->child; kind != NULL; kind = kind->next) {
        size_t i = 0;
        while (i < sizeof(kinds) / sizeof(kinds[0]) && strcmp(kind->string, kinds[i]) != 0)
            i++;
        if (i == sizeof(kinds) / sizeof(kinds[0]))
            return refuse(p, "Invalid principal in policy: \"%s\"", kind->string);
        if ((list = string_list(element, kind)) == NULL || list->child == NULL)
            return refuse(p, "Invalid principal in policy: \"%s\"", kinds[i]);
        if (check_principal_list(p, kinds[i], list))
            return FLOE_EFAIL;
        if (i == 0)
            st->principals = list;
        else if (i == 1)
            st->services = list;
        kind = (cJSON *)list;
    }
    for (const cJSON *v = st->principals ? st->principals->child : NULL; v != NULL; v = v->next)
        st->principal_any |= strcmp(v->valuestring, "*") == 0;
    return FLOE_OK;
}

/* An operator without its ForAnyValue:/ForAllValues: qualifier and IfExists suffix. */
static bool operator_is_known(const char *op)
{
    static const char *const qualifiers[] = {"ForAnyValue:", "ForAllValues:"};
    char base[64];
    size_t len;

    for (size_t i = 0; i < sizeof(qualifiers) / sizeof(qualifiers[0]); i++) {
        if (strncmp(op, qualifiers[i], strlen(qualifiers[i])) == 0)
            op += strlen(qualifiers[i]);
    }
    len = strlen(op);
    if (len >= sizeof(base))
        return false;
    memcpy(base, op, len + 1);
    if (len > 8 && strcmp(base + len - 8, "IfExists") == 0 && strcmp(base, "NullIfExists") != 0)
        base[len - 8] = '\0';
    for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++) {
        if (strcmp(base, operators[i]) == 0)
            return true;
    }
    return false;
}

/* Condition: {operator: {key: value or [values]}}, every key vendor-prefixed. */
static int parse_condition(parse_t *p, cJSON *condition)
{
    cJSON *op, *key;

    if (!cJSON_IsObject(condition))
        return refuse(p, "%s", SYNTAX_ERRORS);
    for (op = condition->child; op != NULL; op = op->next) {
        if (!operator_is_known(op->string))
            return refuse(p, "Invalid Condition type : %s", op->string);
        if (!cJSON_IsObject(op))
            return refuse(p, "%s", SYNTAX_ERRORS);
        for (key = op->child; key != NULL; key = key->next) {
            const cJSON *list;
            if (strchr(key->string, ':') == NULL || key->string[0] == ':')
                return refuse(p, "%s", VENDOR_PREFIX);
            if ((list = string_list(op, key)) == NULL)
                return refuse(p, "%s", SYNTAX_ERRORS);
            key = (cJSON *)list;
        }
    }
    return FLOE_OK;
}

static int parse_actions(parse_t *p, cJSON *statement, cJSON *element, floe_policy_statement_t *st)
{
    const cJSON *v;

    if ((st->actions = string_list(statement, element)) == NULL)
        return refuse(p, "%s", SYNTAX_ERRORS);
    if (st->actions->child == NULL)
        return refuse(p, "%s", "Policy statement must contain actions.");
    cJSON_ArrayForEach(v, st->actions) {
        if (check_action(p, v->valuestring))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int parse_resources(parse_t *p, cJSON *statement, cJSON *element, floe_policy_statement_t *st)
{
    const cJSON *v;

    if ((st->resources = string_list(statement, element)) == NULL)
        return refuse(p, "%s", SYNTAX_ERRORS);
    if (st->resources->child == NULL)
        return refuse(p, "%s", "Policy statement must contain resources.");
    cJSON_ArrayForEach(v, st->resources) {
        if (check_resource(p, v->valuestring))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* The elements of one statement, each at most once, and nothing else. */
static int statement_elements(parse_t *p, cJSON *statement, cJSON *found[9])
{
    static const char *const names[] = {"Sid",      "Effect",   "Principal",   "NotPrincipal", "Action",
                                        "NotAction", "Resource", "NotResource", "Condition"};

    memset(found, 0, 9 * sizeof(found[0]));
    for (cJSON *e = statement->child; e != NULL; e = e->next) {
        size_t i = 0;
        while (i < 9 && strcmp(e->string, names[i]) != 0)
            i++;
        if (i == 9 || found[i] != NULL)
            return refuse(p, "%s", SYNTAX_ERRORS);
        found[i] = e;
    }
    if ((found[2] && found[3]) || (found[4] && found[5]) || (found[6] && found[7]))
        return refuse(p, "%s", SYNTAX_ERRORS);
    return FLOE_OK;
}

enum { E_SID, E_EFFECT, E_PRINCIPAL, E_NOT_PRINCIPAL, E_ACTION, E_NOT_ACTION, E_RESOURCE, E_NOT_RESOURCE, E_CONDITION };

static int statement_effect(parse_t *p, const cJSON *effect, floe_policy_statement_t *st)
{
    if (effect == NULL)
        return refuse(p, "%s", "Missing required field Effect");
    if (!cJSON_IsString(effect) || (strcmp(effect->valuestring, "Allow") != 0 && strcmp(effect->valuestring, "Deny") != 0))
        return refuse(p, "Invalid effect: %s", cJSON_IsString(effect) ? effect->valuestring : "");
    st->is_deny = strcmp(effect->valuestring, "Deny") == 0;
    return FLOE_OK;
}

/* Principal is forbidden in an identity policy and required in the others. */
static int statement_principal(parse_t *p, floe_policy_kind_t kind, cJSON *statement, cJSON *const e[9],
                               floe_policy_statement_t *st)
{
    cJSON *principal = e[E_PRINCIPAL] ? e[E_PRINCIPAL] : e[E_NOT_PRINCIPAL];

    if (kind == FLOE_POLICY_IDENTITY) {
        if (principal != NULL)
            return refuse(p, "%s", "Policy document should not specify a principal.");
        return FLOE_OK;
    }
    (void)statement;
    if (principal == NULL)
        return refuse(p, "%s", "Missing required field Principal");
    st->has_principal = true;
    st->is_not_principal = e[E_NOT_PRINCIPAL] != NULL;
    return parse_principal(p, principal, st);
}

static int parse_statement(parse_t *p, floe_policy_t *policy, cJSON *statement, size_t index)
{
    floe_policy_statement_t *st = &policy->statements[index];
    cJSON *e[9];

    if (!cJSON_IsObject(statement) || statement_elements(p, statement, e))
        return refuse(p, "%s", SYNTAX_ERRORS);
    if (e[E_SID] != NULL && !cJSON_IsString(e[E_SID]))
        return refuse(p, "%s", SYNTAX_ERRORS);
    st->label = e[E_SID] != NULL ? e[E_SID]->valuestring : policy->labels[index];
    if (statement_effect(p, e[E_EFFECT], st) || statement_principal(p, policy->kind, statement, e, st))
        return FLOE_EFAIL;
    if (e[E_ACTION] == NULL && e[E_NOT_ACTION] == NULL)
        return refuse(p, "%s", "Policy statement must contain actions.");
    st->is_not_action = e[E_NOT_ACTION] != NULL;
    if (parse_actions(p, statement, e[E_ACTION] ? e[E_ACTION] : e[E_NOT_ACTION], st))
        return FLOE_EFAIL;
    if (policy->kind == FLOE_POLICY_TRUST) {
        if (e[E_RESOURCE] != NULL || e[E_NOT_RESOURCE] != NULL)
            return refuse(p, "%s", "Has prohibited field Resource");
    } else {
        if (e[E_RESOURCE] == NULL && e[E_NOT_RESOURCE] == NULL)
            return refuse(p, "%s", "Policy statement must contain resources.");
        st->is_not_resource = e[E_NOT_RESOURCE] != NULL;
        if (parse_resources(p, statement, e[E_RESOURCE] ? e[E_RESOURCE] : e[E_NOT_RESOURCE], st))
            return FLOE_EFAIL;
    }
    if (e[E_CONDITION] != NULL) {
        if (parse_condition(p, e[E_CONDITION]))
            return FLOE_EFAIL;
        st->condition = e[E_CONDITION];
    }
    return FLOE_OK;
}

/* Statement IDs must be unique within a policy (IAM's own words). */
static int check_sids(parse_t *p, const floe_policy_t *policy)
{
    for (size_t i = 0; i < policy->n_statements; i++) {
        for (size_t j = 0; j < i; j++) {
            if (policy->statements[i].label != policy->labels[i] &&
                policy->statements[j].label != policy->labels[j] &&
                strcmp(policy->statements[i].label, policy->statements[j].label) == 0)
                return refuse(p, "%s", "Statement IDs (SID) in a single policy must be unique.");
        }
    }
    return FLOE_OK;
}

static int parse_statements(parse_t *p, floe_policy_t *policy, cJSON *statements)
{
    size_t n = cJSON_IsObject(statements) ? 1 : (size_t)cJSON_GetArraySize(statements);

    if (!cJSON_IsObject(statements) && !cJSON_IsArray(statements))
        return refuse(p, "%s", SYNTAX_ERRORS);
    if (n == 0)
        return refuse(p, "%s", "Policy document must contain at least one statement.");
    policy->statements = floe_xcalloc(n, sizeof(policy->statements[0]));
    policy->labels = floe_xcalloc(n, sizeof(policy->labels[0]));
    policy->n_statements = n;
    for (size_t i = 0; i < n; i++) {
        policy->labels[i] = floe_xmalloc(LABEL_MAX);
        snprintf(policy->labels[i], LABEL_MAX, "Statement[%zu]", i);
    }
    if (cJSON_IsObject(statements))
        return parse_statement(p, policy, statements, 0);
    for (size_t i = 0; i < n; i++) {
        if (parse_statement(p, policy, cJSON_GetArrayItem(statements, (int)i), i))
            return FLOE_EFAIL;
    }
    return check_sids(p, policy);
}

/* Version, Id and Statement, nothing else; a Version IAM knows. */
static int parse_top(parse_t *p, floe_policy_t *policy)
{
    cJSON *doc = policy->document, *statements = NULL;

    for (cJSON *e = doc->child; e != NULL; e = e->next) {
        if (strcmp(e->string, "Version") == 0) {
            if (!cJSON_IsString(e) || (strcmp(e->valuestring, "2012-10-17") != 0 && strcmp(e->valuestring, "2008-10-17") != 0))
                return refuse(p, "%s", "The policy failed legacy parsing");
        } else if (strcmp(e->string, "Statement") == 0 && statements == NULL) {
            statements = e;
        } else if (strcmp(e->string, "Id") != 0 || !cJSON_IsString(e)) {
            return refuse(p, "%s", SYNTAX_ERRORS);
        }
    }
    if (statements == NULL)
        return refuse(p, "%s", SYNTAX_ERRORS);
    return parse_statements(p, policy, statements);
}

floe_policy_t *floe_policy_parse(const char *text, size_t len, floe_policy_kind_t kind, char *err, size_t err_size)
{
    parse_t p = {err, err_size};
    floe_policy_t *policy;
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);

    if (err_size > 0)
        err[0] = '\0';
    while (doc != NULL && end < text + len && isspace((unsigned char)*end))
        end++;
    if (doc == NULL || !cJSON_IsObject(doc) || end != text + len) {
        cJSON_Delete(doc);
        refuse(&p, "%s", SYNTAX_ERRORS);
        return NULL;
    }
    policy = floe_xcalloc(1, sizeof(*policy));
    policy->document = doc;
    policy->kind = kind;
    if (parse_top(&p, policy)) {
        floe_policy_free(policy);
        return NULL;
    }
    return policy;
}

void floe_policy_free(floe_policy_t *policy)
{
    if (policy == NULL)
        return;
    for (size_t i = 0; i < policy->n_statements; i++)
        free(policy->labels[i]);
    free(policy->labels);
    free(policy->statements);
    cJSON_Delete(policy->document);
    free(policy);
}
