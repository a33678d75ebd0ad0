/*
 * Templates: parse (the sections, the reference checks), validate, and the resolve entry points
 * the engine calls (template.h). Parameters live in parameters.c, functions in intrinsic.c, the
 * reference walk in references.c, the order in plan.c.
 *
 * AWS's messages used here, where they come from: "Template format error: Unresolved resource
 * dependencies [X] in the Resources block of the template", "Template format error: Unrecognized
 * resource types: [X]", "Template format error: At least one Resources member must be defined.",
 * "Template format error: Every DependsOn value must be a string." and "JSON/YAML not
 * well-formed" are quoted in AWS's knowledge-center article on template validation errors and in
 * issues filed against aws-cli, serverless and cfn-lint; "Invalid template property or properties
 * [X]" and "Resource name X is non alphanumeric." are AWS's as clients report them.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cfn_template/parameters.h"
#include "cfn_template/plan.h"
#include "cfn_template/references.h"
#include "cfn_template/template.h"
#include "cfn_template/yaml.h"

/* The top-level sections AWS accepts (Rules and Hooks are refused below, Transform too). */
static const char *const sections[] = {
    "AWSTemplateFormatVersion", "Description", "Metadata", "Parameters", "Rules", "Mappings",
    "Conditions",               "Transform",   "Resources", "Outputs",  "Hooks",
};

/* Description is not in AWS's list of resource attributes, yet CloudFormation takes it and
 * answers it in DescribeStackResource(s) (StackResource.Description; templates CodeStar writes,
 * and the CDK's CfnResource, carry it). */
static const char *const resource_keys[] = {
    "Type",   "Properties",          "DependsOn",      "Condition",    "DeletionPolicy",
    "UpdateReplacePolicy",        "Metadata",       "CreationPolicy", "UpdatePolicy", "Description",
};

static const char *const output_keys[] = {"Value", "Description", "Export", "Condition"};

/* The longest JSON-pointer path written in a 'null' message. */
#define NULL_PATH_MAX 512

static bool is_one_of(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

static bool is_alphanumeric(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s))
            return false;
    return true;
}

/* ---- lookups ---------------------------------------------------------------------------------- */

size_t floe_cfn_template_resource_types(const floe_cfn_template_t *t, const char **types)
{
    size_t n = 0;

    for (size_t i = 0; i < t->n_resources; i++) {
        size_t j = 0;
        while (j < n && strcmp(types[j], t->resources[i].type) != 0)
            j++;
        if (j == n)
            types[n++] = t->resources[i].type;
    }
    return n;
}

/* ---- text into a tree ------------------------------------------------------------------------- */

/* JSON text: one value and nothing after it but blanks (checked here: cJSON would want a NUL
 * inside `len`). The error position is where cJSON stopped, or the first byte after the value. */
static cJSON *parse_json(const char *text, size_t len, floe_cfn_template_error_t *err)
{
    const char *end = NULL;
    int line, column;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    size_t at = end != NULL ? (size_t)(end - text) : 0;

    if (root != NULL) {
        while (at < len && isspace((unsigned char)text[at]))
            at++;
        if (at == len)
            return root;
        cJSON_Delete(root);
    }
    floe_cfn_text_position(text, len, at, &line, &column);
    floe_cfn_template_fail(err, "Template format error: JSON not well-formed. (line %d, column %d)", line, column);
    return NULL;
}

static cJSON *parse_text(floe_cfn_template_t *t, const char *text, size_t len, floe_cfn_template_error_t *err)
{
    size_t i = 0;

    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3; /* a UTF-8 byte order mark */
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    if (i < len && text[i] == '{')
        return parse_json(text + i, len - i, err);
    t->is_yaml = true;
    return floe_cfn_yaml_parse(text, len, err);
}

/* ---- sections --------------------------------------------------------------------------------- */

