/*
 * Resource types (resource_types.h): lookup over the generated tables plus AWS::CDK::Metadata, and
 * the Properties check. Messages follow AWS's resource schema validation (it runs the everit JSON
 * schema validator), seen as "Properties validation failed for resource MyBucket with message:
 * #: required key [TableBucketName] not found" and "#/Tags/0: extraneous key [Name] is not
 * permitted" in stack events.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"
#include "cfn_template/resource_types.h"
#include "cfn_template/value.h"

/* The deepest property path written in a message; deeper paths are cut. */
#define PATH_MAX_LEN 512
/* Integers beyond this are not exact in a double. */
#define MAX_EXACT_INTEGER 9007199254740992.0

static const floe_cfn_resource_type_t cdk_metadata = {.name = FLOE_CFN_CDK_METADATA_TYPE};

const floe_cfn_resource_type_t *floe_cfn_resource_type_find(const char *name)
{
    size_t lo = 0, hi = FLOE_CFN_N_RESOURCE_TYPES;

    if (strcmp(name, FLOE_CFN_CDK_METADATA_TYPE) == 0)
        return &cdk_metadata;
    while (lo < hi) { /* the generated table is sorted by name */
        size_t mid = (lo + hi) / 2;
        int cmp = strcmp(name, floe_cfn_resource_types[mid].name);
        if (cmp == 0)
            return &floe_cfn_resource_types[mid];
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

bool floe_cfn_resource_type_is_noop(const floe_cfn_resource_type_t *type)
{
    return type == &cdk_metadata;
}

bool floe_cfn_resource_type_has_attribute(const floe_cfn_resource_type_t *type, const char *attribute)
{
    for (size_t i = 0; i < type->n_attributes; i++)
        if (strcmp(type->attributes[i], attribute) == 0)
            return true;
    return false;
}

static const floe_cfn_property_t *find_property(const floe_cfn_property_t *props, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(props[i].name, name) == 0)
            return &props[i];
    return NULL;
}

const floe_cfn_property_t *floe_cfn_resource_type_property(const floe_cfn_resource_type_t *type, const char *name)
{
    return find_property(type->properties, type->n_properties, name);
}

floe_cfn_replacement_t floe_cfn_property_replacement(const floe_cfn_resource_type_t *type, const char *name)
{
    const floe_cfn_property_t *p = floe_cfn_resource_type_property(type, name);
    return p != NULL ? p->replacement : FLOE_CFN_REPLACEMENT_NEVER;
}

/* ---- the Properties check ----------------------------------------------------------------- */

typedef struct check {
    const char *logical_id;
    char path[PATH_MAX_LEN]; /* "#", "#/Compaction", "#/Tags/0" */
    size_t path_len;
    floe_cfn_template_error_t *err;
} check_t;

static int check_value(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node);

static int violation(check_t *c, const char *fmt, const char *a, const char *b)
{
    char detail[FLOE_CFN_MESSAGE_MAX / 2];
    snprintf(detail, sizeof(detail), fmt, a, b);
    return floe_cfn_template_fail(c->err, "Properties validation failed for resource %s with message: %s: %s", c->logical_id,
                         c->path, detail);
}

/* Appends "/<segment>" to the path; returns the length to restore. */
static size_t path_push(check_t *c, const char *segment)
{
    size_t saved = c->path_len;
    int n = snprintf(c->path + c->path_len, sizeof(c->path) - c->path_len, "/%s", segment);
    if (n > 0)
        c->path_len = strlen(c->path);
    return saved;
}

static void path_pop(check_t *c, size_t saved)
{
    c->path_len = saved;
    c->path[saved] = '\0';
}

/* The everit name of a JSON value's type, as in "found: JSONObject". */
static const char *json_type_name(const cJSON *node)
{
    if (cJSON_IsString(node))
        return "String";
    if (cJSON_IsNumber(node))
        return node->valuedouble == floor(node->valuedouble) ? "Integer" : "Number";
    if (cJSON_IsBool(node))
        return "Boolean";
    if (cJSON_IsArray(node))
        return "JSONArray";
    if (cJSON_IsObject(node))
        return "JSONObject";
    return "Null";
}

static const char *kind_name(const floe_cfn_type_t *type)
{
    switch (type->kind) {
    case FLOE_CFN_KIND_STRING:
        return "String";
    case FLOE_CFN_KIND_INTEGER:
        return "Integer";
    case FLOE_CFN_KIND_NUMBER:
        return "Number";
    case FLOE_CFN_KIND_BOOLEAN:
        return "Boolean";
    case FLOE_CFN_KIND_ARRAY:
        return "JSONArray";
    default:
        return "JSONObject";
    }
}

static int wrong_type(check_t *c, const floe_cfn_type_t *type, const cJSON *node)
{
    return violation(c, "expected type: %s, found: %s", kind_name(type), json_type_name(node));
}

/* Puts `with` where `node` was, under the same key (cJSON_ReplaceItemViaPointer keeps no key). */
static void replace(cJSON *parent, cJSON *node, cJSON *with)
{
    if (node->string != NULL && with->string == NULL)
        with->string = floe_xstrdup(node->string);
    cJSON_ReplaceItemViaPointer(parent, node, with);
}

static bool is_integer_text(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == '\0';
}

static bool is_number_text(const char *s, double *value)
{
    char *end;
    const char *p = s;

    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return false; /* refuses "inf", "nan", " 5" and hex, which strtod would take */
    *value = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*value);
}

