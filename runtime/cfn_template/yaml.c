/*
 * YAML templates into cJSON (yaml.h), from libyaml's event stream. Containers are built on an
 * explicit stack, so nesting costs no C stack; a container or scalar is attached to its parent
 * when it is complete, wrapped first in {"Fn::Name": ...} when it carries a short-form tag.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/xalloc.h"
#include "cfn_template/yaml.h"

#define YAML_STR_TAG "tag:yaml.org,2002:str"
#define YAML_TAG_PREFIX "tag:yaml.org,2002:"

/* The short forms CloudFormation defines and the function each stands for. "!GetAtt A.B" is split
 * at its first dot into ["A", "B"], as AWS does. Functions Floe does not evaluate are still read,
 * so the evaluator can name them in its refusal. */
static const struct {
    const char *tag, *function;
} short_forms[] = {
    {"!Ref", "Ref"},
    {"!Condition", "Condition"},
    {"!Base64", "Fn::Base64"},
    {"!Cidr", "Fn::Cidr"},
    {"!FindInMap", "Fn::FindInMap"},
    {"!GetAtt", "Fn::GetAtt"},
    {"!GetAZs", "Fn::GetAZs"},
    {"!ImportValue", "Fn::ImportValue"},
    {"!Join", "Fn::Join"},
    {"!Select", "Fn::Select"},
    {"!Split", "Fn::Split"},
    {"!Sub", "Fn::Sub"},
    {"!Transform", "Fn::Transform"},
    {"!And", "Fn::And"},
    {"!Equals", "Fn::Equals"},
    {"!If", "Fn::If"},
    {"!Not", "Fn::Not"},
    {"!Or", "Fn::Or"},
    {"!Contains", "Fn::Contains"},
    {"!EachMemberEquals", "Fn::EachMemberEquals"},
    {"!EachMemberIn", "Fn::EachMemberIn"},
    {"!RefAll", "Fn::RefAll"},
    {"!ValueOf", "Fn::ValueOf"},
    {"!ValueOfAll", "Fn::ValueOfAll"},
    {"!Length", "Fn::Length"},
    {"!ToJsonString", "Fn::ToJsonString"},
};

typedef struct frame {
    cJSON *node;          /* the array or object being filled */
    const char *function; /* its short form's function, or NULL */
    char *key;            /* objects: the key whose value comes next (malloc'ed), or NULL */
} frame_t;

typedef struct builder {
    const char *text;
    size_t len;
    frame_t stack[FLOE_CFN_YAML_MAX_DEPTH];
    int depth;
    cJSON *root;
    bool has_document;
    floe_cfn_template_error_t *err;
} builder_t;

static int not_well_formed(builder_t *b, yaml_mark_t mark)
{
    return floe_cfn_template_fail(b->err, "Template format error: YAML not well-formed. (line %d, column %d)",
                         (int)mark.line + 1, (int)mark.column + 1);
}

/* The function a tag stands for: NULL for no tag, for YAML's own tags and for "!" (a plain
 * string); "" for a tag CloudFormation does not define. */
static const char *tag_function(const yaml_char_t *tag)
{
    if (tag == NULL || strcmp((const char *)tag, "!") == 0 ||
        strncmp((const char *)tag, YAML_TAG_PREFIX, strlen(YAML_TAG_PREFIX)) == 0)
        return NULL;
    for (size_t i = 0; i < sizeof(short_forms) / sizeof(short_forms[0]); i++)
        if (strcmp((const char *)tag, short_forms[i].tag) == 0)
            return short_forms[i].function;
    return "";
}

static bool all_digits(const char *s, const char *digits)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (strchr(digits, *s) == NULL)
            return false;
    return true;
}

