/*
 * The reference walk and the function syntax it shares with the evaluator (references.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cfn_template/references.h"
#include "cfn_template/template_model.h"

/* The functions Floe evaluates, in the order AWS lists them in its refusal. */
static const char *const supported[] = {
    "Fn::Base64", "Fn::GetAtt", "Fn::GetAZs", "Fn::ImportValue", "Fn::Join", "Fn::Split", "Fn::FindInMap",
    "Fn::Select", "Ref", "Fn::Equals", "Fn::If", "Fn::Not", "Condition", "Fn::And", "Fn::Or", "Fn::Sub",
};
#define N_SUPPORTED (sizeof(supported) / sizeof(supported[0]))

bool floe_cfn_is_supported_function(const char *name)
{
    for (size_t i = 0; i < N_SUPPORTED; i++)
        if (strcmp(supported[i], name) == 0)
            return true;
    return false;
}

int floe_cfn_unsupported_function(const char *name, floe_cfn_template_error_t *err)
{
    char list[512];

    if (strcmp(name, "Fn::Transform") == 0)
        return floe_cfn_template_fail(err, "Template format error: Fn::Transform is not supported: Floe runs no macros; "
                                  "expand the template before deploying it");
    floe_cfn_format_names(list, sizeof(list), supported, N_SUPPORTED);
    /* AWS's wording, with the list of what Floe evaluates */
    return floe_cfn_template_fail(err, "Template format error: Encountered unsupported function: %s Supported functions are: "
                              "[%s]", name, list);
}

const char *floe_cfn_function_name(const cJSON *node, bool in_conditions)
{
    const char *key;

    if (!cJSON_IsObject(node) || node->child == NULL || node->child->next != NULL)
        return NULL;
    key = node->child->string;
    if (strcmp(key, "Ref") == 0 || strncmp(key, "Fn::", 4) == 0 || (in_conditions && strcmp(key, "Condition") == 0))
        return key;
    return NULL;
}

/* ---- Fn::GetAtt ------------------------------------------------------------------------------ */

static int get_att_malformed(floe_cfn_template_error_t *err)
{
    return floe_cfn_template_fail(err, "Template error: every Fn::GetAtt object requires two non-empty parameters");
}

int floe_cfn_get_att_read(const cJSON *arg, floe_cfn_get_att_t *out, floe_cfn_template_error_t *err)
{
    const cJSON *first, *second;

    memset(out, 0, sizeof(*out));
    if (cJSON_IsString(arg)) { /* "Name.Attr", split at the first dot */
        const char *dot = strchr(arg->valuestring, '.');
        if (dot == NULL || dot == arg->valuestring || dot[1] == '\0')
            return get_att_malformed(err);
        out->name = floe_xstrdup(arg->valuestring);
        out->name[dot - arg->valuestring] = '\0';
        out->attribute = floe_xstrdup(dot + 1);
        return FLOE_OK;
    }
    if (!cJSON_IsArray(arg) || cJSON_GetArraySize(arg) != 2)
        return get_att_malformed(err);
    first = arg->child;
    second = first->next;
    if (!cJSON_IsString(first) || first->valuestring[0] == '\0')
        return get_att_malformed(err);
    if (cJSON_IsString(second) && second->valuestring[0] != '\0')
        out->attribute = floe_xstrdup(second->valuestring);
    else if (floe_cfn_function_name(second, false) != NULL)
        out->attribute_node = second;
    else
        return get_att_malformed(err);
    out->name = floe_xstrdup(first->valuestring);
    return FLOE_OK;
}

void floe_cfn_get_att_dispose(floe_cfn_get_att_t *g)
{
    free(g->name);
    free(g->attribute);
    g->name = g->attribute = NULL;
}

int floe_cfn_get_att_check(const floe_cfn_template_t *t, const char *name, const char *attribute,
                           floe_cfn_template_error_t *err)
{
    const floe_cfn_resource_t *res = floe_cfn_template_resource(t, name);
    char valid[512];

    if (res == NULL)
        return floe_cfn_template_fail(err, "Template error: instance of Fn::GetAtt references undefined resource %s", name);
    if (attribute == NULL || floe_cfn_resource_type_has_attribute(res->type_info, attribute))
        return FLOE_OK;
    if (res->type_info->n_attributes == 0)
        return floe_cfn_template_fail(err, "Template error: resource %s does not support attribute type %s in Fn::GetAtt "
                                  "(%s has no attributes)", name, attribute, res->type);
    floe_cfn_format_names(valid, sizeof(valid), res->type_info->attributes, res->type_info->n_attributes);
    return floe_cfn_template_fail(err, "Template error: resource %s does not support attribute type %s in Fn::GetAtt "
                              "(%s has [%s])", name, attribute, res->type, valid);
}

