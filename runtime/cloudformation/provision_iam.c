/*
 * The AWS::IAM::* resource types (models/cloudformation/iam-resource-types.json), made real through
 * IAM's state (runtime/iam/) under IAM's rules and messages, in the stack's account:
 *   Role           the role name; Arn, RoleId. Policies (inline) and ManagedPolicyArns with it
 *   User           the user name; Arn. Policies and ManagedPolicyArns likewise
 *   ManagedPolicy  the policy ARN; PolicyArn, PolicyId, DefaultVersionId, IsAttachable,
 *                  AttachmentCount. Attached to its Users and Roles
 *   Policy         "<PolicyName>-<random>"; Id. An inline policy put on each of its Users and Roles
 *   AccessKey      the access key id; Id, SecretAccessKey
 *   RolePolicy, UserPolicy  "<PolicyName>|<RoleName or UserName>"; no attributes
 * A role or user without a name gets "<Role|User>-<random>", as CloudFormation names one it is not
 * given (it prefixes the stack's and the logical id's names, which the provisioner is not told).
 * Every change runs in one transaction with its record (call/transaction.h). Groups, tags,
 * permissions boundaries and login profiles are accepted and not kept, as IAM's API here.
 */
#include <string.h>

#include "call/transaction.h"
#include "cloudformation/provision_props.h"
#include "iam/credential.h"
#include "iam/entity.h"
#include "iam/managed_policy.h"
#include "policy/policy.h"

#define GENERATED_SUFFIX_LEN 13
#define POLICY_ERROR_MAX 512
#define ID_SEPARATOR '|'

typedef struct iam_args {
    const char *physical_id;
    const cJSON *old_props;
    const cJSON *new_props;
    const floe_provision_sink_t *sink;
    floe_iam_kind_t kind; /* Role and User, RolePolicy and UserPolicy */
} iam_args_t;

/* ---- properties ---- */

/* A policy document property: a JSON object (as YAML and JSON templates write it) or its text. */
static int document_of(floe_call_t *call, const cJSON *props, const char *name, floe_policy_kind_t kind,
                       const char **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(props, name);
    char err[POLICY_ERROR_MAX];
    floe_policy_t *policy;

    if (item == NULL || cJSON_IsNull(item))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s is required.", name);
    if (cJSON_IsString(item))
        *out = item->valuestring;
    else if (cJSON_IsObject(item))
        *out = floe_call_keep(call, cJSON_PrintUnformatted(item));
    else
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s must be a JSON object or a string.", name);
    if ((policy = floe_policy_parse(*out, strlen(*out), kind, err, sizeof(err))) == NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", err);
    floe_policy_free(policy);
    return FLOE_OK;
}

/* Property `name` as a list of strings (absent: none); `items` borrows from props. */
static int strings_of(floe_call_t *call, const cJSON *props, const char *name, const char ***items, size_t *n)
{
    const cJSON *list = props != NULL ? cJSON_GetObjectItemCaseSensitive(props, name) : NULL, *item;
    size_t i = 0;

    *items = NULL;
    *n = 0;
    if (list == NULL || cJSON_IsNull(list))
        return FLOE_OK;
    if (!cJSON_IsArray(list))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s must be a list of strings.", name);
    *items = floe_call_alloc(call, sizeof(**items) * ((size_t)cJSON_GetArraySize(list) + 1));
    cJSON_ArrayForEach(item, list)
    {
        if (!cJSON_IsString(item))
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property %s must be a list of strings.", name);
        (*items)[i++] = item->valuestring;
    }
    *n = i;
    return FLOE_OK;
}

/* The named property, or `<prefix>-<random>` when the template names none. */
static int name_or_generated(floe_call_t *call, const cJSON *props, const char *name, const char *prefix,
                             const char **out)
{
    char suffix[GENERATED_SUFFIX_LEN + 1];

    if (floe_provision_string(call, props, name, false, out))
        return FLOE_EFAIL;
    if (*out == NULL) {
        floe_iam_random_id(suffix, "", GENERATED_SUFFIX_LEN);
        *out = floe_call_printf(call, "%s-%s", prefix, suffix);
    }
    return FLOE_OK;
}

static const char *path_of(floe_call_t *call, const cJSON *props)
{
    const char *path = NULL;
    (void)floe_provision_string(call, props, "Path", false, &path);
    return path != NULL ? path : FLOE_IAM_DEFAULT_PATH;
}

/* ---- finding what a change names, in IAM's words ---- */

static int find(floe_call_t *call, floe_iam_kind_t kind, const char *name, floe_iam_entity_t *e)
{
    int rc = floe_iam_entity_get(call, kind, name, e);

    if (rc == FLOE_ENOTFOUND)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REQUEST, "The %s with name %s cannot be found.",
                         kind == FLOE_IAM_USER ? "user" : "role", name);
    return rc;
}

