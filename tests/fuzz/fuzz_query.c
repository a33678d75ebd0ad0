/*
 * libFuzzer harness for the awsQuery request path below HTTP (runtime/query/): the form decoder
 * (query_form.h) and, over the form it decodes, the generated CloudFormation and STS request
 * parsers and validators. Input: a form body (`Action=CreateStack&Version=2010-05-15&...`), or a
 * URL query when it starts with '?', up to the first newline, followed by the body.
 *
 * The operation is the one the form's Action names; when it names none, the input's length picks
 * one, so every parser is reached. Besides the sanitizers it checks the decoder's promises: a
 * text holding a NUL byte is refused (a key or value would end early); the pairs are sorted by key with no key twice; every key and value is within the text's length and
 * is found again by floe_query_form_get and floe_query_form_has; a list never counts more items
 * than the form has pairs. A refusal by a parser or validator carries a message; when every value
 * in the form is valid UTF-8 the message is too (the S3 Tables front writes such messages into
 * JSON as they are), and whatever the form, the XML error the query front writes from it is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/codec.h"
#include "http/xml_writer.h"
#include "query/query_call.h"
#include "query/query_service.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FLOE_QUERY_SERVICE(table) extern const floe_query_service_t table;
#include "query_services.def"

static const floe_query_service_t *const services[] = {
#define FLOE_QUERY_SERVICE(table) &table,
#include "query_services.def"
};

#define N_SERVICES (sizeof(services) / sizeof(services[0]))

static void expect(int cond)
{
    if (!cond)
        abort();
}

/* The decoder's promises about the form of `text_len` bytes of text. */
static void check_form(const floe_query_form_t *form, size_t text_len)
{
    for (size_t i = 0; i < form->n; i++) {
        const floe_query_param_t *p = &form->pairs[i];

        expect(p->key != NULL && p->value != NULL);
        expect(strlen(p->key) + strlen(p->value) <= text_len);
        expect(i == 0 || strcmp(form->pairs[i - 1].key, p->key) < 0);
        expect(floe_query_form_get(form, p->key) == p->value);
        expect(floe_query_form_has(form, p->key));
        expect(floe_query_form_count(form, p->key) <= form->n);
    }
}

/* True when every value of the form is valid UTF-8 (keys are never echoed in a message). */
static int values_are_utf8(const floe_query_form_t *form)
{
    for (size_t i = 0; i < form->n; i++) {
        if (!floe_codec_utf8_valid(form->pairs[i].value, strlen(form->pairs[i].value)))
            return 0;
    }
    return 1;
}

/* The message of a refusal: present, valid UTF-8 when the values were, and a well-formed part of
 * the XML error (the writer query_answer.c uses). */
static void check_refusal(const floe_violation_t *v, int is_utf8)
{
    size_t len = strnlen(v->message, sizeof(v->message));
    floe_xml_t x;

    expect(len > 0 && len < sizeof(v->message));
    expect(!is_utf8 || floe_codec_utf8_valid(v->message, len));
    floe_xml_begin(&x);
    floe_xml_elem(&x, "Message", v->message);
    expect(floe_codec_utf8_valid(x.buf, x.len));
    floe_xml_dispose(&x);
}

static void run_operation(h2o_mem_pool_t *pool, const floe_query_operation_t *op, const floe_query_form_t *form)
{
    floe_query_call_t call;
    floe_violation_t v;
    void *in;

    floe_query_call_init(&call, pool, NULL, NULL);
    memset(&v, 0, sizeof(v));
    in = floe_call_alloc(&call.super, op->request_size);
    if (op->parse(&call.super, form, in, &v) != 0 || op->validate(in, &v) != 0)
        check_refusal(&v, values_are_utf8(form));
}

/* The operations the form's Action names (one per service at most); else the `pick`th of all. */
static void run_operations(h2o_mem_pool_t *pool, const floe_query_form_t *form, size_t pick)
{
    const char *action = floe_query_form_get(form, "Action");
    size_t n_all = 0, n_run = 0;

    for (size_t s = 0; s < N_SERVICES; s++) {
        for (size_t i = 0; i < services[s]->n_operations; i++, n_all++) {
            if (action != NULL && strcmp(services[s]->operations[i].name, action) == 0) {
                run_operation(pool, &services[s]->operations[i], form);
                n_run++;
            }
        }
    }
    if (n_run > 0)
        return;
    pick %= n_all;
    for (size_t s = 0; s < N_SERVICES; s++) {
        if (pick < services[s]->n_operations) {
            run_operation(pool, &services[s]->operations[pick], form);
            return;
        }
        pick -= services[s]->n_operations;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    const char *text = (const char *)data, *query = NULL, *body = text;
    size_t query_len = 0, body_len = size;
    floe_query_form_t form;
    h2o_mem_pool_t pool;

    if (!initialised) {
        for (size_t s = 0; s < N_SERVICES; s++)
            expect(services[s]->init() == 0);
        initialised = 1;
    }
    if (size > 0 && text[0] == '?') {
        const char *nl = memchr(text, '\n', size);
        query = text + 1;
        query_len = nl != NULL ? (size_t)(nl - query) : size - 1;
        body = nl != NULL ? nl + 1 : NULL;
        body_len = nl != NULL ? size - (size_t)(body - text) : 0;
    }
    h2o_mem_init_pool(&pool);
    if (floe_query_form_decode(&pool, query, query_len, body, body_len, &form) == 0) {
        expect(memchr(data, '\0', size) == NULL);
        check_form(&form, size);
        run_operations(&pool, &form, size);
    }
    h2o_mem_clear_pool(&pool);
    floe_codec_thread_exit();
    return 0;
}