/* ---- Fn::Sub ----------------------------------------------------------------------------------- */

int floe_cfn_sub_read(const cJSON *arg, const char **text, const cJSON **variables, floe_cfn_template_error_t *err)
{
    *variables = NULL;
    if (cJSON_IsString(arg)) {
        *text = arg->valuestring;
        return FLOE_OK;
    }
    if (cJSON_IsArray(arg) && cJSON_GetArraySize(arg) == 2 && cJSON_IsString(arg->child) &&
        cJSON_IsObject(arg->child->next)) {
        *text = arg->child->valuestring;
        *variables = arg->child->next;
        return FLOE_OK;
    }
    return floe_cfn_template_fail(err, "Template error: One or more Fn::Sub intrinsic functions don't specify expected "
                              "arguments. Specify a string as first argument, and an optional second argument to "
                              "specify a mapping of values to replace in the string");
}

int floe_cfn_sub_parts(const char *text, floe_cfn_on_sub_part on_part, void *arg)
{
    const char *literal = text, *p = text, *close;
    int rc;

    while ((p = strstr(p, "${")) != NULL && (close = strchr(p + 2, '}')) != NULL) {
        if (p[2] == '!') { /* "${!Name}" is the literal "${Name}": drop the '!' */
            if ((rc = on_part(arg, literal, (size_t)(p + 2 - literal), false)) != FLOE_OK)
                return rc;
            literal = p = p + 3;
            continue;
        }
        if ((rc = on_part(arg, literal, (size_t)(p - literal), false)) != FLOE_OK ||
            (rc = on_part(arg, p + 2, (size_t)(close - p - 2), true)) != FLOE_OK)
            return rc;
        literal = p = close + 1;
    }
    return on_part(arg, literal, strlen(literal), false);
}

/* ---- the walk --------------------------------------------------------------------------------- */

typedef struct walk {
    const floe_cfn_template_t *t;
    bool follow_conditions;
    floe_cfn_on_reference on_ref;
    void *arg;
    floe_cfn_template_error_t *err;
    const cJSON *sub_variables; /* while walking one Fn::Sub string: its own variables */
} walk_t;

static int walk(walk_t *w, const cJSON *node, bool in_conditions);

static int on_sub_part(void *arg, const char *text, size_t len, bool is_variable)
{
    walk_t *w = arg;
    char *name, *dot;
    int rc = FLOE_OK;

    if (!is_variable)
        return FLOE_OK;
    name = floe_xmalloc(len + 1);
    memcpy(name, text, len);
    name[len] = '\0';
    if (w->sub_variables != NULL && cJSON_GetObjectItemCaseSensitive(w->sub_variables, name) != NULL) {
        free(name);
        return FLOE_OK;
    }
    dot = strchr(name, '.');
    if (dot != NULL) { /* ${Name.Attr} is Fn::GetAtt when Name is a resource */
        *dot = '\0';
        if (floe_cfn_template_resource(w->t, name) != NULL)
            rc = floe_cfn_get_att_check(w->t, name, dot + 1, w->err);
        if (rc == FLOE_OK)
            w->on_ref(w->arg, name, dot + 1);
    } else {
        w->on_ref(w->arg, name, NULL);
    }
    free(name);
    return rc;
}

static int walk_sub(walk_t *w, const cJSON *arg)
{
    const char *text;
    const cJSON *variables, *v;
    int rc;

    if (floe_cfn_sub_read(arg, &text, &variables, w->err) != FLOE_OK)
        return FLOE_EFAIL;
    cJSON_ArrayForEach(v, variables)
        if (walk(w, v, false) != FLOE_OK)
            return FLOE_EFAIL;
    w->sub_variables = variables;
    rc = floe_cfn_sub_parts(text, on_sub_part, w);
    w->sub_variables = NULL;
    return rc;
}

