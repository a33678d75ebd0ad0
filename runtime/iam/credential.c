/*
 * The iam_access_key and sts_session rows of credential.h. Secrets are random text of the shape AWS
 * issues; an expired session's row stays until the role issues another (which sweeps the role's
 * expired ones) or goes.
 */
#include <stdio.h>
#include <string.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "call/transaction.h"
#include "db/sql.h"
#include "iam/credential.h"
#include "iam/entity.h"
#include "iam/rows.h"

#define SESSION_TOKEN_LEN 356 /* about the length of an STS session token */
#define STATUS_ACTIVE "Active"
#define MS_PER_S 1000

FLOE_SQL(sql_key_count, "SELECT count(*) FROM iam_access_key WHERE user_id = ?1");
FLOE_SQL(sql_key_insert, "INSERT INTO iam_access_key (access_key_id, user_id, secret, status, created_at)"
                         " VALUES (?1, ?2, ?3, ?4, ?5)");
FLOE_SQL(sql_key_list, "SELECT access_key_id, status, created_at FROM iam_access_key WHERE user_id = ?1"
                       " ORDER BY created_at, access_key_id");
FLOE_SQL(sql_key_delete, "DELETE FROM iam_access_key WHERE user_id = ?1 AND access_key_id = ?2");
FLOE_SQL(sql_key_status, "UPDATE iam_access_key SET status = ?3 WHERE user_id = ?1 AND access_key_id = ?2");
FLOE_SQL(sql_session_sweep, "DELETE FROM sts_session WHERE role_id = ?1 AND expires_at <= ?2");
FLOE_SQL(sql_session_insert, "INSERT INTO sts_session (access_key_id, role_id, secret, session_token, session_name,"
                             " expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
FLOE_SQL(sql_key_owner,
         "SELECT 0, u.id, u.name, u.path, u.user_id, NULL, u.account, 0 FROM iam_access_key k"
         " JOIN iam_user u ON u.id = k.user_id WHERE k.access_key_id = ?1 AND k.status = 'Active'"
         " UNION ALL SELECT 1, r.id, r.name, r.path, r.role_id, s.session_name, r.account, s.expires_at"
         " FROM sts_session s JOIN iam_role r ON r.id = s.role_id WHERE s.access_key_id = ?1 AND s.expires_at > ?2");
FLOE_SQL(sql_key_secret,
         "SELECT k.secret, NULL, u.account FROM iam_access_key k JOIN iam_user u ON u.id = k.user_id"
         " WHERE k.access_key_id = ?1 AND k.status = 'Active'"
         " UNION ALL SELECT s.secret, s.session_token, r.account FROM sts_session s"
         " JOIN iam_role r ON r.id = s.role_id WHERE s.access_key_id = ?1 AND s.expires_at > ?2");

bool floe_iam_key_is_issued(const char *key, size_t len)
{
    return len == FLOE_IAM_ACCESS_KEY_LEN && (memcmp(key, "AKIA", 4) == 0 || memcmp(key, "ASIA", 4) == 0);
}

/* `n` random characters of a secret access key's alphabet, and a NUL. */
static void random_secret(char *out, size_t n)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char bytes[SESSION_TOKEN_LEN];

    floe_random_bytes(bytes, n);
    for (size_t i = 0; i < n; i++)
        out[i] = alphabet[bytes[i] % 64];
    out[n] = '\0';
}

typedef struct key_args {
    int64_t user_row;
    floe_iam_access_key_t *out;
    int refused; /* FLOE_ESTATE when the body refused, which the transaction reports as a failure */
} key_args_t;

static int create_key_body(floe_call_t *call, void *arg)
{
    key_args_t *a = arg;
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_key_count, "i", a->user_row);
    int rc, count;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    count = floe_db_column_int(stmt, 0);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_ROW)
        return FLOE_EFAIL;
    if (count >= FLOE_IAM_MAX_ACCESS_KEYS)
        return a->refused = FLOE_ESTATE;
    return floe_sql_exec(call, sql_key_insert, "titti", a->out->id, a->user_row, a->out->secret, a->out->status,
                         (int64_t)a->out->created_at);
}

int floe_iam_access_key_create(floe_call_t *call, int64_t user_row, floe_iam_access_key_t *out)
{
    char id[FLOE_IAM_ACCESS_KEY_LEN + 1], secret[FLOE_IAM_SECRET_LEN + 1];
    key_args_t a = {user_row, out, FLOE_OK};
    int rc;

    floe_iam_random_id(id, "AKIA", FLOE_IAM_ACCESS_KEY_LEN - 4);
    random_secret(secret, FLOE_IAM_SECRET_LEN);
    out->id = floe_call_strdup(call, id);
    out->secret = floe_call_strdup(call, secret);
    out->status = STATUS_ACTIVE;
    out->created_at = floe_call_now(call);
    rc = floe_call_in_joined_transaction(call, create_key_body, &a);
    return a.refused != FLOE_OK ? a.refused : rc;
}

