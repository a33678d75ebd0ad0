/*
 * A test double of the template library (cloudformation/stack_template.h), JSON only, enough to
 * drive the stack engine: Parameters (Default, NoEcho), Resources (Type, Properties, DependsOn,
 * DeletionPolicy, UpdateReplacePolicy), Outputs (Value, Description, Export.Name), Description,
 * and Ref, Fn::GetAtt, Fn::Join, Fn::Sub (string form) and Fn::ImportValue. Resources are ordered
 * by their references and DependsOn, ties in template order. The real library
 * (runtime/cfn_template/template.h) replaces it through the same table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cloudformation/stack_template.h"

#define DOUBLE_MAX_NAMES 64

struct floe_stack_template {
    cJSON *root;
    floe_stack_pseudo_t pseudo; /* strings malloc'ed */
    const char *param_names[DOUBLE_MAX_NAMES];
    char *param_values[DOUBLE_MAX_NAMES];
    bool param_no_echo[DOUBLE_MAX_NAMES];
    size_t n_params;
    const char *order[DOUBLE_MAX_NAMES];
    size_t n_order;
    const char *outputs[DOUBLE_MAX_NAMES];
    size_t n_outputs;
};

static int double_fail(floe_stack_error_t *err, const char *fmt, const char *arg)
{
    snprintf(err->message, sizeof(err->message), fmt, arg);
    return -1;
}

static const char *const double_types[] = {
    "AWS::S3Tables::TableBucket", "AWS::S3Tables::Namespace", "AWS::S3Tables::Table",
    "AWS::S3Tables::TableBucketPolicy", "AWS::S3Tables::TablePolicy", "AWS::CDK::Metadata", NULL,
};

static bool double_type_is_known(const char *type)
{
    for (size_t i = 0; double_types[i] != NULL; i++) {
        if (type != NULL && strcmp(type, double_types[i]) == 0)
            return true;
    }
    return false;
}

static int double_parse(const char *text, size_t len, floe_stack_template_t **out, floe_stack_error_t *err)
{
    cJSON *root = cJSON_ParseWithLength(text, len), *resources, *r;
    floe_stack_template_t *t;

    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return double_fail(err, "Template format error: JSON not well-formed.%s", "");
    }
    resources = cJSON_GetObjectItemCaseSensitive(root, "Resources");
    if (!cJSON_IsObject(resources) || cJSON_GetArraySize(resources) == 0) {
        cJSON_Delete(root);
        return double_fail(err, "Template format error: At least one Resources member must be defined.%s", "");
    }
    cJSON_ArrayForEach(r, resources)
    {
        const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "Type"));
        if (!double_type_is_known(type)) {
            snprintf(err->message, sizeof(err->message), "Template format error: Unrecognized resource types: [%s]",
                     type != NULL ? type : "");
            cJSON_Delete(root);
            return -1;
        }
    }
    t = calloc(1, sizeof(*t));
    t->root = root;
    *out = t;
    return 0;
}

static void double_free(floe_stack_template_t *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->n_params; i++)
        free(t->param_values[i]);
    free((char *)t->pseudo.account_id);
    free((char *)t->pseudo.region);
    free((char *)t->pseudo.stack_name);
    free((char *)t->pseudo.stack_id);
    cJSON_Delete(t->root);
    free(t);
}

/* ---- references, for the order ---- */

static const cJSON *double_resources(const floe_stack_template_t *t)
{
    return cJSON_GetObjectItemCaseSensitive(t->root, "Resources");
}

/* Calls fn for each resource `node` refers to (Ref, Fn::GetAtt, ${X} in Fn::Sub). */
static void double_references(const floe_stack_template_t *t, const cJSON *node, void (*fn)(void *, const char *),
                              void *arg)
{
    const cJSON *child;

    if (cJSON_IsObject(node) && cJSON_GetArraySize(node) == 1) {
        const cJSON *v = node->child;
        if (strcmp(v->string, "Ref") == 0 && cJSON_IsString(v)) {
            if (cJSON_GetObjectItemCaseSensitive(double_resources(t), v->valuestring) != NULL)
                fn(arg, v->valuestring);
            return;
        }
        if (strcmp(v->string, "Fn::GetAtt") == 0 && cJSON_IsArray(v)) {
            fn(arg, cJSON_GetStringValue(cJSON_GetArrayItem(v, 0)));
            return;
        }
        if (strcmp(v->string, "Fn::Sub") == 0 && cJSON_IsString(v)) {
            for (const char *p = strstr(v->valuestring, "${"); p != NULL; p = strstr(p + 2, "${")) {
                char name[256];
                size_t n = strcspn(p + 2, ".}");
                snprintf(name, sizeof(name), "%.*s", (int)n, p + 2);
                if (cJSON_GetObjectItemCaseSensitive(double_resources(t), name) != NULL)
                    fn(arg, cJSON_GetObjectItemCaseSensitive(double_resources(t), name)->string);
            }
            return;
        }
    }
    cJSON_ArrayForEach(child, node) double_references(t, child, fn, arg);
}

