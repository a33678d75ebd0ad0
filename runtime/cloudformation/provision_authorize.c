/*
 * The authorization of a stack's steps (provision_authorize.h). Each change is the API calls its
 * resource's handler makes: a creation and a deletion their type's own, an update one per changed
 * property that changes in place (a replacement is a creation and a deletion). The table below is
 * AWS's service authorization reference's action and resource for each (the S3 Tables and IAM
 * operations the provisioning files carry out). The calls come from CloudFormation, so they carry
 * aws:CalledVia (and aws:ViaAWSService true) and no aws:SourceIp, as AWS's forward access
 * sessions do.
 */
#include <string.h>

#include "authz/authz.h"
#include "catalog/resource_policy.h"
#include "cloudformation/provision.h"
#include "cloudformation/provision_authorize.h"
#include "iam/entity.h"
#include "iam/principal.h"

#define S3TABLES_ARN "arn:aws:s3tables:"
#define BUCKET_PART ":bucket/"
#define TABLE_PART "/table/"
#define CLOUDFORMATION_PRINCIPAL "cloudformation.amazonaws.com"

/* Where a rule's resource is named. */
typedef enum resource_of {
    RES_BUCKET_OWN,    /* a table bucket: its physical id, or the ARN of its TableBucketName */
    RES_BUCKET_PROP,   /* TableBucketARN */
    RES_TABLE_NEW,     /* TableBucketARN, Namespace and TableName: the table (if it is there) or its bucket */
    RES_TABLE_OWN,     /* a table: its physical id */
    RES_TABLE_PROP,    /* TableARN */
    RES_ROLE_OWN,      /* a role: its physical id (its name) or RoleName, with Path */
    RES_USER_OWN,      /* a user likewise */
    RES_POLICY_OWN,    /* a managed policy: its physical id (its ARN) or ManagedPolicyName, with Path */
    RES_ROLE_NAMED,    /* the role RoleName names */
    RES_USER_NAMED,    /* the user UserName names */
    RES_ROLES_LISTED,  /* each role Roles names */
    RES_USERS_LISTED,  /* each user Users names */
} resource_of_t;

typedef struct rule {
    const char *type;
    floe_provision_step_t step;
    const char *property; /* an update: the property whose change needs the action */
    const char *action;
    resource_of_t resource;
} rule_t;

#define TB "AWS::S3Tables::TableBucket"
#define NS "AWS::S3Tables::Namespace"
#define TBL "AWS::S3Tables::Table"
#define TBP "AWS::S3Tables::TableBucketPolicy"
#define TP "AWS::S3Tables::TablePolicy"
#define CREATE FLOE_PROVISION_STEP_CREATE
#define UPDATE FLOE_PROVISION_STEP_UPDATE
#define DELETE FLOE_PROVISION_STEP_DELETE

