/*
 * libFuzzer harness for CloudFormation templates (runtime/cfn_template/template.h): every input
 * is parsed (as JSON or YAML), validated with the defaults and again with a parameter the fuzzer
 * also controls, and every active resource and output is resolved with and without a resolver.
 * Besides the sanitizers it checks the library's promises: a refusal carries a message; a
 * validated template's order holds each active resource once, after everything it needs; resolved
 * Properties are a JSON object; the input is never longer than AWS allows an inline body, so
 * resolving it stays bounded (FLOE_CFN_MAX_VALUE_LEN).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfn_template/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* AWS's limit on an inline TemplateBody. */
#define MAX_TEMPLATE_BODY 51200

static const floe_cfn_stack_info_t stack = {"111122223333", "us-east-1", "fuzz",
                                            "arn:aws:cloudformation:us-east-1:111122223333:stack/fuzz/0"};

static void expect(int cond)
{
    if (!cond)
        abort();
}

static int on_ref(void *ctx, const char *id, const char **value, floe_cfn_template_error_t *err)
{
    *value = id;
    return FLOE_OK;
}

static int on_get_att(void *ctx, const char *id, const char *attribute, const char **value, floe_cfn_template_error_t *err)
{
    *value = attribute;
    return FLOE_OK;
}

static int on_import(void *ctx, const char *name, const char **value, floe_cfn_template_error_t *err)
{
    if (name[0] == 'M')
        return floe_cfn_template_fail(err, "No export named %s found.", name);
    *value = name;
    return FLOE_OK;
}

static const floe_cfn_resolver_t resolver = {on_ref, on_get_att, on_import, NULL};

static void check_order(const floe_cfn_template_t *t)
{
    size_t n_active = 0;

    for (size_t i = 0; i < t->n_resources; i++)
        n_active += t->resources[i].is_active;
    expect(t->n_order == n_active);
    for (size_t i = 0; i < t->n_order; i++) {
        const floe_cfn_resource_t *res = t->order[i];
        expect(res->is_active);
        for (size_t m = 0; m < res->n_needs; m++) {
            size_t placed = 0;
            while (placed < i && t->order[placed] != &t->resources[res->needs[m]])
                placed++;
            expect(placed < i); /* what it needs comes first */
        }
    }
}

static void resolve_all(const floe_cfn_template_t *t, const floe_cfn_resolver_t *r)
{
    floe_cfn_template_error_t err;
    cJSON *props;
    char *value, *export_name;

    for (size_t i = 0; i < t->n_order; i++) {
        if (floe_cfn_resource_properties(t, t->order[i], r, &props, &err) != FLOE_OK) {
            expect(err.message[0] != '\0');
            continue;
        }
        expect(cJSON_IsObject(props));
        cJSON_Delete(props);
    }
    for (size_t i = 0; i < t->n_outputs; i++) {
        if (!t->outputs[i].is_active)
            continue;
        if (floe_cfn_output_value(t, &t->outputs[i], r, &value, &export_name, &err) != FLOE_OK) {
            expect(err.message[0] != '\0');
            continue;
        }
        free(value);
        free(export_name);
    }
}

static void validate(floe_cfn_template_t *t, const floe_cfn_param_value_t *params, size_t n)
{
    floe_cfn_template_error_t err;

    if (floe_cfn_template_validate(t, &stack, params, n, &err) != FLOE_OK) {
        expect(err.message[0] != '\0' && !t->is_validated);
        return;
    }
    check_order(t);
    resolve_all(t, &resolver);
    resolve_all(t, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_cfn_template_t *t = NULL;
    floe_cfn_template_error_t err;
    floe_cfn_param_value_t param;
    const char *types[FLOE_CFN_MAX_RESOURCES];

    if (size > MAX_TEMPLATE_BODY)
        return 0;
    if (floe_cfn_template_parse((const char *)data, size, &t, &err) != FLOE_OK) {
        expect(err.message[0] != '\0' && t == NULL);
        return 0;
    }
    expect(floe_cfn_template_resource_types(t, types) <= t->n_resources);
    validate(t, NULL, 0);
    if (t->n_parameters > 0) { /* the first parameter, set to the last line of the input */
        const char *last = memrchr(data, '\n', size);
        const char *start = last != NULL ? last + 1 : (const char *)data;
        size_t len = (size_t)((const char *)data + size - start);
        size_t n = len < 64 ? len : 64;
        char *value = malloc(n + 1); /* not strndup: it may look at start[0] past the input's end */
        memcpy(value, start, n);
        value[n] = '\0';
        param.key = t->parameters[0].name;
        param.value = value;
        validate(t, &param, 1);
        free(value);
    }
    floe_cfn_template_free(t);
    return 0;
}
