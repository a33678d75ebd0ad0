/*
 * The shapes of the stack API (stack.h): what its functions take, borrowed for the call, and what
 * they answer, in the call's pool. Below the API and the helpers its files share (stack_api.h),
 * which both name them.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_SHAPES_H
#define FLOE_CLOUDFORMATION_STACK_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include "call/call.h"

/* ---- inputs (borrowed for the call) ---- */

typedef struct floe_stack_tag {
    const char *key;
    const char *value;
} floe_stack_tag_t;

/** One Parameters member: ParameterKey with ParameterValue, or UsePreviousValue. */
typedef struct floe_stack_parameter_input {
    const char *key;
    const char *value;
    bool use_previous_value;
} floe_stack_parameter_input_t;

/** The template and parameters of CreateStack, UpdateStack and CreateChangeSet. */
typedef struct floe_stack_template_input {
    const char *template_body;  /* NULL with use_previous_template */
    bool is_from_url;           /* template_body was read from TemplateURL: up to 1 MB, not 51,200 bytes */
    bool use_previous_template; /* UpdateStack and CreateChangeSet only */
    const floe_stack_parameter_input_t *parameters;
    size_t n_parameters;
    const floe_stack_tag_t *tags;
    size_t n_tags;
    bool has_tags; /* Tags given (possibly empty); on an update, absent keeps the stack's tags */
} floe_stack_template_input_t;

typedef struct floe_stack_create_input {
    const char *stack_name;
    floe_stack_template_input_t template_;
    bool disable_rollback;
    const char *on_failure; /* OnFailure wire value; NULL: ROLLBACK */
    const char *caller;     /* the principal the operation acts for (floe_stack_authorize), or NULL */
} floe_stack_create_input_t;

typedef struct floe_stack_update_input {
    const char *stack_name; /* a name or a stack ARN */
    floe_stack_template_input_t template_;
    bool disable_rollback;
    const char *caller; /* as a create's */
} floe_stack_update_input_t;

typedef struct floe_stack_change_set_input {
    const char *stack_name; /* a name or a stack ARN */
    const char *change_set_name;
    const char *change_set_type; /* "CREATE" or "UPDATE"; NULL: UPDATE */
    const char *description;     /* NULL: none */
    const char *on_stack_failure; /* OnStackFailure wire value; NULL: ROLLBACK */
    floe_stack_template_input_t template_;
} floe_stack_change_set_input_t;

/* ---- outputs (in the call's pool) ---- */

typedef struct floe_stack_parameter {
    char *key;
    char *value; /* "****" for a NoEcho parameter */
} floe_stack_parameter_t;

typedef struct floe_stack_output {
    char *key, *value, *description, *export_name; /* description, export_name: NULL when absent */
} floe_stack_output_t;

typedef struct floe_stack_pair {
    char *key, *value;
} floe_stack_pair_t;

/** A stack as DescribeStacks (and, without parameters, outputs and tags, ListStacks) shows it. */
typedef struct floe_stack_info {
    char *stack_id, *name, *status, *status_reason, *description, *change_set_id;
    floe_timestamp_t created_at, updated_at, deleted_at; /* 0: absent */
    bool disable_rollback;
    floe_stack_parameter_t *parameters;
    size_t n_parameters;
    floe_stack_output_t *outputs;
    size_t n_outputs;
    floe_stack_pair_t *tags;
    size_t n_tags;
} floe_stack_info_t;

typedef struct floe_stack_event {
    char *stack_id, *stack_name, *event_id, *logical_id, *physical_id, *resource_type;
    char *status, *status_reason, *properties; /* properties: ResourceProperties, JSON text */
    floe_timestamp_t at;
} floe_stack_event_t;

typedef struct floe_stack_resource {
    char *stack_id, *stack_name, *logical_id, *physical_id, *type, *status, *status_reason;
    char *metadata, *description; /* DescribeStackResource(s) only: Metadata resolved (JSON), Description */
    floe_timestamp_t updated_at;
} floe_stack_resource_t;

/** One ResourceChangeDetail. */
typedef struct floe_stack_change_detail {
    char *attribute, *name, *requires_recreation; /* its Target */
    char *evaluation, *change_source, *causing_entity;
} floe_stack_change_detail_t;

/** One ResourceChange (Action Add, Modify or Remove). */
typedef struct floe_stack_change {
    char *action, *logical_id, *physical_id, *type, *replacement; /* replacement: Modify only */
    char **scope;
    size_t n_scope;
    floe_stack_change_detail_t *details;
    size_t n_details;
} floe_stack_change_t;

typedef struct floe_stack_change_set {
    char *change_set_id, *name, *stack_id, *stack_name, *type, *description;
    char *status, *status_reason, *execution_status;
    floe_timestamp_t created_at;
    floe_stack_parameter_t *parameters;
    size_t n_parameters;
    floe_stack_pair_t *tags;
    size_t n_tags;
    floe_stack_change_t *changes; /* DescribeChangeSet only */
    size_t n_changes;
} floe_stack_change_set_t;

typedef struct floe_stack_export {
    char *name, *value, *stack_id; /* stack_id: the exporting stack */
} floe_stack_export_t;

#endif
