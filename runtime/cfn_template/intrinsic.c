/*
 * The evaluator of intrinsic functions and conditions (intrinsic.h). eval() copies a fragment,
 * replacing each function call by its value; each fn_* evaluates one function from its argument
 * as written. Messages are AWS's where known (seen with aws-cli 2.x and in AWS's knowledge-center
 * article "How do I resolve template validation or template format errors in CloudFormation?").
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cfn_template/intrinsic.h"
#include "cfn_template/references.h"
#include "cfn_template/template_model.h"

/* Fn::GetAZs: the zones Floe reports for any region, as <region>a, b and c. */
static const char *const az_suffixes[] = {"a", "b", "c"};

/* AWS::NoValue while it travels up to the container that drops it; never freed. */
static cJSON no_value_node;
#define NO_VALUE (&no_value_node)

typedef struct eval {
    const floe_cfn_template_t *t;
    const floe_cfn_resolver_t *r;
    const char *block;            /* "Resources", "Outputs" or "Conditions", for messages */
    floe_cfn_template_error_t *err;
    signed char *condition_state; /* writable while conditions are evaluated, else NULL */
} eval_t;

static cJSON *eval(eval_t *e, const cJSON *node, bool in_conditions);

static cJSON *fail(eval_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static cJSON *fail(eval_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err->message, sizeof(e->err->message), fmt, ap);
    va_end(ap);
    return NULL;
}

static cJSON *unknown(void)
{
    return cJSON_CreateRaw("null");
}

/* Deletes a result, which may be NO_VALUE or NULL. */
static void drop(cJSON *node)
{
    if (node != NO_VALUE)
        cJSON_Delete(node);
}

static cJSON *unresolved(eval_t *e, const char *name)
{
    if (strcmp(e->block, "Conditions") == 0)
        return fail(e, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the "
                       "Conditions block of the template", name);
    return fail(e, "Template format error: Unresolved resource dependencies [%s] in the %s block of the template",
                name, e->block);
}

/* ---- strings built by functions --------------------------------------------------------------- */

typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf_t;

static int sb_append(eval_t *e, strbuf_t *b, const char *s, size_t n)
{
    if (b->len + n > FLOE_CFN_MAX_VALUE_LEN) {
        fail(e, "Template error: a value built by an intrinsic function is longer than %d bytes",
             FLOE_CFN_MAX_VALUE_LEN);
        return FLOE_EFAIL;
    }
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = floe_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return FLOE_OK;
}

/* The finished string as a node; the buffer is consumed. */
static cJSON *sb_finish(strbuf_t *b)
{
    cJSON *node = cJSON_CreateString(b->s != NULL ? b->s : "");
    free(b->s);
    return node;
}

/* ---- pseudo parameters, parameters, resources -------------------------------------------------- */

static const char *const pseudo_parameters[] = {
    "AWS::AccountId", "AWS::NotificationARNs", "AWS::NoValue", "AWS::Partition",
    "AWS::Region",    "AWS::StackId",          "AWS::StackName", "AWS::URLSuffix",
};

bool floe_cfn_is_pseudo_parameter(const char *name)
{
    for (size_t i = 0; i < sizeof(pseudo_parameters) / sizeof(pseudo_parameters[0]); i++)
        if (strcmp(pseudo_parameters[i], name) == 0)
            return true;
    return false;
}

static cJSON *text_or_unknown(const char *s)
{
    return s != NULL ? cJSON_CreateString(s) : unknown();
}

static cJSON *pseudo_value(eval_t *e, const char *name)
{
    const floe_cfn_template_t *t = e->t;

    if (strcmp(name, "AWS::NoValue") == 0)
        return NO_VALUE;
    if (strcmp(name, "AWS::NotificationARNs") == 0)
        return cJSON_CreateArray(); /* Floe sends no notifications */
    if (strcmp(name, "AWS::AccountId") == 0)
        return text_or_unknown(t->account_id);
    if (strcmp(name, "AWS::Region") == 0)
        return text_or_unknown(t->region);
    if (strcmp(name, "AWS::StackId") == 0)
        return text_or_unknown(t->stack_id);
    if (strcmp(name, "AWS::StackName") == 0)
        return text_or_unknown(t->stack_name);
    if (strcmp(name, "AWS::Partition") == 0)
        return text_or_unknown(t->partition);
    return text_or_unknown(t->url_suffix);
}

