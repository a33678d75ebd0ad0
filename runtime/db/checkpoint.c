/*
 * When a connection checkpoints its WAL, and who hears of a commit (checkpoint.h).
 */
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "db/checkpoint.h"

/* SQLite's default wal_autocheckpoint (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT), which the hook keeps. */
#define CHECKPOINT_FRAMES 1000
#define TRIGGER_SQL_MAX 256

/* The rows authorization reads (runtime/authz/ keeps them in memory), as trigger events: a
 * resource's policies, whether a bucket or a table (by name) is there, and what makes a key a
 * principal with its identity policies; and every change of a table bucket's row, which
 * catalog/bucket_cache.c keeps. A table's commits (its metadata location) are none of them; nor is
 * a new session or access key, which no cache holds yet. */
static const char *const policy_events[][2] = {
    {"table_bucket", "INSERT"},        {"table_bucket", "UPDATE"},        {"table_bucket", "DELETE"},
    {"s3table", "INSERT"},             {"s3table", "DELETE"},
    {"s3table", "UPDATE OF table_bucket_id, namespace_id, name, table_id"},
    {"table_bucket_policy", "INSERT"}, {"table_bucket_policy", "UPDATE"}, {"table_bucket_policy", "DELETE"},
    {"table_policy", "INSERT"},        {"table_policy", "UPDATE"},        {"table_policy", "DELETE"},
    {"iam_user", "UPDATE"},            {"iam_user", "DELETE"},
    {"iam_role", "UPDATE"},            {"iam_role", "DELETE"},
    {"iam_policy", "UPDATE"},          {"iam_policy", "DELETE"},
    {"iam_policy_version", "INSERT"},  {"iam_policy_version", "UPDATE"},  {"iam_policy_version", "DELETE"},
    {"iam_user_policy", "INSERT"},     {"iam_user_policy", "UPDATE"},     {"iam_user_policy", "DELETE"},
    {"iam_role_policy", "INSERT"},     {"iam_role_policy", "UPDATE"},     {"iam_role_policy", "DELETE"},
    {"iam_user_attachment", "INSERT"}, {"iam_user_attachment", "DELETE"},
    {"iam_role_attachment", "INSERT"}, {"iam_role_attachment", "DELETE"},
    {"iam_access_key", "UPDATE"},      {"iam_access_key", "DELETE"},
    {"sts_session", "DELETE"},
};

static _Atomic uint64_t policy_generation;

static void on_update(void *arg, int op, const char *db, const char *table, sqlite3_int64 rowid)
{
    floe_checkpoint_t *c = arg;

    (void)db;
    (void)rowid;
    for (size_t i = 0; op == SQLITE_INSERT && i < c->n_watches; i++) {
        if (strcmp(table, c->watches[i].table) == 0)
            c->watches[i].is_inserted = true;
    }
}

static void on_rollback(void *arg)
{
    floe_checkpoint_t *c = arg;

    for (size_t i = 0; i < c->n_watches; i++)
        c->watches[i].is_inserted = false;
    c->is_policy_changed = false;
}

/* The commit is in the WAL, where the next read of any connection sees it: a watcher woken here
 * finds the inserted row, whichever connection it reads on. */
static int on_commit(void *arg, sqlite3 *db, const char *name, int n_frames)
{
    floe_checkpoint_t *c = arg;

    for (size_t i = 0; i < c->n_watches; i++) {
        if (c->watches[i].is_inserted) {
            c->watches[i].is_inserted = false;
            c->watches[i].on_insert(c->watches[i].arg);
        }
    }
    if (c->is_policy_changed) {
        c->is_policy_changed = false;
        atomic_fetch_add(&policy_generation, 1);
    }
    if (n_frames >= CHECKPOINT_FRAMES)
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return SQLITE_OK;
}

void floe_checkpoint_install(sqlite3 *db, floe_checkpoint_t *c)
{
    sqlite3_wal_hook(db, on_commit, c);
    sqlite3_rollback_hook(db, on_rollback, c);
}

/* floe_policy_changed(), which the triggers call: the open transaction changed a watched row. */
static void note_policy_change(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    floe_checkpoint_t *c = sqlite3_user_data(ctx);

    (void)argc;
    (void)argv;
    c->is_policy_changed = true;
    sqlite3_result_null(ctx);
}

int floe_checkpoint_watch_policies(sqlite3 *db, floe_checkpoint_t *c)
{
    char sql[TRIGGER_SQL_MAX];
    char *err = NULL;

    if (sqlite3_create_function(db, "floe_policy_changed", 0, SQLITE_UTF8, c, note_policy_change, NULL, NULL) !=
        SQLITE_OK)
        goto Error;
    for (size_t i = 0; i < sizeof(policy_events) / sizeof(policy_events[0]); i++) {
        snprintf(sql, sizeof(sql),
                 "CREATE TEMP TRIGGER floe_policy_%zu AFTER %s ON %s BEGIN SELECT floe_policy_changed(); END", i,
                 policy_events[i][1], policy_events[i][0]);
        if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
            goto Error;
    }
    return FLOE_OK;
Error:
    fprintf(stderr, "floe: sqlite: policy triggers: %s\n", err ? err : sqlite3_errmsg(db));
    sqlite3_free(err);
    return FLOE_EFAIL;
}

uint64_t floe_checkpoint_policy_generation(void)
{
    return atomic_load(&policy_generation);
}

void floe_checkpoint_watch(sqlite3 *db, floe_checkpoint_t *c, const char *table, void (*fn)(void *arg), void *arg)
{
    size_t i;

    for (i = 0; i < c->n_watches && strcmp(c->watches[i].table, table) != 0; i++)
        ;
    assert(i < FLOE_CHECKPOINT_WATCHES); /* the watchers are Floe's own, a fixed few */
    c->watches[i] = (floe_checkpoint_watch_t){table, fn, arg, false};
    if (i == c->n_watches)
        c->n_watches++;
    sqlite3_update_hook(db, on_update, c);
}
