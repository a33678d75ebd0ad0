/*
 * Tests of runtime/cloudformation/ (stack.c, stack_thread.c, stack_run_steps.c, stack_run.c, stack_changes.c,
 * provision*.c): a real catalog on a temporary database, a background door on this thread's event
 * loop (this thread plays the serving thread and turns the loop while it waits), the engine's
 * thread, and the JSON-only template double. Stacks are created, updated, rolled back, deleted
 * and previewed through the API the CloudFormation handlers call.
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <h2o/memory.h>
#include <sqlite3.h>

#include "background/background.h"
#include "call/call.h"
#include "catalog/lookup.h"
#include "catalog/maintenance.h"
#include "catalog/settings.h"
#include "catalog/table_bucket.h"
#include "cloudformation/provision.h"
#include "cloudformation/stack.h"
#include "cloudformation/stack_thread.h"
#include "cloudformation/stack_run.h"
#include "cloudformation/stack_status.h"
#include "db/state.h"
#include "iam/entity.h"
#include "harness.h"
#include "store/store.h"
#include "call/worker.h"

#include "runtime/cloudformation/template_double.c"

#define CFN_WAIT_MS 10000
#define CFN_ACCOUNT "111122223333"
#define CFN_REGION "us-east-1"
#define CFN_BUCKET_ARN(name) "arn:aws:s3tables:us-east-1:111122223333:bucket/" name

typedef struct cfn_fixture {
    char dir[PATH_MAX];
    char db[PATH_MAX + 16];
    floe_state_t *st;
    floe_config_t config;
    h2o_evloop_t *loop;
    floe_worker_t w;
    floe_background_t *bg;
    floe_stack_engine_t *engine;
    h2o_mem_pool_t pool;
    floe_call_t call;
    char *why;
} cfn_fixture_t;

static int cfn_remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void cfn_start_engine(cfn_fixture_t *f)
{
    f->engine = floe_stack_engine_start(f->bg);
}

/* A fresh data directory and catalog, the door on this thread, the double registered; the engine
 * is started unless `without_engine`. */
static int cfn_open(cfn_fixture_t *f, bool without_engine)
{
    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "%s/floe-cfn-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(f->db, sizeof(f->db), "%s/floe.db", f->dir);
    if (floe_state_open(f->db, 0, &f->st) != 0 || floe_store_recover(f->st, f->dir) != 0)
        return -1;
    f->config.data_dir = f->dir;
    f->config.region = CFN_REGION;
    f->config.account_id = CFN_ACCOUNT;
    f->config.arn_bucket_prefix = CFN_BUCKET_ARN("");
    f->loop = h2o_evloop_create();
    f->w.super.loop = f->loop;
    f->w.state = f->st;
    f->w.config = &f->config;
    f->bg = floe_background_new(&f->w);
    floe_stack_template_register(&template_double);
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, f->st, &f->config);
    if (!without_engine)
        cfn_start_engine(f);
    return 0;
}