static int find_policy(floe_call_t *call, const char *arn, floe_iam_managed_policy_t *p)
{
    int rc = floe_iam_policy_get(call, arn, p);

    if (rc == FLOE_ENOTFOUND)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REQUEST, "Policy %s does not exist or is not attachable.", arn);
    return rc;
}

/* ---- inline policies and attachments of one user or role ---- */

/* Puts each {PolicyName, PolicyDocument} of the Policies property on the entity. */
static int put_inline(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const cJSON *props)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(props, "Policies"), *item;
    const char *name, *document;

    if (list == NULL || cJSON_IsNull(list))
        return FLOE_OK;
    if (!cJSON_IsArray(list))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property Policies must be a list.");
    cJSON_ArrayForEach(item, list)
    {
        if (floe_provision_string(call, item, "PolicyName", true, &name) ||
            document_of(call, item, "PolicyDocument", FLOE_POLICY_IDENTITY, &document) ||
            floe_iam_inline_put(call, kind, row, name, document))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int attach_all(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const cJSON *props)
{
    const char **arns;
    size_t n;
    floe_iam_managed_policy_t p;

    if (strings_of(call, props, "ManagedPolicyArns", &arns, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if (find_policy(call, arns[i], &p) || floe_iam_attach(call, kind, row, p.row))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Removes every inline policy and attachment of the entity: a stack's own role or user goes
 * with what the stack gave it. */
static int strip(floe_call_t *call, floe_iam_kind_t kind, int64_t row)
{
    char **names;
    floe_iam_attached_t *attached;
    floe_iam_managed_policy_t p;
    size_t n;
    int rc;

    if (floe_iam_inline_list(call, kind, row, &names, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if (floe_iam_inline_delete(call, kind, row, names[i]) == FLOE_EFAIL)
            return FLOE_EFAIL;
    }
    if (floe_iam_attached_list(call, kind, row, &attached, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if ((rc = floe_iam_policy_get(call, attached[i].arn, &p)) == FLOE_EFAIL ||
            (rc == FLOE_OK && floe_iam_detach(call, kind, row, p.row) == FLOE_EFAIL))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* ---- AWS::IAM::Role and AWS::IAM::User ---- */

static const char *const entity_name_property[] = {"UserName", "RoleName"};
static const char *const entity_generated_prefix[] = {"User", "Role"};

static cJSON *entity_attributes(floe_iam_kind_t kind, const floe_iam_entity_t *e)
{
    cJSON *attrs = cJSON_CreateObject();

    cJSON_AddStringToObject(attrs, "Arn", e->arn);
    if (kind == FLOE_IAM_ROLE)
        cJSON_AddStringToObject(attrs, "RoleId", e->id);
    return attrs;
}

/* Reads the entity's own properties (path, and a role's trust policy, description, duration). */
static int read_entity(floe_call_t *call, floe_iam_kind_t kind, const cJSON *props, floe_iam_entity_t *e)
{
    bool has_max = false;
    const char *trust = NULL, *description = NULL;

    memset(e, 0, sizeof(*e));
    e->path = (char *)path_of(call, props);
    if (kind == FLOE_IAM_USER)
        return FLOE_OK;
    if (document_of(call, props, "AssumeRolePolicyDocument", FLOE_POLICY_TRUST, &trust) ||
        floe_provision_string(call, props, "Description", false, &description) ||
        floe_provision_int(call, props, "MaxSessionDuration", &has_max, &e->max_session_duration))
        return FLOE_EFAIL;
    e->trust_policy = (char *)trust;
    e->description = (char *)description;
    if (!has_max)
        e->max_session_duration = FLOE_IAM_DEFAULT_MAX_SESSION_S;
    return FLOE_OK;
}

static int entity_create_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *name;
    floe_iam_entity_t e;
    int rc;

    if (read_entity(call, a->kind, a->new_props, &e) ||
        name_or_generated(call, a->new_props, entity_name_property[a->kind], entity_generated_prefix[a->kind], &name))
        return FLOE_EFAIL;
    e.name = (char *)name;
    if ((rc = floe_iam_entity_create(call, a->kind, &e)) == FLOE_EEXISTS)
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_REQUEST, "%s with name %s already exists.",
                         a->kind == FLOE_IAM_USER ? "User" : "Role", name);
    if (rc != FLOE_OK || put_inline(call, a->kind, e.row, a->new_props) || attach_all(call, a->kind, e.row, a->new_props))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, e.name, entity_attributes(a->kind, &e));
}

static int entity_update_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    floe_iam_entity_t old, e;

    if (find(call, a->kind, a->physical_id, &old) || read_entity(call, a->kind, a->new_props, &e) ||
        floe_iam_entity_update(call, a->kind, old.row, &e) || strip(call, a->kind, old.row) ||
        put_inline(call, a->kind, old.row, a->new_props) || attach_all(call, a->kind, old.row, a->new_props))
        return FLOE_EFAIL;
    old.path = e.path;
    old.arn = floe_iam_entity_arn(call, a->kind, floe_call_account(call), e.path, old.name);
    return floe_provision_report(call, a->sink, old.name, entity_attributes(a->kind, &old));
}

static int entity_delete_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    floe_iam_entity_t e;
    const char *blocker = NULL;
    int rc = floe_iam_entity_get(call, a->kind, a->physical_id, &e);

    if (rc == FLOE_ENOTFOUND) /* already gone counts as deleted */
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    if (rc != FLOE_OK || strip(call, a->kind, e.row))
        return FLOE_EFAIL;
    if ((rc = floe_iam_entity_delete(call, a->kind, e.row, &blocker)) == FLOE_EINUSE)
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_REQUEST, "Cannot delete entity, must delete %s first.", blocker);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* ---- AWS::IAM::ManagedPolicy ---- */

/* Attaches (or detaches) the policy to each of the Users and Roles `props` names. */
static int attach_targets(floe_call_t *call, const cJSON *props, int64_t policy_row, bool attach)
{
    static const char *const lists[] = {"Users", "Roles"};
    floe_iam_entity_t e;
    const char **names;
    size_t n;

    for (floe_iam_kind_t kind = FLOE_IAM_USER; kind <= FLOE_IAM_ROLE; kind++) {
        if (strings_of(call, props, lists[kind], &names, &n))
            return FLOE_EFAIL;
        for (size_t i = 0; i < n; i++) {
            if (!attach) { /* a user or role already gone took its attachment with it */
                if (floe_iam_entity_get(call, kind, names[i], &e) == FLOE_OK &&
                    floe_iam_detach(call, kind, e.row, policy_row) == FLOE_EFAIL)
                    return FLOE_EFAIL;
            } else if (find(call, kind, names[i], &e) || floe_iam_attach(call, kind, e.row, policy_row)) {
                return FLOE_EFAIL;
            }
        }
    }
    return FLOE_OK;
}

static cJSON *managed_policy_attributes(const floe_iam_managed_policy_t *p)
{
    cJSON *attrs = cJSON_CreateObject();

    cJSON_AddStringToObject(attrs, "PolicyArn", p->arn);
    cJSON_AddStringToObject(attrs, "PolicyId", p->id);
    cJSON_AddStringToObject(attrs, "DefaultVersionId", p->default_version);
    cJSON_AddBoolToObject(attrs, "IsAttachable", true);
    cJSON_AddNumberToObject(attrs, "AttachmentCount", p->attachment_count);
    return attrs;
}

static int managed_create_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    floe_iam_managed_policy_t p = {0};
    const char *name, *description, *document;
    int rc;

    if (name_or_generated(call, a->new_props, "ManagedPolicyName", "ManagedPolicy", &name) ||
        floe_provision_string(call, a->new_props, "Description", false, &description) ||
        document_of(call, a->new_props, "PolicyDocument", FLOE_POLICY_IDENTITY, &document))
        return FLOE_EFAIL;
    p.name = (char *)name;
    p.path = (char *)path_of(call, a->new_props);
    p.description = (char *)description;
    if ((rc = floe_iam_policy_create(call, &p, document)) == FLOE_EEXISTS)
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_REQUEST,
                         "A policy called %s already exists. Duplicate names are not allowed.", name);
    if (rc != FLOE_OK || attach_targets(call, a->new_props, p.row, true) || floe_iam_policy_get(call, p.arn, &p))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, p.arn, managed_policy_attributes(&p));
}