/* What a resolver callback gave: its string, unknown for NULL, or NULL when it failed (err set). */
static cJSON *resolver_value(int rc, const char *value)
{
    return rc == FLOE_OK ? text_or_unknown(value) : NULL;
}

static cJSON *resource_ref(eval_t *e, const floe_cfn_resource_t *res)
{
    const char *value = NULL;

    if (strcmp(e->block, "Conditions") == 0 || !res->is_active)
        return unresolved(e, res->logical_id);
    if (e->r == NULL || e->r->ref == NULL)
        return unknown();
    int rc = e->r->ref(e->r->ctx, res->logical_id, &value, e->err);
    return resolver_value(rc, value);
}

/* What Ref gives for a name, or what ${name} gives in Fn::Sub. */
static cJSON *ref_value(eval_t *e, const char *name)
{
    const floe_cfn_parameter_t *p;
    const floe_cfn_resource_t *res;

    if (floe_cfn_is_pseudo_parameter(name))
        return pseudo_value(e, name);
    if ((p = floe_cfn_template_parameter(e->t, name)) != NULL)
        return p->resolved != NULL ? cJSON_Duplicate(p->resolved, true) : unknown();
    if ((res = floe_cfn_template_resource(e->t, name)) != NULL)
        return resource_ref(e, res);
    return unresolved(e, name);
}

static cJSON *fn_ref(eval_t *e, const cJSON *arg)
{
    if (!cJSON_IsString(arg))
        return fail(e, "Template format error: Every Ref object must have a single String value.");
    return ref_value(e, arg->valuestring);
}

static cJSON *get_att_value(eval_t *e, const char *name, const char *attribute)
{
    const floe_cfn_resource_t *res;
    const char *value = NULL;

    if (floe_cfn_get_att_check(e->t, name, attribute, e->err) != FLOE_OK)
        return NULL;
    res = floe_cfn_template_resource(e->t, name);
    if (strcmp(e->block, "Conditions") == 0 || !res->is_active)
        return unresolved(e, name);
    if (e->r == NULL || e->r->get_att == NULL)
        return unknown();
    int rc = e->r->get_att(e->r->ctx, name, attribute, &value, e->err);
    return resolver_value(rc, value);
}

/* ---- argument helpers ------------------------------------------------------------------------- */

/* Evaluates `node` to the text of a scalar: FLOE_OK with *text malloc'ed, or left NULL while the
 * value is unknown; FLOE_EFAIL on error (`what` is the message for a value that is not a scalar). */
static int eval_text(eval_t *e, const cJSON *node, const char *what, char **text)
{
    char buf[64];
    cJSON *v = eval(e, node, false);
    const char *s;

    if (v == NULL)
        return FLOE_EFAIL;
    if (floe_cfn_is_unknown(v)) {
        cJSON_Delete(v);
        return FLOE_OK;
    }
    s = v == NO_VALUE ? NULL : floe_cfn_scalar_text(v, buf, sizeof(buf));
    if (s == NULL) {
        drop(v);
        fail(e, "%s", what);
        return FLOE_EFAIL;
    }
    *text = floe_xstrdup(s);
    cJSON_Delete(v);
    return FLOE_OK;
}

/* The argument as a list of exactly n items, or NULL. */
static const cJSON *list_of(const cJSON *arg, int n)
{
    return cJSON_IsArray(arg) && cJSON_GetArraySize(arg) == n ? arg->child : NULL;
}

/* ---- the functions ---------------------------------------------------------------------------- */

static cJSON *fn_get_att(eval_t *e, const cJSON *arg)
{
    floe_cfn_get_att_t g;
    cJSON *result = NULL;
    char *attribute = NULL;
    int rc = FLOE_OK;

    if (floe_cfn_get_att_read(arg, &g, e->err) != FLOE_OK)
        return NULL;
    if (g.attribute == NULL)
        rc = eval_text(e, g.attribute_node, "Template error: every Fn::GetAtt object requires two non-empty "
                                            "parameters", &attribute);
    if (rc == FLOE_OK && g.attribute == NULL && attribute == NULL) /* the attribute is not known yet */
        result = floe_cfn_get_att_check(e->t, g.name, NULL, e->err) == FLOE_OK ? unknown() : NULL;
    else if (rc == FLOE_OK)
        result = get_att_value(e, g.name, g.attribute != NULL ? g.attribute : attribute);
    free(attribute);
    floe_cfn_get_att_dispose(&g);
    return result;
}