/* YAML 1.2 core schema float: [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static bool is_float(const char *s)
{
    const char *p = s;
    bool digits = false;

    if (*p == '-' || *p == '+')
        p++;
    while (isdigit((unsigned char)*p))
        p++, digits = true;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits = true;
    }
    if (!digits)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == '\0';
}

/* A number node for a plain scalar that reads as one, keeping its literal text; NULL if not. */
static cJSON *plain_number(const char *s)
{
    const char *unsigned_part = (*s == '-' || *s == '+') ? s + 1 : s;
    double value;
    cJSON *node;

    if (strncmp(s, "0x", 2) == 0 && all_digits(s + 2, "0123456789abcdefABCDEF"))
        value = (double)strtoull(s + 2, NULL, 16);
    else if (strncmp(s, "0o", 2) == 0 && all_digits(s + 2, "01234567"))
        value = (double)strtoull(s + 2, NULL, 8);
    else if (all_digits(unsigned_part, "0123456789") || is_float(s))
        value = strtod(s, NULL);
    else
        return NULL;
    node = cJSON_CreateNumber(value);
    node->valuestring = floe_xstrdup(s);
    return node;
}

/* A plain, untagged scalar, resolved as yaml.h says. */
static cJSON *plain_scalar(const char *s)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    static const char *const trues[] = {"true", "True", "TRUE"};
    static const char *const falses[] = {"false", "False", "FALSE"};
    cJSON *number;

    for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
        if (strcmp(s, nulls[i]) == 0)
            return cJSON_CreateNull();
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(s, trues[i]) == 0)
            return cJSON_CreateTrue();
        if (strcmp(s, falses[i]) == 0)
            return cJSON_CreateFalse();
    }
    number = plain_number(s);
    return number != NULL ? number : cJSON_CreateString(s);
}

/* {"Fn::GetAtt": "A.B"} as AWS reads the short form: ["A", "B"], split at the first dot. */
static cJSON *get_att_list(const char *s)
{
    const char *dot = strchr(s, '.');
    cJSON *list;
    char *name;

    if (dot == NULL)
        return cJSON_CreateString(s);
    name = floe_xstrdup(s);
    name[dot - s] = '\0';
    list = cJSON_CreateArray();
    cJSON_AddItemToArray(list, cJSON_CreateString(name));
    cJSON_AddItemToArray(list, cJSON_CreateString(dot + 1));
    free(name);
    return list;
}

static cJSON *wrap(const char *function, cJSON *value)
{
    cJSON *object = cJSON_CreateObject();
    cJSON_AddItemToObject(object, function, value);
    return object;
}

/* Hands a finished node to the container on top of the stack (or makes it the document). */
static int attach(builder_t *b, cJSON *node, yaml_mark_t mark)
{
    frame_t *top;

    if (b->depth == 0) {
        b->root = node;
        return FLOE_OK;
    }
    top = &b->stack[b->depth - 1];
    if (cJSON_IsArray(top->node)) {
        cJSON_AddItemToArray(top->node, node);
        return FLOE_OK;
    }
    if (top->key == NULL) { /* a mapping key must be a plain scalar: containers come here */
        cJSON_Delete(node);
        return not_well_formed(b, mark);
    }
    cJSON_AddItemToObject(top->node, top->key, node);
    free(top->key);
    top->key = NULL;
    return FLOE_OK;
}

static int on_key(builder_t *b, const yaml_event_t *ev)
{
    frame_t *top = &b->stack[b->depth - 1];
    const char *key = (const char *)ev->data.scalar.value;

    if (tag_function(ev->data.scalar.tag) != NULL)
        return not_well_formed(b, ev->start_mark);
    if (strlen(key) != ev->data.scalar.length || cJSON_GetObjectItemCaseSensitive(top->node, key) != NULL)
        return not_well_formed(b, ev->start_mark); /* a NUL inside the key, or a duplicate key */
    top->key = floe_xstrdup(key);
    return FLOE_OK;
}

static int on_scalar(builder_t *b, const yaml_event_t *ev)
{
    const char *value = (const char *)ev->data.scalar.value;
    const yaml_char_t *tag = ev->data.scalar.tag;
    const char *function = tag_function(tag);
    cJSON *node;

    if (b->depth > 0 && cJSON_IsObject(b->stack[b->depth - 1].node) && b->stack[b->depth - 1].key == NULL)
        return on_key(b, ev);
    if (function != NULL && function[0] == '\0')
        return not_well_formed(b, ev->start_mark);
    if (strlen(value) != ev->data.scalar.length)
        return not_well_formed(b, ev->start_mark); /* a string with a NUL in it cannot be kept */
    if (function != NULL)
        node = wrap(function, strcmp(function, "Fn::GetAtt") == 0 ? get_att_list(value) : cJSON_CreateString(value));
    else if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || (tag != NULL && strcmp((const char *)tag, "!") == 0) ||
             (tag != NULL && strcmp((const char *)tag, YAML_STR_TAG) == 0))
        node = cJSON_CreateString(value);
    else
        node = plain_scalar(value);
    return attach(b, node, ev->start_mark);
}

