/*
 * libFuzzer harness for the awsJson1_1 request path below HTTP (runtime/awsjson/): the generic
 * codec parsing a body into an operation's typed input over the generated descriptor tables of
 * every awsJson service (Glue), then validating it. Input: the operation's name (what follows
 * "AWSGlue." in X-Amz-Target) up to the first newline, then the body. An operation the services
 * lack is picked by the input's length instead, so every input shape is reached.
 *
 * Besides the sanitizers it checks: a refusal carries a message, valid UTF-8 when the body is; an
 * accepted body, serialized back by the same tables, is JSON that parses again into the shape and
 * serializes to the same text (the parse and the serializer agree on every kind of member).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "awsjson/awsjson_codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FLOE_AWSJSON_SERVICE(table) extern const floe_awsjson_service_t table;
#include "awsjson_services.def"

static const floe_awsjson_service_t *const services[] = {
#define FLOE_AWSJSON_SERVICE(table) &table,
#include "awsjson_services.def"
};

#define N_SERVICES (sizeof(services) / sizeof(services[0]))
#define NAME_MAX_LEN 128

static void expect(int cond)
{
    if (!cond)
        abort();
}

/* The operation named `name`, else the `pick`th of all, with its service in *svc. */
static const floe_awsjson_operation_t *pick_operation(const char *name, size_t pick, const floe_awsjson_service_t **svc)
{
    size_t n_all = 0;

    for (size_t s = 0; s < N_SERVICES; s++) {
        for (size_t i = 0; i < services[s]->n_operations; i++, n_all++) {
            if (strcmp(floe_awsjson_name(services[s], services[s]->operations[i].name), name) == 0) {
                *svc = services[s];
                return &services[s]->operations[i];
            }
        }
    }
    pick %= n_all;
    for (size_t s = 0; s < N_SERVICES; s++) {
        if (pick < services[s]->n_operations) {
            *svc = services[s];
            return &services[s]->operations[pick];
        }
        pick -= services[s]->n_operations;
    }
    return NULL;
}

/* Serializes `in` of `shape`, parses the text again and serializes that: both texts are equal. */
static void check_round_trip(h2o_mem_pool_t *pool, const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *shape,
                             const void *in)
{
    floe_json_t first, second;
    floe_violation_t v;
    floe_call_t call;
    void *again;

    floe_call_init(&call, pool, NULL, NULL);
    floe_json_init(&first);
    floe_json_init(&second);
    floe_awsjson_serialize(svc, shape, in, &first);
    again = floe_call_alloc(&call, shape->size);
    expect(floe_awsjson_parse(&call, svc, shape, first.buf, first.len, again, &v) == FLOE_AWSJSON_PARSED);
    floe_awsjson_serialize(svc, shape, again, &second);
    expect(first.len == second.len && memcmp(first.buf, second.buf, first.len) == 0);
    floe_json_dispose(&first);
    floe_json_dispose(&second);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *nl = memchr(text, '\n', size), *body = text;
    const floe_awsjson_service_t *svc = NULL;
    const floe_awsjson_operation_t *op;
    const floe_awsjson_shape_t *input;
    char name[NAME_MAX_LEN] = "";
    floe_awsjson_parse_rc_t rc;
    floe_violation_t v;
    h2o_mem_pool_t pool;
    floe_call_t call;
    size_t body_len = size;
    void *in;

    if (nl != NULL && (size_t)(nl - text) < sizeof(name)) {
        memcpy(name, text, (size_t)(nl - text));
        name[nl - text] = '\0';
        body = nl + 1;
        body_len = size - (size_t)(body - text);
    }
    op = pick_operation(name, size, &svc);
    input = floe_awsjson_shape(svc, op->input);
    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    memset(&v, 0, sizeof(v));
    in = floe_call_alloc(&call, input->size);
    rc = floe_awsjson_parse(&call, svc, input, body, body_len, in, &v);
    if (rc == FLOE_AWSJSON_PARSED && floe_awsjson_validate(svc, input, in, &v) == 0) {
        check_round_trip(&pool, svc, input, in);
    } else {
        size_t len = strnlen(v.message, sizeof(v.message));
        expect(len > 0 && len < sizeof(v.message));
        expect(!floe_codec_utf8_valid(body, body_len) || floe_codec_utf8_valid(v.message, len));
    }
    h2o_mem_clear_pool(&pool);
    floe_codec_thread_exit();
    return 0;
}