typedef struct double_deps {
    const floe_stack_template_t *t;
    bool is_ready;
} double_deps_t;

static bool double_is_placed(const floe_stack_template_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_order; i++) {
        if (strcmp(t->order[i], name) == 0)
            return true;
    }
    return false;
}

static void double_on_dep(void *arg, const char *name)
{
    double_deps_t *d = arg;
    if (name == NULL || !double_is_placed(d->t, name))
        d->is_ready = false;
}

static bool double_is_ready(const floe_stack_template_t *t, const cJSON *r)
{
    double_deps_t d = {t, true};
    const cJSON *deps = cJSON_GetObjectItemCaseSensitive(r, "DependsOn"), *dep;

    double_references(t, cJSON_GetObjectItemCaseSensitive(r, "Properties"), double_on_dep, &d);
    if (cJSON_IsString(deps))
        double_on_dep(&d, deps->valuestring);
    if (cJSON_IsArray(deps)) {
        cJSON_ArrayForEach(dep, deps) double_on_dep(&d, cJSON_GetStringValue(dep));
    }
    return d.is_ready;
}

static int double_order(floe_stack_template_t *t, floe_stack_error_t *err)
{
    const cJSON *resources = double_resources(t), *r;
    size_t n = (size_t)cJSON_GetArraySize(resources);

    t->n_order = 0;
    while (t->n_order < n) {
        size_t before = t->n_order;
        cJSON_ArrayForEach(r, resources)
        {
            if (!double_is_placed(t, r->string) && double_is_ready(t, r) && t->n_order < DOUBLE_MAX_NAMES)
                t->order[t->n_order++] = r->string;
        }
        if (t->n_order == before)
            return double_fail(err, "Circular dependency between resources%s", "");
    }
    return 0;
}

/* ---- parameters ---- */

static const char *double_given(const floe_stack_param_value_t *params, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(params[i].key, name) == 0)
            return params[i].value;
    }
    return NULL;
}

static int double_bind(floe_stack_template_t *t, const floe_stack_param_value_t *params, size_t n_params,
                       floe_stack_error_t *err)
{
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(t->root, "Parameters"), *p;

    for (size_t i = 0; i < n_params; i++) {
        if (cJSON_GetObjectItemCaseSensitive(declared, params[i].key) == NULL)
            return double_fail(err, "Parameters: [%s] do not exist in the template", params[i].key);
    }
    cJSON_ArrayForEach(p, declared)
    {
        const char *value = double_given(params, n_params, p->string);
        if (value == NULL)
            value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "Default"));
        if (value == NULL)
            return double_fail(err, "Parameters: [%s] must have values", p->string);
        t->param_names[t->n_params] = p->string;
        t->param_values[t->n_params] = strdup(value);
        t->param_no_echo[t->n_params++] = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "NoEcho"));
    }
    return 0;
}

static int double_validate(floe_stack_template_t *t, const floe_stack_pseudo_t *pseudo,
                           const floe_stack_param_value_t *params, size_t n_params, floe_stack_error_t *err)
{
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(t->root, "Outputs"), *o;

    t->pseudo.account_id = strdup(pseudo->account_id);
    t->pseudo.region = strdup(pseudo->region);
    t->pseudo.stack_name = strdup(pseudo->stack_name);
    t->pseudo.stack_id = strdup(pseudo->stack_id);
    if (double_bind(t, params, n_params, err) != 0 || double_order(t, err) != 0)
        return -1;
    cJSON_ArrayForEach(o, outputs) t->outputs[t->n_outputs++] = o->string;
    return 0;
}

static const char *double_description(const floe_stack_template_t *t)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t->root, "Description"));
}

static size_t double_n_parameters(const floe_stack_template_t *t)
{
    return t->n_params;
}

static void double_parameter(const floe_stack_template_t *t, size_t i, floe_stack_template_parameter_t *out)
{
    out->name = t->param_names[i];
    out->value = t->param_values[i];
    out->is_no_echo = t->param_no_echo[i];
}

static size_t double_n_resources(const floe_stack_template_t *t)
{
    return t->n_order;
}

