/*
 * The Iceberg REST catalog's request parsers (floe_iceberg_parse_<operationId>, named by the route
 * table): from the decoded path parameters, query pairs and the parsed JSON body to each
 * operation's typed input. Parse, don't validate: what a handler receives is well formed, and a
 * malformed request stops at the first problem with a 400 BadRequestException naming it.
 *
 * Rules that apply everywhere:
 *  - A namespace in a body (an array of names) must have exactly one level: S3 Tables namespaces
 *    are flat. A new namespace or table name is checked against the S3 Tables model's NamespaceName
 *    and TableName constraints (the generated validators), so both APIs accept the same names.
 *  - The parts of a body that are Iceberg metadata (schema, specs, requirements, updates) are not
 *    interpreted here beyond what a handler must know before calling the Iceberg module (whether a
 *    commit creates, the uuid and location it assigns); the module checks the rest.
 *
 * Not for Iceberg semantics (iceberg_create.h, iceberg_commit.h) nor for HTTP (iceberg_rest.c).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "floe_codec.h"
#include "http/uri.h"
#include "iceberg_rest/iceberg_rest_request.h"

#define DEFAULT_PAGE_SIZE 100
#define MAX_PAGE_SIZE 1000

static int bad_request(floe_iceberg_call_t *call, const char *message)
{
    return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "%s", message);
}

/* ---- query and path ---- */

static const char *query_value(const floe_iceberg_input_t *http, const char *key)
{
    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, key) == 0)
            return http->query[i].value;
    }
    return NULL;
}

/* pageToken and pageSize; paginates only when pageToken was sent (the spec's PageToken rule). */
static int parse_page(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, floe_iceberg_page_t *page)
{
    const char *token = query_value(http, "pageToken"), *size = query_value(http, "pageSize");
    char *end;
    long n;

    page->has_token = token != NULL;
    page->token = token != NULL ? token : "";
    page->size = DEFAULT_PAGE_SIZE;
    if (size == NULL)
        return FLOE_OK;
    n = strtol(size, &end, 10);
    if (*size == '\0' || *end != '\0' || n < 1)
        return bad_request(call, "pageSize must be a positive integer.");
    page->size = n > MAX_PAGE_SIZE ? MAX_PAGE_SIZE : (int)n;
    return FLOE_OK;
}

static int parse_namespace_ref(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                               floe_iceberg_namespace_ref_t *ref)
{
    (void)call;
    ref->warehouse = http->prefix;
    ref->namespace = http->namespace;
    return FLOE_OK;
}

static int parse_table_ref(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, floe_iceberg_table_ref_t *ref)
{
    (void)call;
    ref->warehouse = http->prefix;
    ref->namespace = http->namespace;
    ref->table = http->table;
    return FLOE_OK;
}

/* ---- JSON pieces ---- */

static int require_body(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, const char *schema)
{
    if (http->body == NULL || !cJSON_IsObject(http->body))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "The request body must be a %s object.",
                                      schema);
    return FLOE_OK;
}

static int read_string(floe_iceberg_call_t *call, const cJSON *object, const char *key, bool required,
                       const char **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    *out = NULL;
    if (item == NULL || cJSON_IsNull(item)) {
        if (required)
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' is required.", key);
        return FLOE_OK;
    }
    if (!cJSON_IsString(item))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must be a string.", key);
    *out = item->valuestring;
    return FLOE_OK;
}

/* A Namespace (an array of level names) with the one level S3 Tables has. */
static int read_namespace(floe_iceberg_call_t *call, const cJSON *object, const char *key, const char **out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    int n;

    if (item == NULL || !cJSON_IsArray(item))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "'%s' is required and must be an array of names.", key);
    if ((n = cJSON_GetArraySize(item)) == 0)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must not be empty.", key);
    if (n > 1)
        return bad_request(call, "S3 Tables namespaces have a single level; a multi-level namespace is not supported.");
    if (!cJSON_IsString(item->child))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must hold strings.", key);
    *out = item->child->valuestring;
    return FLOE_OK;
}

