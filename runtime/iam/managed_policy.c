/*
 * The iam_policy and iam_policy_version rows of managed_policy.h. A policy is found by its ARN:
 * the account in it must be the call's, and the path and name must be the stored ones.
 */
#include <string.h>

#include "call/call_sql.h"
#include "call/transaction.h"
#include "iam/entity.h"
#include "iam/managed_policy.h"
#include "iam/rows.h"

#define ID_SUFFIX_LEN 17
#define FIRST_VERSION "v1"

FLOE_SQL(sql_policy_insert, "INSERT INTO iam_policy (account, name, path, policy_id, description, default_version,"
                            " created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)");
FLOE_SQL(sql_version_insert,
         "INSERT INTO iam_policy_version (policy_id, version_id, document, created_at) VALUES (?1, ?2, ?3, ?4)");
FLOE_SQL(sql_policy_get,
         "SELECT id, name, path, policy_id, description, default_version, created_at, updated_at,"
         " (SELECT count(*) FROM iam_user_attachment WHERE policy_id = p.id)"
         " + (SELECT count(*) FROM iam_role_attachment WHERE policy_id = p.id)"
         " FROM iam_policy p WHERE account = ?1 AND name = ?2 AND path = ?3");
FLOE_SQL(sql_version_get,
         "SELECT document, created_at FROM iam_policy_version WHERE policy_id = ?1 AND version_id = ?2");
FLOE_SQL(sql_policy_attached, "SELECT 1 FROM iam_user_attachment WHERE policy_id = ?1"
                              " UNION ALL SELECT 1 FROM iam_role_attachment WHERE policy_id = ?1 LIMIT 1");
FLOE_SQL(sql_version_update, "UPDATE iam_policy_version SET document = ?3 WHERE policy_id = ?1 AND version_id = ?2");
FLOE_SQL(sql_policy_touch, "UPDATE iam_policy SET description = ?2, updated_at = ?3 WHERE id = ?1");
FLOE_SQL(sql_policy_delete, "DELETE FROM iam_policy WHERE id = ?1");

typedef struct create_args {
    floe_iam_managed_policy_t *p;
    const char *document;
    int refused; /* FLOE_EEXISTS when the body refused, which the transaction reports as a failure */
} create_args_t;

static int create_body(floe_call_t *call, void *arg)
{
    create_args_t *a = arg;
    floe_iam_managed_policy_t *p = a->p;
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_policy_insert, "tttttti", floe_call_account(call), p->name, p->path,
                                       p->id, p->description, p->default_version, (int64_t)p->created_at);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    p->row = floe_db_last_insert_id(call->state);
    floe_db_reset(stmt);
    if (rc == FLOE_EUNIQUE)
        return a->refused = FLOE_EEXISTS;
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    return floe_sql_exec(call, sql_version_insert, "itti", p->row, FIRST_VERSION, a->document, (int64_t)p->created_at);
}

int floe_iam_policy_create(floe_call_t *call, floe_iam_managed_policy_t *p, const char *document)
{
    char id[4 + ID_SUFFIX_LEN + 1];
    create_args_t a = {p, document, FLOE_OK};
    int rc;

    floe_iam_random_id(id, "ANPA", ID_SUFFIX_LEN);
    p->id = floe_call_strdup(call, id);
    p->default_version = FIRST_VERSION;
    p->created_at = p->updated_at = floe_call_now(call);
    p->attachment_count = 0;
    p->arn = floe_call_printf(call, "arn:aws:iam::%s:policy%s%s", floe_call_account(call), p->path, p->name);
    rc = floe_call_in_joined_transaction(call, create_body, &a);
    return a.refused != FLOE_OK ? a.refused : rc;
}

/* Splits arn:aws:iam::<account>:policy<path><name> into its path and name, when the account is
 * the call's. */
static int split_arn(floe_call_t *call, const char *arn, char **path, char **name)
{
    const char *prefix = floe_call_printf(call, "arn:aws:iam::%s:policy/", floe_call_account(call));
    size_t n = strlen(prefix);
    const char *slash;

    if (arn == NULL || strncmp(arn, prefix, n) != 0 || arn[n] == '\0')
        return FLOE_ENOTFOUND;
    slash = strrchr(arn, '/');
    *path = floe_call_strndup(call, arn + n - 1, (size_t)(slash - (arn + n - 1)) + 1);
    *name = floe_call_strdup(call, slash + 1);
    return **name != '\0' ? FLOE_OK : FLOE_ENOTFOUND;
}

static void read_policy(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    floe_iam_managed_policy_t *out = item;

    out->row = floe_db_column_int64(stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->path = floe_sql_text(call, stmt, 2);
    out->id = floe_sql_text(call, stmt, 3);
    out->description = floe_sql_text(call, stmt, 4);
    out->default_version = floe_sql_text(call, stmt, 5);
    out->created_at = floe_db_column_int64(stmt, 6);
    out->updated_at = floe_db_column_int64(stmt, 7);
    out->attachment_count = floe_db_column_int(stmt, 8);
    out->arn = floe_call_printf(call, "arn:aws:iam::%s:policy%s%s", floe_call_account(call), out->path, out->name);
}

int floe_iam_policy_get(floe_call_t *call, const char *arn, floe_iam_managed_policy_t *out)
{
    char *path, *name;

    if (split_arn(call, arn, &path, &name) != FLOE_OK)
        return FLOE_ENOTFOUND;
    return floe_iam_one_row(call, floe_sql_bind(call, sql_policy_get, "ttt", floe_call_account(call), name, path),
                            read_policy, out);
}

/* A version row: its document and when it was made. */
typedef struct version_row {
    char *document;
    floe_timestamp_t created_at;
} version_row_t;

static void read_version(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    version_row_t *v = item;
    v->document = floe_sql_text(call, stmt, 0);
    v->created_at = floe_db_column_int64(stmt, 1);
}

int floe_iam_policy_version(floe_call_t *call, int64_t row, const char *version_id, char **document,
                            floe_timestamp_t *created_at)
{
    version_row_t v = {NULL, 0};
    int rc = floe_iam_one_row(call, floe_sql_bind(call, sql_version_get, "it", row, version_id), read_version, &v);

    *document = v.document;
    *created_at = v.created_at;
    return rc;
}

int floe_iam_policy_set_document(floe_call_t *call, const floe_iam_managed_policy_t *p, const char *document,
                                 const char *description)
{
    int rc = floe_sql_exec(call, sql_version_update, "itt", p->row, p->default_version, document);

    if (rc != FLOE_OK)
        return rc;
    return floe_sql_exec(call, sql_policy_touch, "iti", p->row, description, (int64_t)floe_call_now(call));
}

typedef struct delete_args {
    int64_t row;
    int refused; /* FLOE_EINUSE when the body refused */
} delete_args_t;

static int delete_body(floe_call_t *call, void *arg)
{
    delete_args_t *a = arg;
    int rc = floe_iam_one_row(call, floe_sql_bind(call, sql_policy_attached, "i", a->row), NULL, NULL);

    if (rc == FLOE_OK)
        return a->refused = FLOE_EINUSE;
    if (rc != FLOE_ENOTFOUND)
        return rc;
    return floe_sql_exec(call, sql_policy_delete, "i", a->row);
}

int floe_iam_policy_delete(floe_call_t *call, int64_t row)
{
    delete_args_t a = {row, FLOE_OK};
    int rc = floe_call_in_joined_transaction(call, delete_body, &a);

    return a.refused != FLOE_OK ? a.refused : rc;
}
