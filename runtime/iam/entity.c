/*
 * The iam_user and iam_role rows of entity.h, with their inline policies (iam_user_policy,
 * iam_role_policy) and attachments (iam_user_attachment, iam_role_attachment). The two kinds have
 * the same shape, so each statement comes in a pair indexed by floe_iam_kind_t.
 */
#include <string.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "call/transaction.h"
#include "iam/entity.h"
#include "iam/rows.h"

#define ID_SUFFIX_LEN 17 /* AIDA/AROA and 17 characters: IAM's 21-character unique ids */

FLOE_SQL(sql_user_insert, "INSERT INTO iam_user (account, name, path, user_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)");
FLOE_SQL(sql_role_insert, "INSERT INTO iam_role (account, name, path, role_id, created_at, trust_policy, description,"
                          " max_session_duration) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
FLOE_SQL(sql_user_get, "SELECT id, name, path, user_id, created_at, NULL, NULL, 0 FROM iam_user"
                       " WHERE account = ?1 AND name = ?2");
FLOE_SQL(sql_role_get, "SELECT id, name, path, role_id, created_at, trust_policy, description, max_session_duration"
                       " FROM iam_role WHERE account = ?1 AND name = ?2");
FLOE_SQL(sql_user_list, "SELECT id, name, path, user_id, created_at, NULL, NULL, 0 FROM iam_user"
                        " WHERE account = ?1 AND substr(path, 1, length(?2)) = ?2 ORDER BY name");
FLOE_SQL(sql_role_list, "SELECT id, name, path, role_id, created_at, trust_policy, description, max_session_duration"
                        " FROM iam_role WHERE account = ?1 AND substr(path, 1, length(?2)) = ?2 ORDER BY name");
FLOE_SQL(sql_user_update, "UPDATE iam_user SET path = ?2 WHERE id = ?1");
FLOE_SQL(sql_role_update, "UPDATE iam_role SET path = ?2, trust_policy = ?3, description = ?4,"
                          " max_session_duration = ?5 WHERE id = ?1");
FLOE_SQL(sql_user_delete, "DELETE FROM iam_user WHERE id = ?1");
FLOE_SQL(sql_role_delete, "DELETE FROM iam_role WHERE id = ?1");
FLOE_SQL(sql_user_has_keys, "SELECT 1 FROM iam_access_key WHERE user_id = ?1 LIMIT 1");
FLOE_SQL(sql_user_has_inline, "SELECT 1 FROM iam_user_policy WHERE user_id = ?1 LIMIT 1");
FLOE_SQL(sql_role_has_inline, "SELECT 1 FROM iam_role_policy WHERE role_id = ?1 LIMIT 1");
FLOE_SQL(sql_user_has_attached, "SELECT 1 FROM iam_user_attachment WHERE user_id = ?1 LIMIT 1");
FLOE_SQL(sql_role_has_attached, "SELECT 1 FROM iam_role_attachment WHERE role_id = ?1 LIMIT 1");
FLOE_SQL(sql_user_inline_put, "INSERT INTO iam_user_policy (user_id, name, document) VALUES (?1, ?2, ?3)"
                              " ON CONFLICT (user_id, name) DO UPDATE SET document = excluded.document");
FLOE_SQL(sql_role_inline_put, "INSERT INTO iam_role_policy (role_id, name, document) VALUES (?1, ?2, ?3)"
                              " ON CONFLICT (role_id, name) DO UPDATE SET document = excluded.document");
FLOE_SQL(sql_user_inline_get, "SELECT name, document FROM iam_user_policy WHERE user_id = ?1 AND name = ?2");
FLOE_SQL(sql_role_inline_get, "SELECT name, document FROM iam_role_policy WHERE role_id = ?1 AND name = ?2");
FLOE_SQL(sql_user_inline_delete, "DELETE FROM iam_user_policy WHERE user_id = ?1 AND name = ?2");
FLOE_SQL(sql_role_inline_delete, "DELETE FROM iam_role_policy WHERE role_id = ?1 AND name = ?2");
FLOE_SQL(sql_user_inline_list, "SELECT name, document FROM iam_user_policy WHERE user_id = ?1 ORDER BY name");
FLOE_SQL(sql_role_inline_list, "SELECT name, document FROM iam_role_policy WHERE role_id = ?1 ORDER BY name");
FLOE_SQL(sql_user_attach, "INSERT INTO iam_user_attachment (user_id, policy_id) VALUES (?1, ?2)"
                          " ON CONFLICT (user_id, policy_id) DO NOTHING");
FLOE_SQL(sql_role_attach, "INSERT INTO iam_role_attachment (role_id, policy_id) VALUES (?1, ?2)"
                          " ON CONFLICT (role_id, policy_id) DO NOTHING");
FLOE_SQL(sql_user_detach, "DELETE FROM iam_user_attachment WHERE user_id = ?1 AND policy_id = ?2");
FLOE_SQL(sql_role_detach, "DELETE FROM iam_role_attachment WHERE role_id = ?1 AND policy_id = ?2");
FLOE_SQL(sql_user_attached, "SELECT p.name, p.account, p.path, v.document FROM iam_user_attachment a"
                            " JOIN iam_policy p ON p.id = a.policy_id"
                            " JOIN iam_policy_version v ON v.policy_id = p.id AND v.version_id = p.default_version"
                            " WHERE a.user_id = ?1 ORDER BY p.name");
FLOE_SQL(sql_role_attached, "SELECT p.name, p.account, p.path, v.document FROM iam_role_attachment a"
                            " JOIN iam_policy p ON p.id = a.policy_id"
                            " JOIN iam_policy_version v ON v.policy_id = p.id AND v.version_id = p.default_version"
                            " WHERE a.role_id = ?1 ORDER BY p.name");

static const char *const sql_get[] = {sql_user_get, sql_role_get};
static const char *const sql_list[] = {sql_user_list, sql_role_list};
static const char *const sql_delete[] = {sql_user_delete, sql_role_delete};
static const char *const sql_has_inline[] = {sql_user_has_inline, sql_role_has_inline};
static const char *const sql_has_attached[] = {sql_user_has_attached, sql_role_has_attached};
static const char *const sql_inline_put[] = {sql_user_inline_put, sql_role_inline_put};
static const char *const sql_inline_get[] = {sql_user_inline_get, sql_role_inline_get};
static const char *const sql_inline_delete[] = {sql_user_inline_delete, sql_role_inline_delete};
static const char *const sql_inline_list[] = {sql_user_inline_list, sql_role_inline_list};
static const char *const sql_attach[] = {sql_user_attach, sql_role_attach};
static const char *const sql_detach[] = {sql_user_detach, sql_role_detach};
static const char *const sql_attached[] = {sql_user_attached, sql_role_attached};
static const char *const id_prefix[] = {"AIDA", "AROA"};
static const char *const arn_kind[] = {"user", "role"};

void floe_iam_random_id(char *out, const char *prefix, size_t n)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    unsigned char bytes[64];
    size_t len = strlen(prefix);

    memcpy(out, prefix, len);
    for (size_t done = 0; done < n; done += sizeof(bytes)) {
        size_t k = n - done < sizeof(bytes) ? n - done : sizeof(bytes);
        floe_random_bytes(bytes, k);
        for (size_t i = 0; i < k; i++)
            out[len + done + i] = alphabet[bytes[i] % 32];
    }
    out[len + n] = '\0';
}

