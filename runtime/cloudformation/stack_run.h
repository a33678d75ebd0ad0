/*
 * One piece of stack work as the engine's thread holds it (private to stack_run_steps.c,
 * stack_run.c, stack_changes.c and stack_thread.c): the stack and its resources copied off the serving thread,
 * the parsed template, and the steps that write back through the background door.
 *
 * Memory: everything in a run is malloc'ed and owned by the run (run_free), because a step's call
 * pool dies with the step. While a step runs on the serving thread the engine's thread waits for
 * it (background.h), so a step may read and write the run without a lock.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_RUN_H
#define FLOE_CLOUDFORMATION_STACK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "background/background.h"
#include "cloudformation/stack_store.h"
#include "cloudformation/stack_template.h"

/* What an update did to a resource (cfn_stack_resource.update_action). */
#define FLOE_ACTION_ADD "add"         /* created by the update: its rollback deletes it */
#define FLOE_ACTION_MODIFY "modify"   /* changed in place: old_properties is what it was */
#define FLOE_ACTION_REPLACE "replace" /* replaced: old_* is the resource the cleanup deletes */
#define FLOE_ACTION_REMOVE "remove"   /* no longer in the template: the cleanup deletes it */
#define FLOE_ACTION_DISCARD "discard" /* a rollback switched back: old_* is the new one to delete */

/** A resource of the stack (one cfn_stack_resource row); JSON held as text. */
typedef struct floe_run_res {
    char *logical_id, *type, *physical_id, *status, *status_reason;
    char *props, *attrs; /* JSON objects */
    char *deletion_policy, *update_replace_policy;
    int position;
    char *update_action, *old_type, *old_physical_id, *old_props, *old_attrs;
    cJSON *attrs_tree; /* attrs parsed for Fn::GetAtt, lazily; NULL until asked */
    bool is_unknown;   /* a change-set preview: its values are not known before execution */
} floe_run_res_t;

typedef struct floe_run {
    floe_background_t *bg;
    const floe_stack_template_ops_t *ops;
    floe_stack_work_t work;
    floe_stack_row_t stack; /* strings malloc'ed */
    floe_run_res_t *res;
    size_t n_res, cap_res;
    char **export_names, **export_values; /* the scope's exports when the run began */
    size_t n_exports;
    char **imports; /* the exports the template read, for cfn_import */
    size_t n_imports;
    floe_stack_template_t *tmpl;
    bool is_aborted;         /* a step could not run (stopping, or SQLite failed): leave the rest */
    const char *execution;   /* how the operation ends for the change set that runs it (ExecutionStatus) */
    char *unknown_cause;     /* a preview: the first unknown Ref ("B") or Fn::GetAtt ("B.Arn") resolved, malloc'ed */
    bool is_unknown_attribute; /* unknown_cause is an Fn::GetAtt's */
    cJSON *previous_parameters; /* a preview: the stack's parameters ([{ParameterKey, ParameterValue}]) */
    cJSON *parameters;          /* a preview: the change set's */
} floe_run_t;

/** An event to append (borrowed strings). */
typedef struct floe_run_event {
    const char *logical_id, *physical_id, *type, *status, *reason, *props;
} floe_run_event_t;

/* ---- runs (stack_run_steps.c) ---- */

/** A copy of `s` (NULL stays NULL), malloc'ed. */
char *floe_run_dup(const char *s);

/** Replaces *field with a copy of `value`, freeing the old one. */
void floe_run_set(char **field, const char *value);

/** The resource `logical_id` of the run, or NULL. */
floe_run_res_t *floe_run_find(floe_run_t *run, const char *logical_id);

/** Appends a resource (zeroed but for its logical id) and returns it. */
floe_run_res_t *floe_run_add(floe_run_t *run, const char *logical_id);

/** Copies every field of `src` into `dst` (malloc'ed); dst's previous strings are not freed. */
void floe_run_res_copy(floe_run_res_t *dst, const floe_run_res_t *src);

/** Frees a resource's strings and tree. */
void floe_run_res_dispose(floe_run_res_t *r);

/** Parses and validates `template_body` with `parameters` (stored JSON) for the run's stack into
 * run->tmpl. 0, or -1 with err set. */
int floe_run_template(floe_run_t *run, const char *template_body, const char *parameters, floe_stack_error_t *err);

/** The resolver over the run's resources and exports (imports are recorded in the run). */
void floe_run_resolver(floe_run_t *run, floe_stack_resolver_t *out /* OUT */);

/**
 * Adds the stack's tags (`stack_tags`, stored JSON [{Key, Value}]; NULL: none) to the Tags of
 * resolved properties `props` of a `type` that takes tags, as AWS propagates stack-level tags:
 * a key the resource tags itself keeps the resource's value. The resource's own tags come first.
 */
void floe_run_add_stack_tags(const char *type, const char *stack_tags, cJSON *props);

/** Whether a resolved tree holds an unknown value anywhere. */
bool floe_run_has_unknown(const floe_run_t *run, const cJSON *node);

/* ---- steps (stack_run_steps.c); each returns 0, or -1 with run->is_aborted set or *err filled ---- */

/** Sets the stack's status and reason, saves the stack row (every field of run->stack) and
 * appends the stack's event, in one transaction. -1 only when aborted. */