typedef struct sub_state {
    eval_t *e;
    const cJSON *variables; /* evaluated */
    strbuf_t out;
    bool is_unknown;
} sub_state_t;

/* The value of ${name} in Fn::Sub: its own variable, a resource attribute, or what Ref gives. */
static cJSON *sub_variable(sub_state_t *s, const char *name)
{
    const cJSON *own = s->variables != NULL ? cJSON_GetObjectItemCaseSensitive(s->variables, name) : NULL;
    const char *dot = strchr(name, '.');
    cJSON *v;

    if (own != NULL)
        return cJSON_Duplicate(own, true);
    if (dot == NULL)
        return ref_value(s->e, name);
    char *res = floe_xstrdup(name);
    res[dot - name] = '\0';
    v = floe_cfn_template_resource(s->e->t, res) != NULL ? get_att_value(s->e, res, dot + 1) : unresolved(s->e, res);
    free(res);
    return v;
}

static int on_sub_part(void *arg, const char *text, size_t len, bool is_variable)
{
    sub_state_t *s = arg;
    char buf[64], *name;
    const char *value;
    cJSON *v;
    int rc = FLOE_OK;

    if (!is_variable)
        return sb_append(s->e, &s->out, text, len);
    name = floe_xmalloc(len + 1);
    memcpy(name, text, len);
    name[len] = '\0';
    v = sub_variable(s, name);
    if (v == NULL) {
        rc = FLOE_EFAIL;
    } else if (floe_cfn_is_unknown(v)) {
        s->is_unknown = true;
    } else if (v == NO_VALUE || (value = floe_cfn_scalar_text(v, buf, sizeof(buf))) == NULL) {
        fail(s->e, "Template error: variable %s in Fn::Sub expression must resolve to a String", name);
        rc = FLOE_EFAIL;
    } else {
        rc = sb_append(s->e, &s->out, value, strlen(value));
    }
    drop(v);
    free(name);
    return rc;
}

static cJSON *fn_sub(eval_t *e, const cJSON *arg)
{
    sub_state_t s = {.e = e};
    const char *text;
    const cJSON *variables;
    cJSON *evaluated = NULL;
    int rc;

    if (floe_cfn_sub_read(arg, &text, &variables, e->err) != FLOE_OK)
        return NULL;
    if (variables != NULL && (evaluated = eval(e, variables, false)) == NULL)
        return NULL;
    s.variables = evaluated;
    rc = floe_cfn_sub_parts(text, on_sub_part, &s);
    cJSON_Delete(evaluated);
    if (rc != FLOE_OK || s.is_unknown) {
        free(s.out.s);
        return rc != FLOE_OK ? NULL : unknown();
    }
    return sb_finish(&s.out);
}

static const char join_shape[] = "Template error: every Fn::Join object requires two parameters, (1) a string "
                                 "delimiter and (2) a list of strings to be joined or a function that returns a "
                                 "list of strings (such as Fn::GetAZs) to be joined.";

static cJSON *join_items(eval_t *e, const char *delimiter, const cJSON *items)
{
    strbuf_t out = {0};
    const cJSON *item;
    char buf[64];
    bool is_unknown = false;

    cJSON_ArrayForEach(item, items) {
        const char *text = floe_cfn_scalar_text(item, buf, sizeof(buf));
        if (floe_cfn_is_unknown(item)) {
            is_unknown = true;
            continue;
        }
        if (text == NULL) {
            free(out.s);
            return fail(e, join_shape);
        }
        if ((item != items->child && sb_append(e, &out, delimiter, strlen(delimiter)) != FLOE_OK) ||
            sb_append(e, &out, text, strlen(text)) != FLOE_OK) {
            free(out.s);
            return NULL;
        }
    }
    if (is_unknown) {
        free(out.s);
        return unknown();
    }
    return sb_finish(&out);
}