static const rule_t rules[] = {
    {TB, CREATE, NULL, "s3tables:CreateTableBucket", RES_BUCKET_OWN},
    {TB, UPDATE, "EncryptionConfiguration", "s3tables:PutTableBucketEncryption", RES_BUCKET_OWN},
    {TB, UPDATE, "MetricsConfiguration", "s3tables:PutTableBucketMetricsConfiguration", RES_BUCKET_OWN},
    {TB, UPDATE, "ReplicationConfiguration", "s3tables:PutTableBucketReplication", RES_BUCKET_OWN},
    {TB, UPDATE, "StorageClassConfiguration", "s3tables:PutTableBucketStorageClass", RES_BUCKET_OWN},
    {TB, UPDATE, "Tags", "s3tables:TagResource", RES_BUCKET_OWN},
    {TB, UPDATE, "UnreferencedFileRemoval", "s3tables:PutTableBucketMaintenanceConfiguration", RES_BUCKET_OWN},
    {TB, DELETE, NULL, "s3tables:DeleteTableBucket", RES_BUCKET_OWN},
    {NS, CREATE, NULL, "s3tables:CreateNamespace", RES_BUCKET_PROP},
    {NS, DELETE, NULL, "s3tables:DeleteNamespace", RES_BUCKET_PROP},
    {TBL, CREATE, NULL, "s3tables:CreateTable", RES_TABLE_NEW},
    {TBL, UPDATE, "Compaction", "s3tables:PutTableMaintenanceConfiguration", RES_TABLE_OWN},
    {TBL, UPDATE, "SnapshotManagement", "s3tables:PutTableMaintenanceConfiguration", RES_TABLE_OWN},
    {TBL, UPDATE, "Namespace", "s3tables:RenameTable", RES_TABLE_OWN},
    {TBL, UPDATE, "TableName", "s3tables:RenameTable", RES_TABLE_OWN},
    {TBL, UPDATE, "Tags", "s3tables:TagResource", RES_TABLE_OWN},
    {TBL, DELETE, NULL, "s3tables:DeleteTable", RES_TABLE_OWN},
    {TBP, CREATE, NULL, "s3tables:PutTableBucketPolicy", RES_BUCKET_PROP},
    {TBP, UPDATE, "ResourcePolicy", "s3tables:PutTableBucketPolicy", RES_BUCKET_PROP},
    {TBP, DELETE, NULL, "s3tables:DeleteTableBucketPolicy", RES_BUCKET_PROP},
    {TP, CREATE, NULL, "s3tables:PutTablePolicy", RES_TABLE_PROP},
    {TP, UPDATE, "ResourcePolicy", "s3tables:PutTablePolicy", RES_TABLE_PROP},
    {TP, DELETE, NULL, "s3tables:DeleteTablePolicy", RES_TABLE_PROP},
    {"AWS::IAM::Role", CREATE, NULL, "iam:CreateRole", RES_ROLE_OWN},
    {"AWS::IAM::Role", UPDATE, "AssumeRolePolicyDocument", "iam:UpdateAssumeRolePolicy", RES_ROLE_OWN},
    {"AWS::IAM::Role", UPDATE, "Description", "iam:UpdateRole", RES_ROLE_OWN},
    {"AWS::IAM::Role", UPDATE, "MaxSessionDuration", "iam:UpdateRole", RES_ROLE_OWN},
    {"AWS::IAM::Role", UPDATE, "Policies", "iam:PutRolePolicy", RES_ROLE_OWN},
    {"AWS::IAM::Role", UPDATE, "ManagedPolicyArns", "iam:AttachRolePolicy", RES_ROLE_OWN},
    {"AWS::IAM::Role", DELETE, NULL, "iam:DeleteRole", RES_ROLE_OWN},
    {"AWS::IAM::User", CREATE, NULL, "iam:CreateUser", RES_USER_OWN},
    {"AWS::IAM::User", UPDATE, "Policies", "iam:PutUserPolicy", RES_USER_OWN},
    {"AWS::IAM::User", UPDATE, "ManagedPolicyArns", "iam:AttachUserPolicy", RES_USER_OWN},
    {"AWS::IAM::User", DELETE, NULL, "iam:DeleteUser", RES_USER_OWN},
    {"AWS::IAM::ManagedPolicy", CREATE, NULL, "iam:CreatePolicy", RES_POLICY_OWN},
    {"AWS::IAM::ManagedPolicy", UPDATE, "PolicyDocument", "iam:CreatePolicyVersion", RES_POLICY_OWN},
    {"AWS::IAM::ManagedPolicy", DELETE, NULL, "iam:DeletePolicy", RES_POLICY_OWN},
    {"AWS::IAM::Policy", CREATE, NULL, "iam:PutRolePolicy", RES_ROLES_LISTED},
    {"AWS::IAM::Policy", CREATE, NULL, "iam:PutUserPolicy", RES_USERS_LISTED},
    {"AWS::IAM::Policy", UPDATE, "PolicyDocument", "iam:PutRolePolicy", RES_ROLES_LISTED},
    {"AWS::IAM::Policy", UPDATE, "PolicyDocument", "iam:PutUserPolicy", RES_USERS_LISTED},
    {"AWS::IAM::Policy", UPDATE, "Roles", "iam:PutRolePolicy", RES_ROLES_LISTED},
    {"AWS::IAM::Policy", UPDATE, "Users", "iam:PutUserPolicy", RES_USERS_LISTED},
    {"AWS::IAM::Policy", DELETE, NULL, "iam:DeleteRolePolicy", RES_ROLES_LISTED},
    {"AWS::IAM::Policy", DELETE, NULL, "iam:DeleteUserPolicy", RES_USERS_LISTED},
    {"AWS::IAM::RolePolicy", CREATE, NULL, "iam:PutRolePolicy", RES_ROLE_NAMED},
    {"AWS::IAM::RolePolicy", UPDATE, "PolicyDocument", "iam:PutRolePolicy", RES_ROLE_NAMED},
    {"AWS::IAM::RolePolicy", DELETE, NULL, "iam:DeleteRolePolicy", RES_ROLE_NAMED},
    {"AWS::IAM::UserPolicy", CREATE, NULL, "iam:PutUserPolicy", RES_USER_NAMED},
    {"AWS::IAM::UserPolicy", UPDATE, "PolicyDocument", "iam:PutUserPolicy", RES_USER_NAMED},
    {"AWS::IAM::UserPolicy", DELETE, NULL, "iam:DeleteUserPolicy", RES_USER_NAMED},
    {"AWS::IAM::AccessKey", CREATE, NULL, "iam:CreateAccessKey", RES_USER_NAMED},
    {"AWS::IAM::AccessKey", UPDATE, "Status", "iam:UpdateAccessKey", RES_USER_NAMED},
    {"AWS::IAM::AccessKey", DELETE, NULL, "iam:DeleteAccessKey", RES_USER_NAMED},
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

/* The condition keys a call CloudFormation makes for its caller carries beside the usual ones. */
static const floe_policy_context_key_t via_cloudformation[] = {
    {"aws:CalledVia", CLOUDFORMATION_PRINCIPAL},
    {"aws:CalledViaFirst", CLOUDFORMATION_PRINCIPAL},
    {"aws:CalledViaLast", CLOUDFORMATION_PRINCIPAL},
    {"aws:ViaAWSService", "true"},
};

/* One change being authorized. */
typedef struct change {
    floe_call_t *call;
    const floe_principal_t *principal;
    const char *physical_id;
    const cJSON *props;
} change_t;

static const char *prop(const change_t *c, const char *name)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c->props, name));
}