static int check_sections(const cJSON *root, floe_cfn_template_error_t *err)
{
    const char **unknown = floe_xcalloc((size_t)cJSON_GetArraySize(root) + 1, sizeof(*unknown));
    char list[FLOE_CFN_MESSAGE_MAX / 2];
    const cJSON *s;
    size_t n = 0;

    cJSON_ArrayForEach(s, root)
        if (!is_one_of(s->string, sections, sizeof(sections) / sizeof(sections[0])))
            unknown[n++] = s->string;
    floe_cfn_format_names(list, sizeof(list), unknown, n);
    free(unknown);
    if (n > 0)
        return floe_cfn_template_fail(err, "Template format error: Invalid template property or properties [%s]", list);
    if ((s = cJSON_GetObjectItemCaseSensitive(root, "Transform")) != NULL) {
        char buf[64];
        const char *name = floe_cfn_scalar_text(s, buf, sizeof(buf));
        return floe_cfn_template_fail(err, "Template format error: Transform%s%s is not supported: Floe runs no transforms or "
                                  "macros; deploy the processed template instead (for SAM, `sam build` and "
                                  "`sam package` output is still a transform: expand it first)",
                             name != NULL ? " " : "", name != NULL ? name : "");
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "Rules") != NULL)
        return floe_cfn_template_fail(err, "Template format error: The Rules section is not supported by Floe");
    if (cJSON_GetObjectItemCaseSensitive(root, "Hooks") != NULL)
        return floe_cfn_template_fail(err, "Template format error: The Hooks section is not supported by Floe");
    return FLOE_OK;
}

static int read_header(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const cJSON *v;

    if ((v = cJSON_GetObjectItemCaseSensitive(t->root, "AWSTemplateFormatVersion")) != NULL) {
        if (!cJSON_IsString(v) || strcmp(v->valuestring, FLOE_CFN_FORMAT_VERSION) != 0)
            return floe_cfn_template_fail(err, "Template format error: Unsupported value for AWSTemplateFormatVersion.");
        t->format_version = v->valuestring;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(t->root, "Description")) != NULL) {
        if (!cJSON_IsString(v))
            return floe_cfn_template_fail(err, "Template format error: Every Description member must be a string.");
        t->description = v->valuestring;
    }
    t->metadata = cJSON_GetObjectItemCaseSensitive(t->root, "Metadata");
    return FLOE_OK;
}

static int read_mappings(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const cJSON *map, *key, *attribute;

    t->mappings = cJSON_GetObjectItemCaseSensitive(t->root, "Mappings");
    if (t->mappings == NULL)
        return FLOE_OK;
    if (!cJSON_IsObject(t->mappings))
        return floe_cfn_template_fail(err, "Template format error: Mappings must be an object.");
    if (cJSON_GetArraySize(t->mappings) > FLOE_CFN_MAX_MAPPINGS)
        return floe_cfn_template_fail(err, "Template format error: Number of mappings, %d, is greater than maximum allowed, %d",
                             cJSON_GetArraySize(t->mappings), FLOE_CFN_MAX_MAPPINGS);
    cJSON_ArrayForEach(map, t->mappings) {
        if (!cJSON_IsObject(map))
            return floe_cfn_template_fail(err, "Template format error: Every Mappings member %s must be a map", map->string);
        cJSON_ArrayForEach(key, map) {
            if (!cJSON_IsObject(key))
                return floe_cfn_template_fail(err, "Template format error: Every Mappings member %s must be a map", key->string);
            cJSON_ArrayForEach(attribute, key)
                if (cJSON_IsObject(attribute) || cJSON_IsNull(attribute))
                    return floe_cfn_template_fail(err, "Template format error: Every Mappings attribute must be a String or "
                                              "a List.");
        }
    }
    return FLOE_OK;
}

static int read_condition_names(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const cJSON *c;

    t->conditions = cJSON_GetObjectItemCaseSensitive(t->root, "Conditions");
    if (t->conditions == NULL)
        return FLOE_OK;
    if (!cJSON_IsObject(t->conditions))
        return floe_cfn_template_fail(err, "Template format error: Conditions must be an object.");
    t->n_conditions = (size_t)cJSON_GetArraySize(t->conditions);
    t->condition_names = floe_xcalloc(t->n_conditions + 1, sizeof(*t->condition_names));
    t->condition_state = floe_xcalloc(t->n_conditions + 1, sizeof(*t->condition_state));
    size_t i = 0;
    cJSON_ArrayForEach(c, t->conditions)
        t->condition_names[i++] = c->string;
    return FLOE_OK;
}