static int on_container_start(builder_t *b, const yaml_event_t *ev, bool is_sequence)
{
    const yaml_char_t *tag = is_sequence ? ev->data.sequence_start.tag : ev->data.mapping_start.tag;
    const char *function = tag_function(tag);
    frame_t *frame;

    if (b->depth > 0 && cJSON_IsObject(b->stack[b->depth - 1].node) && b->stack[b->depth - 1].key == NULL)
        return not_well_formed(b, ev->start_mark); /* a complex key */
    if (function != NULL && function[0] == '\0')
        return not_well_formed(b, ev->start_mark);
    if (b->depth == FLOE_CFN_YAML_MAX_DEPTH)
        return floe_cfn_template_fail(b->err, "Template format error: YAML nests deeper than %d levels. (line %d, column %d)",
                             FLOE_CFN_YAML_MAX_DEPTH, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1);
    frame = &b->stack[b->depth++];
    frame->node = is_sequence ? cJSON_CreateArray() : cJSON_CreateObject();
    frame->function = function;
    frame->key = NULL;
    return FLOE_OK;
}

static int on_container_end(builder_t *b, const yaml_event_t *ev)
{
    frame_t frame = b->stack[--b->depth];
    cJSON *node = frame.node;

    free(frame.key); /* libyaml never ends a mapping between a key and its value */
    if (frame.function != NULL)
        node = wrap(frame.function, node);
    return attach(b, node, ev->start_mark);
}

static int on_event(builder_t *b, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (b->has_document)
            return not_well_formed(b, ev->start_mark); /* a template is one document */
        b->has_document = true;
        return FLOE_OK;
    case YAML_ALIAS_EVENT:
        return floe_cfn_template_fail(b->err, "Template format error: YAML aliases are not allowed in CloudFormation "
                                     "templates. (line %d, column %d)",
                             (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1);
    case YAML_SCALAR_EVENT:
        return on_scalar(b, ev);
    case YAML_SEQUENCE_START_EVENT:
        return on_container_start(b, ev, true);
    case YAML_MAPPING_START_EVENT:
        return on_container_start(b, ev, false);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_container_end(b, ev);
    default:
        return FLOE_OK;
    }
}

static int parser_failed(builder_t *b, const yaml_parser_t *parser)
{
    int line, column;

    if (parser->error == YAML_READER_ERROR) { /* bad encoding: libyaml gives a byte offset */
        floe_cfn_text_position(b->text, b->len, parser->problem_offset, &line, &column);
        return floe_cfn_template_fail(b->err, "Template format error: YAML not well-formed. (line %d, column %d)", line, column);
    }
    if (parser->error == YAML_MEMORY_ERROR)
        abort(); /* as floe_xmalloc does */
    return not_well_formed(b, parser->problem_mark);
}

static void builder_dispose(builder_t *b)
{
    while (b->depth > 0) {
        frame_t *frame = &b->stack[--b->depth];
        free(frame->key);
        cJSON_Delete(frame->node);
    }
    cJSON_Delete(b->root);
    b->root = NULL;
}

cJSON *floe_cfn_yaml_parse(const char *text, size_t len, floe_cfn_template_error_t *err)
{
    builder_t b = {.text = text, .len = len, .err = err};
    yaml_parser_t parser;
    yaml_event_t ev;
    bool done = false;
    int rc = FLOE_OK;

    if (!yaml_parser_initialize(&parser))
        abort();
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done && rc == FLOE_OK) {
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = parser_failed(&b, &parser);
            break;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        rc = on_event(&b, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (rc != FLOE_OK) {
        builder_dispose(&b);
        return NULL;
    }
    return b.root != NULL ? b.root : cJSON_CreateNull();
}