static void cfn_close(cfn_fixture_t *f)
{
    floe_background_stop(f->bg);
    floe_stack_engine_stop(f->engine);
    floe_background_free(f->bg);
    h2o_mem_clear_pool(&f->pool);
    floe_state_close(f->st);
    h2o_evloop_destroy(f->loop);
    nftw(f->dir, cfn_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A template written with single quotes, as JSON (in the call's pool). */
static const char *cfn_json(cfn_fixture_t *f, const char *text)
{
    char *json = floe_call_strdup(&f->call, text);
    for (char *p = json; *p != '\0'; p++) {
        if (*p == '\'')
            *p = '"';
    }
    return json;
}

static uint64_t cfn_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Turns the loop until the stack is stable (or CFN_WAIT_MS pass); its status. */
static const char *cfn_wait(cfn_fixture_t *f, const char *stack)
{
    uint64_t deadline = cfn_now_ms() + CFN_WAIT_MS;
    floe_stack_info_t *stacks;
    size_t n;

    while (cfn_now_ms() < deadline) {
        h2o_evloop_run(f->loop, 1);
        floe_state_end_call(f->st);
        if (floe_stack_describe(&f->call, stack, &stacks, &n, &f->why) != FLOE_OK || n != 1)
            return "(none)";
        if (!floe_stack_status_is_in_progress(stacks[0].status) || strcmp(stacks[0].status, FLOE_REVIEW_IN_PROGRESS) == 0)
            return stacks[0].status;
    }
    return "(timeout)";
}

/* Turns the loop until the change set is computed; its status. */
static const char *cfn_wait_change_set(cfn_fixture_t *f, const char *change_set, floe_stack_change_set_t *out)
{
    uint64_t deadline = cfn_now_ms() + CFN_WAIT_MS;

    while (cfn_now_ms() < deadline) {
        h2o_evloop_run(f->loop, 1);
        floe_state_end_call(f->st);
        if (floe_stack_change_set_describe(&f->call, change_set, NULL, out, &f->why) != FLOE_OK)
            return "(none)";
        if (strcmp(out->status, FLOE_CHANGE_SET_CREATE_PENDING) != 0 &&
            strcmp(out->status, FLOE_CHANGE_SET_CREATE_IN_PROGRESS) != 0)
            return out->status;
    }
    return "(timeout)";
}

static int cfn_create(cfn_fixture_t *f, const char *name, const char *template_text, char **stack_id)
{
    floe_stack_create_input_t in = {.stack_name = name};
    in.template_.template_body = cfn_json(f, template_text);
    return floe_stack_create(&f->call, &in, stack_id, &f->why);
}

static int cfn_update(cfn_fixture_t *f, const char *stack, const char *template_text)
{
    floe_stack_update_input_t in = {.stack_name = stack};
    char *id;
    in.template_.template_body = cfn_json(f, template_text);
    return floe_stack_update(&f->call, &in, &id, &f->why);
}

static floe_stack_resource_t *cfn_resource(cfn_fixture_t *f, const char *stack, const char *logical_id)
{
    floe_stack_resource_t *r = floe_call_alloc(&f->call, sizeof(*r));
    return floe_stack_resource(&f->call, stack, logical_id, r, &f->why) == FLOE_OK ? r : NULL;
}

static bool cfn_bucket_exists(cfn_fixture_t *f, const char *name)
{
    floe_bucket_row_t b;
    bool exists = floe_lookup_bucket(&f->call, floe_call_printf(&f->call, CFN_BUCKET_ARN("%s"), name), &b) == FLOE_OK;
    f->call.failure.code = FLOE_OK;
    return exists;
}

/* The index in the stack's events (newest first) of the first event of `logical_id` in `status`. */
static int cfn_event_index(cfn_fixture_t *f, const char *stack, const char *logical_id, const char *status)
{
    floe_stack_event_t *events;
    size_t n;

    if (floe_stack_events(&f->call, stack, &events, &n, &f->why) != FLOE_OK)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(events[i].logical_id, logical_id) == 0 && strcmp(events[i].status, status) == 0)
            return (int)i;
    }
    return -1;
}

static const char *cfn_event_reason(cfn_fixture_t *f, const char *stack, const char *logical_id, const char *status)
{
    floe_stack_event_t *events;
    int i = cfn_event_index(f, stack, logical_id, status);
    size_t n;

    if (i < 0 || floe_stack_events(&f->call, stack, &events, &n, &f->why) != FLOE_OK)
        return "";
    return events[i].status_reason != NULL ? events[i].status_reason : "";
}

/* Compaction's target file size of the table `arn`. */
static int cfn_target_file_size(cfn_fixture_t *f, const char *arn)
{
    floe_table_maintenance_t m;
    floe_table_row_t t;

    if (floe_lookup_table_by_arn(&f->call, arn, &t) ||
        floe_maintenance_read(&f->call, t.id, FLOE_TableMaintenanceType_ICEBERG_COMPACTION, &m))
        return -1;
    return m.target_file_size_mb;
}

/* The five types: a bucket named by a parameter, its namespace, a table with a schema and
 * compaction settings, and a policy on each. */
static const char *const cfn_five =
    "{'Description': 'five', 'Parameters': {'BucketName': {'Type': 'String', 'Default': 'cfn-five'},"
    " 'Secret': {'Type': 'String', 'Default': 's3cr3t', 'NoEcho': true}},"
    " 'Resources': {"
    "  'Bucket': {'Type': 'AWS::S3Tables::TableBucket', 'Properties': {'TableBucketName': {'Ref': 'BucketName'},"
    "    'UnreferencedFileRemoval': {'Status': 'Enabled', 'UnreferencedDays': 4, 'NoncurrentDays': 11},"
    "    'Tags': [{'Key': 'team', 'Value': 'data'}]}},"
    "  'Ns': {'Type': 'AWS::S3Tables::Namespace', 'Properties': {'TableBucketARN': {'Fn::GetAtt': ['Bucket',"
    "    'TableBucketARN']}, 'Namespace': 'sales'}},"
    "  'Table': {'Type': 'AWS::S3Tables::Table', 'DependsOn': 'Ns', 'Properties': {'TableBucketARN': {'Ref':"
    "    'Bucket'}, 'Namespace': 'sales', 'TableName': 'orders', 'OpenTableFormat': 'ICEBERG',"
    "    'IcebergMetadata': {'IcebergSchema': {'SchemaFieldList': [{'Name': 'id', 'Type': 'long', 'Required':"
    "    true}, {'Name': 'amount', 'Type': 'double'}]}}, 'Compaction': {'Status': 'enabled', 'TargetFileSizeMB':"
    "    256}}},"
    "  'BucketPolicy': {'Type': 'AWS::S3Tables::TableBucketPolicy', 'Properties': {'TableBucketARN': {'Ref':"
    "    'Bucket'}, 'ResourcePolicy': {'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Principal':"
    "    {'AWS': '111122223333'}, 'Action': 's3tables:*', 'Resource': '*'}]}}},"
    "  'TablePolicy': {'Type': 'AWS::S3Tables::TablePolicy', 'Properties': {'TableARN': {'Fn::GetAtt': ['Table',"
    "    'TableARN']}, 'ResourcePolicy': {'Version': '2012-10-17', 'Statement': [{'Effect': 'Deny', 'Principal':"
    "    '*', 'Action': 's3tables:DeleteTable', 'Resource': '*'}]}}}},"
    " 'Outputs': {'BucketArn': {'Value': {'Ref': 'Bucket'}, 'Export': {'Name': 'five-bucket'}},"
    "  'Warehouse': {'Value': {'Fn::GetAtt': ['Table', 'WarehouseLocation']}, 'Description': 'where'}}}";

TEST(stack_creates_five_resources_in_dependency_order)
{
    cfn_fixture_t f;
    floe_stack_info_t *stacks;
    floe_stack_resource_t *table;
    floe_stack_export_t *exports;
    char *id = NULL;
    uint64_t started;
    size_t n;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    started = cfn_now_ms();
    CHECK(cfn_create(&f, "five", cfn_five, &id) == FLOE_OK, "CreateStack takes the template");
    CHECK(id != NULL && strncmp(id, "arn:aws:cloudformation:us-east-1:111122223333:stack/five/", 57) == 0,
          "the stack id is AWS's stack ARN");
    CHECK(!floe_stack_is_settled(&f.call, id), "a stack whose creation is queued has not settled");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0, "the stack reaches CREATE_COMPLETE");
    CHECK(cfn_now_ms() - started < 1000, "a five-resource stack completes in well under a second");
    for (uint64_t until = cfn_now_ms() + CFN_WAIT_MS; !floe_stack_is_settled(&f.call, id) && cfn_now_ms() < until;)
        h2o_evloop_run(f.loop, 10); /* the engine's last step (removing the work) follows the status */
    CHECK(floe_stack_is_settled(&f.call, id), "a created stack has settled, so a held CreateStack answer goes");
    CHECK(floe_stack_is_settled(&f.call, "arn:aws:cloudformation:us-east-1:111122223333:stack/none/x"),
          "a stack that does not exist has nothing in progress");
    CHECK(cfn_bucket_exists(&f, "cfn-five"), "the bucket exists in the S3 Tables catalog");
    table = cfn_resource(&f, "five", "Table");
    CHECK(table != NULL && strncmp(table->physical_id, CFN_BUCKET_ARN("cfn-five/table/"), 61) == 0,
          "the table's physical id is its table ARN");
    CHECK(table != NULL && cfn_target_file_size(&f, table->physical_id) == 256, "Compaction becomes the table's setting");
    CHECK(strcmp(cfn_resource(&f, "five", "Ns")->physical_id, CFN_BUCKET_ARN("cfn-five") "|sales") == 0,
          "a namespace is identified as TableBucketARN|Namespace");
    CHECK(cfn_event_index(&f, "five", "five", FLOE_CREATE_COMPLETE) == 0, "the newest event is the stack's completion");
    CHECK(cfn_event_index(&f, "five", "Table", FLOE_CREATE_COMPLETE) < cfn_event_index(&f, "five", "Ns", FLOE_CREATE_COMPLETE) &&
              cfn_event_index(&f, "five", "Ns", FLOE_CREATE_COMPLETE) < cfn_event_index(&f, "five", "Bucket", FLOE_CREATE_COMPLETE),
          "the bucket, then the namespace, then the table were created");
    CHECK(strcmp(cfn_event_reason(&f, "five", "five", FLOE_CREATE_IN_PROGRESS), "User Initiated") == 0,
          "the first event says the user started it");
    CHECK(floe_stack_describe(&f.call, "five", &stacks, &n, &f.why) == FLOE_OK && n == 1 &&
              stacks[0].n_outputs == 2 && strcmp(stacks[0].outputs[0].value, CFN_BUCKET_ARN("cfn-five")) == 0 &&
              strncmp(stacks[0].outputs[1].value, "s3://", 5) == 0,
          "DescribeStacks lists the outputs, resolved");
    CHECK(stacks[0].n_parameters == 2 && strcmp(stacks[0].parameters[1].value, "****") == 0,
          "a NoEcho parameter is masked");
    CHECK(stacks[0].description != NULL && strcmp(stacks[0].description, "five") == 0, "the description is the template's");
    CHECK(floe_stack_exports(&f.call, &exports, &n) == FLOE_OK && n == 1 &&
              strcmp(exports[0].name, "five-bucket") == 0,
          "the export is listed");
    cfn_close(&f);
}