/* A resource's or output's Condition: a string naming a condition. */
static int read_condition(const floe_cfn_template_t *t, const cJSON *v, const char *block, const char **out,
                          floe_cfn_template_error_t *err)
{
    if (v == NULL)
        return FLOE_OK;
    if (!cJSON_IsString(v))
        return floe_cfn_template_fail(err, "Template format error: Every Condition member must be a string.");
    if (floe_cfn_condition_index(t, v->valuestring) < 0)
        return floe_cfn_template_fail(err, "Template format error: Unresolved condition dependency %s in the %s block of the "
                                  "template", v->valuestring, block);
    *out = v->valuestring;
    return FLOE_OK;
}

/* ---- resources -------------------------------------------------------------------------------- */

static int read_policy(const floe_cfn_resource_t *res, const cJSON *v, const char *what, floe_cfn_policy_t *out,
                       floe_cfn_template_error_t *err)
{
    if (v == NULL) {
        *out = FLOE_CFN_POLICY_DELETE;
        return FLOE_OK;
    }
    if (!cJSON_IsString(v))
        return floe_cfn_template_fail(err, "Template format error: Every %s member must be a string.", what);
    if (strcmp(v->valuestring, "Delete") == 0)
        *out = FLOE_CFN_POLICY_DELETE;
    else if (strcmp(v->valuestring, "Retain") == 0)
        *out = FLOE_CFN_POLICY_RETAIN;
    else if (strcmp(v->valuestring, "RetainExceptOnCreate") == 0)
        *out = FLOE_CFN_POLICY_RETAIN_EXCEPT_ON_CREATE;
    else if (strcmp(v->valuestring, "Snapshot") == 0)
        return floe_cfn_template_fail(err, "Template format error: %s Snapshot is not supported for resource %s of type %s: "
                                  "use Delete or Retain", what, res->logical_id, res->type);
    else
        return floe_cfn_template_fail(err, "Template format error: Unrecognized %s %s for resource %s", what, v->valuestring,
                             res->logical_id);
    return FLOE_OK;
}

static int read_depends_on(floe_cfn_resource_t *res, const cJSON *v, floe_cfn_template_error_t *err)
{
    const cJSON *item;

    if (v == NULL)
        return FLOE_OK;
    if (!cJSON_IsString(v) && !cJSON_IsArray(v))
        return floe_cfn_template_fail(err, "Template format error: DependsOn must be a string or list of strings.");
    res->depends_on = floe_xcalloc(cJSON_IsArray(v) ? (size_t)cJSON_GetArraySize(v) + 1 : 1, sizeof(*res->depends_on));
    if (cJSON_IsString(v)) {
        res->depends_on[res->n_depends_on++] = v->valuestring;
        return FLOE_OK;
    }
    cJSON_ArrayForEach(item, v) {
        if (!cJSON_IsString(item))
            return floe_cfn_template_fail(err, "Template format error: Every DependsOn value must be a string.");
        res->depends_on[res->n_depends_on++] = item->valuestring;
    }
    return FLOE_OK;
}

