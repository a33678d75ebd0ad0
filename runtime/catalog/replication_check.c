/*
 * The rules every replication destination meets, whoever configures it: the S3 Tables API
 * (handlers/s3tables/table_bucket_replication.c, handlers/s3tables/table_replication.c) and a CloudFormation
 * TableBucket's ReplicationConfiguration (cloudformation/provision_bucket.c). They read the state
 * (does the destination bucket exist?), so they live in the catalog, declared in replication.h.
 */
#include <string.h>

#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "catalog/replication.h"

/* The service part of a table bucket ARN: arn:<partition>:s3tables:<region>:<account>:bucket/<name>. */
#define TABLE_BUCKET_SERVICE "s3tables"

/* The model's TableBucketARN pattern admits any service name; a table bucket's ARN is an s3tables one. */
static bool arn_is_table_bucket(const char *arn)
{
    const char *partition = strchr(arn, ':');
    const char *service = partition != NULL ? strchr(partition + 1, ':') : NULL;
    size_t n = strlen(TABLE_BUCKET_SERVICE);

    return service != NULL && strncmp(service + 1, TABLE_BUCKET_SERVICE, n) == 0 && service[1 + n] == ':';
}

static int check_destination(floe_call_t *call, const char *arn, const char *own_bucket_arn,
                             const char *own_bucket_message)
{
    floe_bucket_row_t destination;

    if (!arn_is_table_bucket(arn))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET, "The destination %s is not a table bucket ARN.", arn);
    if (strcmp(arn, own_bucket_arn) == 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET, "%s", own_bucket_message);
    if (floe_arn_parse_table_bucket(call, arn) == NULL || floe_lookup_bucket(call, arn, &destination) == FLOE_OK)
        return FLOE_OK; /* another account's or region's: checked when replicating (failed if missing) */
    if (call->failure.code != FLOE_ENOTFOUND)
        return FLOE_EFAIL;
    return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_BUCKET, "The destination table bucket %s does not exist.", arn);
}

/* Whether destination i of rule r repeats one listed before it, in that rule or an earlier one. */
static bool destination_is_repeated(const floe_replication_rule_t *rules, size_t r, size_t i)
{
    const char *arn = rules[r].destination_arns[i];

    for (size_t r2 = 0; r2 <= r; r2++) {
        size_t n = r2 == r ? i : rules[r2].n_destinations;
        for (size_t j = 0; j < n; j++) {
            if (strcmp(arn, rules[r2].destination_arns[j]) == 0)
                return true;
        }
    }
    return false;
}

int floe_replication_check_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules,
                                        const char *own_bucket_arn, const char *own_bucket_message)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            const char *arn = rules[r].destination_arns[i];
            if (destination_is_repeated(rules, r, i))
                return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_BUCKET,
                                 "The destination table bucket %s is listed more than once.", arn);
            if (check_destination(call, arn, own_bucket_arn, own_bucket_message))
                return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}