static int decide(const change_t *c, const char *action, floe_authz_request_t *r)
{
    floe_authz_decision_t d;

    r->action = action;
    r->context = via_cloudformation;
    r->n_context = sizeof(via_cloudformation) / sizeof(via_cloudformation[0]);
    if (r->owner == NULL)
        r->owner = floe_call_account(c->call);
    if (floe_authz_decide(c->call, c->principal, r, &d))
        return FLOE_EFAIL;
    if (d.is_allowed)
        return FLOE_OK;
    return floe_fail(c->call, FLOE_EDENIED, FLOE_SUBJECT_REQUEST, "%s", floe_authz_message(c->call, &d));
}

/* ---- S3 Tables ---- */

/* `action` on the S3 Tables resource `arn` (a table bucket's or a table's ARN), with the bucket's
 * and table's policies; a table `namespace_`.`name` of the bucket, when it is there, stands for
 * the bucket, as the API authorizes a call that names one. A missing or foreign ARN is left to
 * the provisioning, which refuses it with the API's message. */
static int on_s3tables(const change_t *c, const char *action, const char *arn, const char *namespace_,
                       const char *name)
{
    floe_authz_request_t r = {.namespace_ = namespace_, .table_name = name};
    floe_resource_policies_t policies;
    const char *b, *t, *account;
    char *bucket, *table_id = NULL;
    size_t prefix_len;

    if (arn == NULL || strncmp(arn, S3TABLES_ARN, strlen(S3TABLES_ARN)) != 0 || (b = strstr(arn, BUCKET_PART)) == NULL)
        return FLOE_OK;
    account = b - FLOE_ACCOUNT_ID_LEN;
    if (account < arn || strncmp(account, floe_call_account(c->call), FLOE_ACCOUNT_ID_LEN) != 0)
        return FLOE_OK; /* another account's: provisioning acts only in the stack's account */
    prefix_len = (size_t)(b - arn) + strlen(BUCKET_PART);
    b += strlen(BUCKET_PART);
    t = strstr(b, TABLE_PART);
    bucket = floe_call_strndup(c->call, b, t != NULL ? (size_t)(t - b) : strlen(b));
    if (t != NULL)
        table_id = floe_call_strdup(c->call, t + strlen(TABLE_PART));
    if (floe_resource_policies_get(c->call, bucket, namespace_, name, table_id, &policies))
        return FLOE_EFAIL;
    r.bucket_policy = policies.bucket_policy;
    r.table_policy = policies.table_policy;
    r.resource = policies.has_table ? floe_call_printf(c->call, "%.*s%s" TABLE_PART "%s", (int)prefix_len, arn,
                                                       bucket, policies.table_id)
                                    : floe_call_printf(c->call, "%.*s%s", (int)prefix_len, arn, bucket);
    return decide(c, action, &r);
}

/* ---- IAM ---- */

/* `action` on the IAM resource ARN `arn` (IAM keeps no resource policy that grants these). */
static int on_iam(const change_t *c, const char *action, const char *arn)
{
    floe_authz_request_t r = {.resource = arn};
    return decide(c, action, &r);
}

/* The ARN of the role or user `name` (its path from IAM, "/" when it is not there yet). */
static const char *entity_arn(const change_t *c, floe_iam_kind_t kind, const char *name, const char *path)
{
    floe_iam_entity_t e;

    if (path == NULL && floe_iam_entity_get(c->call, kind, name, &e) == FLOE_OK)
        return e.arn;
    return floe_iam_entity_arn(c->call, kind, floe_call_account(c->call), path != NULL ? path : FLOE_IAM_DEFAULT_PATH,
                               name);
}