/* Reads one resource; an unknown Type is left for the caller to list (type_info NULL). */
static int read_resource(floe_cfn_template_t *t, floe_cfn_resource_t *res, const cJSON *def, floe_cfn_template_error_t *err)
{
    const cJSON *key, *type, *v;

    res->logical_id = def->string;
    res->is_active = true;
    if (!is_alphanumeric(res->logical_id))
        return floe_cfn_template_fail(err, "Template format error: Resource name %s is non alphanumeric.", res->logical_id);
    if (!cJSON_IsObject(def) || (type = cJSON_GetObjectItemCaseSensitive(def, "Type")) == NULL)
        return floe_cfn_template_fail(err, "Template format error: [/Resources/%s] Every Resources object must contain a Type "
                                  "member.", res->logical_id);
    cJSON_ArrayForEach(key, def)
        if (!is_one_of(key->string, resource_keys, sizeof(resource_keys) / sizeof(resource_keys[0])))
            return floe_cfn_template_fail(err, "Template format error: Invalid template resource property '%s'", key->string);
    if (!cJSON_IsString(type))
        return floe_cfn_template_fail(err, "Template format error: Every Type member must be a string.");
    res->type = type->valuestring;
    res->type_info = floe_cfn_resource_type_find(res->type);
    res->properties = cJSON_GetObjectItemCaseSensitive(def, "Properties");
    res->metadata = cJSON_GetObjectItemCaseSensitive(def, "Metadata");
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "Description")) != NULL) {
        if (!cJSON_IsString(v))
            return floe_cfn_template_fail(err, "Template format error: Every Description member must be a string.");
        res->description = v->valuestring;
    }
    if (res->properties != NULL && !cJSON_IsObject(res->properties))
        return floe_cfn_template_fail(err, "Template format error: [/Resources/%s/Properties] Properties must be an object.",
                             res->logical_id);
    if (read_depends_on(res, cJSON_GetObjectItemCaseSensitive(def, "DependsOn"), err) != FLOE_OK ||
        read_condition(t, cJSON_GetObjectItemCaseSensitive(def, "Condition"), "Resources", &res->condition, err) !=
            FLOE_OK ||
        read_policy(res, cJSON_GetObjectItemCaseSensitive(def, "DeletionPolicy"), "DeletionPolicy",
                    &res->deletion_policy, err) != FLOE_OK ||
        read_policy(res, cJSON_GetObjectItemCaseSensitive(def, "UpdateReplacePolicy"), "UpdateReplacePolicy",
                    &res->update_replace_policy, err) != FLOE_OK)
        return FLOE_EFAIL;
    return FLOE_OK;
}

static int check_resource_types(const floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const char **unknown = floe_xcalloc(t->n_resources + 1, sizeof(*unknown));
    char list[FLOE_CFN_MESSAGE_MAX / 2];
    size_t n = 0;

    for (size_t i = 0; i < t->n_resources; i++)
        if (t->resources[i].type_info == NULL)
            unknown[n++] = t->resources[i].type;
    floe_cfn_format_names(list, sizeof(list), unknown, n);
    free(unknown);
    return n > 0 ? floe_cfn_template_fail(err, "Template format error: Unrecognized resource types: [%s]", list) : FLOE_OK;
}

static int read_resources(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const cJSON *section = cJSON_GetObjectItemCaseSensitive(t->root, "Resources"), *def;
    int n = cJSON_IsObject(section) ? cJSON_GetArraySize(section) : 0;

    if (n == 0)
        return floe_cfn_template_fail(err, "Template format error: At least one Resources member must be defined.");
    if (n > FLOE_CFN_MAX_RESOURCES)
        return floe_cfn_template_fail(err, "Template format error: Number of resources, %d, is greater than maximum allowed, %d",
                             n, FLOE_CFN_MAX_RESOURCES);
    t->resources = floe_xcalloc((size_t)n, sizeof(*t->resources));
    cJSON_ArrayForEach(def, section)
        if (read_resource(t, &t->resources[t->n_resources++], def, err) != FLOE_OK)
            return FLOE_EFAIL;
    for (size_t i = 0; i < t->n_resources; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(t->resources[i].logical_id, t->resources[j].logical_id) == 0) /* duplicate JSON keys */
                return floe_cfn_template_fail(err, "Template format error: Resource %s is defined more than once.",
                                     t->resources[i].logical_id);
    return check_resource_types(t, err);
}

/* ---- outputs ---------------------------------------------------------------------------------- */

