/*
 * libFuzzer harness for IAM policy documents (policy/policy.h): any bytes, parsed as each kind of
 * policy. A refusal carries a message; an accepted policy is evaluated against requests of a root,
 * a user and an assumed role, and a decision names its statement exactly when one applied.
 */
#include <stdint.h>
#include <stdlib.h>

#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const floe_policy_context_key_t context[] = {
    {"aws:SourceIp", "10.1.2.3"},     {"aws:SecureTransport", "false"}, {"s3tables:namespace", "hr"},
    {"s3tables:tableName", "sales"},  {"aws:TagKeys", "k"},             {"aws:TagKeys", "j"},
    {"aws:CurrentTime", "2026-01-01T00:00:00Z"},
};

static const floe_policy_request_t requests[] = {
    {"arn:aws:iam::111122223333:root", "111122223333", "s3tables:GetTable",
     "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/t", context, sizeof(context) / sizeof(context[0]), NULL},
    {"arn:aws:iam::123456789012:user/Jane", "123456789012", "s3tables:GetTableData",
     "arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-table-bucket/table/x", context, 3, NULL},
    {"arn:aws:sts::111122223333:assumed-role/datasteward/s", "111122223333", "sts:AssumeRole", "", NULL, 0,
     "arn:aws:iam::111122223333:role/datasteward"},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const floe_policy_kind_t kinds[] = {FLOE_POLICY_IDENTITY, FLOE_POLICY_RESOURCE, FLOE_POLICY_TRUST};
    char err[256];

    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        floe_policy_t *policy = floe_policy_parse((const char *)data, size, kinds[k], err, sizeof(err));
        if (policy == NULL) {
            if (err[0] == '\0')
                abort(); /* a refusal says why */
            continue;
        }
        for (size_t r = 0; r < sizeof(requests) / sizeof(requests[0]); r++) {
            const char *statement = "unset";
            floe_policy_effect_t effect = floe_policy_evaluate(policy, &requests[r], &statement);
            if ((effect == FLOE_POLICY_NO_MATCH) != (statement == NULL))
                abort(); /* a decision names its statement, no decision names none */
        }
        floe_policy_free(policy);
    }
    return 0;
}
