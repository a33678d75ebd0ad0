/*
 * When a connection checkpoints its WAL, and who hears of a commit (checkpoint.h).
 */
#include <string.h>

#include "db/checkpoint.h"

/* SQLite's default wal_autocheckpoint (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT), which the hook keeps. */
#define CHECKPOINT_FRAMES 1000

static void on_update(void *arg, int op, const char *db, const char *table, sqlite3_int64 rowid)
{
    floe_checkpoint_t *c = arg;

    (void)db;
    (void)rowid;
    if (op == SQLITE_INSERT && c->table != NULL && strcmp(table, c->table) == 0)
        c->is_inserted = true;
}

static void on_rollback(void *arg)
{
    floe_checkpoint_t *c = arg;

    c->is_inserted = false;
}

/* The commit is in the WAL, where the next read of any connection sees it: a watcher woken here
 * finds the inserted row, whichever connection it reads on. */
static int on_commit(void *arg, sqlite3 *db, const char *name, int n_frames)
{
    floe_checkpoint_t *c = arg;

    if (c->is_inserted) {
        c->is_inserted = false;
        c->on_insert(c->arg);
    }
    if (n_frames >= CHECKPOINT_FRAMES)
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return SQLITE_OK;
}

void floe_checkpoint_install(sqlite3 *db, floe_checkpoint_t *c)
{
    sqlite3_wal_hook(db, on_commit, c);
}

void floe_checkpoint_watch(sqlite3 *db, floe_checkpoint_t *c, const char *table, void (*fn)(void *arg), void *arg)
{
    c->table = table;
    c->on_insert = fn;
    c->arg = arg;
    c->is_inserted = false;
    sqlite3_update_hook(db, on_update, c);
    sqlite3_rollback_hook(db, on_rollback, c);
}