static int managed_update_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    floe_iam_managed_policy_t p;
    const char *description, *document;

    if (find_policy(call, a->physical_id, &p) ||
        floe_provision_string(call, a->new_props, "Description", false, &description) ||
        document_of(call, a->new_props, "PolicyDocument", FLOE_POLICY_IDENTITY, &document) ||
        floe_iam_policy_set_document(call, &p, document, description) ||
        attach_targets(call, a->old_props, p.row, false) || attach_targets(call, a->new_props, p.row, true) ||
        floe_iam_policy_get(call, a->physical_id, &p))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, p.arn, managed_policy_attributes(&p));
}

static int managed_delete_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    floe_iam_managed_policy_t p;
    int rc = floe_iam_policy_get(call, a->physical_id, &p);

    if (rc == FLOE_ENOTFOUND)
        return floe_provision_report(call, a->sink, a->physical_id, NULL);
    if (rc != FLOE_OK || attach_targets(call, a->old_props, p.row, false))
        return FLOE_EFAIL;
    if ((rc = floe_iam_policy_delete(call, p.row)) == FLOE_EINUSE)
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_REQUEST, "Cannot delete a policy attached to entities.");
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* ---- AWS::IAM::Policy: one inline policy on several users and roles ---- */

/* Puts (or deletes) the inline policy `props` describes on each of its Users and Roles. */
static int put_on_targets(floe_call_t *call, const cJSON *props, bool put)
{
    static const char *const lists[] = {"Users", "Roles"};
    const char *name, *document = NULL;
    floe_iam_entity_t e;
    const char **names;
    size_t n;

    if (floe_provision_string(call, props, "PolicyName", true, &name) ||
        (put && document_of(call, props, "PolicyDocument", FLOE_POLICY_IDENTITY, &document)))
        return FLOE_EFAIL;
    for (floe_iam_kind_t kind = FLOE_IAM_USER; kind <= FLOE_IAM_ROLE; kind++) {
        if (strings_of(call, props, lists[kind], &names, &n))
            return FLOE_EFAIL;
        for (size_t i = 0; i < n; i++) {
            if (!put) { /* gone, or already without it: deleted either way */
                if (floe_iam_entity_get(call, kind, names[i], &e) == FLOE_OK &&
                    floe_iam_inline_delete(call, kind, e.row, name) == FLOE_EFAIL)
                    return FLOE_EFAIL;
            } else if (find(call, kind, names[i], &e) || floe_iam_inline_put(call, kind, e.row, name, document)) {
                return FLOE_EFAIL;
            }
        }
    }
    return FLOE_OK;
}