/* A bucket whose name is taken by a bucket outside the stack fails the stack. */
static const char *const cfn_failing =
    "{'Resources': {"
    "  'First': {'Type': 'AWS::S3Tables::TableBucket', 'Properties': {'TableBucketName': 'cfn-first'}},"
    "  'FirstNs': {'Type': 'AWS::S3Tables::Namespace', 'Properties': {'TableBucketARN': {'Ref': 'First'},"
    "    'Namespace': 'ns'}},"
    "  'Second': {'Type': 'AWS::S3Tables::TableBucket', 'DependsOn': 'FirstNs', 'Properties': {"
    "    'TableBucketName': 'cfn-taken'}}}}";

static void cfn_take_bucket(cfn_fixture_t *f, const char *name)
{
    int64_t id;
    floe_table_bucket_create(&f->call, name, &id);
}

TEST(stack_failure_rolls_back_in_reverse_and_leaves_nothing)
{
    cfn_fixture_t f;
    floe_stack_info_t *stacks;
    char *id = NULL;
    size_t n;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    cfn_take_bucket(&f, "cfn-taken");
    CHECK(cfn_create(&f, "failing", cfn_failing, &id) == FLOE_OK, "CreateStack takes the template");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_ROLLBACK_COMPLETE) == 0, "the stack rolls back to ROLLBACK_COMPLETE");
    CHECK(!cfn_bucket_exists(&f, "cfn-first"), "the bucket the stack made is deleted");
    CHECK(cfn_bucket_exists(&f, "cfn-taken"), "the bucket the stack did not make stays");
    CHECK(strstr(cfn_event_reason(&f, "failing", "Second", FLOE_CREATE_FAILED), "ConflictException") != NULL &&
              strstr(cfn_event_reason(&f, "failing", "Second", FLOE_CREATE_FAILED), "already exists") != NULL,
          "the failure's reason carries the S3 Tables error's name and message");
    CHECK(cfn_event_index(&f, "failing", "First", FLOE_DELETE_COMPLETE) <
              cfn_event_index(&f, "failing", "FirstNs", FLOE_DELETE_COMPLETE),
          "the namespace is deleted before its bucket");
    CHECK(strstr(cfn_event_reason(&f, id, "failing", FLOE_ROLLBACK_IN_PROGRESS),
                 "The following resource(s) failed to create: [Second]. Rollback requested by user.") != NULL,
          "the rollback's reason names the failed resource");
    CHECK(floe_stack_describe(&f.call, id, &stacks, &n, &f.why) == FLOE_OK && n == 1 &&
              stacks[0].status_reason == NULL,
          "a stack that rolled back has no reason left, as on AWS");
    CHECK(cfn_update(&f, "failing", cfn_failing) == FLOE_EINVAL &&
              strstr(f.why, "is in ROLLBACK_COMPLETE state and can not be updated.") != NULL,
          "a rolled back stack cannot be updated");
    cfn_close(&f);
}

TEST(stack_without_rollback_stays_failed_or_is_deleted)
{
    cfn_fixture_t f;
    floe_stack_create_input_t in = {.stack_name = "kept", .disable_rollback = true};
    char *id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    cfn_take_bucket(&f, "cfn-taken");
    in.template_.template_body = cfn_json(&f, cfn_failing);
    CHECK(floe_stack_create(&f.call, &in, &id, &f.why) == FLOE_OK, "CreateStack takes DisableRollback");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_CREATE_FAILED) == 0, "with DisableRollback the stack stays CREATE_FAILED");
    CHECK(cfn_bucket_exists(&f, "cfn-first"), "what it made is left for inspection");
    CHECK(floe_stack_delete(&f.call, "kept", NULL, 0, NULL, NULL, &f.why) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_DELETE_COMPLETE) == 0 && !cfn_bucket_exists(&f, "cfn-first"),
          "deleting the failed stack deletes what it made");
    in.stack_name = "gone";
    in.disable_rollback = false;
    in.on_failure = FLOE_ON_FAILURE_DELETE;
    CHECK(floe_stack_create(&f.call, &in, &id, &f.why) == FLOE_OK, "CreateStack takes OnFailure DELETE");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_DELETE_COMPLETE) == 0, "OnFailure DELETE deletes the stack");
    CHECK(cfn_event_index(&f, id, "gone", FLOE_CREATE_FAILED) > 0, "it was CREATE_FAILED on the way");
    CHECK(!cfn_bucket_exists(&f, "cfn-first"), "and nothing is left behind");
    cfn_close(&f);
}