static cJSON *fn_join(eval_t *e, const cJSON *arg)
{
    const cJSON *first = list_of(arg, 2);
    char *delimiter = NULL;
    cJSON *items, *result;

    if (first == NULL)
        return fail(e, join_shape);
    if (eval_text(e, first, join_shape, &delimiter) != FLOE_OK)
        return NULL;
    items = eval(e, first->next, false);
    if (items == NULL || (items != NO_VALUE && !cJSON_IsArray(items) && !floe_cfn_is_unknown(items))) {
        drop(items);
        free(delimiter);
        return items == NULL ? NULL : fail(e, join_shape);
    }
    if (delimiter == NULL || floe_cfn_is_unknown(items)) /* either is not known yet */
        result = unknown();
    else if (items == NO_VALUE)
        result = fail(e, join_shape);
    else
        result = join_items(e, delimiter, items);
    drop(items);
    free(delimiter);
    return result;
}

static const char select_shape[] = "Template error: Fn::Select requires a list argument with two elements: an "
                                   "integer index and a list";

static cJSON *fn_select(eval_t *e, const cJSON *arg)
{
    const cJSON *first = list_of(arg, 2);
    char *index_text = NULL, *end;
    cJSON *items, *result = NULL;
    long index = -1;
    bool known;

    if (first == NULL)
        return fail(e, select_shape);
    if (eval_text(e, first, select_shape, &index_text) != FLOE_OK)
        return NULL;
    if ((known = index_text != NULL)) {
        index = strtol(index_text, &end, 10);
        if (index_text[0] == '\0' || *end != '\0' || index < 0) {
            free(index_text);
            return fail(e, select_shape);
        }
    }
    free(index_text);
    if ((items = eval(e, first->next, false)) == NULL)
        return NULL;
    if (!known || floe_cfn_is_unknown(items))
        result = unknown();
    else if (!cJSON_IsArray(items))
        fail(e, select_shape);
    else if (index >= cJSON_GetArraySize(items))
        fail(e, "Template error: Fn::Select cannot select nonexistent value at index %ld", index);
    else
        result = cJSON_Duplicate(cJSON_GetArrayItem(items, (int)index), true);
    drop(items);
    return result;
}

static const char split_shape[] = "Template error: every Fn::Split object requires two parameters, (1) a string "
                                  "delimiter and (2) a string to be split or a function that returns a string to "
                                  "be split.";

static cJSON *fn_split(eval_t *e, const cJSON *arg)
{
    const cJSON *first = list_of(arg, 2);
    char *delimiter = NULL, *source = NULL;
    cJSON *result;

    if (first == NULL)
        return fail(e, split_shape);
    if (eval_text(e, first, split_shape, &delimiter) != FLOE_OK)
        return NULL;
    if (eval_text(e, first->next, split_shape, &source) != FLOE_OK) {
        free(delimiter);
        return NULL;
    }
    if (delimiter == NULL || source == NULL) { /* either is not known yet */
        result = unknown();
    } else if (delimiter[0] == '\0') {
        result = fail(e, split_shape);
    } else {
        size_t n = strlen(delimiter);
        const char *p = source, *hit;
        result = cJSON_CreateArray();
        while ((hit = strstr(p, delimiter)) != NULL) {
            size_t len = hit > p ? (size_t)(hit - p) : 0;
            char *piece = floe_xmalloc(len + 1);
            memcpy(piece, p, len);
            piece[len] = '\0';
            cJSON_AddItemToArray(result, cJSON_CreateString(piece));
            free(piece);
            p = hit + n;
        }
        cJSON_AddItemToArray(result, cJSON_CreateString(p));
    }
    free(delimiter);
    free(source);
    return result;
}

/* ---- conditions ------------------------------------------------------------------------------- */

static cJSON *circular_conditions(eval_t *e)
{
    const char *names[64];
    size_t n = 0;
    char list[FLOE_CFN_MESSAGE_MAX / 2];

    for (size_t i = 0; i < e->t->n_conditions && n < sizeof(names) / sizeof(names[0]); i++)
        if (e->condition_state[i] == FLOE_CFN_CONDITION_EVALUATING)
            names[n++] = e->t->condition_names[i];
    floe_cfn_format_names(list, sizeof(list), names, n);
    return fail(e, "Template format error: Circular dependency between conditions: [%s]", list);
}