static cJSON *id_attribute(const char *id)
{
    cJSON *attrs = cJSON_CreateObject();
    cJSON_AddStringToObject(attrs, "Id", id);
    return attrs;
}

static int policy_create_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    char suffix[GENERATED_SUFFIX_LEN + 1];
    const char *name, *id;

    if (floe_provision_string(call, a->new_props, "PolicyName", true, &name) || put_on_targets(call, a->new_props, true))
        return FLOE_EFAIL;
    floe_iam_random_id(suffix, "", GENERATED_SUFFIX_LEN);
    id = floe_call_printf(call, "%s-%s", name, suffix);
    return floe_provision_report(call, a->sink, id, id_attribute(id));
}

static int policy_update_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;

    if (put_on_targets(call, a->old_props, false) || put_on_targets(call, a->new_props, true))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, id_attribute(a->physical_id));
}

static int policy_delete_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;

    if (a->old_props != NULL && put_on_targets(call, a->old_props, false))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* ---- AWS::IAM::RolePolicy and AWS::IAM::UserPolicy: one inline policy on one entity ---- */

static int one_inline_put_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *name, *owner, *document;
    floe_iam_entity_t e;

    if (floe_provision_string(call, a->new_props, "PolicyName", true, &name) ||
        floe_provision_string(call, a->new_props, entity_name_property[a->kind], true, &owner) ||
        document_of(call, a->new_props, "PolicyDocument", FLOE_POLICY_IDENTITY, &document) ||
        find(call, a->kind, owner, &e) || floe_iam_inline_put(call, a->kind, e.row, name, document))
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, floe_call_printf(call, "%s%c%s", name, ID_SEPARATOR, owner), NULL);
}

