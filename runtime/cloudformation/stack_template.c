/*
 * The registration of stack_template.h: the one template library of the process (the bridge of
 * stack_template_cfn.c to cfn_template/template.h, unless a test registers another), set before
 * any thread serves and read-only after, like the router's tables.
 */
#include <stddef.h>

#include "cloudformation/stack_template.h"

static const floe_stack_template_ops_t *registered = &floe_stack_template_cfn;

void floe_stack_template_register(const floe_stack_template_ops_t *ops)
{
    registered = ops;
}

const floe_stack_template_ops_t *floe_stack_template_ops(void)
{
    return registered;
}