/* `action` on each role or user the list property `list` names. */
static int on_listed(const change_t *c, const char *action, floe_iam_kind_t kind, const char *list)
{
    const cJSON *item;

    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(c->props, list))
    {
        if (cJSON_IsString(item) && on_iam(c, action, entity_arn(c, kind, item->valuestring, NULL)))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* A role, user or managed policy of the stack's own: named by its physical id once it exists, else
 * by the name its template gives (one it is not given is not chosen yet: "*"). */
static const char *own_name(const change_t *c, const char *property)
{
    const char *name = prop(c, property);
    return c->physical_id != NULL ? c->physical_id : name != NULL ? name : "*";
}

static int on_rule(const change_t *c, const rule_t *rule)
{
    const char *path = prop(c, "Path") != NULL ? prop(c, "Path") : FLOE_IAM_DEFAULT_PATH;

    switch (rule->resource) {
    case RES_BUCKET_OWN:
        return on_s3tables(c, rule->action,
                           c->physical_id != NULL || prop(c, "TableBucketName") == NULL
                               ? c->physical_id
                               : floe_call_printf(c->call, "%s%s", c->call->arn_bucket_prefix, prop(c, "TableBucketName")),
                           NULL, NULL);
    case RES_BUCKET_PROP: return on_s3tables(c, rule->action, prop(c, "TableBucketARN"), prop(c, "Namespace"), NULL);
    case RES_TABLE_NEW:
        return on_s3tables(c, rule->action, prop(c, "TableBucketARN"), prop(c, "Namespace"), prop(c, "TableName"));
    case RES_TABLE_OWN:
        return on_s3tables(c, rule->action, c->physical_id, prop(c, "Namespace"), prop(c, "TableName"));
    case RES_TABLE_PROP: return on_s3tables(c, rule->action, prop(c, "TableARN"), NULL, NULL);
    case RES_ROLE_OWN: return on_iam(c, rule->action, entity_arn(c, FLOE_IAM_ROLE, own_name(c, "RoleName"), path));
    case RES_USER_OWN: return on_iam(c, rule->action, entity_arn(c, FLOE_IAM_USER, own_name(c, "UserName"), path));
    case RES_POLICY_OWN:
        return on_iam(c, rule->action,
                      c->physical_id != NULL ? c->physical_id
                                             : floe_call_printf(c->call, "arn:aws:iam::%s:policy%s%s",
                                                                floe_call_account(c->call), path,
                                                                own_name(c, "ManagedPolicyName")));
    case RES_ROLE_NAMED:
        return prop(c, "RoleName") == NULL
                   ? FLOE_OK
                   : on_iam(c, rule->action, entity_arn(c, FLOE_IAM_ROLE, prop(c, "RoleName"), NULL));
    case RES_USER_NAMED:
        return prop(c, "UserName") == NULL
                   ? FLOE_OK
                   : on_iam(c, rule->action, entity_arn(c, FLOE_IAM_USER, prop(c, "UserName"), NULL));
    case RES_ROLES_LISTED: return on_listed(c, rule->action, FLOE_IAM_ROLE, "Roles");
    case RES_USERS_LISTED: return on_listed(c, rule->action, FLOE_IAM_USER, "Users");
    }
    return FLOE_OK;
}

int floe_provision_authorize(floe_call_t *call, const char *caller, floe_provision_step_t step, const char *type,
                             const char *physical_id, const cJSON *old_props, const cJSON *props)
{
    floe_principal_t *principal;
    change_t c = {call, NULL, step == CREATE ? NULL : physical_id, props};
    int rc;

    if (!floe_call_config(call)->enforce_iam)
        return FLOE_OK;
    rc = caller != NULL ? floe_principal_of_arn(call, caller, &principal) : floe_principal_of_key(call, NULL, &principal);
    if (rc == FLOE_ENOTFOUND) /* the user or role is gone: its credentials no longer work */
        return floe_fail(call, FLOE_EDENIED, FLOE_SUBJECT_REQUEST, "The security token included in the request is invalid.");
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    c.principal = principal;
    for (size_t i = 0; i < N_RULES; i++) {
        const rule_t *rule = &rules[i];
        if (rule->step != step || strcmp(rule->type, type) != 0 ||
            (step == UPDATE && !floe_provision_member_differs(old_props, props, rule->property)))
            continue;
        if (on_rule(&c, rule))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}