static int check_string(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node)
{
    char buf[64];
    const char *text;

    if (!cJSON_IsString(node)) {
        text = floe_cfn_scalar_text(node, buf, sizeof(buf));
        if (text == NULL || cJSON_IsNull(node))
            return wrong_type(c, type, node);
        cJSON *as_string = cJSON_CreateString(text);
        replace(parent, node, as_string);
        node = as_string;
    }
    if (type->n_allowed_values == 0)
        return FLOE_OK;
    for (size_t i = 0; i < type->n_allowed_values; i++)
        if (strcmp(node->valuestring, type->allowed_values[i]) == 0)
            return FLOE_OK;
    return violation(c, "%s is not a valid enum value%s", node->valuestring, "");
}

static int check_number(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node)
{
    bool integer = type->kind == FLOE_CFN_KIND_INTEGER;
    double value;

    if (cJSON_IsString(node)) {
        if ((integer && !is_integer_text(node->valuestring)) || !is_number_text(node->valuestring, &value))
            return wrong_type(c, type, node);
        replace(parent, node, cJSON_CreateNumber(value));
        return FLOE_OK;
    }
    if (!cJSON_IsNumber(node))
        return wrong_type(c, type, node);
    if (integer && (node->valuedouble != floor(node->valuedouble) || fabs(node->valuedouble) > MAX_EXACT_INTEGER))
        return wrong_type(c, type, node);
    return FLOE_OK;
}

static int check_boolean(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node)
{
    if (cJSON_IsBool(node))
        return FLOE_OK;
    if (cJSON_IsString(node) && strcasecmp(node->valuestring, "true") == 0)
        replace(parent, node, cJSON_CreateTrue());
    else if (cJSON_IsString(node) && strcasecmp(node->valuestring, "false") == 0)
        replace(parent, node, cJSON_CreateFalse());
    else
        return wrong_type(c, type, node);
    return FLOE_OK;
}

static int check_struct(check_t *c, const floe_cfn_struct_t *st, const floe_cfn_type_t *type, cJSON *node)
{
    cJSON *member, *next;

    if (!cJSON_IsObject(node))
        return wrong_type(c, type, node);
    for (size_t i = 0; i < st->n_properties; i++)
        if (st->properties[i].is_required && cJSON_GetObjectItemCaseSensitive(node, st->properties[i].name) == NULL)
            return violation(c, "required key [%s] not found%s", st->properties[i].name, "");
    for (member = node->child; member != NULL; member = next) {
        const floe_cfn_property_t *p = find_property(st->properties, st->n_properties, member->string);
        next = member->next; /* the check may replace member */
        if (p == NULL)
            return violation(c, "extraneous key [%s] is not permitted%s", member->string, "");
        size_t saved = path_push(c, member->string);
        int rc = check_value(c, p->type, node, member);
        path_pop(c, saved);
        if (rc != FLOE_OK)
            return rc;
    }
    return FLOE_OK;
}