TEST(stack_delete_retains_what_deletion_policy_keeps)
{
    cfn_fixture_t f;
    floe_stack_info_t *stacks;
    char *id = NULL;
    size_t n;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "retain",
                     "{'Resources': {'Kept': {'Type': 'AWS::S3Tables::TableBucket', 'DeletionPolicy': 'Retain',"
                     " 'Properties': {'TableBucketName': 'cfn-kept'}}, 'Dropped': {'Type':"
                     " 'AWS::S3Tables::TableBucket', 'Properties': {'TableBucketName': 'cfn-dropped'}}}}",
                     &id) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    CHECK(floe_stack_delete(&f.call, "retain", NULL, 0, NULL, NULL, &f.why) == FLOE_OK, "DeleteStack is taken");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_DELETE_COMPLETE) == 0, "the stack reaches DELETE_COMPLETE");
    CHECK(cfn_bucket_exists(&f, "cfn-kept") && !cfn_bucket_exists(&f, "cfn-dropped"),
          "the retained bucket stays and the other goes");
    CHECK(cfn_event_index(&f, id, "Kept", FLOE_DELETE_SKIPPED) >= 0, "the retained bucket's deletion is skipped");
    CHECK(floe_stack_describe(&f.call, "retain", &stacks, &n, &f.why) == FLOE_EINVAL &&
              strcmp(f.why, "Stack with id retain does not exist") == 0,
          "a deleted stack is not found by its name");
    CHECK(floe_stack_describe(&f.call, id, &stacks, &n, &f.why) == FLOE_OK && stacks[0].deleted_at != 0,
          "a deleted stack is found by its id, with its deletion time");
    CHECK(floe_stack_delete(&f.call, "retain", NULL, 0, NULL, NULL, &f.why) == FLOE_OK,
          "deleting a stack that does not exist succeeds, as on AWS");
    cfn_close(&f);
}

/* A bucket, two namespaces and a table; its name, namespace and compaction come from `%s` parts. */
#define CFN_WITHOUT_METADATA "'WithoutMetadata': 'Yes'"
#define CFN_WITH_SCHEMA "'IcebergMetadata': {'IcebergSchema': {'SchemaFieldList': [{'Name': 'id', 'Type': 'long'}]}}"

static const char *cfn_table_template_with(cfn_fixture_t *f, const char *bucket, const char *ns, const char *name,
                                           int target_mb, const char *metadata, const char *extra)
{
    return floe_call_printf(
        &f->call,
        "{'Resources': {"
        "  'Bucket': {'Type': 'AWS::S3Tables::TableBucket', 'Properties': {'TableBucketName': '%s'}},"
        "  'Ns1': {'Type': 'AWS::S3Tables::Namespace', 'Properties': {'TableBucketARN': {'Ref': 'Bucket'},"
        "    'Namespace': 'one'}},"
        "  'Ns2': {'Type': 'AWS::S3Tables::Namespace', 'Properties': {'TableBucketARN': {'Ref': 'Bucket'},"
        "    'Namespace': 'two'}},"
        "  'Table': {'Type': 'AWS::S3Tables::Table', 'DependsOn': ['Ns1', 'Ns2'], 'Properties': {'TableBucketARN':"
        "    {'Ref': 'Bucket'}, 'Namespace': '%s', 'TableName': '%s', 'OpenTableFormat': 'ICEBERG',"
        "    %s, 'Compaction': {'Status': 'enabled', 'TargetFileSizeMB': %d}}}%s},"
        " 'Outputs': {'TableArn': {'Value': {'Fn::GetAtt': ['Table', 'TableARN']}}}}",
        bucket, ns, name, metadata, target_mb, extra);
}

static const char *cfn_table_template(cfn_fixture_t *f, const char *bucket, const char *ns, const char *name,
                                      int target_mb)
{
    return cfn_table_template_with(f, bucket, ns, name, target_mb, CFN_WITHOUT_METADATA, "");
}

TEST(stack_update_renames_a_table_in_place_keeping_its_arn)
{
    cfn_fixture_t f;
    floe_stack_resource_t *before, *after;
    floe_table_row_t t;
    char *id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "rename", cfn_table_template(&f, "cfn-rename", "one", "orders", 256), &id) ==
                  FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    before = cfn_resource(&f, "rename", "Table");
    CHECK(cfn_update(&f, "rename", cfn_table_template(&f, "cfn-rename", "two", "orders2", 128)) == FLOE_OK,
          "UpdateStack takes the new template");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_UPDATE_COMPLETE) == 0, "the stack reaches UPDATE_COMPLETE");
    after = cfn_resource(&f, "rename", "Table");
    CHECK(before != NULL && after != NULL && strcmp(before->physical_id, after->physical_id) == 0,
          "a rename keeps the table's ARN");
    CHECK(floe_lookup_table_by_arn(&f.call, after->physical_id, &t) == FLOE_OK && strcmp(t.name, "orders2") == 0 &&
              strcmp(t.ns.name, "two") == 0,
          "the table has its new name and namespace");
    CHECK(cfn_target_file_size(&f, after->physical_id) == 128, "the compaction setting changed in place");
    CHECK(strcmp(after->status, FLOE_UPDATE_COMPLETE) == 0, "the table's status is UPDATE_COMPLETE");
    CHECK(cfn_event_index(&f, id, "rename", FLOE_UPDATE_COMPLETE_CLEANUP_IN_PROGRESS) > 0,
          "the stack went through UPDATE_COMPLETE_CLEANUP_IN_PROGRESS");
    CHECK(cfn_update(&f, "rename", cfn_table_template(&f, "cfn-rename", "two", "orders2", 128)) == FLOE_EINVAL &&
              strcmp(f.why, "No updates are to be performed.") == 0,
          "an update that changes nothing is refused with AWS's message");
    cfn_close(&f);
}