static int read_output(floe_cfn_template_t *t, floe_cfn_output_t *out, const cJSON *def, floe_cfn_template_error_t *err)
{
    const cJSON *key, *v;

    out->name = def->string;
    out->is_active = true;
    if (!is_alphanumeric(out->name))
        return floe_cfn_template_fail(err, "Template format error: Output name %s is non alphanumeric.", out->name);
    if (!cJSON_IsObject(def) || (out->value = cJSON_GetObjectItemCaseSensitive(def, "Value")) == NULL)
        return floe_cfn_template_fail(err, "Template format error: Every Outputs member must contain a Value object");
    cJSON_ArrayForEach(key, def)
        if (!is_one_of(key->string, output_keys, sizeof(output_keys) / sizeof(output_keys[0])))
            return floe_cfn_template_fail(err, "Template format error: Invalid template output property '%s'", key->string);
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "Description")) != NULL) {
        if (!cJSON_IsString(v))
            return floe_cfn_template_fail(err, "Template format error: Every Description member must be a string.");
        out->description = v->valuestring;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "Export")) != NULL) {
        if (!cJSON_IsObject(v) || (out->export_name = cJSON_GetObjectItemCaseSensitive(v, "Name")) == NULL)
            return floe_cfn_template_fail(err, "Template format error: Every Export member must contain a Name object");
    }
    return read_condition(t, cJSON_GetObjectItemCaseSensitive(def, "Condition"), "Outputs", &out->condition, err);
}

static int read_outputs(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    const cJSON *section = cJSON_GetObjectItemCaseSensitive(t->root, "Outputs"), *def;
    int n;

    if (section == NULL)
        return FLOE_OK;
    if (!cJSON_IsObject(section))
        return floe_cfn_template_fail(err, "Template format error: Outputs must be an object.");
    n = cJSON_GetArraySize(section);
    if (n > FLOE_CFN_MAX_OUTPUTS)
        return floe_cfn_template_fail(err, "Template format error: Number of outputs, %d, is greater than maximum allowed, %d",
                             n, FLOE_CFN_MAX_OUTPUTS);
    t->outputs = floe_xcalloc((size_t)n + 1, sizeof(*t->outputs));
    cJSON_ArrayForEach(def, section)
        if (read_output(t, &t->outputs[t->n_outputs++], def, err) != FLOE_OK)
            return FLOE_EFAIL;
    return FLOE_OK;
}

/* ---- checks over the whole template ------------------------------------------------------------ */

/* AWS refuses a JSON null anywhere in Resources or Outputs, naming its path. */
static int check_nulls(const cJSON *node, char *path, size_t len, floe_cfn_template_error_t *err)
{
    const cJSON *child;
    size_t i = 0;

    if (cJSON_IsNull(node))
        return floe_cfn_template_fail(err, "Template format error: [%s] 'null' values are not allowed in templates", path);
    cJSON_ArrayForEach(child, ((cJSON_IsArray(node) || cJSON_IsObject(node)) ? node : NULL)) {
        char index[24];
        snprintf(index, sizeof(index), "%zu", i++);
        snprintf(path + len, NULL_PATH_MAX - len, "/%s", cJSON_IsArray(node) ? index : child->string);
        if (check_nulls(child, path, strlen(path), err) != FLOE_OK)
            return FLOE_EFAIL;
        path[len] = '\0';
    }
    return FLOE_OK;
}

typedef struct unresolved {
    const floe_cfn_template_t *t;
    bool is_conditions;  /* resources may not be referred to either */
    const char **names;
    size_t n, cap;
} unresolved_t;

/* Keeps a copy: a walk's names (Fn::Sub variables) do not outlive the callback. */
static void add_unresolved(unresolved_t *u, const char *name)
{
    if (u->n == u->cap) {
        u->cap = u->cap * 2 + 8;
        u->names = floe_xrealloc(u->names, u->cap * sizeof(*u->names));
    }
    u->names[u->n++] = floe_xstrdup(name);
}

static void unresolved_dispose(unresolved_t *u)
{
    for (size_t i = 0; i < u->n; i++)
        free((char *)u->names[i]);
    free(u->names);
    u->names = NULL;
    u->n = u->cap = 0;
}

static void on_reference(void *arg, const char *name, const char *attribute)
{
    unresolved_t *u = arg;
    bool is_value = floe_cfn_is_pseudo_parameter(name) || floe_cfn_template_parameter(u->t, name) != NULL;
    const floe_cfn_resource_t *res = floe_cfn_template_resource(u->t, name);

    if (u->is_conditions ? !is_value : ((attribute != NULL && res == NULL) || (!is_value && res == NULL)))
        add_unresolved(u, name);
}