static floe_stack_policy_t double_policy(const cJSON *r, const char *name)
{
    const char *policy = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, name));
    if (policy != NULL && strcmp(policy, "Retain") == 0)
        return FLOE_STACK_POLICY_RETAIN;
    if (policy != NULL && strcmp(policy, "RetainExceptOnCreate") == 0)
        return FLOE_STACK_POLICY_RETAIN_EXCEPT_ON_CREATE;
    return FLOE_STACK_POLICY_DELETE;
}

static void double_resource(const floe_stack_template_t *t, size_t i, floe_stack_template_resource_t *out)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(double_resources(t), t->order[i]);

    out->logical_id = t->order[i];
    out->type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "Type"));
    out->deletion_policy = double_policy(r, "DeletionPolicy");
    out->update_replace_policy = double_policy(r, "UpdateReplacePolicy");
}

/* ---- resolving ---- */

static cJSON *double_unknown(void)
{
    return cJSON_CreateRaw("null");
}

static bool double_is_unknown(const cJSON *node)
{
    return cJSON_IsRaw(node);
}

static const char *double_pseudo(const floe_stack_template_t *t, const char *name)
{
    if (strcmp(name, "AWS::AccountId") == 0)
        return t->pseudo.account_id;
    if (strcmp(name, "AWS::Region") == 0)
        return t->pseudo.region;
    if (strcmp(name, "AWS::StackName") == 0)
        return t->pseudo.stack_name;
    if (strcmp(name, "AWS::StackId") == 0)
        return t->pseudo.stack_id;
    if (strcmp(name, "AWS::Partition") == 0)
        return "aws";
    if (strcmp(name, "AWS::URLSuffix") == 0)
        return "amazonaws.com";
    return NULL;
}

/* A string value, or unknown when the engine does not know it yet. */
static cJSON *double_string(const char *value)
{
    return value != NULL ? cJSON_CreateString(value) : double_unknown();
}

static int double_ref(const floe_stack_template_t *t, const char *name, const floe_stack_resolver_t *r, cJSON **out,
                      floe_stack_error_t *err)
{
    const char *value = double_pseudo(t, name);

    for (size_t i = 0; i < t->n_params && value == NULL; i++) {
        if (strcmp(t->param_names[i], name) == 0)
            value = t->param_values[i];
    }
    if (value == NULL && r != NULL && r->ref != NULL && r->ref(r->ctx, name, &value, err) != 0)
        return -1;
    *out = double_string(value);
    return 0;
}

static int double_get_att(const char *name, const char *attribute, const floe_stack_resolver_t *r, cJSON **out,
                          floe_stack_error_t *err)
{
    const char *value = NULL;

    if (r != NULL && r->get_att != NULL && r->get_att(r->ctx, name, attribute, &value, err) != 0)
        return -1;
    *out = double_string(value);
    return 0;
}

static int double_resolve(const floe_stack_template_t *t, const cJSON *node, const floe_stack_resolver_t *r,
                          cJSON **out, floe_stack_error_t *err);

