/*
 * What a template fragment refers to, found without evaluating it: every Ref, Fn::GetAtt and
 * Fn::Sub variable, so that parse can report unresolved names and plan can order resources. Also
 * the syntax both this walk and the evaluator (intrinsic.c) share: which objects are function
 * calls, the shape of Fn::GetAtt's arguments, and the parts of an Fn::Sub string. Wing-internal:
 * the engine does not call these.
 */
#ifndef FLOE_CFN_TEMPLATE_REFERENCES_H
#define FLOE_CFN_TEMPLATE_REFERENCES_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"

struct floe_cfn_template;

/** What a walk reports: `name` with attribute NULL for Ref and ${Name} in Fn::Sub, and the
 * attribute for Fn::GetAtt and ${Name.Attr} (NULL too when Fn::GetAtt's attribute is itself a
 * function). Both are borrowed for the call's duration. */
typedef void (*floe_cfn_on_reference)(void *arg, const char *name, const char *attribute);

/**
 * Walks `node` and reports every reference it makes, while checking what can be checked before
 * evaluation: no unsupported function, Ref a string, Fn::GetAtt and Fn::Sub well formed,
 * Fn::GetAtt naming a resource and one of its type's attributes, Fn::If and Condition naming a
 * condition. With `follow_conditions` (conditions evaluated) only the branch Fn::If takes is
 * walked; otherwise both. `in_conditions` is set for a condition of the Conditions block, where
 * {"Condition": name} is a function. Returns FLOE_OK or FLOE_EFAIL with err set.
 */
int floe_cfn_walk_references(const struct floe_cfn_template *t, const cJSON *node, bool in_conditions,
                             bool follow_conditions, floe_cfn_on_reference on_ref, void *arg,
                             floe_cfn_template_error_t *err /* OUT */);

/**
 * The function `node` calls, or NULL when it is a plain value: an object with one member whose
 * key is "Ref" or starts with "Fn::" (or is "Condition", when `in_conditions`).
 */
const char *floe_cfn_function_name(const cJSON *node, bool in_conditions);

/** Fn::GetAtt's arguments: ["Name", "Attr"], ["Name", {function}] or "Name.Attr". */
typedef struct floe_cfn_get_att {
    char *name;                /* malloc'ed */
    char *attribute;           /* malloc'ed; NULL when attribute_node is a function */
    const cJSON *attribute_node;
} floe_cfn_get_att_t;

/** Reads Fn::GetAtt's argument; FLOE_OK (release with floe_cfn_get_att_dispose) or FLOE_EFAIL with
 * AWS's "Template error: every Fn::GetAtt object requires two non-empty parameters". */
int floe_cfn_get_att_read(const cJSON *arg, floe_cfn_get_att_t *out /* OUT */, floe_cfn_template_error_t *err /* OUT */);
void floe_cfn_get_att_dispose(floe_cfn_get_att_t *g);

/** Checks that Fn::GetAtt names a resource of t whose type has the attribute (attribute NULL:
 * only the resource is checked). FLOE_OK, or FLOE_EFAIL with AWS's message. */
int floe_cfn_get_att_check(const struct floe_cfn_template *t, const char *name, const char *attribute,
                           floe_cfn_template_error_t *err /* OUT */);

/** Reads Fn::Sub's argument: a string, or [string, {variables}]. FLOE_EFAIL with AWS's message
 * for anything else. *variables is NULL for the string form. */
int floe_cfn_sub_read(const cJSON *arg, const char **text /* OUT */, const cJSON **variables /* OUT */,
                      floe_cfn_template_error_t *err /* OUT */);

/** One piece of an Fn::Sub string: literal text, or a variable's name (the text inside "${}").
 * "${!Name}" is the literal "${Name}". Return FLOE_OK to go on. */
typedef int (*floe_cfn_on_sub_part)(void *arg, const char *text, size_t len, bool is_variable);

/** Splits an Fn::Sub string into its pieces, in order; stops at the first callback failure. */
int floe_cfn_sub_parts(const char *text, floe_cfn_on_sub_part on_part, void *arg);

/** The message for a function Floe does not evaluate (or a transform it does not run). */
int floe_cfn_unsupported_function(const char *name, floe_cfn_template_error_t *err /* OUT */);

/** Whether Floe evaluates this function ("Ref", "Fn::Join", "Condition", ...). */
bool floe_cfn_is_supported_function(const char *name);

#endif