static int report_unresolved(unresolved_t *u, const char *block, floe_cfn_template_error_t *err)
{
    char list[FLOE_CFN_MESSAGE_MAX / 2];
    int rc = FLOE_OK;

    if (u->n > 0) {
        floe_cfn_format_names(list, sizeof(list), u->names, u->n);
        if (u->is_conditions)
            rc = floe_cfn_template_fail(err, "Template format error: Unresolved dependencies [%s]. Cannot reference resources "
                                    "in the Conditions block of the template", list);
        else
            rc = floe_cfn_template_fail(err, "Template format error: Unresolved resource dependencies [%s] in the %s block of "
                                    "the template", list, block);
    }
    unresolved_dispose(u);
    return rc;
}

/* Walks a fragment collecting the names that resolve to nothing. */
static int walk_block(unresolved_t *u, const cJSON *node, bool in_conditions, floe_cfn_template_error_t *err)
{
    return floe_cfn_walk_references(u->t, node, in_conditions, false, on_reference, u, err);
}

static int check_references(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    unresolved_t u = {.t = t, .is_conditions = true};
    const cJSON *c;

    cJSON_ArrayForEach(c, t->conditions)
        if (walk_block(&u, c, true, err) != FLOE_OK)
            goto Fail;
    if (report_unresolved(&u, "Conditions", err) != FLOE_OK)
        return FLOE_EFAIL;
    u.is_conditions = false;
    for (size_t i = 0; i < t->n_resources; i++) {
        const floe_cfn_resource_t *res = &t->resources[i];
        if (walk_block(&u, res->properties, false, err) != FLOE_OK ||
            walk_block(&u, res->metadata, false, err) != FLOE_OK)
            goto Fail;
        for (size_t j = 0; j < res->n_depends_on; j++)
            if (floe_cfn_template_resource(t, res->depends_on[j]) == NULL)
                add_unresolved(&u, res->depends_on[j]);
    }
    if (report_unresolved(&u, "Resources", err) != FLOE_OK)
        return FLOE_EFAIL;
    for (size_t i = 0; i < t->n_outputs; i++)
        if (walk_block(&u, t->outputs[i].value, false, err) != FLOE_OK ||
            walk_block(&u, t->outputs[i].export_name, false, err) != FLOE_OK)
            goto Fail;
    return report_unresolved(&u, "Outputs", err);
Fail:
    unresolved_dispose(&u);
    return FLOE_EFAIL;
}