static int walk_get_att(walk_t *w, const cJSON *arg)
{
    floe_cfn_get_att_t g;
    int rc;

    if (floe_cfn_get_att_read(arg, &g, w->err) != FLOE_OK)
        return FLOE_EFAIL;
    rc = floe_cfn_get_att_check(w->t, g.name, g.attribute, w->err);
    if (rc == FLOE_OK && g.attribute_node != NULL)
        rc = walk(w, g.attribute_node, false);
    if (rc == FLOE_OK)
        w->on_ref(w->arg, g.name, g.attribute);
    floe_cfn_get_att_dispose(&g);
    return rc;
}

static int unknown_condition(walk_t *w, const char *name, const char *where)
{
    return floe_cfn_template_fail(w->err, "Template error: unresolved condition dependency %s in %s", name, where);
}

static int walk_if(walk_t *w, const cJSON *arg)
{
    const cJSON *name, *then_node, *else_node;
    bool value;

    if (!cJSON_IsArray(arg) || cJSON_GetArraySize(arg) != 3 || !cJSON_IsString(arg->child))
        return floe_cfn_template_fail(w->err, "Template error: Fn::If requires a list argument with three elements: a "
                                     "condition name, a value if true and a value if false");
    name = arg->child;
    then_node = name->next;
    else_node = then_node->next;
    if (floe_cfn_condition_index(w->t, name->valuestring) < 0)
        return unknown_condition(w, name->valuestring, "Fn::If");
    if (w->follow_conditions && floe_cfn_template_condition(w->t, name->valuestring, &value) == FLOE_OK)
        return walk(w, value ? then_node : else_node, false);
    if (walk(w, then_node, false) != FLOE_OK)
        return FLOE_EFAIL;
    return walk(w, else_node, false);
}

static int walk_function(walk_t *w, const char *name, const cJSON *arg)
{
    const cJSON *item;

    if (!floe_cfn_is_supported_function(name))
        return floe_cfn_unsupported_function(name, w->err);
    if (strcmp(name, "Ref") == 0) {
        if (!cJSON_IsString(arg))
            return floe_cfn_template_fail(w->err, "Template format error: Every Ref object must have a single String value.");
        w->on_ref(w->arg, arg->valuestring, NULL);
        return FLOE_OK;
    }
    if (strcmp(name, "Condition") == 0) {
        if (!cJSON_IsString(arg))
            return floe_cfn_template_fail(w->err, "Template format error: Every Condition member must be a string.");
        return floe_cfn_condition_index(w->t, arg->valuestring) < 0
                   ? unknown_condition(w, arg->valuestring, "the Conditions block")
                   : FLOE_OK;
    }
    if (strcmp(name, "Fn::GetAtt") == 0)
        return walk_get_att(w, arg);
    if (strcmp(name, "Fn::Sub") == 0)
        return walk_sub(w, arg);
    if (strcmp(name, "Fn::If") == 0)
        return walk_if(w, arg);
    if (strcmp(name, "Fn::And") == 0 || strcmp(name, "Fn::Or") == 0 || strcmp(name, "Fn::Not") == 0) {
        cJSON_ArrayForEach(item, (cJSON_IsArray(arg) ? arg : NULL))
            if (walk(w, item, true) != FLOE_OK)
                return FLOE_EFAIL;
        return FLOE_OK;
    }
    return walk(w, arg, false);
}

static int walk(walk_t *w, const cJSON *node, bool in_conditions)
{
    const char *function = floe_cfn_function_name(node, in_conditions);
    const cJSON *child;

    if (function != NULL)
        return walk_function(w, function, node->child);
    cJSON_ArrayForEach(child, ((cJSON_IsArray(node) || cJSON_IsObject(node)) ? node : NULL))
        if (walk(w, child, false) != FLOE_OK)
            return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_cfn_walk_references(const floe_cfn_template_t *t, const cJSON *node, bool in_conditions,
                             bool follow_conditions, floe_cfn_on_reference on_ref, void *arg, floe_cfn_template_error_t *err)
{
    walk_t w = {.t = t, .follow_conditions = follow_conditions, .on_ref = on_ref, .arg = arg, .err = err};

    if (node == NULL)
        return FLOE_OK;
    return walk(&w, node, in_conditions);
}