char *floe_iam_entity_arn(floe_call_t *call, floe_iam_kind_t kind, const char *account, const char *path,
                          const char *name)
{
    return floe_call_printf(call, "arn:aws:iam::%s:%s%s%s", account, arn_kind[kind], path, name);
}

int floe_iam_entity_create(floe_call_t *call, floe_iam_kind_t kind, floe_iam_entity_t *e)
{
    char id[4 + ID_SUFFIX_LEN + 1];
    floe_db_stmt_t *stmt;
    int rc;

    floe_iam_random_id(id, id_prefix[kind], ID_SUFFIX_LEN);
    e->id = floe_call_strdup(call, id);
    e->created_at = floe_call_now(call);
    e->arn = floe_iam_entity_arn(call, kind, floe_call_account(call), e->path, e->name);
    stmt = kind == FLOE_IAM_USER
               ? floe_sql_bind(call, sql_user_insert, "tttti", floe_call_account(call), e->name, e->path, e->id,
                               (int64_t)e->created_at)
               : floe_sql_bind(call, sql_role_insert, "ttttitti", floe_call_account(call), e->name, e->path, e->id,
                               (int64_t)e->created_at, e->trust_policy, e->description,
                               (int64_t)e->max_session_duration);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    e->row = floe_db_last_insert_id(call->state);
    floe_db_reset(stmt);
    if (rc == FLOE_EUNIQUE)
        return FLOE_EEXISTS;
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* An entity row as read: the kind and account its ARN is made of, and where it goes. */
typedef struct entity_reader {
    floe_iam_kind_t kind;
    const char *account;
    floe_iam_entity_t *out;
} entity_reader_t;

static void read_entity(floe_call_t *call, floe_iam_kind_t kind, const char *account, floe_db_stmt_t *stmt,
                        floe_iam_entity_t *out)
{
    out->row = floe_db_column_int64(stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->path = floe_sql_text(call, stmt, 2);
    out->id = floe_sql_text(call, stmt, 3);
    out->created_at = floe_db_column_int64(stmt, 4);
    out->trust_policy = floe_sql_text(call, stmt, 5);
    out->description = floe_sql_text(call, stmt, 6);
    out->max_session_duration = floe_db_column_int(stmt, 7);
    out->arn = floe_iam_entity_arn(call, kind, account, out->path, out->name);
}

static void read_user(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    read_entity(call, FLOE_IAM_USER, floe_call_account(call), stmt, item);
}

static void read_role(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    read_entity(call, FLOE_IAM_ROLE, floe_call_account(call), stmt, item);
}

static void read_in_account(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    entity_reader_t *r = item;
    read_entity(call, r->kind, r->account, stmt, r->out);
}

static const floe_iam_row_fn read_of_kind[] = {read_user, read_role};

int floe_iam_entity_get(floe_call_t *call, floe_iam_kind_t kind, const char *name, floe_iam_entity_t *out)
{
    return floe_iam_entity_get_in(call, kind, floe_call_account(call), name, out);
}

int floe_iam_entity_get_in(floe_call_t *call, floe_iam_kind_t kind, const char *account, const char *name,
                           floe_iam_entity_t *out)
{
    entity_reader_t r = {kind, account, out};
    return floe_iam_one_row(call, floe_sql_bind(call, sql_get[kind], "tt", account, name), read_in_account, &r);
}

int floe_iam_entity_list(floe_call_t *call, floe_iam_kind_t kind, const char *path_prefix, floe_iam_entity_t **out,
                         size_t *n)
{
    return floe_iam_all_rows(call,
                             floe_sql_bind(call, sql_list[kind], "tt", floe_call_account(call),
                                           path_prefix != NULL ? path_prefix : FLOE_IAM_DEFAULT_PATH),
                             read_of_kind[kind], sizeof(**out), (void **)out, n);
}

int floe_iam_entity_update(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const floe_iam_entity_t *e)
{
    if (kind == FLOE_IAM_USER)
        return floe_sql_exec(call, sql_user_update, "it", row, e->path);
    return floe_sql_exec(call, sql_role_update, "itttn", row, e->path, e->trust_policy, e->description,
                         (int)e->max_session_duration);
}

typedef struct delete_args {
    floe_iam_kind_t kind;
    int64_t row;
    const char **blocker;
    int refused; /* FLOE_EINUSE when the body refused, which the transaction reports as a failure */
} delete_args_t;

/* IAM refuses in this order: access keys, inline policies, attached policies. */
static int delete_body(floe_call_t *call, void *arg)
{
    delete_args_t *a = arg;
    const char *checks[3] = {a->kind == FLOE_IAM_USER ? sql_user_has_keys : NULL, sql_has_inline[a->kind],
                             sql_has_attached[a->kind]};
    static const char *const names[3] = {"access keys", "policies", "attached policies"};
    int rc;

    for (size_t i = 0; i < 3; i++) {
        if (checks[i] == NULL)
            continue;
        if ((rc = floe_iam_one_row(call, floe_sql_bind(call, checks[i], "i", a->row), NULL, NULL)) == FLOE_OK) {
            *a->blocker = names[i];
            return a->refused = FLOE_EINUSE;
        }
        if (rc != FLOE_ENOTFOUND)
            return rc;
    }
    return floe_sql_exec(call, sql_delete[a->kind], "i", a->row);
}

int floe_iam_entity_delete(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char **blocker)
{
    delete_args_t a = {kind, row, blocker, FLOE_OK};
    int rc = floe_call_in_joined_transaction(call, delete_body, &a);

    return a.refused != FLOE_OK ? a.refused : rc;
}

int floe_iam_inline_put(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name, const char *document)
{
    return floe_sql_exec(call, sql_inline_put[kind], "itt", row, name, document);
}

/* An inline policy row: its name and its document. */
typedef struct inline_row {
    char *name;
    char *document;
} inline_row_t;

static void read_inline(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    inline_row_t *r = item;
    r->name = floe_sql_text(call, stmt, 0);
    r->document = floe_sql_text(call, stmt, 1);
}

int floe_iam_inline_get(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name, char **stored_name,
                        char **document)
{
    inline_row_t r = {NULL, NULL};
    int rc = floe_iam_one_row(call, floe_sql_bind(call, sql_inline_get[kind], "it", row, name), read_inline, &r);

    *stored_name = r.name;
    *document = r.document;
    return rc;
}

int floe_iam_inline_delete(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char *name)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_inline_delete[kind], "it", row, name));
}