/* The value of condition i: a boolean node, unknown (conditions not evaluated yet), or NULL. */
static cJSON *condition_value(eval_t *e, int i)
{
    const char *name = e->t->condition_names[i];
    cJSON *v;

    if (e->t->condition_state[i] >= FLOE_CFN_CONDITION_FALSE)
        return cJSON_CreateBool(e->t->condition_state[i] == FLOE_CFN_CONDITION_TRUE);
    if (e->condition_state == NULL)
        return unknown();
    if (e->condition_state[i] == FLOE_CFN_CONDITION_EVALUATING)
        return circular_conditions(e);
    e->condition_state[i] = FLOE_CFN_CONDITION_EVALUATING;
    v = eval(e, cJSON_GetObjectItemCaseSensitive(e->t->conditions, name), true);
    if (v == NULL)
        return NULL;
    if (!cJSON_IsBool(v)) {
        drop(v);
        return fail(e, "Template format error: Condition %s must be a condition function (Fn::And, Fn::Equals, "
                       "Fn::Not, Fn::Or or Condition) that evaluates to true or false", name);
    }
    e->condition_state[i] = cJSON_IsTrue(v) ? FLOE_CFN_CONDITION_TRUE : FLOE_CFN_CONDITION_FALSE;
    return v;
}

static cJSON *named_condition(eval_t *e, const cJSON *name, const char *where)
{
    int i;

    if (!cJSON_IsString(name))
        return fail(e, "Template format error: Every Condition member must be a string.");
    if ((i = floe_cfn_condition_index(e->t, name->valuestring)) < 0)
        return fail(e, "Template error: unresolved condition dependency %s in %s", name->valuestring, where);
    return condition_value(e, i);
}

static cJSON *fn_condition(eval_t *e, const cJSON *arg)
{
    return named_condition(e, arg, "the Conditions block");
}

static cJSON *fn_if(eval_t *e, const cJSON *arg)
{
    const cJSON *name = list_of(arg, 3);
    cJSON *condition, *a, *b;

    if (name == NULL)
        return fail(e, "Template error: Fn::If requires a list argument with three elements: a condition name, a "
                       "value if true and a value if false");
    if ((condition = named_condition(e, name, "Fn::If")) == NULL)
        return NULL;
    if (cJSON_IsBool(condition)) {
        bool value = cJSON_IsTrue(condition);
        cJSON_Delete(condition);
        return eval(e, value ? name->next : name->next->next, false);
    }
    cJSON_Delete(condition); /* not evaluated yet: check both branches; the value is unknown */
    if ((a = eval(e, name->next, false)) == NULL)
        return NULL;
    drop(a);
    if ((b = eval(e, name->next->next, false)) == NULL)
        return NULL;
    drop(b);
    return unknown();
}

static bool values_equal(const cJSON *a, const cJSON *b)
{
    char buf_a[64], buf_b[64];
    const char *ta = floe_cfn_scalar_text(a, buf_a, sizeof(buf_a));
    const char *tb = floe_cfn_scalar_text(b, buf_b, sizeof(buf_b));

    if (ta != NULL && tb != NULL) /* CloudFormation compares values as strings: 1 equals "1" */
        return strcmp(ta, tb) == 0;
    return cJSON_Compare(a, b, true);
}

static cJSON *fn_equals(eval_t *e, const cJSON *arg)
{
    const cJSON *first = list_of(arg, 2);
    cJSON *a, *b, *result;

    if (first == NULL)
        return fail(e, "Template error: every Fn::Equals object requires a list of 2 string parameters.");
    if ((a = eval(e, first, false)) == NULL)
        return NULL;
    if ((b = eval(e, first->next, false)) == NULL) {
        drop(a);
        return NULL;
    }
    if (a == NO_VALUE || b == NO_VALUE)
        result = fail(e, "Template error: every Fn::Equals object requires a list of 2 string parameters.");
    else if (floe_cfn_is_unknown(a) || floe_cfn_is_unknown(b))
        result = unknown();
    else
        result = cJSON_CreateBool(values_equal(a, b));
    drop(a);
    drop(b);
    return result;
}

