/*
 * Helpers shared by the tests of runtime/cfn_template/: parse and validate a template that must
 * be good, expect a given message from one that must not, and a resolver that answers Ref with
 * "pid-<LogicalId>", Fn::GetAtt with "<LogicalId>.<Attribute>" and Fn::ImportValue with
 * "export:<Name>" (and "No export named Missing found." for the export named Missing).
 */
#ifndef FLOE_TEST_CFN_SUPPORT_H
#define FLOE_TEST_CFN_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfn_template/template.h"
#include "harness.h"

static const floe_cfn_stack_info_t test_stack = {
    .account_id = "111122223333",
    .region = "eu-west-1",
    .stack_name = "demo",
    .stack_id = "arn:aws:cloudformation:eu-west-1:111122223333:stack/demo/00000000-0000-4000-8000-000000000000",
};

static floe_cfn_template_t *cfn_parse(const char *text)
{
    floe_cfn_template_t *t = NULL;
    floe_cfn_template_error_t err;

    if (floe_cfn_template_parse(text, strlen(text), &t, &err) != FLOE_OK) {
        fprintf(stderr, "    parse refused: %s\n", err.message);
        return NULL;
    }
    return t;
}

/* Parses and validates with `n` key/value pairs; NULL (and the reason on stderr) if refused. */
static floe_cfn_template_t *cfn_ready(const char *text, const floe_cfn_param_value_t *params, size_t n)
{
    floe_cfn_template_t *t = cfn_parse(text);
    floe_cfn_template_error_t err;

    if (t != NULL && floe_cfn_template_validate(t, &test_stack, params, n, &err) != FLOE_OK) {
        fprintf(stderr, "    validate refused: %s\n", err.message);
        floe_cfn_template_free(t);
        return NULL;
    }
    return t;
}

/* The message parse, or else validate, gives for `text`; "" when both accept it. */
static const char *cfn_refusal(const char *text, const floe_cfn_param_value_t *params, size_t n)
{
    static floe_cfn_template_error_t err;
    floe_cfn_template_t *t = NULL;

    err.message[0] = '\0';
    if (floe_cfn_template_parse(text, strlen(text), &t, &err) == FLOE_OK) {
        floe_cfn_template_validate(t, &test_stack, params, n, &err);
        floe_cfn_template_free(t);
    }
    return err.message;
}

static int test_ref(void *ctx, const char *id, const char **value, floe_cfn_template_error_t *err)
{
    static char buf[8][128];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, 128, "pid-%s", id);
    *value = b;
    return FLOE_OK;
}

static int test_get_att(void *ctx, const char *id, const char *attribute, const char **value, floe_cfn_template_error_t *err)
{
    static char buf[8][128];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, 128, "%s.%s", id, attribute);
    *value = b;
    return FLOE_OK;
}

static int test_import(void *ctx, const char *name, const char **value, floe_cfn_template_error_t *err)
{
    static char buf[128];
    if (strcmp(name, "Missing") == 0)
        return floe_cfn_template_fail(err, "No export named %s found.", name);
    snprintf(buf, sizeof(buf), "export:%s", name);
    *value = buf;
    return FLOE_OK;
}

static const floe_cfn_resolver_t test_resolver = {test_ref, test_get_att, test_import, NULL};

/* A resource's resolved Properties as compact JSON (malloc'ed), or the refusal's message. */
static char *cfn_properties(const floe_cfn_template_t *t, const char *logical_id, const floe_cfn_resolver_t *r)
{
    floe_cfn_template_error_t err;
    cJSON *props;
    char *text;

    if (floe_cfn_resource_properties(t, floe_cfn_template_resource(t, logical_id), r, &props, &err) != FLOE_OK)
        return strdup(err.message);
    text = cJSON_PrintUnformatted(props);
    cJSON_Delete(props);
    return text;
}

/* CHECK that resource `id`'s Properties resolve to `json`, compared as trees. */
#define CHECK_PROPERTIES(t, id, json, sentence)                                                                        \
    do {                                                                                                               \
        char *got_ = cfn_properties((t), (id), &test_resolver);                                                        \
        cJSON *a_ = cJSON_Parse(got_), *b_ = cJSON_Parse(json);                                                        \
        if (!cJSON_Compare(a_, b_, true))                                                                              \
            fprintf(stderr, "    got  %s\n    want %s\n", got_, json);                                                 \
        CHECK(cJSON_Compare(a_, b_, true), sentence);                                                                  \
        cJSON_Delete(a_);                                                                                              \
        cJSON_Delete(b_);                                                                                              \
        free(got_);                                                                                                    \
    } while (0)

/* CHECK that `text` is refused with exactly `message`. */
#define CHECK_REFUSAL(text, params, n, message, sentence)                                                              \
    do {                                                                                                               \
        const char *got_ = cfn_refusal((text), (params), (n));                                                         \
        if (strcmp(got_, (message)) != 0)                                                                              \
            fprintf(stderr, "    got  \"%s\"\n    want \"%s\"\n", got_, (message));                                    \
        CHECK(strcmp(got_, (message)) == 0, sentence);                                                                 \
    } while (0)

#endif
