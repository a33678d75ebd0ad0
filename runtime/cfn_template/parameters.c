/*
 * Template parameters (parameters.h). The constraint messages are AWS's: "Parameter 'P' must
 * match pattern ^[a-z]+$" (measured against CloudFormation), the others in the same form, and
 * "Parameter P failed to satisfy constraint: <ConstraintDescription>" when the template gives a
 * ConstraintDescription (seen with aws-cli). AllowedPattern must match the whole value, as Java's
 * String.matches does; Floe runs it with PCRE2, whose syntax is close to Java's (docs/cloudformation.md).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/xalloc.h"
#include "cfn_template/parameters.h"
#include "cfn_template/value.h"

static const char *const parameter_keys[] = {
    "Type",      "Default",   "NoEcho",   "AllowedValues", "AllowedPattern", "MaxLength",
    "MinLength", "MaxValue",  "MinValue", "Description",   "ConstraintDescription",
};

static bool is_alphanumeric(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s))
            return false;
    return true;
}

static bool is_parameter_key(const char *key)
{
    for (size_t i = 0; i < sizeof(parameter_keys) / sizeof(parameter_keys[0]); i++)
        if (strcmp(parameter_keys[i], key) == 0)
            return true;
    return false;
}

/* ---- definitions -------------------------------------------------------------------------- */

static int read_type(floe_cfn_parameter_t *p, const cJSON *def, floe_cfn_template_error_t *err)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(def, "Type");

    if (type == NULL)
        return floe_cfn_template_fail(err, "Template format error: Every Parameters object must contain a Type member.");
    if (!cJSON_IsString(type))
        return floe_cfn_template_fail(err, "Template format error: Every Type member must be a string.");
    p->type = type->valuestring;
    if (strcmp(p->type, "String") == 0)
        p->kind = FLOE_CFN_PARAM_STRING;
    else if (strcmp(p->type, "Number") == 0)
        p->kind = FLOE_CFN_PARAM_NUMBER;
    else if (strcmp(p->type, "List<Number>") == 0)
        p->kind = FLOE_CFN_PARAM_NUMBER_LIST;
    else if (strcmp(p->type, "CommaDelimitedList") == 0)
        p->kind = FLOE_CFN_PARAM_COMMA_DELIMITED_LIST;
    else if (strncmp(p->type, "AWS::", 5) == 0 || strncmp(p->type, "List<AWS::", 10) == 0)
        return floe_cfn_template_fail(err, "Template format error: Parameter %s has type %s, which Floe does not support: "
                                  "AWS-specific and SSM parameter types look values up in services Floe does not "
                                  "emulate; use String", p->name, p->type);
    else
        return floe_cfn_template_fail(err, "Template format error: Unrecognized parameter type: %s", p->type);
    return FLOE_OK;
}

static int read_string(const cJSON *def, const char *key, const char **out, floe_cfn_template_error_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(def, key);

    if (v == NULL)
        return FLOE_OK;
    if (!cJSON_IsString(v))
        return floe_cfn_template_fail(err, "Template format error: Every %s member must be a string.", key);
    *out = v->valuestring;
    return FLOE_OK;
}

/* MinLength and friends: a number, or a string holding one. */
static int read_bound(const cJSON *def, const char *key, bool *has, double *out, floe_cfn_template_error_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(def, key);
    char *end = NULL;

    if (v == NULL)
        return FLOE_OK;
    if (cJSON_IsNumber(v))
        *out = v->valuedouble;
    else if (cJSON_IsString(v) && v->valuestring[0] != '\0')
        *out = strtod(v->valuestring, &end);
    if ((!cJSON_IsNumber(v) && (end == NULL || *end != '\0')) || !isfinite(*out))
        return floe_cfn_template_fail(err, "Template format error: Every %s member must be a number.", key);
    *has = true;
    return FLOE_OK;
}