static void read_key(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    floe_iam_access_key_t *k = item;
    k->id = floe_sql_text(call, stmt, 0);
    k->status = floe_sql_text(call, stmt, 1);
    k->created_at = floe_db_column_int64(stmt, 2);
}

int floe_iam_access_key_list(floe_call_t *call, int64_t user_row, floe_iam_access_key_t **out, size_t *n)
{
    return floe_iam_all_rows(call, floe_sql_bind(call, sql_key_list, "i", user_row), read_key, sizeof(**out),
                             (void **)out, n);
}

int floe_iam_access_key_delete(floe_call_t *call, int64_t user_row, const char *id)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_key_delete, "it", user_row, id));
}

int floe_iam_access_key_set_status(floe_call_t *call, int64_t user_row, const char *id, const char *status)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_key_status, "itt", user_row, id, status));
}

typedef struct session_args {
    int64_t role_row;
    const char *session_name;
    floe_iam_session_t *out;
} session_args_t;

static int create_session_body(floe_call_t *call, void *arg)
{
    session_args_t *a = arg;
    int rc = floe_sql_exec(call, sql_session_sweep, "ii", a->role_row, (int64_t)floe_call_now(call));

    if (rc != FLOE_OK)
        return rc;
    return floe_sql_exec(call, sql_session_insert, "tittti", a->out->access_key_id, a->role_row, a->out->secret,
                         a->out->session_token, a->session_name, (int64_t)a->out->expires_at);
}

int floe_iam_session_create(floe_call_t *call, int64_t role_row, const char *session_name, int32_t duration_s,
                            floe_iam_session_t *out)
{
    char id[FLOE_IAM_ACCESS_KEY_LEN + 1], secret[FLOE_IAM_SECRET_LEN + 1], token[SESSION_TOKEN_LEN + 1];
    session_args_t a = {role_row, session_name, out};

    floe_iam_random_id(id, "ASIA", FLOE_IAM_ACCESS_KEY_LEN - 4);
    random_secret(secret, FLOE_IAM_SECRET_LEN);
    random_secret(token, SESSION_TOKEN_LEN);
    out->access_key_id = floe_call_strdup(call, id);
    out->secret = floe_call_strdup(call, secret);
    out->session_token = floe_call_strdup(call, token);
    out->expires_at = floe_call_now(call) + (floe_timestamp_t)duration_s * MS_PER_S;
    return floe_call_in_joined_transaction(call, create_session_body, &a);
}

static void read_owner(floe_call_t *call, floe_db_stmt_t *stmt, void *item)
{
    floe_iam_key_owner_t *out = item;
    const char *account = floe_db_column_text(stmt, 6);

    out->is_session = floe_db_column_int(stmt, 0) != 0;
    out->row = floe_db_column_int64(stmt, 1);
    out->name = floe_sql_text(call, stmt, 2);
    out->path = floe_sql_text(call, stmt, 3);
    out->id = floe_sql_text(call, stmt, 4);
    out->session_name = floe_sql_text(call, stmt, 5);
    out->expires_at = floe_db_column_int64(stmt, 7);
    snprintf(out->account_id, sizeof(out->account_id), "%s", account != NULL ? account : "");
}

int floe_iam_key_owner(floe_call_t *call, const char *access_key, floe_iam_key_owner_t *out)
{
    if (access_key == NULL || !floe_iam_key_is_issued(access_key, strlen(access_key)))
        return FLOE_ENOTFOUND;
    return floe_iam_one_row(call, floe_sql_bind(call, sql_key_owner, "ti", access_key, (int64_t)floe_call_now(call)),
                            read_owner, out);
}

int floe_iam_key_lookup(floe_state_t *st, h2o_mem_pool_t *pool, const char *access_key, size_t len,
                        floe_timestamp_t now, floe_iam_key_t *out)
{
    char key[FLOE_IAM_ACCESS_KEY_LEN + 1];
    floe_db_stmt_t *stmt;
    int rc;

    if (!floe_iam_key_is_issued(access_key, len))
        return FLOE_ENOTFOUND;
    memcpy(key, access_key, len);
    key[len] = '\0';
    if ((stmt = floe_db_bind(st, sql_key_secret, "ti", key, (int64_t)now)) == NULL)
        return FLOE_EFAIL;
    rc = floe_db_step(st, stmt, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW) {
        const char *account = floe_db_column_text(stmt, 2);
        out->secret = floe_db_text(pool, stmt, 0);
        out->session_token = floe_db_text(pool, stmt, 1);
        snprintf(out->account_id, sizeof(out->account_id), "%s", account != NULL ? account : "");
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW ? FLOE_OK : rc == FLOE_DB_DONE ? FLOE_ENOTFOUND : FLOE_EFAIL;
}