/* Fn::And, Fn::Or and Fn::Not: a list of min..max conditions. */
static cJSON *logical(eval_t *e, const cJSON *arg, const char *name, int min, int max)
{
    int n = cJSON_IsArray(arg) ? cJSON_GetArraySize(arg) : -1;
    int n_true = 0, n_false = 0;
    const cJSON *item;

    if (n < min || n > max)
        return min == max ? fail(e, "Template error: every %s object requires a list of %d boolean parameter.", name,
                                 min)
                          : fail(e, "Template error: every %s object requires a list of at least %d and at most %d "
                                    "boolean parameters.", name, min, max);
    cJSON_ArrayForEach(item, arg) {
        cJSON *v = eval(e, item, true);
        if (v == NULL)
            return NULL;
        if (!cJSON_IsBool(v) && !floe_cfn_is_unknown(v)) {
            drop(v);
            return fail(e, "Template error: every %s object requires a list of boolean parameters: conditions or "
                           "condition functions", name);
        }
        n_true += cJSON_IsTrue(v);
        n_false += cJSON_IsFalse(v);
        cJSON_Delete(v);
    }
    if (strcmp(name, "Fn::And") == 0)
        return n_false > 0 ? cJSON_CreateFalse() : n_true == n ? cJSON_CreateTrue() : unknown();
    if (strcmp(name, "Fn::Or") == 0)
        return n_true > 0 ? cJSON_CreateTrue() : n_false == n ? cJSON_CreateFalse() : unknown();
    return n_true + n_false == 1 ? cJSON_CreateBool(n_false == 1) : unknown();
}

static cJSON *fn_and(eval_t *e, const cJSON *arg)
{
    return logical(e, arg, "Fn::And", 2, 10);
}

static cJSON *fn_or(eval_t *e, const cJSON *arg)
{
    return logical(e, arg, "Fn::Or", 2, 10);
}

static cJSON *fn_not(eval_t *e, const cJSON *arg)
{
    return logical(e, arg, "Fn::Not", 1, 1);
}

/* ---- mappings, imports, zones, base64 ---------------------------------------------------------- */

static const char find_in_map_shape[] = "Template error: every Fn::FindInMap object requires three parameters, the "
                                        "map name, map key and the attribute for return value";

static cJSON *fn_find_in_map(eval_t *e, const cJSON *arg)
{
    const cJSON *item = list_of(arg, 3);
    char *keys[3] = {NULL, NULL, NULL};
    cJSON *result = NULL;
    bool is_unknown = false;
    int i = 0;

    if (item == NULL)
        return fail(e, find_in_map_shape);
    for (; item != NULL; item = item->next, i++) {
        if (eval_text(e, item, find_in_map_shape, &keys[i]) != FLOE_OK)
            goto Exit;
        is_unknown |= keys[i] == NULL;
    }
    if (is_unknown) {
        result = unknown();
        goto Exit;
    }
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(e->t->mappings, keys[0]);
    const cJSON *top = cJSON_GetObjectItemCaseSensitive(map, keys[1]);
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(top, keys[2]);
    if (value == NULL)
        fail(e, "Template error: Unable to get mapping for %s::%s::%s", keys[0], keys[1], keys[2]);
    else
        result = cJSON_Duplicate(value, true);
Exit:
    for (i = 0; i < 3; i++)
        free(keys[i]);
    return result;
}

static cJSON *fn_import_value(eval_t *e, const cJSON *arg)
{
    char *name = NULL;
    const char *value = NULL;
    cJSON *result;

    if (eval_text(e, arg, "Template error: every Fn::ImportValue object requires a String parameter", &name) !=
        FLOE_OK)
        return NULL;
    if (name == NULL)
        return unknown();
    if (strcmp(e->block, "Conditions") != 0 && e->r != NULL && e->r->import_value != NULL) {
        int rc = e->r->import_value(e->r->ctx, name, &value, e->err);
        result = resolver_value(rc, value);
    } else
        result = unknown();
    free(name);
    return result;
}

static cJSON *fn_get_azs(eval_t *e, const cJSON *arg)
{
    char *region = NULL, zone[128];
    const char *r;
    cJSON *list;

    if (eval_text(e, arg, "Template error: every Fn::GetAZs object requires a String parameter (a region, "
                          "or \"\" for the stack's)", &region) != FLOE_OK)
        return NULL;
    r = region != NULL && region[0] != '\0' ? region : e->t->region;
    if (region == NULL || r == NULL) { /* the region, or the stack's, is not known yet */
        free(region);
        return unknown();
    }
    list = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof(az_suffixes) / sizeof(az_suffixes[0]); i++) {
        snprintf(zone, sizeof(zone), "%.100s%s", r, az_suffixes[i]);
        cJSON_AddItemToArray(list, cJSON_CreateString(zone));
    }
    free(region);
    return list;
}

