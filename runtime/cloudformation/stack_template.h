/*
 * What the stack engine needs from the CloudFormation template library, and nothing more: parse
 * and validate a template with its parameters, list the active resources in creation order,
 * resolve a resource's properties and the outputs with the values only the engine knows (physical
 * ids, attributes, exports). The engine and the stack API (stack.h) call the library only through
 * this table, so they build and are tested without it (tests/unit/runtime/cloudformation/ holds a
 * JSON-only double) and the library stays free of stacks.
 *
 * The library registers its table once at start-up (floe_stack_template_register), before any
 * request is served; the table is read-only after that, like the router. Without a registered
 * library the stack API refuses every template with a ValidationError that says so.
 *
 * The functions mirror the template library's (runtime/cfn_template/template.h:
 * floe_cfn_template_parse, floe_cfn_template_validate, floe_cfn_resource_properties,
 * floe_cfn_output_value, floe_cfn_is_unknown), so its table is a thin bridge.
 *
 * Ownership: a template from `parse` is released with `free`. Strings a function hands out as
 * `const char *` are borrowed from the template and live as long as it does; cJSON trees and
 * `char *` strings belong to the caller (cJSON_Delete, free).
 */
#ifndef FLOE_CLOUDFORMATION_STACK_TEMPLATE_H
#define FLOE_CLOUDFORMATION_STACK_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/** Longest message kept, with its NUL (the library's FLOE_CFN_MESSAGE_MAX). */
#define FLOE_STACK_MESSAGE_MAX 2048

/** Why a template function failed: one sentence worded as AWS words its ValidationError. */
typedef struct floe_stack_error {
    char message[FLOE_STACK_MESSAGE_MAX];
} floe_stack_error_t;

/** A parsed template (the library's own type behind it). */
typedef struct floe_stack_template floe_stack_template_t;

/** The pseudo parameters of the stack the template is validated for (copied by the library). */
typedef struct floe_stack_pseudo {
    const char *account_id;
    const char *region;
    const char *stack_name;
    const char *stack_id;
} floe_stack_pseudo_t;

/** One parameter value given for the stack (UsePreviousValue already applied). */
typedef struct floe_stack_param_value {
    const char *key;
    const char *value;
} floe_stack_param_value_t;

/** A declared parameter of a validated template, with the value in effect. */
typedef struct floe_stack_template_parameter {
    const char *name;
    const char *value; /* as given, or the Default */
    bool is_no_echo;
} floe_stack_template_parameter_t;

/** DeletionPolicy and UpdateReplacePolicy. */
typedef enum floe_stack_policy {
    FLOE_STACK_POLICY_DELETE,
    FLOE_STACK_POLICY_RETAIN,
    FLOE_STACK_POLICY_RETAIN_EXCEPT_ON_CREATE, /* Retain, except when the stack's creation rolls back */
} floe_stack_policy_t;

/** An active resource of a validated template (its Condition holds, or it has none). */
typedef struct floe_stack_template_resource {
    const char *logical_id;
    const char *type;
    floe_stack_policy_t deletion_policy;
    floe_stack_policy_t update_replace_policy;
} floe_stack_template_resource_t;

/** An active output of a validated template, resolved. */
typedef struct floe_stack_template_output {
    const char *name;        /* borrowed */
    const char *description; /* borrowed; NULL when absent */
    char *value;             /* malloc'ed; NULL when it depends on something unknown */
    char *export_name;       /* malloc'ed; NULL when the output is not exported (or unknown) */
} floe_stack_template_output_t;

/**
 * What the engine supplies while the library resolves. Each callback returns 0 with *value set to
 * a string that stays alive until the resolving function returns, or NULL for "not known yet" (the
 * result is then unknown, floe_stack_template_ops_t.is_unknown); or -1 with err set (an import
 * that names no export: "No export named X found."). Any callback may be NULL: unknown.
 */