TEST(stack_update_replaces_and_deletes_the_old_resources_in_cleanup)
{
    cfn_fixture_t f;
    floe_stack_resource_t *before, *after;
    char *id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "replace", cfn_table_template(&f, "cfn-old", "one", "orders", 256), &id) ==
                  FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    before = cfn_resource(&f, "replace", "Table");
    CHECK(cfn_update(&f, "replace", cfn_table_template(&f, "cfn-new", "one", "orders", 256)) == FLOE_OK,
          "UpdateStack takes a new bucket name");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_UPDATE_COMPLETE) == 0, "the stack reaches UPDATE_COMPLETE");
    after = cfn_resource(&f, "replace", "Table");
    CHECK(cfn_bucket_exists(&f, "cfn-new") && !cfn_bucket_exists(&f, "cfn-old"),
          "the new bucket is made and the old one deleted");
    CHECK(before != NULL && after != NULL && strcmp(before->physical_id, after->physical_id) != 0 &&
              strstr(after->physical_id, "bucket/cfn-new/table/") != NULL,
          "the table that referred to the bucket was replaced into the new bucket");
    CHECK(strstr(cfn_event_reason(&f, id, "Bucket", FLOE_UPDATE_IN_PROGRESS), "creation of a new physical resource") !=
              NULL,
          "the replacement says so, as AWS does");
    CHECK(cfn_event_index(&f, id, "Bucket", FLOE_DELETE_COMPLETE) <
              cfn_event_index(&f, id, "Table", FLOE_DELETE_COMPLETE),
          "the cleanup deletes the old table before the old bucket");
    cfn_close(&f);
}

TEST(stack_update_failure_rolls_back_what_it_changed)
{
    cfn_fixture_t f;
    floe_stack_resource_t *table, *extra;
    const char *broken;
    char *id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    cfn_take_bucket(&f, "cfn-taken");
    CHECK(cfn_create(&f, "undo", cfn_table_template(&f, "cfn-undo", "one", "orders", 256), &id) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    broken = cfn_table_template_with(&f, "cfn-undo", "one", "orders", 64, CFN_WITHOUT_METADATA,
                                     ", 'Extra': {'Type': 'AWS::S3Tables::TableBucket', 'DependsOn': 'Table',"
                                     " 'Properties': {'TableBucketName': 'cfn-taken'}}");
    CHECK(cfn_update(&f, "undo", broken) == FLOE_OK, "UpdateStack takes a template that will fail");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_UPDATE_ROLLBACK_COMPLETE) == 0, "the stack reaches UPDATE_ROLLBACK_COMPLETE");
    table = cfn_resource(&f, "undo", "Table");
    CHECK(table != NULL && cfn_target_file_size(&f, table->physical_id) == 256,
          "the in-place change is undone");
    extra = cfn_resource(&f, "undo", "Extra");
    CHECK(extra == NULL, "the resource the update tried to add is gone from the stack");
    CHECK(cfn_event_index(&f, id, "undo", FLOE_UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS) > 0,
          "the stack went through the rollback's cleanup");
    CHECK(cfn_update(&f, "undo", cfn_table_template(&f, "cfn-undo", "one", "orders", 128)) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_UPDATE_COMPLETE) == 0,
          "a stack that rolled back an update can be updated again");
    cfn_close(&f);
}

TEST(stack_update_refuses_to_replace_a_custom_named_table)
{
    cfn_fixture_t f;
    const char *with_schema;
    char *id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "named", cfn_table_template(&f, "cfn-named", "one", "orders", 256), &id) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    with_schema = cfn_table_template_with(&f, "cfn-named", "one", "orders", 256, CFN_WITH_SCHEMA, "");
    CHECK(cfn_update(&f, "named", with_schema) == FLOE_OK, "UpdateStack takes a schema for the table");
    CHECK(strcmp(cfn_wait(&f, id), FLOE_UPDATE_ROLLBACK_COMPLETE) == 0, "the update rolls back");
    CHECK(strcmp(cfn_event_reason(&f, id, "Table", FLOE_UPDATE_FAILED),
                 "CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename orders "
                 "and update the stack again.") == 0,
          "a replacement that needs the table's own name is refused as AWS refuses it");
    cfn_close(&f);
}

TEST(stack_refuses_what_aws_refuses)
{
    cfn_fixture_t f;
    char *id = NULL, *big;

    CHECK(cfn_open(&f, true) == 0, "a fresh catalog starts");
    CHECK(cfn_create(&f, "dup", cfn_failing, &id) == FLOE_OK, "a stack is created");
    CHECK(cfn_create(&f, "dup", cfn_failing, &id) == FLOE_EEXISTS &&
              strcmp(f.why, "Stack [dup] already exists") == 0,
          "a second stack of that name is AlreadyExistsException");
    CHECK(cfn_update(&f, "dup", cfn_five) == FLOE_EINVAL &&
              strstr(f.why, "is in CREATE_IN_PROGRESS state and can not be updated.") != NULL,
          "a stack in progress cannot be updated");
    CHECK(cfn_create(&f, "bad_name", cfn_failing, &id) == FLOE_EINVAL && strstr(f.why, "stackName") != NULL,
          "a stack name AWS does not allow is refused");
    CHECK(cfn_create(&f, "other", "{'Resources': {'X': {'Type': 'AWS::S3::Bucket'}}}", &id) == FLOE_EINVAL &&
              strstr(f.why, "AWS::S3::Bucket") != NULL,
          "a template error is a ValidationError that names the cause");
    big = floe_call_alloc(&f.call, FLOE_STACK_TEMPLATE_BODY_MAX + 2);
    memset(big, ' ', FLOE_STACK_TEMPLATE_BODY_MAX + 1);
    big[0] = '{';
    CHECK(cfn_create(&f, "big", big, &id) == FLOE_EINVAL && strstr(f.why, "51200") != NULL,
          "a template over 51,200 bytes is refused");
    CHECK(cfn_update(&f, "nothing", cfn_failing) == FLOE_EINVAL &&
              strcmp(f.why, "Stack [nothing] does not exist") == 0,
          "updating a stack that does not exist is a ValidationError");
    cfn_close(&f);
}

/* ---- change sets ---- */

static int cfn_change_set(cfn_fixture_t *f, const char *stack, const char *name, const char *type,
                          const char *template_text, char **change_set_id)
{
    floe_stack_change_set_input_t in = {.stack_name = stack, .change_set_name = name, .change_set_type = type};
    char *stack_id;
    in.template_.template_body = cfn_json(f, template_text);
    return floe_stack_change_set_create(&f->call, &in, change_set_id, &stack_id, &f->why);
}

static const floe_stack_change_t *cfn_change(const floe_stack_change_set_t *cs, const char *logical_id)
{
    for (size_t i = 0; i < cs->n_changes; i++) {
        if (strcmp(cs->changes[i].logical_id, logical_id) == 0)
            return &cs->changes[i];
    }
    return NULL;
}