/* An object of string values; an absent or null member is an empty map. */
static int read_properties(floe_iceberg_call_t *call, const cJSON *object, const char *key,
                           floe_iceberg_properties_t *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key), *p;
    size_t i = 0;

    memset(out, 0, sizeof(*out));
    if (item == NULL || cJSON_IsNull(item))
        return FLOE_OK;
    if (!cJSON_IsObject(item))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must be an object of strings.", key);
    out->n = (size_t)cJSON_GetArraySize(item);
    out->keys = floe_call_alloc(&call->super, out->n * sizeof(char *));
    out->values = floe_call_alloc(&call->super, out->n * sizeof(char *));
    cJSON_ArrayForEach(p, item) {
        if (!cJSON_IsString(p))
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                          "'%s' must be an object of strings ('%s' is not a string).", key, p->string);
        out->keys[i] = p->string;
        out->values[i++] = p->valuestring;
    }
    return FLOE_OK;
}

static int read_strings(floe_iceberg_call_t *call, const cJSON *object, const char *key, floe_iceberg_strings_t *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key), *p;
    size_t i = 0;

    memset(out, 0, sizeof(*out));
    if (item == NULL || cJSON_IsNull(item))
        return FLOE_OK;
    if (!cJSON_IsArray(item))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must be an array of strings.", key);
    out->n = (size_t)cJSON_GetArraySize(item);
    out->items = floe_call_alloc(&call->super, out->n * sizeof(char *));
    cJSON_ArrayForEach(p, item) {
        if (!cJSON_IsString(p))
            return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "'%s' must be an array of strings.", key);
        out->items[i++] = p->valuestring;
    }
    return FLOE_OK;
}

static int read_identifier(floe_iceberg_call_t *call, const cJSON *object, const char *key,
                           floe_iceberg_identifier_t *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

    if (item == NULL || !cJSON_IsObject(item))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "'%s' is required and must be a TableIdentifier.", key);
    if (read_namespace(call, item, "namespace", &out->namespace) || read_string(call, item, "name", true, &out->name))
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* A name the S3 Tables model accepts (the generated validator of `shape`). */
static int check_model_name(floe_iceberg_call_t *call, const char *value, const char *member,
                            int (*validate)(const char *, const floe_path_t *, floe_violation_t *))
{
    floe_path_t path = {NULL, member, -1};
    floe_violation_t v;

    if (validate(value, &path, &v) != 0)
        return bad_request(call, v.message);
    return FLOE_OK;
}

/* ---- commits ---- */

/* The last element of `list` whose member `key` is the string `value` (an update's "action", a
 * requirement's "type"), or NULL. */
static const cJSON *find_last_action(const cJSON *list, const char *key, const char *value)
{
    const cJSON *item, *found = NULL;
    cJSON_ArrayForEach(item, list) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, key);
        if (cJSON_IsString(v) && strcmp(v->valuestring, value) == 0)
            found = item;
    }
    return found;
}

/* A CommitTableRequest: the arrays go to the Iceberg module as they are; what a handler must know
 * before calling it (a create? which uuid and location?) is read here. */