typedef struct floe_stack_resolver {
    int (*ref)(void *ctx, const char *logical_id, const char **value /* OUT */, floe_stack_error_t *err);
    int (*get_att)(void *ctx, const char *logical_id, const char *attribute, const char **value /* OUT */,
                   floe_stack_error_t *err);
    int (*import_value)(void *ctx, const char *export_name, const char **value /* OUT */, floe_stack_error_t *err);
    void *ctx;
} floe_stack_resolver_t;

/** The library, as a table of functions. Every int function returns 0, or -1 with err set. */
typedef struct floe_stack_template_ops {
    /** Reads JSON or YAML text and checks what needs no parameter values (floe_cfn_template_parse). */
    int (*parse)(const char *text, size_t len, floe_stack_template_t **out /* OUT */, floe_stack_error_t *err);
    void (*free)(floe_stack_template_t *t);
    /** Binds pseudo parameters and values, evaluates conditions, orders the active resources and
     * checks their properties with references left unknown (floe_cfn_template_validate). */
    int (*validate)(floe_stack_template_t *t, const floe_stack_pseudo_t *pseudo, const floe_stack_param_value_t *params,
                    size_t n_params, floe_stack_error_t *err);
    /** The template's Description, or NULL. */
    const char *(*description)(const floe_stack_template_t *t);
    /** The declared parameters of a validated template, in template order. */
    size_t (*n_parameters)(const floe_stack_template_t *t);
    void (*parameter)(const floe_stack_template_t *t, size_t i, floe_stack_template_parameter_t *out /* OUT */);
    /** The active resources of a validated template, in creation order (delete in reverse). */
    size_t (*n_resources)(const floe_stack_template_t *t);
    void (*resource)(const floe_stack_template_t *t, size_t i, floe_stack_template_resource_t *out /* OUT */);
    /** Resource `logical_id`'s Properties resolved with `resolver` and checked against its type
     * (floe_cfn_resource_properties); *out is a JSON object the caller deletes. */
    int (*resource_properties)(const floe_stack_template_t *t, const char *logical_id,
                               const floe_stack_resolver_t *resolver, cJSON **out /* OUT */, floe_stack_error_t *err);
    /** The active outputs of a validated template, in template order (floe_cfn_output_value). */
    size_t (*n_outputs)(const floe_stack_template_t *t);
    int (*output)(const floe_stack_template_t *t, size_t i, const floe_stack_resolver_t *resolver,
                  floe_stack_template_output_t *out /* OUT */, floe_stack_error_t *err);
    /** Optional (NULL: none known). Active resource `logical_id`'s Metadata resolved with `resolver`
     * (*metadata, a tree the caller deletes; NULL when it has none) and its Description
     * (*description, borrowed; NULL when none): what DescribeStackResource answers. 0, or -1 for a
     * resource the validated template does not hold active, or with err set. */
    int (*resource_details)(const floe_stack_template_t *t, const char *logical_id,
                            const floe_stack_resolver_t *resolver, cJSON **metadata /* OUT */,
                            const char **description /* OUT */, floe_stack_error_t *err);
    /** Whether a node of a resolved tree is unknown (floe_cfn_is_unknown). */
    bool (*is_unknown)(const cJSON *node);
    /** Optional (NULL: none known). Calls `on_parameter` with each declared parameter that property
     * `property` of resource `logical_id` reads as written (Ref, ${Name} in Fn::Sub), following the
     * branches a validated template's conditions take: what a change set names as the
     * ParameterReference of a change. */
    void (*property_parameters)(const floe_stack_template_t *t, const char *logical_id, const char *property,
                                void (*on_parameter)(void *arg, const char *name), void *arg);
} floe_stack_template_ops_t;

/** The template library's table (stack_template_cfn.c), registered by default. */
extern const floe_stack_template_ops_t floe_stack_template_cfn;

/** Makes `ops` the template library of the process; call once before serving (NULL: none). */
void floe_stack_template_register(const floe_stack_template_ops_t *ops);

/** The registered library, or NULL when none is. */
const floe_stack_template_ops_t *floe_stack_template_ops(void);

#endif