TEST(change_set_creates_a_stack_in_review_and_executes_it)
{
    cfn_fixture_t f;
    floe_stack_change_set_t cs;
    floe_stack_info_t *stacks;
    char *cs_id = NULL;
    size_t n;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_change_set(&f, "review", "first", "CREATE", cfn_five, &cs_id) == FLOE_OK,
          "CreateChangeSet of type CREATE is taken");
    CHECK(cs_id != NULL && strstr(cs_id, ":changeSet/first/") != NULL, "the change set has its own ARN");
    CHECK(floe_stack_describe(&f.call, "review", &stacks, &n, &f.why) == FLOE_OK &&
              strcmp(stacks[0].status, FLOE_REVIEW_IN_PROGRESS) == 0,
          "the stack exists in REVIEW_IN_PROGRESS");
    CHECK(strcmp(cfn_wait_change_set(&f, cs_id, &cs), FLOE_CHANGE_SET_CREATE_COMPLETE) == 0 &&
              strcmp(cs.execution_status, FLOE_EXECUTION_AVAILABLE) == 0,
          "the change set is computed and can be executed");
    CHECK(cs.n_changes == 5 && strcmp(cs.changes[0].action, "Add") == 0, "it lists an Add per resource");
    CHECK(floe_stack_change_set_execute(&f.call, cs_id, NULL, false, false, NULL, NULL, &f.why) == FLOE_OK,
          "ExecuteChangeSet is taken");
    CHECK(strcmp(cfn_wait(&f, "review"), FLOE_CREATE_COMPLETE) == 0, "the stack is created");
    CHECK(floe_stack_change_set_describe(&f.call, cs_id, NULL, &cs, &f.why) == FLOE_OK &&
              strcmp(cs.execution_status, FLOE_EXECUTION_COMPLETE) == 0,
          "the change set's execution is EXECUTE_COMPLETE");
    CHECK(floe_stack_describe(&f.call, "review", &stacks, &n, &f.why) == FLOE_OK &&
              stacks[0].change_set_id != NULL && strcmp(stacks[0].change_set_id, cs_id) == 0,
          "the stack names the change set it ran");
    cfn_close(&f);
}

TEST(change_set_lists_modify_with_replacement)
{
    cfn_fixture_t f;
    floe_stack_change_set_t cs;
    const floe_stack_change_t *bucket, *table, *ns;
    char *id = NULL, *cs_id = NULL;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "preview", cfn_table_template(&f, "cfn-preview", "one", "orders", 256), &id) ==
                  FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    CHECK(cfn_change_set(&f, "preview", "compaction", NULL,
                         cfn_table_template(&f, "cfn-preview", "one", "orders", 128), &cs_id) == FLOE_OK &&
              strcmp(cfn_wait_change_set(&f, cs_id, &cs), FLOE_CHANGE_SET_CREATE_COMPLETE) == 0,
          "an UPDATE change set is computed");
    table = cfn_change(&cs, "Table");
    CHECK(cs.n_changes == 1 && table != NULL && strcmp(table->action, "Modify") == 0 &&
              strcmp(table->replacement, "False") == 0 && table->n_details == 1 &&
              strcmp(table->details[0].name, "Compaction") == 0 &&
              strcmp(table->details[0].requires_recreation, "Never") == 0,
          "a compaction change is a Modify without replacement");
    CHECK(cfn_change_set(&f, "preview", "rename-bucket", "UPDATE",
                         cfn_table_template(&f, "cfn-preview2", "one", "orders", 256), &cs_id) == FLOE_OK &&
              strcmp(cfn_wait_change_set(&f, cs_id, &cs), FLOE_CHANGE_SET_CREATE_COMPLETE) == 0,
          "a change set that renames the bucket is computed");
    bucket = cfn_change(&cs, "Bucket");
    ns = cfn_change(&cs, "Ns1");
    CHECK(bucket != NULL && strcmp(bucket->replacement, "True") == 0 &&
              strcmp(bucket->details[0].requires_recreation, "Always") == 0 &&
              strcmp(bucket->details[0].evaluation, "Static") == 0,
          "renaming the bucket replaces it");
    CHECK(ns != NULL && strcmp(ns->replacement, "Conditional") == 0 &&
              strcmp(ns->details[0].evaluation, "Dynamic") == 0 &&
              strcmp(ns->details[0].change_source, "ResourceReference") == 0,
          "a namespace that refers to the replaced bucket may be replaced");
    CHECK(floe_stack_change_set_execute(&f.call, cs_id, NULL, false, false, NULL, NULL, &f.why) == FLOE_OK &&
              strcmp(cfn_wait(&f, "preview"), FLOE_UPDATE_COMPLETE) == 0 && cfn_bucket_exists(&f, "cfn-preview2") &&
              !cfn_bucket_exists(&f, "cfn-preview"),
          "executing it replaces the bucket");
    CHECK(floe_stack_change_set_describe(&f.call, "compaction", "preview", &cs, &f.why) ==
              FLOE_ENOTFOUND,
          "executing a change set deletes the stack's other change sets");
    cfn_close(&f);
}

TEST(change_set_without_changes_fails_with_aws_reason)
{
    cfn_fixture_t f;
    floe_stack_change_set_t cs;
    floe_stack_change_set_t *list;
    char *id = NULL, *cs_id = NULL;
    size_t n;

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "same", cfn_five, &id) == FLOE_OK &&
              strcmp(cfn_wait(&f, id), FLOE_CREATE_COMPLETE) == 0,
          "the stack is created");
    CHECK(cfn_change_set(&f, "same", "nothing", NULL, cfn_five, &cs_id) == FLOE_OK,
          "a change set of the same template is taken");
    CHECK(strcmp(cfn_wait_change_set(&f, cs_id, &cs), FLOE_CHANGE_SET_FAILED) == 0 &&
              strcmp(cs.status_reason, "The submitted information didn't contain changes. Submit different "
                                       "information to create a change set.") == 0,
          "it ends FAILED with AWS's exact reason");
    CHECK(strcmp(cs.execution_status, FLOE_EXECUTION_UNAVAILABLE) == 0, "and cannot be executed");
    CHECK(floe_stack_change_set_execute(&f.call, cs_id, NULL, false, false, NULL, NULL, &f.why) ==
              FLOE_ESTATE,
          "executing it is InvalidChangeSetStatus");
    CHECK(floe_stack_change_set_list(&f.call, "same", &list, &n, &f.why) == FLOE_OK && n == 1,
          "ListChangeSets lists it");
    CHECK(floe_stack_change_set_delete(&f.call, "nothing", "same", &f.why) == FLOE_OK,
          "DeleteChangeSet deletes it by name");
    CHECK(floe_stack_change_set_describe(&f.call, cs_id, NULL, &cs, &f.why) == FLOE_ENOTFOUND &&
              strstr(f.why, "does not exist") != NULL,
          "a deleted change set is ChangeSetNotFound");
    CHECK(floe_stack_change_set_delete(&f.call, "nothing", "same", &f.why) == FLOE_OK,
          "deleting it again succeeds while its stack exists, as the CDK CLI's deploys rely on");
    CHECK(floe_stack_change_set_delete(&f.call, "nothing", "no-such-stack", &f.why) == FLOE_EINVAL &&
              strstr(f.why, "does not exist") != NULL,
          "deleting a change set of a stack that does not exist is a ValidationError");
    cfn_close(&f);
}

