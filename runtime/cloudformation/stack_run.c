/*
 * The phases of a stack (stack_run.h): what the engine does in each in-progress status, and the
 * status each phase leaves the stack in. The status is the program counter: it is stored with
 * every transition, so a restart resumes from it (stack_thread.h).
 *
 * Design notes:
 *
 *   CreateStack ─▶ CREATE_IN_PROGRESS ─run_create─▶ CREATE_COMPLETE
 *                      │ a resource fails (or the restart caught it here): fail_create
 *                      ├─ DisableRollback or OnFailure DO_NOTHING ─▶ CREATE_FAILED
 *                      ├─ OnFailure DELETE ─▶ CREATE_FAILED ─▶ DELETE_IN_PROGRESS
 *                      └─▶ ROLLBACK_IN_PROGRESS ─run_delete─▶ ROLLBACK_COMPLETE (ROLLBACK_FAILED)
 *   DeleteStack ─▶ DELETE_IN_PROGRESS ─run_delete─▶ DELETE_COMPLETE (DELETE_FAILED)
 *   UpdateStack ─▶ UPDATE_IN_PROGRESS ─run_update─▶ UPDATE_COMPLETE_CLEANUP_IN_PROGRESS
 *                      ─run_cleanup─▶ UPDATE_COMPLETE
 *                      │ a resource fails (or the restart caught it here): fail_update
 *                      ├─ DisableRollback ─▶ UPDATE_FAILED
 *                      └─▶ UPDATE_ROLLBACK_IN_PROGRESS ─run_update_rollback─▶
 *                          UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ─run_rollback_cleanup─▶
 *                          UPDATE_ROLLBACK_COMPLETE (UPDATE_ROLLBACK_FAILED)
 *   a stable stack with is_delete_requested ─begin_delete─▶ DELETE_IN_PROGRESS
 *
 *  1. Resources are created and updated in the template's creation order and deleted in reverse
 *     (position descending), so a namespace goes after its tables and before its bucket.
 *  2. An update records on each resource what it did (update_action, with the old physical id and
 *     properties it replaced), in the transaction that does it; the cleanup and the rollback read
 *     only that, so either can resume after a restart.
 *  3. A replacement creates the new resource first, switches references over (later resources
 *     resolve against the new physical id) and deletes the old one in the cleanup, keeping it when
 *     UpdateReplacePolicy is Retain. A replacement that would need the old one's name is refused,
 *     as AWS refuses it.
 *  4. Deletes honour DeletionPolicy Retain (and RetainExceptOnCreate, except when a creation rolls
 *     back), and DeleteStack's RetainResources: the resource gets DELETE_SKIPPED and stays.
 *  5. A failure during a cleanup is reported as an event and does not fail the update, as on AWS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "cloudformation/provision.h"
#include "cloudformation/stack_run.h"
#include "cloudformation/stack_status.h"

#define RESTART_REASON "The server restarted during the operation."
#define ROLLBACK_REQUESTED "Rollback requested by user."
#define REPLACEMENT_REASON "Requested update requires the creation of a new physical resource; hence creating one."
#define RENAME_REASON                                                                                         \
    "CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename %s and update " \
    "the stack again."
#define UNRESOLVED_REASON "Template error: a property of %s could not be resolved."

typedef enum delete_mode {
    MODE_DELETE,   /* DeleteStack */
    MODE_ROLLBACK, /* a failed creation */
} delete_mode_t;

static bool eq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static char *format(const char *fmt, const char *arg)
{
    char *s;
    if (asprintf(&s, fmt, arg) < 0)
        abort();
    return s;
}

static const char *policy_text(floe_stack_policy_t policy)
{
    switch (policy) {
    case FLOE_STACK_POLICY_RETAIN: return FLOE_POLICY_RETAIN;
    case FLOE_STACK_POLICY_RETAIN_EXCEPT_ON_CREATE: return FLOE_POLICY_RETAIN_EXCEPT_ON_CREATE;
    default: return FLOE_POLICY_DELETE;
    }
}