int floe_run_stack_status(floe_run_t *run, const char *status, const char *reason);

/** Moves the stack to `status` through `passed` (whose event, with `passed_reason`, comes first)
 * in one step, so no client sees the stack resting in `passed`. -1 only when aborted. */
int floe_run_stack_status_via(floe_run_t *run, const char *passed, const char *passed_reason, const char *status);

/** DELETE_IN_PROGRESS for a DeleteStack that waited for the stack's operation, taking the request. */
int floe_run_begin_delete(floe_run_t *run);

/** The ExecutionStatus the operation's change set ends with when the stack reaches the stable
 * `status`: the one a failure set (run->execution), else by the status. */
const char *floe_run_execution_status(const floe_run_t *run, const char *status);

/** Saves the stack row without an event. */
int floe_run_save_stack(floe_run_t *run);

/** Writes `next` as the resource's row (or deletes the row when `is_deleted`) with `events`, in one
 * transaction; on success moves `next` into `r`. -1 when aborted (next is disposed). */
int floe_run_write_res(floe_run_t *run, floe_run_res_t *r, floe_run_res_t *next, bool is_deleted,
                       const floe_run_event_t *events, size_t n_events);

/** The provisioning a step makes. */
typedef enum floe_run_action {
    FLOE_RUN_CREATE,     /* create `type` from next->props; physical id and attrs from the outcome */
    FLOE_RUN_UPDATE,     /* update in place from `old_props` to next->props; attrs from the outcome */
    FLOE_RUN_DELETE,     /* delete `type` `physical_id`; nothing from the outcome */
} floe_run_action_t;

/** One provisioning step: the change, what the resource's row becomes, and its two events (the
 * second event's physical id is the outcome's when it is NULL). */
typedef struct floe_run_change {
    floe_run_action_t action;
    const char *type, *physical_id;
    const char *old_props;   /* FLOE_RUN_UPDATE */
    floe_run_event_t events[2];
    bool is_row_deleted;     /* delete the row instead of writing next */
    bool keeps_physical_id;  /* the outcome's physical id and attrs do not go into next */
} floe_run_change_t;

/**
 * Runs `change` on the serving thread; on success `next` (with the outcome's physical id and
 * attributes unless keeps_physical_id) has been written with the events, and moved into `r`.
 * Returns 0; 1 when the change failed, with *reason a malloc'ed ResourceStatusReason carrying the
 * S3 Tables error's name and message (next is disposed); -1 when aborted.
 */
int floe_run_provision(floe_run_t *run, floe_run_res_t *r, floe_run_res_t *next, const floe_run_change_t *change,
                       char **reason /* OUT */);

/** Writes the outputs, exports and imports of the run's template with the stack row, in one
 * transaction. 0; 1 with *reason malloc'ed when an export is taken or in use; -1 when aborted. */
int floe_run_outputs(floe_run_t *run, char **reason /* OUT */);

/** The run's template's outputs resolved, as the stack's Outputs JSON list (malloc'ed). 0, or 1
 * with *reason malloc'ed. */
int floe_run_output_list(floe_run_t *run, char **json /* OUT */, char **reason /* OUT */);

/** Whether an export of the run's stack is imported by another live stack: FLOE_OK; 1 with *reason
 * malloc'ed (AWS's "Export X cannot be deleted as it is in use by Y"); FLOE_EFAIL when aborted. */
int floe_run_exports_in_use(floe_run_t *run, char **reason /* OUT */);

/** The end of a DeleteStack: its exports, imports and change sets go, and the stack is
 * DELETE_COMPLETE with its deletion time, in one transaction. */
int floe_run_stack_deleted(floe_run_t *run);

/** Removes the run's work from the queue; with a change set executing, sets its execution status. */
int floe_run_finish(floe_run_t *run, const char *execution_status);

/**
 * Claims the next piece of queued work, loads it into a run and hands it to run_work (the
 * engine's thread picks the phases or the change set), then frees the run. 1 when there was work,
 * 0 when the queue was empty, -1 when the door refused (stopping) or the run was aborted.
 */
int floe_run_take_one(floe_background_t *bg, void (*run_work)(floe_run_t *run));

/* ---- the phases (stack_run.c) ---- */

/** Drives the run's stack from its status to a stable one (design notes in stack_run.c). */
void floe_run_stack(floe_run_t *run);

/* ---- change sets (stack_changes.c) ---- */

/** Computes the changes of the run's change set (work.change_set_row_id) and stores them. */
void floe_run_change_set(floe_run_t *run);

/**
 * The changes of the run's template (validated in run->tmpl) against the run's resources, as a
 * JSON array of ResourceChange objects (malloc'ed text), with *n_changes their count. A resource a
 * change adds or replaces has unknown values for those that read it. NULL with *reason malloc'ed
 * when a resource's properties cannot be resolved.
 */
char *floe_run_changes(floe_run_t *run, size_t *n_changes /* OUT */, char **reason /* OUT */);

/**
 * Whether resource `r` must change to `props` (a resolved object): *is_changed, and *is_replaced
 * when a changed property (or the type `type`) replaces it.
 */
void floe_run_compare(const floe_run_t *run, const floe_run_res_t *r, const char *type, const cJSON *props,
                      bool *is_changed /* OUT */, bool *is_replaced /* OUT */);

#endif