static int read_scalars(floe_cfn_parameter_t *p, const cJSON *def, floe_cfn_template_error_t *err)
{
    const cJSON *v;
    char buf[64];

    if ((v = cJSON_GetObjectItemCaseSensitive(def, "Default")) != NULL) {
        const char *text = floe_cfn_scalar_text(v, buf, sizeof(buf));
        if (text == NULL)
            return floe_cfn_template_fail(err, "Template format error: Every Default member must be a string.");
        p->default_value = floe_xstrdup(text);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "NoEcho")) != NULL) {
        if (!cJSON_IsBool(v) && !(cJSON_IsString(v) && (strcasecmp(v->valuestring, "true") == 0 ||
                                                          strcasecmp(v->valuestring, "false") == 0)))
            return floe_cfn_template_fail(err, "Template format error: Every NoEcho member must be a boolean.");
        p->is_no_echo = cJSON_IsTrue(v) || (cJSON_IsString(v) && strcasecmp(v->valuestring, "true") == 0);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(def, "AllowedValues")) != NULL) {
        const cJSON *item;
        if (!cJSON_IsArray(v))
            return floe_cfn_template_fail(err, "Template format error: Every AllowedValues member must be a list.");
        cJSON_ArrayForEach(item, v)
            if (floe_cfn_scalar_text(item, buf, sizeof(buf)) == NULL)
                return floe_cfn_template_fail(err, "Template format error: Every AllowedValues value must be a string.");
        p->allowed_values = v;
    }
    if (read_string(def, "AllowedPattern", &p->allowed_pattern, err) != FLOE_OK ||
        read_string(def, "Description", &p->description, err) != FLOE_OK ||
        read_string(def, "ConstraintDescription", &p->constraint_description, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (read_bound(def, "MinLength", &p->has_min_length, &p->min_length, err) != FLOE_OK ||
        read_bound(def, "MaxLength", &p->has_max_length, &p->max_length, err) != FLOE_OK ||
        read_bound(def, "MinValue", &p->has_min_value, &p->min_value, err) != FLOE_OK ||
        read_bound(def, "MaxValue", &p->has_max_value, &p->max_value, err) != FLOE_OK)
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* Constraints that only make sense on some types (wording as Eucalyptus's copy of AWS's). */
static int check_constraint_kinds(const floe_cfn_parameter_t *p, floe_cfn_template_error_t *err)
{
    bool is_number = p->kind == FLOE_CFN_PARAM_NUMBER || p->kind == FLOE_CFN_PARAM_NUMBER_LIST;
    const char *misplaced = NULL;

    if (is_number && p->has_min_length)
        misplaced = "MinLength";
    else if (is_number && p->has_max_length)
        misplaced = "MaxLength";
    else if (is_number && p->allowed_pattern != NULL)
        misplaced = "AllowedPattern";
    if (misplaced != NULL)
        return floe_cfn_template_fail(err, "Template error: Parameter '%s' %s must be on a parameter of type String", p->name,
                             misplaced);
    if (!is_number && (p->has_min_value || p->has_max_value))
        return floe_cfn_template_fail(err, "Template error: Parameter '%s' %s must be on a parameter of type Number", p->name,
                             p->has_min_value ? "MinValue" : "MaxValue");
    if ((p->has_min_length && p->has_max_length && p->min_length > p->max_length) ||
        (p->has_min_value && p->has_max_value && p->min_value > p->max_value))
        return floe_cfn_template_fail(err, "Template error: Parameter '%s' %s must be less than %s.", p->name,
                             p->has_min_length && p->has_max_length ? "MinLength" : "MinValue",
                             p->has_min_length && p->has_max_length ? "MaxLength" : "MaxValue");
    return FLOE_OK;
}

static int parse_one(floe_cfn_parameter_t *p, const cJSON *def, floe_cfn_template_error_t *err)
{
    const cJSON *key;

    p->name = def->string;
    if (!is_alphanumeric(p->name))
        return floe_cfn_template_fail(err, "Template format error: Parameter name %s is non alphanumeric.", p->name);
    if (!cJSON_IsObject(def))
        return floe_cfn_template_fail(err, "Template format error: Every Parameters member must be an object.");
    cJSON_ArrayForEach(key, def)
        if (!is_parameter_key(key->string))
            return floe_cfn_template_fail(err, "Template format error: Invalid template parameter property '%s'", key->string);
    if (read_type(p, def, err) != FLOE_OK || read_scalars(p, def, err) != FLOE_OK)
        return FLOE_EFAIL;
    return check_constraint_kinds(p, err);
}

int floe_cfn_parameters_parse(floe_cfn_template_t *t, const cJSON *section, floe_cfn_template_error_t *err)
{
    const cJSON *def;
    int n;

    if (section == NULL)
        return FLOE_OK;
    if (!cJSON_IsObject(section))
        return floe_cfn_template_fail(err, "Template format error: Parameters must be an object.");
    n = cJSON_GetArraySize(section);
    if (n > FLOE_CFN_MAX_PARAMETERS)
        return floe_cfn_template_fail(err, "Template format error: Number of parameters, %d, is greater than maximum "
                                  "allowed, %d", n, FLOE_CFN_MAX_PARAMETERS);
    t->parameters = floe_xcalloc((size_t)n + 1, sizeof(*t->parameters));
    cJSON_ArrayForEach(def, section)
        if (parse_one(&t->parameters[t->n_parameters++], def, err) != FLOE_OK)
            return FLOE_EFAIL;
    return FLOE_OK;
}

/* ---- values ---------------------------------------------------------------------------------- */

/* A bound as the template wrote it, more or less: 3 rather than 3.000000. */
static const char *bound_text(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%g", v);
    return buf;
}

static size_t code_points(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* A failed constraint: the template's ConstraintDescription when it has one, else `fmt`. */
static int violated(const floe_cfn_parameter_t *p, floe_cfn_template_error_t *err, const char *fmt, const char *detail)
{
    char message[FLOE_CFN_MESSAGE_MAX / 2];

    if (p->constraint_description != NULL)
        return floe_cfn_template_fail(err, "Parameter %s failed to satisfy constraint: %s", p->name, p->constraint_description);
    snprintf(message, sizeof(message), fmt, p->name, detail);
    return floe_cfn_template_fail(err, "%s", message);
}

static bool is_number_text(const char *s, double *value)
{
    const char *p = s;
    char *end;

    while (*p == ' ')
        p++;
    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return false;
    *value = strtod(s, &end);
    while (*end == ' ')
        end++;
    return *end == '\0' && isfinite(*value);
}

static int check_pattern(const floe_cfn_parameter_t *p, const char *value, floe_cfn_template_error_t *err)
{
    int code;
    PCRE2_SIZE offset;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)p->allowed_pattern, PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code,
                                   &offset, NULL);
    pcre2_match_data *md;
    int rc;

    if (re == NULL)
        return floe_cfn_template_fail(err, "Template error: Parameter '%s' AllowedPattern must be a valid regular expression.",
                             p->name);
    md = pcre2_match_data_create_from_pattern(re, NULL);
    rc = pcre2_match(re, (PCRE2_SPTR)value, strlen(value), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc >= 0 ? FLOE_OK : violated(p, err, "Parameter '%s' must match pattern %s", p->allowed_pattern);
}

static int check_allowed(const floe_cfn_parameter_t *p, const char *value, floe_cfn_template_error_t *err)
{
    const cJSON *item;
    char buf[64];

    if (p->allowed_values == NULL)
        return FLOE_OK;
    cJSON_ArrayForEach(item, p->allowed_values)
        if (strcmp(floe_cfn_scalar_text(item, buf, sizeof(buf)), value) == 0)
            return FLOE_OK;
    return violated(p, err, "Parameter '%s' must be one of AllowedValues%s", "");
}

/* One value (or one member of a list) against the parameter's constraints. */
static int check_member(const floe_cfn_parameter_t *p, const char *value, floe_cfn_template_error_t *err)
{
    bool is_number = p->kind == FLOE_CFN_PARAM_NUMBER || p->kind == FLOE_CFN_PARAM_NUMBER_LIST;
    char buf[64];
    double number;

    if (check_allowed(p, value, err) != FLOE_OK)
        return FLOE_EFAIL;
    if (is_number) {
        if (!is_number_text(value, &number))
            return violated(p, err, "Parameter '%s' must be a number%s", "");
        if (p->has_min_value && number < p->min_value)
            return violated(p, err, "Parameter '%s' must be a number not less than %s",
                            bound_text(p->min_value, buf, sizeof(buf)));
        if (p->has_max_value && number > p->max_value)
            return violated(p, err, "Parameter '%s' must be a number not greater than %s",
                            bound_text(p->max_value, buf, sizeof(buf)));
        return FLOE_OK;
    }
    if (p->has_min_length && (double)code_points(value) < p->min_length)
        return violated(p, err, "Parameter '%s' must contain at least %s characters",
                        bound_text(p->min_length, buf, sizeof(buf)));
    if (p->has_max_length && (double)code_points(value) > p->max_length)
        return violated(p, err, "Parameter '%s' must contain at most %s characters",
                        bound_text(p->max_length, buf, sizeof(buf)));
    if (p->allowed_pattern != NULL)
        return check_pattern(p, value, err);
    return FLOE_OK;
}

/* "a, b,c" -> ["a", "b", "c"]: AWS trims the spaces around each member of a list parameter. */
static cJSON *split_list(const char *value)
{
    cJSON *list = cJSON_CreateArray();
    const char *p = value;

    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma != NULL ? comma : p + strlen(p);
        const char *start = p;
        while (start < end && isspace((unsigned char)*start))
            start++;
        while (end > start && isspace((unsigned char)end[-1]))
            end--;
        size_t len = end > start ? (size_t)(end - start) : 0;
        char *member = floe_xmalloc(len + 1);
        memcpy(member, start, len);
        member[len] = '\0';
        cJSON_AddItemToArray(list, cJSON_CreateString(member));
        free(member);
        if (comma == NULL)
            return list;
        p = comma + 1;
    }
}

static int bind_one(floe_cfn_parameter_t *p, const char *value, floe_cfn_template_error_t *err)
{
    bool is_list = p->kind == FLOE_CFN_PARAM_NUMBER_LIST || p->kind == FLOE_CFN_PARAM_COMMA_DELIMITED_LIST;
    cJSON *resolved = is_list ? split_list(value) : cJSON_CreateString(value);
    const cJSON *member;

    cJSON_ArrayForEach(member, (is_list ? resolved : NULL))
        if (check_member(p, member->valuestring, err) != FLOE_OK) {
            cJSON_Delete(resolved);
            return FLOE_EFAIL;
        }
    if (!is_list && check_member(p, value, err) != FLOE_OK) {
        cJSON_Delete(resolved);
        return FLOE_EFAIL;
    }
    p->value = floe_xstrdup(value);
    p->resolved = resolved;
    return FLOE_OK;
}

static const char *given_value(const floe_cfn_param_value_t *params, size_t n, const char *name)
{
    const char *value = NULL;
    for (size_t i = 0; i < n; i++) /* the last pair wins, as with repeated form keys */
        if (strcmp(params[i].key, name) == 0)
            value = params[i].value;
    return value;
}

/* Names of `params` the template does not declare, or of declared parameters without a value. */
static int check_names(floe_cfn_template_t *t, const floe_cfn_param_value_t *params, size_t n_params,
                       floe_cfn_template_error_t *err)
{
    const char **names = floe_xcalloc(t->n_parameters + n_params + 1, sizeof(*names));
    char list[FLOE_CFN_MESSAGE_MAX / 2];
    size_t n = 0;

    for (size_t i = 0; i < t->n_parameters; i++)
        if (given_value(params, n_params, t->parameters[i].name) == NULL && t->parameters[i].default_value == NULL)
            names[n++] = t->parameters[i].name;
    if (n > 0) {
        floe_cfn_format_names(list, sizeof(list), names, n);
        free(names);
        return floe_cfn_template_fail(err, "Parameters: [%s] must have values", list);
    }
    for (size_t i = 0; i < n_params; i++)
        if (floe_cfn_template_parameter(t, params[i].key) == NULL)
            names[n++] = params[i].key;
    floe_cfn_format_names(list, sizeof(list), names, n);
    free(names);
    return n > 0 ? floe_cfn_template_fail(err, "Parameters: [%s] do not exist in the template", list) : FLOE_OK;
}

int floe_cfn_parameters_bind(floe_cfn_template_t *t, const floe_cfn_param_value_t *params, size_t n_params,
                             floe_cfn_template_error_t *err)
{
    floe_cfn_parameters_unbind(t);
    if (check_names(t, params, n_params, err) != FLOE_OK)
        return FLOE_EFAIL;
    for (size_t i = 0; i < t->n_parameters; i++) {
        floe_cfn_parameter_t *p = &t->parameters[i];
        const char *value = given_value(params, n_params, p->name);
        if (bind_one(p, value != NULL ? value : p->default_value, err) != FLOE_OK) {
            floe_cfn_parameters_unbind(t);
            return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

void floe_cfn_parameters_unbind(floe_cfn_template_t *t)
{
    for (size_t i = 0; i < t->n_parameters; i++) {
        free(t->parameters[i].value);
        cJSON_Delete(t->parameters[i].resolved);
        t->parameters[i].value = NULL;
        t->parameters[i].resolved = NULL;
    }
}

void floe_cfn_parameters_dispose(floe_cfn_template_t *t)
{
    floe_cfn_parameters_unbind(t);
    for (size_t i = 0; i < t->n_parameters; i++)
        free(t->parameters[i].default_value);
    free(t->parameters);
    t->parameters = NULL;
    t->n_parameters = 0;
}