static int read_table_change(floe_iceberg_call_t *call, const cJSON *object, floe_iceberg_table_change_t *out)
{
    const cJSON *requirements = cJSON_GetObjectItemCaseSensitive(object, "requirements");
    const cJSON *updates = cJSON_GetObjectItemCaseSensitive(object, "updates");
    const cJSON *uuid, *location;

    memset(out, 0, sizeof(*out));
    if ((requirements != NULL && !cJSON_IsNull(requirements) && !cJSON_IsArray(requirements)) ||
        (updates != NULL && !cJSON_IsNull(updates) && !cJSON_IsArray(updates)))
        return bad_request(call, "'requirements' and 'updates' must be arrays.");
    if (cJSON_GetObjectItemCaseSensitive(object, "identifier") != NULL) {
        out->has_identifier = true;
        if (read_identifier(call, object, "identifier", &out->identifier))
            return FLOE_EFAIL;
    }
    out->requirements = cJSON_IsArray(requirements) ? requirements : NULL;
    out->updates = cJSON_IsArray(updates) ? updates : NULL;
    out->asserts_create = out->requirements != NULL && find_last_action(out->requirements, "type", "assert-create") != NULL;
    if (out->updates != NULL && (uuid = find_last_action(out->updates, "action", "assign-uuid")) != NULL &&
        read_string(call, uuid, "uuid", true, &out->assigned_uuid))
        return FLOE_EFAIL;
    if (out->updates != NULL && (location = find_last_action(out->updates, "action", "set-location")) != NULL &&
        read_string(call, location, "location", true, &out->new_location))
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* ---- one parser per served operation ---- */

int floe_iceberg_parse_getConfig(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                 floe_iceberg_getConfig_in *in)
{
    in->warehouse = query_value(http, "warehouse");
    /* A client that sends the prefix form of the ARN ("arn%3Aaws...") encodes it twice on the wire. */
    if (in->warehouse != NULL && strncasecmp(in->warehouse, "arn%3A", 6) == 0 &&
        (in->warehouse = floe_percent_decode(call->super.pool, in->warehouse, strlen(in->warehouse), 0)) == NULL)
        return bad_request(call, "warehouse is not valid percent-encoding.");
    return FLOE_OK;
}

int floe_iceberg_parse_listNamespaces(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                      floe_iceberg_listNamespaces_in *in)
{
    const char *parent = query_value(http, "parent");

    in->warehouse = http->prefix;
    /* "For backward compatibility, empty string is treated as absent for now." */
    in->parent = parent != NULL && *parent != '\0' ? parent : NULL;
    if (in->parent != NULL && strchr(in->parent, '\x1f') != NULL)
        return bad_request(call, "S3 Tables namespaces have a single level; a multi-level namespace is not supported.");
    return parse_page(call, http, &in->page);
}

int floe_iceberg_parse_createNamespace(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                       floe_iceberg_createNamespace_in *in)
{
    in->warehouse = http->prefix;
    if (require_body(call, http, "CreateNamespaceRequest") || read_namespace(call, http->body, "namespace", &in->namespace) ||
        check_model_name(call, in->namespace, "namespace", floe_validate_NamespaceName) ||
        read_properties(call, http->body, "properties", &in->properties))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_iceberg_parse_loadNamespaceMetadata(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                             floe_iceberg_loadNamespaceMetadata_in *in)
{
    return parse_namespace_ref(call, http, in);
}

int floe_iceberg_parse_namespaceExists(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                       floe_iceberg_namespaceExists_in *in)
{
    return parse_namespace_ref(call, http, in);
}

int floe_iceberg_parse_dropNamespace(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                     floe_iceberg_dropNamespace_in *in)
{
    return parse_namespace_ref(call, http, in);
}

int floe_iceberg_parse_updateProperties(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                        floe_iceberg_updateProperties_in *in)
{
    parse_namespace_ref(call, http, &in->ns);
    if (require_body(call, http, "UpdateNamespacePropertiesRequest") ||
        read_strings(call, http->body, "removals", &in->removals) ||
        read_properties(call, http->body, "updates", &in->updates))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_iceberg_parse_listTables(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                  floe_iceberg_listTables_in *in)
{
    parse_namespace_ref(call, http, &in->ns);
    return parse_page(call, http, &in->page);
}

int floe_iceberg_parse_createTable(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                   floe_iceberg_createTable_in *in)
{
    const cJSON *stage;

    parse_namespace_ref(call, http, &in->ns);
    if (require_body(call, http, "CreateTableRequest") || read_string(call, http->body, "name", true, &in->name) ||
        check_model_name(call, in->name, "name", floe_validate_TableName) ||
        read_string(call, http->body, "location", false, &in->location))
        return FLOE_EFAIL;
    stage = cJSON_GetObjectItemCaseSensitive(http->body, "stage-create");
    if (stage != NULL && !cJSON_IsNull(stage) && !cJSON_IsBool(stage))
        return bad_request(call, "'stage-create' must be a boolean.");
    in->stage_create = cJSON_IsTrue(stage);
    in->request = http->body;
    return FLOE_OK;
}

int floe_iceberg_parse_loadTable(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, floe_iceberg_loadTable_in *in)
{
    const char *snapshots = query_value(http, "snapshots");
    if (snapshots != NULL && strcmp(snapshots, "all") != 0 && strcmp(snapshots, "refs") != 0)
        return bad_request(call, "snapshots must be 'all' or 'refs'.");
    in->if_none_match = http->if_none_match;
    return parse_table_ref(call, http, &in->table);
}

int floe_iceberg_parse_tableExists(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                   floe_iceberg_tableExists_in *in)
{
    return parse_table_ref(call, http, in);
}

int floe_iceberg_parse_reportMetrics(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                     floe_iceberg_reportMetrics_in *in)
{
    if (require_body(call, http, "ReportMetricsRequest"))
        return FLOE_EFAIL;
    return parse_table_ref(call, http, in);
}

int floe_iceberg_parse_dropTable(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, floe_iceberg_dropTable_in *in)
{
    const char *purge = query_value(http, "purgeRequested");

    /* Any case: PyIceberg sends Python's `True`, and Java's servers read it with
     * Boolean.parseBoolean, which ignores case. */
    in->purge_requested = purge != NULL && strcasecmp(purge, "true") == 0;
    if (purge != NULL && !in->purge_requested && strcasecmp(purge, "false") != 0)
        return bad_request(call, "purgeRequested must be true or false.");
    return parse_table_ref(call, http, &in->table);
}

int floe_iceberg_parse_updateTable(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                   floe_iceberg_updateTable_in *in)
{
    parse_table_ref(call, http, &in->table);
    if (require_body(call, http, "CommitTableRequest") || read_table_change(call, http->body, &in->change))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_iceberg_parse_renameTable(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                   floe_iceberg_renameTable_in *in)
{
    in->warehouse = http->prefix;
    if (require_body(call, http, "RenameTableRequest") || read_identifier(call, http->body, "source", &in->source) ||
        read_identifier(call, http->body, "destination", &in->destination) ||
        check_model_name(call, in->destination.name, "destination.name", floe_validate_TableName))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_iceberg_parse_commitTransaction(floe_iceberg_call_t *call, const floe_iceberg_input_t *http,
                                         floe_iceberg_commitTransaction_in *in)
{
    const cJSON *changes, *item;
    size_t i = 0;

    in->warehouse = http->prefix;
    if (require_body(call, http, "CommitTransactionRequest"))
        return FLOE_EFAIL;
    changes = cJSON_GetObjectItemCaseSensitive(http->body, "table-changes");
    if (!cJSON_IsArray(changes) || cJSON_GetArraySize(changes) == 0)
        return bad_request(call, "'table-changes' is required and must be a non-empty array.");
    in->n_changes = (size_t)cJSON_GetArraySize(changes);
    in->changes = floe_call_alloc(&call->super, in->n_changes * sizeof(*in->changes));
    cJSON_ArrayForEach(item, changes) {
        if (!cJSON_IsObject(item))
            return bad_request(call, "Each of 'table-changes' must be a CommitTableRequest object.");
        if (read_table_change(call, item, &in->changes[i]))
            return FLOE_EFAIL;
        if (!in->changes[i++].has_identifier)
            return bad_request(call, "Each of 'table-changes' must carry its table's 'identifier'.");
    }
    return FLOE_OK;
}