static void read_first_text(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    *(char **)item = floe_sql_text(call, stmt, 0);
}

int floe_iam_inline_list(floe_call_t *call, floe_iam_kind_t kind, int64_t row, char ***names, size_t *n)
{
    return floe_iam_all_rows(call, floe_sql_bind(call, sql_inline_list[kind], "i", row), read_first_text,
                             sizeof(**names), (void **)names, n);
}

int floe_iam_attach(floe_call_t *call, floe_iam_kind_t kind, int64_t row, int64_t policy_row)
{
    return floe_sql_exec(call, sql_attach[kind], "ii", row, policy_row);
}

int floe_iam_detach(floe_call_t *call, floe_iam_kind_t kind, int64_t row, int64_t policy_row)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_detach[kind], "ii", row, policy_row));
}

static void read_attached(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    floe_iam_attached_t *a = item;
    a->name = floe_sql_text(call, stmt, 0);
    a->arn = floe_call_printf(call, "arn:aws:iam::%s:policy%s%s", floe_db_column_text(stmt, 1),
                              floe_db_column_text(stmt, 2), a->name);
}

int floe_iam_attached_list(floe_call_t *call, floe_iam_kind_t kind, int64_t row, floe_iam_attached_t **out, size_t *n)
{
    return floe_iam_all_rows(call, floe_sql_bind(call, sql_attached[kind], "i", row), read_attached, sizeof(**out),
                             (void **)out, n);
}

