/*
 * Dependency order (plan.h): needs from a reference walk and DependsOn, then Kahn's algorithm
 * picking the first ready resource in template order.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cfn_template/plan.h"
#include "cfn_template/references.h"

typedef struct collect {
    floe_cfn_template_t *t;
    floe_cfn_resource_t *res;
    const char *inactive; /* the first need of a resource whose condition is false */
} collect_t;

static void add_need(collect_t *c, const floe_cfn_resource_t *target)
{
    size_t j = (size_t)(target - c->t->resources);

    if (!target->is_active && c->inactive == NULL)
        c->inactive = target->logical_id;
    for (size_t i = 0; i < c->res->n_needs; i++)
        if (c->res->needs[i] == j)
            return;
    c->res->needs = floe_xrealloc(c->res->needs, (c->res->n_needs + 1) * sizeof(*c->res->needs));
    c->res->needs[c->res->n_needs++] = j;
}

static void on_reference(void *arg, const char *name, const char *attribute)
{
    collect_t *c = arg;
    const floe_cfn_resource_t *target = floe_cfn_template_resource(c->t, name);

    if (target != NULL)
        add_need(c, target);
}

static int collect_needs(floe_cfn_template_t *t, floe_cfn_resource_t *res, bool follow_conditions,
                         floe_cfn_template_error_t *err)
{
    collect_t c = {.t = t, .res = res};

    free(res->needs);
    res->needs = NULL;
    res->n_needs = 0;
    if (floe_cfn_walk_references(t, res->properties, false, follow_conditions, on_reference, &c, err) != FLOE_OK ||
        floe_cfn_walk_references(t, res->metadata, false, follow_conditions, on_reference, &c, err) != FLOE_OK)
        return FLOE_EFAIL;
    for (size_t i = 0; i < res->n_depends_on; i++) {
        const floe_cfn_resource_t *target = floe_cfn_template_resource(t, res->depends_on[i]);
        if (target != NULL) /* parse has already refused a DependsOn that names nothing */
            add_need(&c, target);
    }
    if (follow_conditions && c.inactive != NULL)
        return floe_cfn_template_fail(err, "Template format error: Unresolved resource dependencies [%s] in the Resources "
                                  "block of the template", c.inactive);
    return FLOE_OK;
}

/* Whether resource i is still waiting (in `left`) and some other waiting resource needs it. */
static bool is_needed_by_left(const floe_cfn_template_t *t, const bool *left, size_t i)
{
    for (size_t k = 0; k < t->n_resources; k++)
        for (size_t m = 0; left[k] && m < t->resources[k].n_needs; m++)
            if (t->resources[k].needs[m] == i)
                return true;
    return false;
}

/* The resources Kahn's algorithm could not place, less those that merely wait on a cycle. */
static int circular(const floe_cfn_template_t *t, bool *left, floe_cfn_template_error_t *err)
{
    const char **names = floe_xcalloc(t->n_resources, sizeof(*names));
    char list[FLOE_CFN_MESSAGE_MAX / 2];
    bool pruned = true;
    size_t n = 0;

    while (pruned) {
        pruned = false;
        for (size_t i = 0; i < t->n_resources; i++)
            if (left[i] && !is_needed_by_left(t, left, i))
                left[i] = false, pruned = true;
    }
    for (size_t i = 0; i < t->n_resources; i++)
        if (left[i])
            names[n++] = t->resources[i].logical_id;
    floe_cfn_format_names(list, sizeof(list), names, n);
    free(names);
    return floe_cfn_template_fail(err, "Circular dependency between resources: [%s]", list);
}

static bool is_ready(const floe_cfn_template_t *t, const bool *left, size_t i)
{
    for (size_t m = 0; m < t->resources[i].n_needs; m++)
        if (left[t->resources[i].needs[m]])
            return false;
    return true;
}

/* Orders the active resources into `order` (may be NULL to only check); FLOE_EFAIL on a cycle. */
static int sort(const floe_cfn_template_t *t, floe_cfn_resource_t **order, size_t *n_order, floe_cfn_template_error_t *err)
{
    bool *left = floe_xcalloc(t->n_resources + 1, sizeof(*left));
    size_t n_left = 0, n = 0;
    int rc = FLOE_OK;

    for (size_t i = 0; i < t->n_resources; i++)
        if (t->resources[i].is_active)
            left[i] = true, n_left++;
    while (n_left > 0) {
        size_t i = 0;
        while (i < t->n_resources && !(left[i] && is_ready(t, left, i)))
            i++;
        if (i == t->n_resources) {
            rc = circular(t, left, err);
            break;
        }
        left[i] = false;
        n_left--;
        if (order != NULL)
            order[n] = &t->resources[i];
        n++;
    }
    free(left);
    *n_order = n;
    return rc;
}

int floe_cfn_plan_check(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    size_t n;

    for (size_t i = 0; i < t->n_resources; i++)
        if (collect_needs(t, &t->resources[i], false, err) != FLOE_OK)
            return FLOE_EFAIL;
    return sort(t, NULL, &n, err);
}

int floe_cfn_plan_order(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    free(t->order);
    t->order = floe_xcalloc(t->n_resources + 1, sizeof(*t->order));
    t->n_order = 0;
    for (size_t i = 0; i < t->n_resources; i++) {
        floe_cfn_resource_t *res = &t->resources[i];
        if (!res->is_active) {
            free(res->needs);
            res->needs = NULL;
            res->n_needs = 0;
        } else if (collect_needs(t, res, true, err) != FLOE_OK) {
            return FLOE_EFAIL;
        }
    }
    return sort(t, t->order, &t->n_order, err);
}
