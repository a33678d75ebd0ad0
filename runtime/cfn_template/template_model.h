/*
 * A template as the library holds it (template.h): its parameters, resources, outputs and
 * conditions, and the look-ups every step of the library shares: a resource, a parameter or a
 * condition by name. Not for the steps themselves: parse and validate (template.c), parameters
 * (parameters.c), functions and conditions (intrinsic.c), references (references.c), the order
 * (plan.c) all include this and none of them includes another's types through it.
 */
#ifndef FLOE_CFN_TEMPLATE_TEMPLATE_MODEL_H
#define FLOE_CFN_TEMPLATE_TEMPLATE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"
#include "cfn_template/resource_types.h"

/** AWS's template limits (CloudFormation User Guide, "Quotas"). */
#define FLOE_CFN_MAX_RESOURCES 500
#define FLOE_CFN_MAX_PARAMETERS 200
#define FLOE_CFN_MAX_OUTPUTS 200
#define FLOE_CFN_MAX_MAPPINGS 200
/** The only AWSTemplateFormatVersion there is. */
#define FLOE_CFN_FORMAT_VERSION "2010-09-09"

typedef enum floe_cfn_param_type {
    FLOE_CFN_PARAM_STRING,
    FLOE_CFN_PARAM_NUMBER,
    FLOE_CFN_PARAM_NUMBER_LIST,         /* List<Number> */
    FLOE_CFN_PARAM_COMMA_DELIMITED_LIST, /* CommaDelimitedList */
} floe_cfn_param_type_t;

typedef struct floe_cfn_parameter {
    const char *name;
    const char *type;                   /* as written: "String", "CommaDelimitedList", ... */
    floe_cfn_param_type_t kind;
    const char *description;            /* NULL when absent */
    const char *constraint_description; /* NULL when absent */
    char *default_value;                /* malloc'ed text of Default, NULL when absent */
    bool is_no_echo;
    const cJSON *allowed_values;        /* array of scalars, or NULL */
    const char *allowed_pattern;        /* NULL when absent */
    bool has_min_length, has_max_length, has_min_value, has_max_value;
    double min_length, max_length, min_value, max_value;
    /* Set by floe_cfn_template_validate: */
    char *value;                        /* malloc'ed: the value in effect, as given */
    cJSON *resolved;                    /* what Ref gives: a string, or an array of strings for lists */
} floe_cfn_parameter_t;

/** DeletionPolicy and UpdateReplacePolicy. Snapshot is refused: no S3 Tables type has one. */
typedef enum floe_cfn_policy {
    FLOE_CFN_POLICY_DELETE,
    FLOE_CFN_POLICY_RETAIN,
    FLOE_CFN_POLICY_RETAIN_EXCEPT_ON_CREATE, /* Retain, except when the stack's creation rolls back */
} floe_cfn_policy_t;

typedef struct floe_cfn_resource {
    const char *logical_id;
    const char *type;                          /* "AWS::S3Tables::Table" */
    const floe_cfn_resource_type_t *type_info; /* its table (resource_types.h), never NULL */
    const cJSON *properties;                   /* the Properties as written, NULL when absent */
    const cJSON *metadata;                     /* the Metadata as written, NULL when absent */
    const char *description;                   /* the resource's Description, NULL when absent */
    const char *condition;                     /* NULL when unconditional */
    const char **depends_on;                   /* malloc'ed array of names from the template */
    size_t n_depends_on;
    floe_cfn_policy_t deletion_policy;
    floe_cfn_policy_t update_replace_policy;
    /* Set by floe_cfn_template_validate: */
    bool is_active;                            /* its Condition holds (or it has none) */
    size_t *needs;                             /* malloc'ed indices into resources: what it waits for */
    size_t n_needs;
} floe_cfn_resource_t;

typedef struct floe_cfn_output {
    const char *name;
    const cJSON *value;       /* the Value as written */
    const char *description;  /* NULL when absent */
    const cJSON *export_name; /* Export.Name as written, NULL when not exported */
    const char *condition;    /* NULL when unconditional */
    bool is_active;           /* set by floe_cfn_template_validate */
} floe_cfn_output_t;

/** What the stack supplies for the pseudo parameters (AWS::Partition and AWS::URLSuffix follow
 * from the region). All four are required; the strings are copied. */
typedef struct floe_cfn_stack_info {
    const char *account_id;
    const char *region;
    const char *stack_name;
    const char *stack_id;
} floe_cfn_stack_info_t;

/** One ParameterKey/ParameterValue pair of the request (UsePreviousValue already applied). */
typedef struct floe_cfn_param_value {
    const char *key;
    const char *value;
} floe_cfn_param_value_t;

typedef struct floe_cfn_template {
    cJSON *root;                    /* the document, owned */
    bool is_yaml;
    const char *format_version;     /* NULL when absent */
    const char *description;        /* NULL when absent */
    const cJSON *metadata;          /* the Metadata section, kept and not acted on; NULL when absent */
    const cJSON *mappings;          /* NULL when absent */
    const cJSON *conditions;        /* NULL when absent */
    floe_cfn_parameter_t *parameters;
    size_t n_parameters;
    floe_cfn_resource_t *resources; /* in template order */
    size_t n_resources;
    floe_cfn_output_t *outputs;     /* in template order */
    size_t n_outputs;

    /* Set by floe_cfn_template_validate: */
    bool is_validated;
    floe_cfn_resource_t **order;    /* the active resources in creation order; delete in reverse */
    size_t n_order;
    char *account_id, *region, *stack_name, *stack_id; /* the pseudo parameters, malloc'ed */
    const char *partition, *url_suffix;

    /* Private to the library. */
    const char **condition_names;   /* Conditions' keys, in template order */
    signed char *condition_state;   /* per condition: a floe_cfn_condition_state_t */
    size_t n_conditions;
} floe_cfn_template_t;

/** Where a condition stands (floe_cfn_template_t.condition_state). */
typedef enum floe_cfn_condition_state {
    FLOE_CFN_CONDITION_UNSET = 0,
    FLOE_CFN_CONDITION_EVALUATING,
    FLOE_CFN_CONDITION_FALSE,
    FLOE_CFN_CONDITION_TRUE,
} floe_cfn_condition_state_t;

/** The resource with this logical id, or NULL. */
floe_cfn_resource_t *floe_cfn_template_resource(const floe_cfn_template_t *t, const char *logical_id);

/** The parameter with this name, or NULL. */
floe_cfn_parameter_t *floe_cfn_template_parameter(const floe_cfn_template_t *t, const char *name);

/**
 * The value of a condition of a validated template: FLOE_OK and *value, or FLOE_EFAIL when the
 * template has no such condition or is not validated.
 */
int floe_cfn_template_condition(const floe_cfn_template_t *t, const char *name, bool *value /* OUT */);

/** The index of a condition in t->condition_names, or -1. */
int floe_cfn_condition_index(const floe_cfn_template_t *t, const char *name);

#endif