static void read_inline_document(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    *(char **)item = floe_sql_text(call, stmt, 1);
}

static void read_attached_document(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    *(char **)item = floe_sql_text(call, stmt, 3);
}

int floe_iam_entity_documents(floe_call_t *call, floe_iam_kind_t kind, int64_t row, const char ***out, size_t *n)
{
    char **inline_docs, **attached_docs, **all;
    size_t n_inline, n_attached;
    int rc;

    *out = NULL;
    *n = 0;
    if ((rc = floe_iam_all_rows(call, floe_sql_bind(call, sql_inline_list[kind], "i", row), read_inline_document,
                                sizeof(char *), (void **)&inline_docs, &n_inline)) != FLOE_OK ||
        (rc = floe_iam_all_rows(call, floe_sql_bind(call, sql_attached[kind], "i", row), read_attached_document,
                                sizeof(char *), (void **)&attached_docs, &n_attached)) != FLOE_OK)
        return rc;
    all = floe_call_alloc(call, sizeof(*all) * (n_inline + n_attached + 1));
    if (n_inline > 0)
        memcpy(all, inline_docs, sizeof(*all) * n_inline);
    if (n_attached > 0)
        memcpy(all + n_inline, attached_docs, sizeof(*all) * n_attached);
    *out = (const char **)all;
    *n = n_inline + n_attached;
    return FLOE_OK;
}