static cJSON *fn_base64(eval_t *e, const cJSON *arg)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *text = NULL, quad[4];
    strbuf_t out = {0};
    size_t len;

    if (eval_text(e, arg, "Template error: every Fn::Base64 object requires a String parameter", &text) != FLOE_OK)
        return NULL;
    if (text == NULL)
        return unknown();
    len = strlen(text);
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned char)text[i] << 16;
        if (i + 1 < len)
            v |= (unsigned char)text[i + 1] << 8;
        if (i + 2 < len)
            v |= (unsigned char)text[i + 2];
        quad[0] = alphabet[(v >> 18) & 63];
        quad[1] = alphabet[(v >> 12) & 63];
        quad[2] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
        quad[3] = i + 2 < len ? alphabet[v & 63] : '=';
        if (sb_append(e, &out, quad, 4) != FLOE_OK) {
            free(out.s);
            free(text);
            return NULL;
        }
    }
    free(text);
    return sb_finish(&out);
}

/* ---- dispatch --------------------------------------------------------------------------------- */

static const struct function {
    const char *name;
    cJSON *(*fn)(eval_t *e, const cJSON *arg);
} functions[] = {
    {"Ref", fn_ref},
    {"Condition", fn_condition},
    {"Fn::And", fn_and},
    {"Fn::Base64", fn_base64},
    {"Fn::Equals", fn_equals},
    {"Fn::FindInMap", fn_find_in_map},
    {"Fn::GetAZs", fn_get_azs},
    {"Fn::GetAtt", fn_get_att},
    {"Fn::If", fn_if},
    {"Fn::ImportValue", fn_import_value},
    {"Fn::Join", fn_join},
    {"Fn::Not", fn_not},
    {"Fn::Or", fn_or},
    {"Fn::Select", fn_select},
    {"Fn::Split", fn_split},
    {"Fn::Sub", fn_sub},
};

static cJSON *call(eval_t *e, const char *name, const cJSON *arg)
{
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
        if (strcmp(functions[i].name, name) == 0)
            return functions[i].fn(e, arg);
    floe_cfn_unsupported_function(name, e->err);
    return NULL;
}

/* A copy of an array or a plain object with every member evaluated and AWS::NoValue dropped. */
static cJSON *eval_container(eval_t *e, const cJSON *node)
{
    cJSON *copy = cJSON_IsArray(node) ? cJSON_CreateArray() : cJSON_CreateObject();
    const cJSON *child;

    cJSON_ArrayForEach(child, node) {
        cJSON *v = eval(e, child, false);
        if (v == NULL) {
            cJSON_Delete(copy);
            return NULL;
        }
        if (v == NO_VALUE)
            continue;
        if (cJSON_IsArray(copy))
            cJSON_AddItemToArray(copy, v);
        else
            cJSON_AddItemToObject(copy, child->string, v);
    }
    return copy;
}

static cJSON *eval(eval_t *e, const cJSON *node, bool in_conditions)
{
    const char *function = floe_cfn_function_name(node, in_conditions);

    if (function != NULL)
        return call(e, function, node->child);
    if (cJSON_IsArray(node) || cJSON_IsObject(node))
        return eval_container(e, node);
    return cJSON_Duplicate(node, false);
}

int floe_cfn_resolve(const floe_cfn_template_t *t, const cJSON *node, const char *block,
                     const floe_cfn_resolver_t *resolver, cJSON **out, floe_cfn_template_error_t *err)
{
    eval_t e = {.t = t, .r = resolver, .block = block, .err = err};
    cJSON *v = eval(&e, node, false);

    if (v == NULL)
        return FLOE_EFAIL;
    *out = v == NO_VALUE ? NULL : v;
    return FLOE_OK;
}

int floe_cfn_conditions_evaluate(floe_cfn_template_t *t, floe_cfn_template_error_t *err)
{
    eval_t e = {.t = t, .block = "Conditions", .err = err, .condition_state = t->condition_state};

    if (t->n_conditions == 0)
        return FLOE_OK;
    memset(t->condition_state, FLOE_CFN_CONDITION_UNSET, t->n_conditions);
    for (size_t i = 0; i < t->n_conditions; i++) {
        cJSON *v = condition_value(&e, (int)i);
        if (v == NULL) {
            memset(t->condition_state, FLOE_CFN_CONDITION_UNSET, t->n_conditions);
            return FLOE_EFAIL;
        }
        cJSON_Delete(v);
    }
    return FLOE_OK;
}