/* The run's resources in delete order (design note 1): malloc'ed indices, position descending. */
static size_t *delete_order(const floe_run_t *run)
{
    size_t *order = floe_xcalloc(run->n_res + 1, sizeof(*order));

    for (size_t i = 0; i < run->n_res; i++) {
        size_t j = i;
        while (j > 0 && run->res[order[j - 1]].position < run->res[i].position) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    return order;
}

/* "The following resource(s) failed to <verb>: [Id]. " as AWS words a stack's reason. */
static char *failed_reason(const char *verb, const char *logical_id)
{
    char *s;
    if (asprintf(&s, "The following resource(s) failed to %s: [%s]. ", verb, logical_id) < 0)
        abort();
    return s;
}

/* Records that a change of `r` failed: `next_status` with `reason`, after `in_progress`. */
static int record_failure(floe_run_t *run, floe_run_res_t *r, const floe_run_res_t *target, const char *in_progress,
                          const char *failed, const char *reason)
{
    floe_run_res_t next;
    floe_run_event_t events[2] = {
        {target->logical_id, r->physical_id, target->type, in_progress, NULL, target->props},
        {target->logical_id, r->physical_id, target->type, failed, reason, NULL},
    };

    floe_run_res_copy(&next, target);
    floe_run_set(&next.status, failed);
    floe_run_set(&next.status_reason, reason);
    return floe_run_write_res(run, r, &next, false, events, 2);
}

/* Resolves the properties of template resource `id` into malloc'ed JSON text; NULL with *reason
 * malloc'ed when they cannot be (a template error, or a value still unknown). */
static char *resolve_props(floe_run_t *run, const char *id, const char *type, char **reason)
{
    floe_stack_resolver_t resolver;
    floe_stack_error_t err;
    cJSON *props = NULL;
    char *text;

    floe_run_resolver(run, &resolver);
    err.message[0] = '\0';
    if (run->ops->resource_properties(run->tmpl, id, &resolver, &props, &err) != 0) {
        *reason = floe_xstrdup(err.message);
        return NULL;
    }
    if (floe_run_has_unknown(run, props)) {
        cJSON_Delete(props);
        *reason = format(UNRESOLVED_REASON, id);
        return NULL;
    }
    floe_run_add_stack_tags(type, run->stack.tags, props);
    text = cJSON_PrintUnformatted(props);
    cJSON_Delete(props);
    return text;
}

/* What a template resource makes of `r`'s row: its type, properties, position and policies. */
static void take_template(floe_run_res_t *next, const floe_stack_template_resource_t *tr, char *props, int position)
{
    floe_run_set(&next->type, tr->type);
    free(next->props);
    next->props = props;
    next->position = position;
    floe_run_set(&next->deletion_policy, policy_text(tr->deletion_policy));
    floe_run_set(&next->update_replace_policy, policy_text(tr->update_replace_policy));
    floe_run_set(&next->status_reason, NULL);
}

/* ---- create ---- */

/* Creates template resource `tr` at `position`. 0; 1 when it failed (recorded); -1 aborted. */
static int create_resource(floe_run_t *run, const floe_stack_template_resource_t *tr, int position,
                           const char *update_action)
{
    floe_run_res_t *r = floe_run_find(run, tr->logical_id), next = {0}, target = {0};
    char *reason = NULL, *props;
    int rc;

    if (r == NULL)
        r = floe_run_add(run, tr->logical_id);
    floe_run_res_copy(&next, r);
    props = resolve_props(run, tr->logical_id, tr->type, &reason);
    take_template(&next, tr, props != NULL ? props : floe_xstrdup("{}"), position);
    floe_run_set(&next.update_action, update_action);
    if (props == NULL) {
        rc = record_failure(run, r, &next, FLOE_CREATE_IN_PROGRESS, FLOE_CREATE_FAILED, reason);
        floe_run_res_dispose(&next);
        free(reason);
        return rc < 0 ? -1 : 1;
    }
    floe_run_set(&next.status, FLOE_CREATE_COMPLETE);
    floe_run_res_copy(&target, &next);
    floe_run_change_t change = {
        .action = FLOE_RUN_CREATE,
        .type = target.type,
        .events = {{target.logical_id, NULL, target.type, FLOE_CREATE_IN_PROGRESS, NULL, target.props},
                   {target.logical_id, NULL, target.type, FLOE_CREATE_COMPLETE, NULL, NULL}},
    };
    rc = floe_run_provision(run, r, &next, &change, &reason);
    if (rc > 0 && record_failure(run, r, &target, FLOE_CREATE_IN_PROGRESS, FLOE_CREATE_FAILED, reason) < 0)
        rc = -1;
    floe_run_res_dispose(&target);
    free(reason);
    return rc;
}

static int fail_create(floe_run_t *run, const char *reason)
{
    char *rollback;
    int rc;

    if (run->execution == NULL)
        run->execution = FLOE_EXECUTION_FAILED;
    if (run->stack.disable_rollback || eq(run->stack.on_failure, FLOE_ON_FAILURE_DO_NOTHING))
        return floe_run_stack_status(run, FLOE_CREATE_FAILED, reason);
    if (eq(run->stack.on_failure, FLOE_ON_FAILURE_DELETE))
        return floe_run_stack_status_via(run, FLOE_CREATE_FAILED, reason, FLOE_DELETE_IN_PROGRESS);
    if (asprintf(&rollback, "%s%s%s", reason, reason[strlen(reason) - 1] == ' ' ? "" : " ", ROLLBACK_REQUESTED) < 0)
        abort();
    rc = floe_run_stack_status(run, FLOE_ROLLBACK_IN_PROGRESS, rollback);
    free(rollback);
    return rc;
}

static int run_create(floe_run_t *run)
{
    floe_stack_template_resource_t tr;
    floe_stack_error_t err;
    char *reason = NULL;
    size_t n;
    int rc;

    err.message[0] = '\0';
    if (floe_run_template(run, run->stack.template_body, run->stack.parameters, &err) != 0)
        return fail_create(run, err.message);
    floe_run_set(&run->stack.description, run->ops->description(run->tmpl));
    n = run->ops->n_resources(run->tmpl);
    for (size_t i = 0; i < n; i++) {
        run->ops->resource(run->tmpl, i, &tr);
        if ((rc = create_resource(run, &tr, (int)i, NULL)) != 0) {
            if (rc < 0)
                return FLOE_EFAIL;
            reason = failed_reason("create", tr.logical_id);
            rc = fail_create(run, reason);
            free(reason);
            return rc;
        }
    }
    if ((rc = floe_run_outputs(run, &reason)) != 0) {
        rc = rc < 0 ? -1 : fail_create(run, reason);
        free(reason);
        return rc;
    }
    return floe_run_stack_status(run, FLOE_CREATE_COMPLETE, NULL);
}

/* ---- delete (DeleteStack, and the rollback of a creation) ---- */

static bool is_retained(const floe_run_t *run, const floe_run_res_t *r, delete_mode_t mode)
{
    cJSON *list, *item;
    bool is_listed = false;

    if (eq(r->deletion_policy, FLOE_POLICY_RETAIN) ||
        (eq(r->deletion_policy, FLOE_POLICY_RETAIN_EXCEPT_ON_CREATE) && mode == MODE_DELETE))
        return true;
    if (mode != MODE_DELETE || run->stack.retain_resources == NULL)
        return false;
    list = cJSON_Parse(run->stack.retain_resources);
    cJSON_ArrayForEach(item, list) is_listed |= eq(cJSON_GetStringValue(item), r->logical_id);
    cJSON_Delete(list);
    return is_listed;
}

/* Writes `r` with `status` and one event of that status: a resource nothing is done to. */
static int mark(floe_run_t *run, floe_run_res_t *r, const char *status, const char *reason, bool is_row_deleted)
{
    floe_run_res_t next;
    floe_run_event_t e = {r->logical_id, r->physical_id, r->type, status, reason, NULL};

    floe_run_res_copy(&next, r);
    floe_run_set(&next.status, status);
    floe_run_set(&next.status_reason, reason);
    return floe_run_write_res(run, r, &next, is_row_deleted, &e, 1);
}

/* Deletes `type` `physical_id` for resource `r`, whose row then becomes `next` (or is deleted).
 * 0, 1 with *reason malloc'ed, or -1. */
static int delete_physical(floe_run_t *run, floe_run_res_t *r, floe_run_res_t *next, const char *type,
                           const char *physical_id, bool is_row_deleted, char **reason)
{
    floe_run_change_t change = {
        .action = FLOE_RUN_DELETE,
        .type = type,
        .physical_id = physical_id,
        .events = {{r->logical_id, physical_id, type, FLOE_DELETE_IN_PROGRESS, NULL, NULL},
                   {r->logical_id, physical_id, type, FLOE_DELETE_COMPLETE, NULL, NULL}},
        .is_row_deleted = is_row_deleted,
        .keeps_physical_id = true,
    };
    return floe_run_provision(run, r, next, &change, reason);
}

/* Deletes resource `r` (and the replaced resource an interrupted update left beside it). FLOE_OK; 1
 * when it failed (recorded on the resource); FLOE_EFAIL aborted. */
static int delete_resource(floe_run_t *run, floe_run_res_t *r, delete_mode_t mode)
{
    floe_run_res_t next;
    char *reason = NULL;
    int rc = FLOE_OK;

    if (r->old_physical_id != NULL) {
        floe_run_res_copy(&next, r);
        floe_run_set(&next.old_physical_id, NULL);
        rc = delete_physical(run, r, &next, r->old_type, r->old_physical_id, false, &reason);
        free(reason);
        reason = NULL;
        if (rc < 0)
            return FLOE_EFAIL;
    }
    if (r->physical_id == NULL) /* never made: a failed creation's resource */
        return mark(run, r, FLOE_DELETE_COMPLETE, NULL, false) < 0 ? FLOE_EFAIL : FLOE_OK;
    if (is_retained(run, r, mode))
        return mark(run, r, FLOE_DELETE_SKIPPED, NULL, false) < 0 ? FLOE_EFAIL : FLOE_OK;
    floe_run_res_copy(&next, r);
    floe_run_set(&next.status, FLOE_DELETE_COMPLETE);
    rc = delete_physical(run, r, &next, r->type, r->physical_id, false, &reason);
    if (rc > 0) {
        floe_run_res_t target;
        floe_run_res_copy(&target, r);
        if (record_failure(run, r, &target, FLOE_DELETE_IN_PROGRESS, FLOE_DELETE_FAILED, reason) < 0)
            rc = FLOE_EFAIL;
        floe_run_res_dispose(&target);
    }
    free(reason);
    return rc;
}

static int run_delete(floe_run_t *run, delete_mode_t mode)
{
    size_t *order = delete_order(run);
    char *reason = NULL;
    int rc = 0;

    if (mode == MODE_DELETE && (rc = floe_run_exports_in_use(run, &reason)) != 0) {
        free(order);
        rc = rc < 0 ? -1 : floe_run_stack_status(run, FLOE_DELETE_FAILED, reason);
        free(reason);
        return rc;
    }
    for (size_t i = 0; i < run->n_res && rc == 0; i++) {
        floe_run_res_t *r = &run->res[order[i]];
        if (!eq(r->status, FLOE_DELETE_COMPLETE) && !eq(r->status, FLOE_DELETE_SKIPPED) &&
            (rc = delete_resource(run, r, mode)) > 0)
            reason = failed_reason("delete", r->logical_id);
    }
    free(order);
    if (rc != 0) {
        rc = rc < 0 ? -1 : floe_run_stack_status(run, mode == MODE_DELETE ? FLOE_DELETE_FAILED : FLOE_ROLLBACK_FAILED,
                                                 reason);
        free(reason);
        return rc;
    }
    if (mode == MODE_ROLLBACK)
        return floe_run_stack_status(run, FLOE_ROLLBACK_COMPLETE, NULL);
    return floe_run_stack_deleted(run);
}

/* ---- update ---- */

/* Updates `r` to template resource `tr` (props resolved) in place or by replacement. */
static int change_resource(floe_run_t *run, floe_run_res_t *r, const floe_stack_template_resource_t *tr, char *props,
                           int position, bool is_replaced)
{
    floe_run_res_t next, target;
    char *reason = NULL;
    int rc;

    floe_run_res_copy(&next, r);
    take_template(&next, tr, props, position);
    floe_run_set(&next.status, FLOE_UPDATE_COMPLETE);
    floe_run_set(&next.update_action, is_replaced ? FLOE_ACTION_REPLACE : FLOE_ACTION_MODIFY);
    floe_run_set(&next.old_type, r->type);
    floe_run_set(&next.old_physical_id, is_replaced ? r->physical_id : NULL);
    floe_run_set(&next.old_props, r->props);
    floe_run_set(&next.old_attrs, r->attrs);
    floe_run_res_copy(&target, &next);
    floe_run_change_t change = {
        .action = is_replaced ? FLOE_RUN_CREATE : FLOE_RUN_UPDATE,
        .type = target.type,
        .physical_id = r->physical_id,
        .old_props = r->props,
        .events = {{target.logical_id, r->physical_id, target.type, FLOE_UPDATE_IN_PROGRESS,
                    is_replaced ? REPLACEMENT_REASON : NULL, target.props},
                   {target.logical_id, is_replaced ? NULL : r->physical_id, target.type, FLOE_UPDATE_COMPLETE, NULL,
                    NULL}},
    };
    rc = floe_run_provision(run, r, &next, &change, &reason);
    if (rc > 0) {
        floe_run_res_t failed;
        floe_run_res_copy(&failed, r); /* the change rolled back: the row stays as it was */
        if (record_failure(run, r, &failed, FLOE_UPDATE_IN_PROGRESS, FLOE_UPDATE_FAILED, reason) < 0)
            rc = -1;
        floe_run_res_dispose(&failed);
    }
    floe_run_res_dispose(&target);
    free(reason);
    return rc;
}

/* Brings resource `tr` to the new template. 0; 1 when it failed (recorded, *verb says how); -1. */
static int update_resource(floe_run_t *run, const floe_stack_template_resource_t *tr, int position,
                           const char **verb)
{
    floe_run_res_t *r = floe_run_find(run, tr->logical_id);
    bool is_changed, is_replaced, is_renamed;
    char *reason = NULL, *props;
    cJSON *tree, *old_tree;

    *verb = "update";
    if (r == NULL || eq(r->status, FLOE_DELETE_COMPLETE)) {
        *verb = "create";
        return create_resource(run, tr, position, FLOE_ACTION_ADD);
    }
    if ((props = resolve_props(run, tr->logical_id, tr->type, &reason)) == NULL) {
        int rc = record_failure(run, r, r, FLOE_UPDATE_IN_PROGRESS, FLOE_UPDATE_FAILED, reason);
        free(reason);
        return rc < 0 ? -1 : 1;
    }
    tree = cJSON_Parse(props);
    old_tree = cJSON_Parse(r->props != NULL ? r->props : "{}");
    floe_run_compare(run, r, tr->type, tree, &is_changed, &is_replaced);
    is_renamed = !is_replaced || !floe_provision_keeps_name(tr->type, old_tree, tree);
    if (!is_renamed) { /* design note 3 */
        const char *name = floe_provision_name(tr->type, tree);
        int rc;
        reason = format(RENAME_REASON, name != NULL ? name : r->physical_id);
        cJSON_Delete(tree);
        cJSON_Delete(old_tree);
        rc = record_failure(run, r, r, FLOE_UPDATE_IN_PROGRESS, FLOE_UPDATE_FAILED, reason);
        free(props);
        free(reason);
        return rc < 0 ? -1 : 1;
    }
    cJSON_Delete(tree);
    cJSON_Delete(old_tree);
    if (is_changed)
        return change_resource(run, r, tr, props, position, is_replaced);
    /* Unchanged: only its place and policies may move, silently. */
    floe_run_res_t next;
    floe_run_res_copy(&next, r);
    take_template(&next, tr, props, position);
    return floe_run_write_res(run, r, &next, false, NULL, 0) < 0 ? -1 : 0;
}

/* Marks the resources the new template no longer has, for the cleanup to delete. */
static int mark_removed(floe_run_t *run)
{
    size_t n = run->ops->n_resources(run->tmpl);

    for (size_t i = 0; i < run->n_res; i++) {
        floe_run_res_t *r = &run->res[i], next;
        bool is_kept = false;
        for (size_t j = 0; j < n && !is_kept; j++) {
            floe_stack_template_resource_t tr;
            run->ops->resource(run->tmpl, j, &tr);
            is_kept = eq(tr.logical_id, r->logical_id);
        }
        if (is_kept || r->update_action != NULL || eq(r->status, FLOE_DELETE_COMPLETE))
            continue;
        floe_run_res_copy(&next, r);
        floe_run_set(&next.update_action, FLOE_ACTION_REMOVE);
        if (floe_run_write_res(run, r, &next, false, NULL, 0) < 0)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int fail_update(floe_run_t *run, const char *reason)
{
    if (run->execution == NULL)
        run->execution = FLOE_EXECUTION_FAILED;
    if (run->stack.disable_rollback)
        return floe_run_stack_status(run, FLOE_UPDATE_FAILED, reason);
    return floe_run_stack_status(run, FLOE_UPDATE_ROLLBACK_IN_PROGRESS, reason);
}

static int run_update(floe_run_t *run)
{
    floe_stack_template_resource_t tr;
    floe_stack_error_t err;
    const char *verb;
    char *reason = NULL;
    int rc;

    err.message[0] = '\0';
    if (floe_run_template(run, run->stack.template_body, run->stack.parameters, &err) != 0)
        return fail_update(run, err.message);
    floe_run_set(&run->stack.description, run->ops->description(run->tmpl));
    for (size_t i = 0; i < run->ops->n_resources(run->tmpl); i++) {
        run->ops->resource(run->tmpl, i, &tr);
        if ((rc = update_resource(run, &tr, (int)i, &verb)) != 0) {
            if (rc < 0)
                return FLOE_EFAIL;
            reason = failed_reason(verb, tr.logical_id);
            rc = fail_update(run, reason);
            free(reason);
            return rc;
        }
    }
    if (mark_removed(run) < 0)
        return FLOE_EFAIL;
    if ((rc = floe_run_outputs(run, &reason)) != 0) {
        rc = rc < 0 ? -1 : fail_update(run, reason);
        free(reason);
        return rc;
    }
    return floe_run_stack_status(run, FLOE_UPDATE_COMPLETE_CLEANUP_IN_PROGRESS, NULL);
}

/* Forgets what the update did to `r` (update_action and old_*), silently. */
static int settle(floe_run_t *run, floe_run_res_t *r)
{
    floe_run_res_t next;

    floe_run_res_copy(&next, r);
    floe_run_set(&next.update_action, NULL);
    floe_run_set(&next.old_type, NULL);
    floe_run_set(&next.old_physical_id, NULL);
    floe_run_set(&next.old_props, NULL);
    floe_run_set(&next.old_attrs, NULL);
    return floe_run_write_res(run, r, &next, false, NULL, 0);
}

/* Deletes the resource an update left behind beside `r` (old_*), unless `is_kept`; a failure is an
 * event only (design note 5). Then settles `r`. */
static int discard_old(floe_run_t *run, floe_run_res_t *r, bool is_kept)
{
    floe_run_res_t next;
    char *reason = NULL;
    int rc = 0;

    if (r->old_physical_id != NULL && is_kept) {
        floe_run_event_t e = {r->logical_id, r->old_physical_id, r->old_type, FLOE_DELETE_SKIPPED, NULL, NULL};
        floe_run_res_copy(&next, r);
        rc = floe_run_write_res(run, r, &next, false, &e, 1);
    } else if (r->old_physical_id != NULL) {
        floe_run_res_copy(&next, r);
        rc = delete_physical(run, r, &next, r->old_type, r->old_physical_id, false, &reason);
        if (rc > 0) {
            floe_run_event_t e = {r->logical_id, r->old_physical_id, r->old_type, FLOE_DELETE_FAILED, reason, NULL};
            floe_run_res_copy(&next, r);
            rc = floe_run_write_res(run, r, &next, false, &e, 1);
        }
        free(reason);
    }
    return rc < 0 ? -1 : settle(run, r);
}

/* Deletes a resource the update removed (or a rollback's addition) and its row, keeping it when
 * `is_kept`; a failure is an event only (design note 5). */
static int drop(floe_run_t *run, floe_run_res_t *r, bool is_kept)
{
    floe_run_res_t next;
    char *reason = NULL;
    int rc;

    if (r->physical_id == NULL || is_kept)
        return mark(run, r, r->physical_id == NULL ? FLOE_DELETE_COMPLETE : FLOE_DELETE_SKIPPED, NULL, true) < 0
                   ? -1
                   : 0;
    floe_run_res_copy(&next, r);
    floe_run_set(&next.status, FLOE_DELETE_COMPLETE);
    rc = delete_physical(run, r, &next, r->type, r->physical_id, true, &reason);
    if (rc > 0)
        rc = mark(run, r, FLOE_DELETE_FAILED, reason, true);
    free(reason);
    if (rc == 0)
        floe_run_set(&r->status, FLOE_DELETE_COMPLETE); /* the row is gone; the run forgets it */
    return rc < 0 ? -1 : 0;
}

static void forget_previous(floe_run_t *run)
{
    floe_run_set(&run->stack.previous_template_body, NULL);
    floe_run_set(&run->stack.previous_parameters, NULL);
    floe_run_set(&run->stack.previous_tags, NULL);
    floe_run_set(&run->stack.previous_outputs, NULL);
    floe_run_set(&run->stack.previous_description, NULL);
}

static int run_cleanup(floe_run_t *run)
{
    size_t *order = delete_order(run);
    int rc = 0;

    for (size_t i = 0; i < run->n_res && rc == 0; i++) {
        floe_run_res_t *r = &run->res[order[i]];
        if (eq(r->update_action, FLOE_ACTION_REPLACE))
            rc = discard_old(run, r, eq(r->update_replace_policy, FLOE_POLICY_RETAIN));
        else if (eq(r->update_action, FLOE_ACTION_REMOVE))
            rc = drop(run, r, is_retained(run, r, MODE_DELETE));
        else if (r->update_action != NULL)
            rc = settle(run, r);
    }
    free(order);
    if (rc < 0)
        return FLOE_EFAIL;
    forget_previous(run);
    return floe_run_stack_status(run, FLOE_UPDATE_COMPLETE, NULL);
}

/* ---- update rollback ---- */

/* Switches a replaced resource back to the one it replaced; the new one becomes old_* to discard. */
static int switch_back(floe_run_t *run, floe_run_res_t *r)
{
    floe_run_res_t next;
    floe_run_event_t events[2] = {
        {r->logical_id, r->old_physical_id, r->old_type, FLOE_UPDATE_IN_PROGRESS, NULL, r->old_props},
        {r->logical_id, r->old_physical_id, r->old_type, FLOE_UPDATE_COMPLETE, NULL, NULL},
    };

    floe_run_res_copy(&next, r);
    floe_run_set(&next.type, r->old_type);
    floe_run_set(&next.physical_id, r->old_physical_id);
    floe_run_set(&next.props, r->old_props);
    floe_run_set(&next.attrs, r->old_attrs);
    floe_run_set(&next.old_type, r->type);
    floe_run_set(&next.old_physical_id, r->physical_id);
    floe_run_set(&next.old_props, r->props);
    floe_run_set(&next.old_attrs, r->attrs);
    floe_run_set(&next.update_action, FLOE_ACTION_DISCARD);
    floe_run_set(&next.status, FLOE_UPDATE_COMPLETE);
    return floe_run_write_res(run, r, &next, false, events, 2);
}

/* Changes a resource updated in place back to its old properties. 0, 1 (recorded), -1. */
static int revert(floe_run_t *run, floe_run_res_t *r)
{
    floe_run_res_t next;
    char *reason = NULL;
    int rc;

    floe_run_res_copy(&next, r);
    floe_run_set(&next.props, r->old_props);
    floe_run_set(&next.status, FLOE_UPDATE_COMPLETE);
    floe_run_set(&next.update_action, NULL);
    floe_run_set(&next.old_type, NULL);
    floe_run_set(&next.old_props, NULL);
    floe_run_set(&next.old_attrs, NULL);
    floe_run_change_t change = {
        .action = FLOE_RUN_UPDATE,
        .type = r->type,
        .physical_id = r->physical_id,
        .old_props = r->props,
        .events = {{r->logical_id, r->physical_id, r->type, FLOE_UPDATE_IN_PROGRESS, NULL, r->old_props},
                   {r->logical_id, r->physical_id, r->type, FLOE_UPDATE_COMPLETE, NULL, NULL}},
    };
    rc = floe_run_provision(run, r, &next, &change, &reason);
    if (rc > 0 && mark(run, r, FLOE_UPDATE_FAILED, reason, false) < 0)
        rc = -1;
    free(reason);
    return rc;
}

static int run_update_rollback(floe_run_t *run)
{
    size_t *order = delete_order(run);
    const char *failed = NULL;
    int rc = 0;

    for (size_t i = 0; i < run->n_res && rc == 0; i++) {
        floe_run_res_t *r = &run->res[order[i]];
        if (eq(r->update_action, FLOE_ACTION_MODIFY) && (rc = revert(run, r)) > 0)
            failed = r->logical_id;
        else if (eq(r->update_action, FLOE_ACTION_REPLACE))
            rc = switch_back(run, r);
        else if (eq(r->update_action, FLOE_ACTION_REMOVE))
            rc = settle(run, r);
        else if (r->update_action == NULL && eq(r->status, FLOE_UPDATE_FAILED)) /* its change rolled back */
            rc = mark(run, r, FLOE_UPDATE_COMPLETE, NULL, false);
    }
    free(order);
    if (rc != 0) {
        char *reason = rc > 0 ? failed_reason("update", failed) : NULL;
        rc = rc < 0 ? -1 : floe_run_stack_status(run, FLOE_UPDATE_ROLLBACK_FAILED, reason);
        free(reason);
        return rc;
    }
    floe_run_set(&run->stack.template_body, run->stack.previous_template_body);
    floe_run_set(&run->stack.parameters, run->stack.previous_parameters);
    floe_run_set(&run->stack.tags, run->stack.previous_tags);
    floe_run_set(&run->stack.outputs, run->stack.previous_outputs);
    floe_run_set(&run->stack.description, run->stack.previous_description);
    return floe_run_stack_status(run, FLOE_UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS, NULL);
}

static int run_rollback_cleanup(floe_run_t *run)
{
    size_t *order = delete_order(run);
    int rc = 0;

    for (size_t i = 0; i < run->n_res && rc == 0; i++) {
        floe_run_res_t *r = &run->res[order[i]];
        if (eq(r->update_action, FLOE_ACTION_ADD))
            rc = drop(run, r, eq(r->deletion_policy, FLOE_POLICY_RETAIN));
        else if (eq(r->update_action, FLOE_ACTION_DISCARD))
            rc = discard_old(run, r, false);
        else if (r->update_action != NULL)
            rc = settle(run, r);
    }
    free(order);
    if (rc < 0)
        return FLOE_EFAIL;
    forget_previous(run);
    return floe_run_stack_status(run, FLOE_UPDATE_ROLLBACK_COMPLETE, NULL);
}

/* ---- the driver ---- */

/* Runs the phase of the stack's status. 1 when the stack is stable, 0 when it moved on, -1 aborted. */
static int step_phase(floe_run_t *run, bool was_interrupted)
{
    const char *s = run->stack.status;

    if (eq(s, FLOE_CREATE_IN_PROGRESS))
        return was_interrupted ? fail_create(run, RESTART_REASON) : run_create(run);
    if (eq(s, FLOE_ROLLBACK_IN_PROGRESS))
        return run_delete(run, MODE_ROLLBACK);
    if (eq(s, FLOE_DELETE_IN_PROGRESS))
        return run_delete(run, MODE_DELETE);
    if (eq(s, FLOE_UPDATE_IN_PROGRESS))
        return was_interrupted ? fail_update(run, RESTART_REASON) : run_update(run);
    if (eq(s, FLOE_UPDATE_COMPLETE_CLEANUP_IN_PROGRESS))
        return run_cleanup(run);
    if (eq(s, FLOE_UPDATE_ROLLBACK_IN_PROGRESS))
        return run_update_rollback(run);
    if (eq(s, FLOE_UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS))
        return run_rollback_cleanup(run);
    if (run->stack.is_delete_requested && !eq(s, FLOE_DELETE_COMPLETE))
        return floe_run_begin_delete(run);
    return 1;
}

void floe_run_stack(floe_run_t *run)
{
    bool was_interrupted = run->work.was_started;
    int rc;

    while ((rc = step_phase(run, was_interrupted)) == 0) {
        was_interrupted = false;
        if (!floe_stack_status_is_in_progress(run->stack.status) && run->execution == NULL)
            run->execution = floe_run_execution_status(run, run->stack.status);
    }
    if (rc > 0)
        floe_run_finish(run, floe_run_execution_status(run, run->stack.status));
}