static int check_template_nulls(const floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    char path[NULL_PATH_MAX];
    const cJSON *section;

    for (int i = 0; i < 2; i++) {
        const char *name = i == 0 ? "Resources" : "Outputs";
        if ((section = cJSON_GetObjectItemCaseSensitive(t->root, name)) == NULL)
            continue;
        snprintf(path, sizeof(path), "/%s", name);
        if (check_nulls(section, path, strlen(path), err) != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int parse_sections(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    if (!cJSON_IsObject(t->root))
        return floe_cfn_template_fail(err, "Template format error: %s not well-formed. (the template must be an object)",
                             t->is_yaml ? "YAML" : "JSON");
    if (check_sections(t->root, err) != FLOE_OK || read_header(t, err) != FLOE_OK ||
        floe_cfn_parameters_parse(t, cJSON_GetObjectItemCaseSensitive(t->root, "Parameters"), err) != FLOE_OK ||
        read_mappings(t, err) != FLOE_OK || read_condition_names(t, err) != FLOE_OK ||
        read_resources(t, err) != FLOE_OK || read_outputs(t, err) != FLOE_OK || check_template_nulls(t, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (check_references(t, err) != FLOE_OK)
        return FLOE_EFAIL;
    return floe_cfn_plan_check(t, err);
}

int floe_cfn_template_parse(const char *text, size_t len, floe_cfn_template_t **out, floe_cfn_template_error_t *err)
{
    floe_cfn_template_t *t = floe_xcalloc(1, sizeof(*t));

    floe_cfn_template_error_clear(err);
    t->root = parse_text(t, text, len, err);
    if (t->root == NULL || parse_sections(t, err) != FLOE_OK) {
        floe_cfn_template_free(t);
        return FLOE_EFAIL;
    }
    *out = t;
    return FLOE_OK;
}

/* ---- validate --------------------------------------------------------------------------------- */

/* AWS::Partition and AWS::URLSuffix of a region (AWS General Reference, "AWS partitions"). */
static void set_partition(floe_cfn_template_t *t)
{
    static const struct {
        const char *prefix, *partition, *url_suffix;
    } partitions[] = {
        {"cn-", "aws-cn", "amazonaws.com.cn"},
        {"us-gov-", "aws-us-gov", "amazonaws.com"},
        {"us-isob-", "aws-iso-b", "sc2s.sgov.gov"},
        {"us-iso-", "aws-iso", "c2s.ic.gov"},
    };

    t->partition = "aws";
    t->url_suffix = "amazonaws.com";
    for (size_t i = 0; i < sizeof(partitions) / sizeof(partitions[0]); i++)
        if (strncmp(t->region, partitions[i].prefix, strlen(partitions[i].prefix)) == 0) {
            t->partition = partitions[i].partition;
            t->url_suffix = partitions[i].url_suffix;
        }
}

static void set_stack_info(floe_cfn_template_t *t, const floe_cfn_stack_info_t *stack)
{
    assert(stack->account_id != NULL && stack->region != NULL && stack->stack_name != NULL && stack->stack_id != NULL);
    free(t->account_id);
    free(t->region);
    free(t->stack_name);
    free(t->stack_id);
    t->account_id = floe_xstrdup(stack->account_id);
    t->region = floe_xstrdup(stack->region);
    t->stack_name = floe_xstrdup(stack->stack_name);
    t->stack_id = floe_xstrdup(stack->stack_id);
    set_partition(t);
}

static bool condition_holds(const floe_cfn_template_t *t, const char *name)
{
    bool value = true;
    if (name != NULL)
        floe_cfn_template_condition(t, name, &value);
    return value;
}

/* Resolves everything that will be resolved later, with resources unknown: a dry run. */
static int dry_run(const floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    cJSON *props;
    char *value, *export_name;

    for (size_t i = 0; i < t->n_order; i++) {
        if (floe_cfn_resource_properties(t, t->order[i], NULL, &props, err) != FLOE_OK)
            return FLOE_EFAIL;
        cJSON_Delete(props);
    }
    for (size_t i = 0; i < t->n_outputs; i++) {
        if (!t->outputs[i].is_active)
            continue;
        if (floe_cfn_output_value(t, &t->outputs[i], NULL, &value, &export_name, err) != FLOE_OK)
            return FLOE_EFAIL;
        free(value);
        free(export_name);
    }
    return FLOE_OK;
}

int floe_cfn_template_validate(floe_cfn_template_t *t, const floe_cfn_stack_info_t *stack,
                               const floe_cfn_param_value_t *params, size_t n_params, floe_cfn_template_error_t *err)
{
    floe_cfn_template_error_clear(err);
    t->is_validated = false;
    set_stack_info(t, stack);
    if (floe_cfn_parameters_bind(t, params, n_params, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfn_conditions_evaluate(t, err) != FLOE_OK)
        goto Fail;
    for (size_t i = 0; i < t->n_resources; i++)
        t->resources[i].is_active = condition_holds(t, t->resources[i].condition);
    for (size_t i = 0; i < t->n_outputs; i++)
        t->outputs[i].is_active = condition_holds(t, t->outputs[i].condition);
    if (floe_cfn_plan_order(t, err) != FLOE_OK)
        goto Fail;
    t->is_validated = true;
    if (dry_run(t, err) == FLOE_OK)
        return FLOE_OK;
Fail:
    t->is_validated = false;
    floe_cfn_parameters_unbind(t);
    if (t->n_conditions > 0)
        memset(t->condition_state, 0, t->n_conditions);
    for (size_t i = 0; i < t->n_resources; i++)
        t->resources[i].is_active = true;
    for (size_t i = 0; i < t->n_outputs; i++)
        t->outputs[i].is_active = true;
    return FLOE_EFAIL;
}

/* ---- resolution for the engine ------------------------------------------------------------------ */

int floe_cfn_resource_properties(const floe_cfn_template_t *t, const floe_cfn_resource_t *res,
                                 const floe_cfn_resolver_t *resolver, cJSON **out, floe_cfn_template_error_t *err)
{
    cJSON *props = NULL;

    assert(t->is_validated && res->is_active);
    if (res->properties != NULL &&
        floe_cfn_resolve(t, res->properties, "Resources", resolver, &props, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (props == NULL)
        props = cJSON_CreateObject();
    if (!cJSON_IsObject(props)) {
        cJSON_Delete(props);
        return floe_cfn_template_fail(err, "Template format error: [/Resources/%s/Properties] Properties must be an object.",
                             res->logical_id);
    }
    if (floe_cfn_properties_check(res->type_info, res->logical_id, props, err) != FLOE_OK) {
        cJSON_Delete(props);
        return FLOE_EFAIL;
    }
    *out = props;
    return FLOE_OK;
}

int floe_cfn_resource_metadata(const floe_cfn_template_t *t, const floe_cfn_resource_t *res,
                               const floe_cfn_resolver_t *resolver, cJSON **out, floe_cfn_template_error_t *err)
{
    assert(t->is_validated && res->is_active);
    *out = NULL;
    if (res->metadata == NULL)
        return FLOE_OK;
    return floe_cfn_resolve(t, res->metadata, "Resources", resolver, out, err);
}

/* An output's Value or Export.Name as text: NULL (and FLOE_OK) when unknown. */
static int output_text(const floe_cfn_template_t *t, const floe_cfn_output_t *o, const cJSON *node, const char *what,
                       const floe_cfn_resolver_t *resolver, char **out, floe_cfn_template_error_t *err)
{
    cJSON *v = NULL;
    const cJSON *item;
    char buf[64];
    const char *text;
    size_t len = 0;

    *out = NULL;
    if (floe_cfn_resolve(t, node, "Outputs", resolver, &v, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (v != NULL && floe_cfn_is_unknown(v)) {
        cJSON_Delete(v);
        return FLOE_OK;
    }
    if (v != NULL && (text = floe_cfn_scalar_text(v, buf, sizeof(buf))) != NULL) {
        *out = floe_xstrdup(text);
    } else if (cJSON_IsArray(v)) { /* a list, as AWS shows it: comma-joined */
        *out = floe_xstrdup("");
        cJSON_ArrayForEach(item, v) {
            if (floe_cfn_is_unknown(item) || (text = floe_cfn_scalar_text(item, buf, sizeof(buf))) == NULL)
                break;
            *out = floe_xrealloc(*out, len + strlen(text) + 2);
            len += (size_t)sprintf(*out + len, "%s%s", item == v->child ? "" : ",", text);
        }
        if (item != NULL) {
            free(*out);
            *out = NULL;
            if (!floe_cfn_is_unknown(item))
                goto Wrong;
        }
    } else {
        goto Wrong;
    }
    cJSON_Delete(v);
    return FLOE_OK;
Wrong:
    cJSON_Delete(v);
    return floe_cfn_template_fail(err, "Template format error: The %s of output %s must evaluate to a String or a List of "
                              "Strings", what, o->name);
}

int floe_cfn_output_value(const floe_cfn_template_t *t, const floe_cfn_output_t *output,
                          const floe_cfn_resolver_t *resolver, char **value, char **export_name, floe_cfn_template_error_t *err)
{
    assert(t->is_validated && output->is_active);
    *value = *export_name = NULL;
    if (output_text(t, output, output->value, "Value", resolver, value, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (output->export_name != NULL &&
        output_text(t, output, output->export_name, "Export Name", resolver, export_name, err) != FLOE_OK) {
        free(*value);
        *value = NULL;
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* ---- release ---------------------------------------------------------------------------------- */

void floe_cfn_template_free(floe_cfn_template_t *t)
{
    if (t == NULL)
        return;
    floe_cfn_parameters_dispose(t);
    for (size_t i = 0; i < t->n_resources; i++) {
        free(t->resources[i].depends_on);
        free(t->resources[i].needs);
    }
    free(t->resources);
    free(t->outputs);
    free(t->order);
    free(t->account_id);
    free(t->region);
    free(t->stack_name);
    free(t->stack_id);
    free(t->condition_names);
    free(t->condition_state);
    cJSON_Delete(t->root);
    free(t);
}