/* Fn::Sub's string form: ${Name} and ${Name.Attribute}. */
static int double_sub(const floe_stack_template_t *t, const char *text, const floe_stack_resolver_t *r, cJSON **out,
                      floe_stack_error_t *err)
{
    char buf[4096] = "";
    size_t len = 0;

    for (const char *p = text; *p != '\0';) {
        const char *start = strstr(p, "${"), *end;
        char name[256], *dot;
        cJSON *value;
        if (start == NULL || (end = strchr(start, '}')) == NULL) {
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", p);
            break;
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s", (int)(start - p), p);
        snprintf(name, sizeof(name), "%.*s", (int)(end - start - 2), start + 2);
        dot = strchr(name, '.');
        if (dot != NULL)
            *dot = '\0';
        if ((dot != NULL ? double_get_att(name, dot + 1, r, &value, err) : double_ref(t, name, r, &value, err)) != 0)
            return -1;
        if (double_is_unknown(value)) {
            *out = value;
            return 0;
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", value->valuestring);
        cJSON_Delete(value);
        p = end + 1;
    }
    *out = cJSON_CreateString(buf);
    return 0;
}

static int double_join(const floe_stack_template_t *t, const cJSON *args, const floe_stack_resolver_t *r, cJSON **out,
                       floe_stack_error_t *err)
{
    const char *sep = cJSON_GetStringValue(cJSON_GetArrayItem(args, 0));
    const cJSON *item;
    char buf[4096] = "";
    size_t len = 0;
    bool is_first = true;

    cJSON_ArrayForEach(item, cJSON_GetArrayItem(args, 1))
    {
        cJSON *v;
        if (double_resolve(t, item, r, &v, err) != 0)
            return -1;
        if (double_is_unknown(v)) {
            *out = v;
            return 0;
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", is_first ? "" : sep, v->valuestring);
        is_first = false;
        cJSON_Delete(v);
    }
    *out = cJSON_CreateString(buf);
    return 0;
}

static int double_function(const floe_stack_template_t *t, const cJSON *fn, const floe_stack_resolver_t *r, cJSON **out,
                           floe_stack_error_t *err)
{
    if (strcmp(fn->string, "Ref") == 0)
        return double_ref(t, fn->valuestring, r, out, err);
    if (strcmp(fn->string, "Fn::GetAtt") == 0)
        return double_get_att(cJSON_GetStringValue(cJSON_GetArrayItem(fn, 0)),
                              cJSON_GetStringValue(cJSON_GetArrayItem(fn, 1)), r, out, err);
    if (strcmp(fn->string, "Fn::Join") == 0)
        return double_join(t, fn, r, out, err);
    if (strcmp(fn->string, "Fn::Sub") == 0)
        return double_sub(t, fn->valuestring, r, out, err);
    /* Fn::ImportValue */
    const char *value = NULL;
    if (r != NULL && r->import_value != NULL && r->import_value(r->ctx, fn->valuestring, &value, err) != 0)
        return -1;
    *out = double_string(value);
    return 0;
}

static bool double_is_function(const cJSON *node)
{
    const char *name;

    if (!cJSON_IsObject(node) || cJSON_GetArraySize(node) != 1)
        return false;
    name = node->child->string;
    return strcmp(name, "Ref") == 0 || strcmp(name, "Fn::GetAtt") == 0 || strcmp(name, "Fn::Join") == 0 ||
           strcmp(name, "Fn::Sub") == 0 || strcmp(name, "Fn::ImportValue") == 0;
}

static int double_resolve(const floe_stack_template_t *t, const cJSON *node, const floe_stack_resolver_t *r,
                          cJSON **out, floe_stack_error_t *err)
{
    const cJSON *child;

    if (double_is_function(node))
        return double_function(t, node->child, r, out, err);
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) {
        *out = cJSON_Duplicate(node, true);
        return 0;
    }
    *out = cJSON_IsObject(node) ? cJSON_CreateObject() : cJSON_CreateArray();
    cJSON_ArrayForEach(child, node)
    {
        cJSON *v;
        if (double_resolve(t, child, r, &v, err) != 0) {
            cJSON_Delete(*out);
            return -1;
        }
        if (cJSON_IsObject(*out))
            cJSON_AddItemToObject(*out, child->string, v);
        else
            cJSON_AddItemToArray(*out, v);
    }
    return 0;
}

static int double_resource_properties(const floe_stack_template_t *t, const char *logical_id,
                                      const floe_stack_resolver_t *resolver, cJSON **out, floe_stack_error_t *err)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(double_resources(t), logical_id);
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(r, "Properties");

    if (props == NULL) {
        *out = cJSON_CreateObject();
        return 0;
    }
    return double_resolve(t, props, resolver, out, err);
}

static size_t double_n_outputs(const floe_stack_template_t *t)
{
    return t->n_outputs;
}

/* A resolved scalar's text, malloc'ed; NULL when unknown. */
static char *double_text(cJSON *v)
{
    char *text = NULL;

    if (cJSON_IsString(v))
        text = strdup(v->valuestring);
    else if (!double_is_unknown(v))
        text = cJSON_PrintUnformatted(v);
    cJSON_Delete(v);
    return text;
}

static int double_output(const floe_stack_template_t *t, size_t i, const floe_stack_resolver_t *resolver,
                         floe_stack_template_output_t *out, floe_stack_error_t *err)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t->root, "Outputs"),
                                                      t->outputs[i]);
    const cJSON *export_name = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "Export"), "Name");
    cJSON *v;

    out->name = t->outputs[i];
    out->description = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "Description"));
    out->value = out->export_name = NULL;
    if (double_resolve(t, cJSON_GetObjectItemCaseSensitive(o, "Value"), resolver, &v, err) != 0)
        return -1;
    out->value = double_text(v);
    if (export_name != NULL) {
        if (double_resolve(t, export_name, resolver, &v, err) != 0)
            return -1;
        out->export_name = double_text(v);
    }
    return 0;
}

static const floe_stack_template_ops_t template_double = {
    .parse = double_parse,
    .free = double_free,
    .validate = double_validate,
    .description = double_description,
    .n_parameters = double_n_parameters,
    .parameter = double_parameter,
    .n_resources = double_n_resources,
    .resource = double_resource,
    .resource_properties = double_resource_properties,
    .n_outputs = double_n_outputs,
    .output = double_output,
    .is_unknown = double_is_unknown,
};