/* ---- restarts, exports ---- */

TEST(stack_interrupted_by_a_restart_fails_or_resumes_cleanly)
{
    const char *one_bucket = "{'Resources': {'B': {'Type': 'AWS::S3Tables::TableBucket', 'Properties':"
                             " {'TableBucketName': 'cfn-%s'}}}}";
    cfn_fixture_t f;
    char *queued = NULL, *doomed = NULL, *crashed = NULL;

    CHECK(cfn_open(&f, true) == 0, "a fresh catalog starts, without its engine");
    CHECK(cfn_create(&f, "queued", floe_call_printf(&f.call, one_bucket, "queued"), &queued) == FLOE_OK,
          "a stack is queued");
    CHECK(cfn_create(&f, "doomed", floe_call_printf(&f.call, one_bucket, "doomed"), &doomed) == FLOE_OK,
          "a second stack is queued");
    CHECK(floe_stack_delete(&f.call, "doomed", NULL, 0, NULL, NULL, &f.why) == FLOE_OK,
          "DeleteStack of a stack still being created is taken");
    cfn_start_engine(&f);
    CHECK(strcmp(cfn_wait(&f, queued), FLOE_CREATE_COMPLETE) == 0, "the engine takes queued work when it starts");
    CHECK(strcmp(cfn_wait(&f, doomed), FLOE_DELETE_COMPLETE) == 0 && !cfn_bucket_exists(&f, "cfn-doomed"),
          "a stack deleted while it was being created is deleted once created");
    cfn_close(&f);

    /* A stack whose creation a crash interrupted: its work was taken and never finished. */
    CHECK(cfn_open(&f, true) == 0, "another catalog starts, without its engine");
    CHECK(cfn_create(&f, "crashed", floe_call_printf(&f.call, one_bucket, "crashed"), &crashed) == FLOE_OK,
          "a stack is queued");
    CHECK(sqlite3_exec(floe_state_db(f.st), "UPDATE cfn_work SET is_started = 1", NULL, NULL, NULL) == SQLITE_OK,
          "its work is marked as taken by an engine that then stopped");
    cfn_start_engine(&f);
    CHECK(strcmp(cfn_wait(&f, crashed), FLOE_ROLLBACK_COMPLETE) == 0, "a creation interrupted by a restart rolls back");
    CHECK(strcmp(cfn_event_reason(&f, crashed, "crashed", FLOE_ROLLBACK_IN_PROGRESS),
                 "The server restarted during the operation. Rollback requested by user.") == 0,
          "its reason says the server restarted");
    cfn_close(&f);
}

/* Under --enforce-iam a stack's steps act for the principal recorded with its queued work, which the
 * engine reads back from the queue as it does after a restart. */
TEST(stack_steps_act_with_the_recorded_callers_permissions)
{
    const char *lake = "{'Resources': {'Bucket': {'Type': 'AWS::S3Tables::TableBucket', 'Properties':"
                       " {'TableBucketName': 'cfn-%s'}}, 'Ns': {'Type': 'AWS::S3Tables::Namespace', 'Properties':"
                       " {'TableBucketARN': {'Fn::GetAtt': ['Bucket', 'TableBucketARN']}, 'Namespace': 'sales'}}}}";
    const char *buckets_only = "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", \"Action\":"
                               " [\"s3tables:CreateTableBucket\", \"s3tables:DeleteTableBucket\"], \"Resource\": \"*\"}]}";
    floe_stack_create_input_t in = {.stack_name = "denied", .caller = "arn:aws:iam::" CFN_ACCOUNT ":user/builder"};
    floe_iam_entity_t user = {.name = "builder", .path = "/"};
    cfn_fixture_t f;
    char *denied = NULL, *owned = NULL;

    CHECK(cfn_open(&f, true) == 0, "a fresh catalog starts, without its engine");
    f.config.enforce_iam = true;
    CHECK(floe_iam_entity_create(&f.call, FLOE_IAM_USER, &user) == FLOE_OK &&
              floe_iam_inline_put(&f.call, FLOE_IAM_USER, user.row, "buckets", buckets_only) == FLOE_OK,
          "an IAM user may create and delete table buckets, not namespaces");
    in.template_.template_body = cfn_json(&f, floe_call_printf(&f.call, lake, "denied"));
    CHECK(floe_stack_create(&f.call, &in, &denied, &f.why) == FLOE_OK, "the user's stack is queued with its caller");
    CHECK(cfn_create(&f, "owned", floe_call_printf(&f.call, lake, "owned"), &owned) == FLOE_OK,
          "a stack is queued without a caller");
    cfn_start_engine(&f);
    CHECK(strcmp(cfn_wait(&f, denied), FLOE_ROLLBACK_COMPLETE) == 0 && !cfn_bucket_exists(&f, "cfn-denied"),
          "the denied namespace rolls the stack back, its bucket deleted with the user's permission");
    CHECK(strstr(cfn_event_reason(&f, denied, "Ns", FLOE_CREATE_FAILED),
                 "Resource handler returned message: \"User: arn:aws:iam::" CFN_ACCOUNT ":user/builder is not "
                 "authorized to perform: s3tables:CreateNamespace on resource: " CFN_BUCKET_ARN("cfn-denied")
                 " because no identity-based policy allows the s3tables:CreateNamespace action (Service: S3Tables, "
                 "Status Code: 403, Request ID: ") != NULL,
          "the namespace's reason is AWS's denial");
    CHECK(strcmp(cfn_wait(&f, owned), FLOE_CREATE_COMPLETE) == 0 && cfn_bucket_exists(&f, "cfn-owned"),
          "work queued without a caller acts for the stack's account's root");
    cfn_close(&f);
}