static int one_inline_delete_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *sep = strchr(a->physical_id, ID_SEPARATOR);
    floe_iam_entity_t e;

    if (sep != NULL && floe_iam_entity_get(call, a->kind, sep + 1, &e) == FLOE_OK &&
        floe_iam_inline_delete(call, a->kind, e.row,
                               floe_call_strndup(call, a->physical_id, (size_t)(sep - a->physical_id))) == FLOE_EFAIL)
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* ---- AWS::IAM::AccessKey ---- */

static int access_key_status(floe_call_t *call, const cJSON *props, const char **status)
{
    if (floe_provision_string(call, props, "Status", false, status))
        return FLOE_EFAIL;
    if (*status == NULL)
        *status = "Active";
    if (strcmp(*status, "Active") != 0 && strcmp(*status, "Inactive") != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Property Status must be Active or Inactive.");
    return FLOE_OK;
}

static int access_key_create_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *user, *status;
    floe_iam_entity_t e;
    floe_iam_access_key_t key;
    cJSON *attrs;
    int rc;

    if (floe_provision_string(call, a->new_props, "UserName", true, &user) ||
        access_key_status(call, a->new_props, &status) || find(call, FLOE_IAM_USER, user, &e))
        return FLOE_EFAIL;
    if ((rc = floe_iam_access_key_create(call, e.row, &key)) == FLOE_ESTATE)
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_REQUEST, "Cannot exceed quota for AccessKeysPerUser: %d",
                         FLOE_IAM_MAX_ACCESS_KEYS);
    if (rc != FLOE_OK || floe_iam_access_key_set_status(call, e.row, key.id, status))
        return FLOE_EFAIL;
    attrs = id_attribute(key.id);
    cJSON_AddStringToObject(attrs, "SecretAccessKey", key.secret);
    return floe_provision_report(call, a->sink, key.id, attrs);
}

static int access_key_update_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *user, *status;
    floe_iam_entity_t e;

    if (floe_provision_string(call, a->new_props, "UserName", true, &user) ||
        access_key_status(call, a->new_props, &status) || find(call, FLOE_IAM_USER, user, &e) ||
        floe_iam_access_key_set_status(call, e.row, a->physical_id, status) == FLOE_EFAIL)
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

static int access_key_delete_body(floe_call_t *call, void *arg)
{
    const iam_args_t *a = arg;
    const char *user = NULL;
    floe_iam_entity_t e;

    if (a->old_props != NULL && floe_provision_string(call, a->old_props, "UserName", false, &user))
        return FLOE_EFAIL;
    if (user != NULL && floe_iam_entity_get(call, FLOE_IAM_USER, user, &e) == FLOE_OK &&
        floe_iam_access_key_delete(call, e.row, a->physical_id) == FLOE_EFAIL)
        return FLOE_EFAIL;
    return floe_provision_report(call, a->sink, a->physical_id, NULL);
}

/* ---- the entry points provision.c's table names ---- */

int floe_provision_iam(floe_call_t *call, floe_provision_iam_op_t op, const char *type, const char *physical_id,
                       const cJSON *old_props, const cJSON *new_props, const floe_provision_sink_t *sink)
{
    static const struct {
        const char *type;
        floe_iam_kind_t kind;
        int (*body[3])(floe_call_t *call, void *arg); /* create, update, delete */
    } types[] = {
        {"AWS::IAM::Role", FLOE_IAM_ROLE, {entity_create_body, entity_update_body, entity_delete_body}},
        {"AWS::IAM::User", FLOE_IAM_USER, {entity_create_body, entity_update_body, entity_delete_body}},
        {"AWS::IAM::ManagedPolicy", FLOE_IAM_USER, {managed_create_body, managed_update_body, managed_delete_body}},
        {"AWS::IAM::Policy", FLOE_IAM_USER, {policy_create_body, policy_update_body, policy_delete_body}},
        {"AWS::IAM::RolePolicy", FLOE_IAM_ROLE, {one_inline_put_body, one_inline_put_body, one_inline_delete_body}},
        {"AWS::IAM::UserPolicy", FLOE_IAM_USER, {one_inline_put_body, one_inline_put_body, one_inline_delete_body}},
        {"AWS::IAM::AccessKey", FLOE_IAM_USER, {access_key_create_body, access_key_update_body, access_key_delete_body}},
    };

    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(types[i].type, type) == 0) {
            iam_args_t a = {physical_id, old_props, new_props, sink, types[i].kind};
            return floe_call_in_transaction(call, types[i].body[op], &a);
        }
    }
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "Resource type %s is not supported.", type);
}
