/*
 * What a parsed policy holds, shared by the parser (policy_parse.c) and the evaluator (policy_eval.c):
 * the validated document, normalized so the evaluator never meets a shape it has to check again.
 * Not an API: nothing outside runtime/policy/ includes it.
 */
#ifndef FLOE_POLICY_DOC_H
#define FLOE_POLICY_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "policy/policy.h"

/*
 * One statement. Every list below is a cJSON array of strings (a lone string, a number or a
 * boolean in the document became a one-element array of strings when it was parsed).
 */
typedef struct floe_policy_statement {
    const char *label;     /* the Sid, or "Statement[<index>]" */
    bool is_deny;
    bool is_not_action;    /* NotAction rather than Action */
    bool is_not_resource;  /* NotResource rather than Resource */
    bool is_not_principal; /* NotPrincipal rather than Principal */
    bool has_principal;    /* Principal or NotPrincipal given (resource and trust policies) */
    bool principal_any;    /* "Principal": "*" or {"AWS": "*"} */
    const cJSON *actions;
    const cJSON *resources;  /* NULL in a trust policy: the role is the resource */
    const cJSON *principals; /* the AWS principals (account ids, root, user and role ARNs) */
    const cJSON *services;   /* Service principals */
    const cJSON *condition;  /* {operator: {key: [values]}}, or NULL */
} floe_policy_statement_t;

struct floe_policy {
    cJSON *document;
    floe_policy_kind_t kind;
    floe_policy_statement_t *statements;
    size_t n_statements;
    char **labels; /* the "Statement[<index>]" labels this policy made, freed with it */
};

#endif
