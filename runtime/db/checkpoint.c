/*
 * When a connection checkpoints its WAL, and who hears of a commit (checkpoint.h).
 */
/* Declares sqlite3_preupdate_hook, which Debian's libsqlite3 is built with. */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "db/checkpoint.h"

/* SQLite's default wal_autocheckpoint (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT), which the hook keeps. */
#define CHECKPOINT_FRAMES 1000

/* What a change is, as a bit of policy_tables' masks. */
enum { ON_INSERT = 1 << 0, ON_UPDATE = 1 << 1, ON_DELETE = 1 << 2, ON_ANY = ON_INSERT | ON_UPDATE | ON_DELETE };

/* The rows authorization reads (runtime/authz/ keeps them in memory), by table and the changes
 * that matter: a resource's policies, whether a bucket or a table (by name) is there, and what
 * makes a key a principal with its identity policies; and every change of a table bucket's row,
 * which catalog/bucket_cache.c keeps. A table's commits (its metadata location) are none of them
 * (an UPDATE of s3table counts only OF the columns of RENAME_TRIGGER); nor is a new session or
 * access key, which no cache holds yet. */
static const struct {
    const char *table;
    unsigned changes;
} policy_tables[] = {
    {"table_bucket", ON_ANY},
    {"s3table", ON_INSERT | ON_DELETE},
    {"table_bucket_policy", ON_ANY},
    {"table_policy", ON_ANY},
    {"iam_user", ON_UPDATE | ON_DELETE},
    {"iam_role", ON_UPDATE | ON_DELETE},
    {"iam_policy", ON_UPDATE | ON_DELETE},
    {"iam_policy_version", ON_ANY},
    {"iam_user_policy", ON_ANY},
    {"iam_role_policy", ON_ANY},
    {"iam_user_attachment", ON_INSERT | ON_DELETE},
    {"iam_role_attachment", ON_INSERT | ON_DELETE},
    {"iam_access_key", ON_UPDATE | ON_DELETE},
    {"sts_session", ON_DELETE},
};

/* The one change a pre-update hook cannot tell: which columns an UPDATE sets. */
#define RENAME_TRIGGER                                                                                        \
    "CREATE TEMP TRIGGER floe_policy_s3table_names AFTER UPDATE OF table_bucket_id, namespace_id, name, table_id" \
    " ON s3table BEGIN SELECT floe_policy_changed(); END"

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

/* floe_policy_changed(), which RENAME_TRIGGER calls: the open transaction changed a watched row. */
static void note_policy_change(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    floe_checkpoint_t *c = sqlite3_user_data(ctx);

    (void)argc;
    (void)argv;
    c->is_policy_changed = true;
    sqlite3_result_null(ctx);
}

static unsigned change_of(int op)
{
    switch (op) {
    case SQLITE_INSERT: return ON_INSERT;
    case SQLITE_UPDATE: return ON_UPDATE;
    case SQLITE_DELETE: return ON_DELETE;
    default: return 0;
    }
}

/* Before each row a statement changes, in any table, WITHOUT ROWID ones included (which an update
 * hook does not see): notes a change policy_tables names. One temporary trigger a table and
 * change did the same, but creating 33 of them was a third of a start-up's instructions. */
static void on_preupdate(void *arg, sqlite3 *db, int op, const char *schema, const char *table, sqlite3_int64 key,
                         sqlite3_int64 new_key)
{
    floe_checkpoint_t *c = arg;

    (void)db;
    (void)key;
    (void)new_key;
    if (c->is_policy_changed || strcmp(schema, "main") != 0)
        return;
    for (size_t i = 0; i < sizeof(policy_tables) / sizeof(policy_tables[0]); i++) {
        if (strcmp(table, policy_tables[i].table) == 0) {
            c->is_policy_changed = (policy_tables[i].changes & change_of(op)) != 0;
            return;
        }
    }
}

int floe_checkpoint_watch_policies(sqlite3 *db, floe_checkpoint_t *c)
{
    char *err = NULL;

    if (sqlite3_create_function(db, "floe_policy_changed", 0, SQLITE_UTF8, c, note_policy_change, NULL, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(db, RENAME_TRIGGER, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "floe: sqlite: policy triggers: %s\n", err ? err : sqlite3_errmsg(db));
        sqlite3_free(err);
        return FLOE_EFAIL;
    }
    sqlite3_preupdate_hook(db, on_preupdate, c);
    return FLOE_OK;
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