/* Each element of an array, or each member value of a map, against `element`. */
static int check_elements(check_t *c, const floe_cfn_type_t *element, cJSON *node)
{
    cJSON *item, *next;
    size_t i = 0;
    char index[24];

    for (item = node->child; item != NULL; item = next, i++) {
        next = item->next;
        snprintf(index, sizeof(index), "%zu", i);
        size_t saved = path_push(c, cJSON_IsArray(node) ? index : item->string);
        int rc = check_value(c, element, node, item);
        path_pop(c, saved);
        if (rc != FLOE_OK)
            return rc;
    }
    return FLOE_OK;
}

/* A union: the first alternative the value passes (coerced) wins. The check runs on a copy under
 * a scratch parent so a failed alternative leaves the value as it was. */
static int check_union(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node)
{
    char names[128] = "";
    floe_cfn_template_error_t scratch_err;
    check_t scratch = *c;

    scratch.err = &scratch_err;
    for (size_t i = 0; i < type->n_alternatives; i++) {
        cJSON *holder = cJSON_CreateArray();
        cJSON_AddItemToArray(holder, cJSON_Duplicate(node, true));
        if (check_value(&scratch, type->alternatives[i], holder, holder->child) == FLOE_OK) {
            cJSON *passed = cJSON_DetachItemViaPointer(holder, holder->child);
            replace(parent, node, passed);
            cJSON_Delete(holder);
            return FLOE_OK;
        }
        cJSON_Delete(holder);
        snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i > 0 ? ", " : "",
                 kind_name(type->alternatives[i]));
    }
    return violation(c, "expected type: one of [%s], found: %s", names, json_type_name(node));
}

static int check_value(check_t *c, const floe_cfn_type_t *type, cJSON *parent, cJSON *node)
{
    if (floe_cfn_is_unknown(node))
        return FLOE_OK;
    switch (type->kind) {
    case FLOE_CFN_KIND_STRING:
        return check_string(c, type, parent, node);
    case FLOE_CFN_KIND_INTEGER:
    case FLOE_CFN_KIND_NUMBER:
        return check_number(c, type, parent, node);
    case FLOE_CFN_KIND_BOOLEAN:
        return check_boolean(c, type, parent, node);
    case FLOE_CFN_KIND_JSON:
        return cJSON_IsObject(node) ? FLOE_OK : wrong_type(c, type, node);
    case FLOE_CFN_KIND_STRUCT:
        return check_struct(c, type->structure, type, node);
    case FLOE_CFN_KIND_ARRAY:
        return cJSON_IsArray(node) ? check_elements(c, type->element, node) : wrong_type(c, type, node);
    case FLOE_CFN_KIND_MAP:
        return cJSON_IsObject(node) ? check_elements(c, type->element, node) : wrong_type(c, type, node);
    case FLOE_CFN_KIND_UNION:
        return check_union(c, type, parent, node);
    }
    return wrong_type(c, type, node);
}

int floe_cfn_properties_check(const floe_cfn_resource_type_t *type, const char *logical_id, cJSON *properties,
                              floe_cfn_template_error_t *err)
{
    check_t c = {.logical_id = logical_id, .path = "#", .path_len = 1, .err = err};
    floe_cfn_struct_t top = {type->name, type->properties, type->n_properties};
    floe_cfn_type_t object = {.kind = FLOE_CFN_KIND_STRUCT, .structure = &top};

    if (floe_cfn_resource_type_is_noop(type))
        return FLOE_OK;
    return check_struct(&c, &top, &object, properties);
}