TEST(stack_exports_are_unique_and_kept_while_imported)
{
    cfn_fixture_t f;
    char *a = NULL, *b = NULL, *c = NULL;
    const char *exporting = "{'Resources': {'B': {'Type': 'AWS::S3Tables::TableBucket', 'Properties':"
                            " {'TableBucketName': '%s'}}}, 'Outputs': {'Arn': {'Value': {'Ref': 'B'}, 'Export':"
                            " {'Name': 'shared-bucket'}}}}";

    CHECK(cfn_open(&f, false) == 0, "a fresh catalog and engine start");
    CHECK(cfn_create(&f, "exporter", floe_call_printf(&f.call, exporting, "cfn-exporter"), &a) == FLOE_OK &&
              strcmp(cfn_wait(&f, a), FLOE_CREATE_COMPLETE) == 0,
          "a stack exports a name");
    CHECK(cfn_create(&f, "rival", floe_call_printf(&f.call, exporting, "cfn-rival"), &b) == FLOE_OK &&
              strcmp(cfn_wait(&f, b), FLOE_ROLLBACK_COMPLETE) == 0,
          "a second stack exporting the same name rolls back");
    CHECK(strstr(cfn_event_reason(&f, b, "rival", FLOE_ROLLBACK_IN_PROGRESS),
                 "Export with name shared-bucket is already exported by stack exporter") != NULL,
          "with AWS's reason");
    CHECK(!cfn_bucket_exists(&f, "cfn-rival"), "and nothing of it is left");
    CHECK(cfn_create(&f, "importer",
                     "{'Resources': {'Ns': {'Type': 'AWS::S3Tables::Namespace', 'Properties': {'TableBucketARN':"
                     " {'Fn::ImportValue': 'shared-bucket'}, 'Namespace': 'imported'}}}}",
                     &c) == FLOE_OK &&
              strcmp(cfn_wait(&f, c), FLOE_CREATE_COMPLETE) == 0,
          "a third stack imports the export");
    CHECK(floe_stack_delete(&f.call, "exporter", NULL, 0, NULL, NULL, &f.why) == FLOE_OK &&
              strcmp(cfn_wait(&f, a), FLOE_DELETE_FAILED) == 0,
          "the exporting stack cannot be deleted while its export is imported");
    CHECK(strstr(cfn_event_reason(&f, a, "exporter", FLOE_DELETE_FAILED), "in use by importer") != NULL,
          "the reason names the importing stack");
    cfn_close(&f);
}

/* ---- the resource types ---- */

static void cfn_check_replacing(const cJSON *types, const char *type)
{
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(types, type), "properties");
    const cJSON *p;

    cJSON_ArrayForEach(p, props)
    {
        const char *replaces = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "causesReplacement"));
        bool is_replacing = replaces != NULL && strcmp(replaces, "yes") == 0;
        if (floe_provision_causes_replacement(type, p->string) != is_replacing)
            fprintf(stderr, "    %s.%s\n", type, p->string);
        CHECK(floe_provision_causes_replacement(type, p->string) == is_replacing,
              "which properties replace a resource is what the resource type says");
    }
}

/* Every type of one resource types file can be provisioned, replaces and takes tags as it says. */
static void cfn_check_types_file(const char *name)
{
    char path[PATH_MAX];
    FILE *file;
    char *text;
    long size;
    cJSON *root;

    snprintf(path, sizeof(path), "%s", __FILE__);
    *strstr(path, "/tests/unit/") = '\0';
    strncat(path, "/models/cloudformation/", sizeof(path) - strlen(path) - 1);
    strncat(path, name, sizeof(path) - strlen(path) - 1);
    file = fopen(path, "rb");
    CHECK(file != NULL, "the resource types model is readable");
    if (file == NULL)
        return;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    rewind(file);
    text = malloc((size_t)size + 1);
    text[fread(text, 1, (size_t)size, file)] = '\0';
    fclose(file);
    root = cJSON_Parse(text);
    free(text);
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "resources"), *t;
    cJSON_ArrayForEach(t, types)
    {
        CHECK(floe_provision_type_is_known(t->string), "every resource type of the model can be provisioned");
        cfn_check_replacing(types, t->string);
        CHECK(floe_provision_takes_tags(t->string) ==
                  (cJSON_GetObjectItemCaseSensitive(t, "tagInformation") != NULL),
              "a type takes the stack's tags exactly when its schema has tagInformation");
    }
    cJSON_Delete(root);
}

TEST(provision_replacing_properties_match_the_resource_types)
{
    cfn_check_types_file("s3tables-resource-types.json");
    cfn_check_types_file("iam-resource-types.json");
}

TEST(stack_tags_reach_resources_that_take_tags)
{
    cJSON *props = cJSON_Parse("{\"TableBucketName\":\"b\",\"Tags\":[{\"Key\":\"env\",\"Value\":\"mine\"}]}");
    cJSON *ns = cJSON_Parse("{\"Namespace\":\"n\"}");
    char *text;

    floe_run_add_stack_tags("AWS::S3Tables::TableBucket", "[{\"Key\":\"env\",\"Value\":\"test\"},"
                                                         "{\"Key\":\"team\",\"Value\":\"lake\"}]", props);
    text = cJSON_PrintUnformatted(props);
    CHECK(strcmp(text, "{\"TableBucketName\":\"b\",\"Tags\":[{\"Key\":\"env\",\"Value\":\"mine\"},"
                       "{\"Key\":\"team\",\"Value\":\"lake\"}]}") == 0,
          "the resource keeps its own value for a key the stack tags too, and gains the others");
    free(text);
    floe_run_add_stack_tags("AWS::S3Tables::Namespace", "[{\"Key\":\"team\",\"Value\":\"lake\"}]", ns);
    text = cJSON_PrintUnformatted(ns);
    CHECK(strcmp(text, "{\"Namespace\":\"n\"}") == 0, "a namespace takes no tags");
    free(text);
    floe_run_add_stack_tags("AWS::S3Tables::TableBucket", NULL, ns);
    cJSON_Delete(props);
    cJSON_Delete(ns);
}
