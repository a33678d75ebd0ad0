/*
 * The table catalog of table.h: the s3table rows, their warehouse buckets and the statements that
 * change them. Called by handlers/s3tables/table.c (S3 Tables) and handlers/iceberg_rest/iceberg_*.c (Iceberg REST).
 *
 * Design notes:
 *  1. A table is a row of s3table plus a warehouse bucket in the S3 store, named as AWS names them
 *     ("<uuid prefix>-<random>--table-s3"). The ARN carries the table's UUID, so it survives a
 *     rename; so does the version token, which changes only when the metadata pointer moves.
 *  2. A table with metadata is created in three steps, shared by CreateTable and the Iceberg REST
 *     catalog (create-table, and a commit that creates): floe_table_draft checks the name is free
 *     and picks the ids, floe_table_store_first_metadata makes the warehouse and writes
 *     metadata/00000-<uuid>.metadata.json (fsynced), floe_table_insert inserts the row in one
 *     transaction. The row, and so the table, exists only once its metadata file does; if the
 *     insert loses (a racing create of the same name), the warehouse is queued for the janitor.
 *
 *        floe_table_draft ─▶ floe_table_store_first_metadata ─▶ floe_table_insert ─▶ table exists
 *                                     │ (bucket, then file)             │ name taken, settings refused
 *                                     └─────────────────────────────────┴──▶ floe_janitor_enqueue
 *
 *     A staged create (Iceberg REST stage-create, with --iceberg-stage-create) reserves its
 *     warehouse at once (floe_table_reserve_warehouse: the bucket, no row), so the engine can
 *     write data files before its create commit; that commit adopts the reservation
 *     (floe_table_draft_adopt, is_staged) and goes on as above, except that a staged warehouse is
 *     never queued on failure (a racing commit of the same staged create may own it). A
 *     reservation no table took is queued by floe_janitor_recover at the next start.
 *
 *  3. Every move of the metadata pointer is one UPDATE guarded by the version token
 *     (floe_table_swap_metadata, or several in one transaction with floe_table_swap_metadata_all),
 *     so of K racing writers exactly one wins (SQLite serializes writers).
 *  4. floe_table_delete deletes the row and queues the warehouse in one transaction; the janitor
 *     removes the objects later. DeleteNamespace and DeleteTableBucket refuse while tables exist
 *     (foreign keys without cascade).
 *  5. Deletes and renames are addressed by name: the handler looks the table up by name, then the
 *     change is one guarded statement that repeats the row id, the version token (when given) and
 *     the name and namespace looked up. A rename does not change the token, so without the name in
 *     the guard K racing renames on one token could all succeed (seen with tests/e2e/robustness/71-races.py
 *     on --threads 2). When the guard matches nothing, refused_change() says why as a later
 *     request would see it: FLOE_ENOTFOUND if the name no longer names the table, else
 *     FLOE_ECHANGED.
 *
 * Invariants (asserted where the code relies on them):
 *  1. A metadata pointer, once set, lies inside its table's warehouse: every swap is given such a
 *     location, and so is every insert with metadata.
 *  2. A compare-and-swap always names the token it expects (never NULL), and a draft always
 *     carries a version token and a warehouse before it is inserted.
 */
#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "call/call_sql.h"
#include "call/transaction.h"
#include "catalog/janitor.h"
#include "catalog/table.h"
#include "catalog/table_columns.h"
#include "store/store.h"

#define VERSION_TOKEN_LEN 32
#define WAREHOUSE_UUID_PREFIX_LEN 18 /* "xxxxxxxx-xxxx-xxxx" of the table's UUID */
#define WAREHOUSE_RANDOM_LEN 34      /* makes the name 63 characters, S3's limit, as AWS's are */
#define WAREHOUSE_SUFFIX "--table-s3"
#define S3_SCHEME "s3://"
#define FIRST_METADATA_PREFIX "metadata/00000-"
#define METADATA_SUFFIX ".metadata.json"

FLOE_SQL(sql_insert_table,
    "INSERT INTO s3table (table_bucket_id, namespace_id, name, table_id, format, version_token, metadata_location,"
    " warehouse_bucket, created_at, created_by, modified_at, modified_by)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?9, '') RETURNING id"); /* modified_by '': never modified */

FLOE_SQL(sql_table_exists, "SELECT 1 FROM s3table WHERE namespace_id = ?1 AND name = ?2");

FLOE_SQL(sql_swap_metadata,
    "UPDATE s3table SET metadata_location = ?1, version_token = ?2, modified_at = ?3, modified_by = ?4"
    " WHERE id = ?5 AND version_token = ?6 RETURNING id");

FLOE_SQL(sql_table_row_exists, "SELECT 1 FROM s3table WHERE id = ?1");
FLOE_SQL(sql_warehouse_taken, "SELECT 1 FROM s3table WHERE warehouse_bucket = ?1");

/* Design note 5: the guard repeats the name and namespace the handler looked up. */
FLOE_SQL(sql_delete_table,
    "DELETE FROM s3table WHERE id = ?1 AND (?2 IS NULL OR version_token = ?2) AND namespace_id = ?3 AND name = ?4"
    " RETURNING warehouse_bucket");

FLOE_SQL(sql_rename_table,
    "UPDATE s3table SET namespace_id = ?1, name = ?2, modified_at = ?3, modified_by = ?4"
    " WHERE id = ?5 AND (?6 IS NULL OR version_token = ?6) AND namespace_id = ?7 AND name = ?8 RETURNING id");

FLOE_SQL(sql_table_still_named, "SELECT 1 FROM s3table WHERE id = ?1 AND namespace_id = ?2 AND name = ?3");

FLOE_SQL(sql_list_tables,
    "SELECT " FLOE_TABLE_COLUMNS " FROM s3table t JOIN namespace n ON n.id = t.namespace_id"
    " WHERE t.table_bucket_id = ?1 AND (?2 IS NULL OR t.namespace_id = ?2)"
    " AND (?3 IS NULL OR substr(t.name, 1, length(?3)) = ?3) AND (n.name, t.name) > (?4, ?5)"
    " ORDER BY n.name, t.name LIMIT ?6");

FLOE_SQL(sql_list_names,
    "SELECT name FROM s3table WHERE namespace_id = ?1 AND name > ?2 ORDER BY name LIMIT ?3");

/* ---- tokens and warehouse names ---- */

static char *new_version_token(floe_call_t *call)
{
    char *token = floe_call_alloc(call, VERSION_TOKEN_LEN + 1);
    floe_random_alnum(token, VERSION_TOKEN_LEN);
    return token;
}

/* AWS names a table's bucket "<first three groups of a UUID>-<random>--table-s3" (63 characters). */
static char *warehouse_bucket_name(floe_call_t *call, const char *table_id)
{
    char random[WAREHOUSE_RANDOM_LEN + 1];
    floe_random_alnum(random, WAREHOUSE_RANDOM_LEN);
    return floe_call_printf(call, "%.*s-%s" WAREHOUSE_SUFFIX, WAREHOUSE_UUID_PREFIX_LEN, table_id, random);
}

/* "s3://<warehouse>/<something>". */
static bool is_inside_warehouse(const char *warehouse, const char *location)
{
    size_t scheme_len = strlen(S3_SCHEME), n = strlen(warehouse);
    return strncmp(location, S3_SCHEME, scheme_len) == 0 && strncmp(location + scheme_len, warehouse, n) == 0 &&
           location[scheme_len + n] == '/' && location[scheme_len + n + 1] != '\0';
}

char *floe_table_warehouse_location(floe_call_t *call, const floe_table_row_t *table)
{
    return floe_call_printf(call, S3_SCHEME "%s", table->warehouse_bucket);
}

int floe_table_location_is_inside(const floe_table_row_t *table, const char *location)
{
    return is_inside_warehouse(table->warehouse_bucket, location);
}

/* ---- one-row statements ---- */

/* Steps a statement bound by floe_sql_bind (NULL: the bind failed the call) once and resets it:
 * FLOE_DB_ROW, FLOE_DB_DONE, the code of a constraint kind in `expect` (db/sql.h), or FLOE_EFAIL with
 * the call failed (500). */
static int step_once(floe_call_t *call, floe_db_stmt_t *stmt, unsigned expect)
{
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, expect);
    /* A write that RETURNs a row commits (outside a transaction) only when it steps to its end:
     * stop at the row and a failed commit would go unseen, and the write be answered as done. */
    if (rc == FLOE_DB_ROW) {
        int end = floe_sql_step(call, stmt, FLOE_DB_NONE);
        if (end != FLOE_DB_DONE && end != FLOE_DB_ROW)
            rc = end;
    }
    floe_db_reset(stmt);
    return rc;
}

/* A statement's first row (a query's, or what a write RETURNs): FLOE_OK when there is one,
 * FLOE_ENOTFOUND when not, FLOE_EFAIL with the call failed. */
static int read_once(floe_call_t *call, floe_db_stmt_t *stmt)
{
    switch (step_once(call, stmt, FLOE_DB_NONE)) {
    case FLOE_DB_ROW: return FLOE_OK;
    case FLOE_DB_DONE: return FLOE_ENOTFOUND;
    default: return FLOE_EFAIL;
    }
}

/* ---- creating a table (design note 2) ---- */

int floe_table_draft(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                     const char *name, const char *format, floe_table_draft_t *t)
{
    int taken;

    assert(name != NULL && format != NULL);
    memset(t, 0, sizeof(*t));
    t->bucket = *bucket;
    t->ns = *ns;
    t->name = name;
    t->format = format;
    taken = read_once(call, floe_sql_bind(call, sql_table_exists, "it", ns->id, name));
    if (taken == FLOE_OK)
        return FLOE_EEXISTS;
    if (taken != FLOE_ENOTFOUND)
        return FLOE_EFAIL;
    floe_uuid_v4(t->table_id);
    t->warehouse = warehouse_bucket_name(call, t->table_id);
    t->version_token = new_version_token(call);
    return FLOE_OK;
}

static bool is_lower_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool is_letter_or_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* A UUID as Iceberg writes table-uuid: 8-4-4-4-12 lowercase hex digits. */
static bool is_canonical_uuid(const char *s)
{
    if (strlen(s) != FLOE_UUID_LEN)
        return false;
    for (size_t i = 0; i < FLOE_UUID_LEN; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_lower_hex(s[i]))
            return false;
    }
    return true;
}

/* True when `name` is a warehouse bucket name warehouse_bucket_name() could give table `table_id`. */
static bool is_warehouse_name_for(const char *name, const char *table_id)
{
    size_t suffix_len = strlen(WAREHOUSE_SUFFIX);
    if (strlen(name) != WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN + suffix_len ||
        strncmp(name, table_id, WAREHOUSE_UUID_PREFIX_LEN) != 0 || name[WAREHOUSE_UUID_PREFIX_LEN] != '-' ||
        strcmp(name + WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN, WAREHOUSE_SUFFIX) != 0)
        return false;
    for (size_t i = WAREHOUSE_UUID_PREFIX_LEN + 1; i < WAREHOUSE_UUID_PREFIX_LEN + 1 + WAREHOUSE_RANDOM_LEN; i++) {
        if (!is_letter_or_digit(name[i]))
            return false;
    }
    return true;
}

int floe_table_draft_adopt(floe_call_t *call, floe_table_draft_t *t, const char *table_uuid, const char *location)
{
    char *name;
    size_t n;

    if (table_uuid != NULL) {
        if (!is_canonical_uuid(table_uuid))
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE,
                             "The table UUID %s is not a lowercase UUID.", table_uuid);
        memcpy(t->table_id, table_uuid, FLOE_UUID_LEN + 1);
        t->warehouse = warehouse_bucket_name(call, t->table_id);
    }
    if (location == NULL)
        return FLOE_OK;
    if (strncmp(location, S3_SCHEME, strlen(S3_SCHEME)) != 0)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE,
                         "The table location %s is not one S3 Tables gave.", location);
    name = floe_call_strdup(call, location + strlen(S3_SCHEME));
    n = strlen(name);
    while (n > 0 && name[n - 1] == '/')
        name[--n] = '\0';
    if (!is_warehouse_name_for(name, t->table_id))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE,
                         "The table location %s is not one S3 Tables gave: S3 Tables chooses each table's location.",
                         location);
    switch (read_once(call, floe_sql_bind(call, sql_warehouse_taken, "t", name))) {
    case FLOE_ENOTFOUND: break;
    case FLOE_OK:
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE,
                         "The table location %s is another table's: S3 Tables chooses each table's location.", location);
    default: return FLOE_EFAIL;
    }
    t->warehouse = name;
    t->is_staged = true;
    return FLOE_OK;
}

int floe_table_reserve_warehouse(floe_call_t *call, const floe_table_draft_t *t)
{
    assert(t->warehouse != NULL && t->metadata_location == NULL);
    if (floe_store_create_bucket(floe_call_state(call), t->warehouse, true, floe_call_now(call)) != FLOE_OK)
        return floe_fail_internal(call, "cannot reserve a staged table's warehouse bucket");
    return FLOE_OK;
}

/* Gives up on a draft whose warehouse exists already: the janitor removes it (note 2). Not a staged
 * create's: a racing commit of the same staged create may have won it, and a warehouse no table
 * took is queued at the next start (floe_janitor_recover). */
static int abandon_warehouse(floe_call_t *call, const floe_table_draft_t *t)
{
    if (t->metadata_location == NULL || t->is_staged)
        return FLOE_OK;
    if (floe_janitor_enqueue(floe_call_state(call), t->warehouse, floe_call_now(call)) != FLOE_OK)
        return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    return FLOE_OK;
}

int floe_table_store_first_metadata(floe_call_t *call, floe_table_draft_t *t, const char *json)
{
    floe_state_t *st = floe_call_state(call);
    char file_id[FLOE_UUID_LEN + 1], etag[33], *key;

    assert(t->warehouse != NULL && t->metadata_location == NULL);
    switch (floe_store_create_bucket(st, t->warehouse, true, floe_call_now(call))) {
    case FLOE_OK: break;
    case FLOE_EEXISTS:
        if (t->is_staged) /* reserved by the staged create, maybe with data files in it already */
            break;
        /* fall through */
    default: return floe_fail_internal(call, "cannot create a warehouse bucket");
    }
    floe_uuid_v4(file_id);
    key = floe_call_printf(call, FIRST_METADATA_PREFIX "%s" METADATA_SUFFIX, file_id);
    if (floe_store_put_object(st, floe_call_config(call)->data_dir, t->warehouse, key, json, strlen(json),
                              "application/json", floe_call_now(call), etag) != FLOE_OK) {
        if (!t->is_staged) /* see abandon_warehouse */
            floe_janitor_enqueue(st, t->warehouse, floe_call_now(call)); /* else floe_janitor_recover finds it */
        return floe_fail_internal(call, "cannot write a table's first metadata file");
    }
    t->metadata_location = floe_call_printf(call, S3_SCHEME "%s/%s", t->warehouse, key);
    return FLOE_OK;
}

typedef struct insert_args {
    const floe_table_draft_t *t;
    floe_table_settings_fn settings;
    const void *settings_ctx;
    int rc; /* FLOE_EEXISTS when the body gave up for that reason */
} insert_args_t;

/* The body of floe_table_insert's transaction. */
static int insert_body(floe_call_t *call, void *arg)
{
    insert_args_t *a = arg;
    const floe_table_draft_t *t = a->t;
    floe_db_stmt_t *stmt;
    int64_t row_id;
    int rc;

    if (t->metadata_location == NULL &&
        floe_store_create_bucket(floe_call_state(call), t->warehouse, true, floe_call_now(call)) != FLOE_OK)
        return floe_fail_internal(call, "cannot create a warehouse bucket");
    stmt = floe_sql_bind(call, sql_insert_table, "iittttttit", t->bucket.id, t->ns.id, t->name, t->table_id,
                         t->format, t->version_token, t->metadata_location, t->warehouse, (int64_t)floe_call_now(call),
                         floe_call_account(call));
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    row_id = rc == FLOE_DB_ROW ? floe_db_column_int64(stmt, 0) : 0;
    floe_db_reset(stmt);
    if (rc == FLOE_EUNIQUE) { /* the name (or the adopted table id) was taken meanwhile */
        a->rc = FLOE_EEXISTS;
        return FLOE_EFAIL;
    }
    if (rc == FLOE_DB_DONE)
        return floe_fail_internal(call, "an insert returned no row");
    if (rc != FLOE_DB_ROW)
        return FLOE_EFAIL;
    return a->settings != NULL ? a->settings(call, row_id, t->bucket.id, a->settings_ctx) : FLOE_OK;
}

int floe_table_insert(floe_call_t *call, const floe_table_draft_t *t, floe_table_settings_fn settings,
                      const void *settings_ctx)
{
    insert_args_t a = {t, settings, settings_ctx, FLOE_EFAIL};

    assert(t->version_token != NULL && t->warehouse != NULL); /* invariant 2 */
    assert(t->metadata_location == NULL || is_inside_warehouse(t->warehouse, t->metadata_location)); /* invariant 1 */
    if (floe_call_in_transaction(call, insert_body, &a) == FLOE_OK)
        return FLOE_OK;
    if (abandon_warehouse(call, t) != FLOE_OK)
        return FLOE_EFAIL;
    return a.rc;
}

/* ---- the metadata pointer (design note 3) ---- */

/* One guarded UPDATE: FLOE_OK when it swapped, FLOE_ENOTFOUND when the guard matched nothing,
 * FLOE_EFAIL. */
static int swap_once(floe_call_t *call, const floe_table_row_t *t, const char *expected_token, const char *location,
                     const char *token)
{
    assert(expected_token != NULL && token != NULL);    /* invariant 2 */
    assert(floe_table_location_is_inside(t, location)); /* invariant 1 */
    return read_once(call, floe_sql_bind(call, sql_swap_metadata, "ttitit", location, token,
                                         (int64_t)floe_call_now(call), floe_call_account(call), t->id,
                                         expected_token));
}

/* Why a swap changed nothing: the row is still there (FLOE_ECHANGED) or not (FLOE_ENOTFOUND). */
static int refused_swap(floe_call_t *call, const floe_table_row_t *t)
{
    switch (read_once(call, floe_sql_bind(call, sql_table_row_exists, "i", t->id))) {
    case FLOE_OK: return FLOE_ECHANGED;
    case FLOE_ENOTFOUND: return FLOE_ENOTFOUND;
    default: return FLOE_EFAIL;
    }
}

int floe_table_swap_metadata(floe_call_t *call, const floe_table_row_t *t, const char *expected_token,
                             const char *metadata_location, char **new_token)
{
    char *token = new_version_token(call);

    switch (swap_once(call, t, expected_token, metadata_location, token)) {
    case FLOE_OK: *new_token = token; return FLOE_OK;
    case FLOE_ENOTFOUND: return refused_swap(call, t);
    default: return FLOE_EFAIL;
    }
}

typedef struct swap_all_args {
    floe_table_swap_t *swaps;
    size_t n;
    size_t failed;      /* the swap that stopped the transaction */
    int rc; /* and why */
} swap_all_args_t;

static int swap_all_body(floe_call_t *call, void *arg)
{
    swap_all_args_t *a = arg;

    for (a->failed = 0; a->failed < a->n; a->failed++) {
        floe_table_swap_t *s = &a->swaps[a->failed];
        char *token = new_version_token(call);
        int swapped = swap_once(call, s->table, s->expected_token, s->metadata_location, token);
        if (swapped == FLOE_EFAIL)
            return FLOE_EFAIL;
        if (swapped == FLOE_ENOTFOUND) {
            a->rc = refused_swap(call, s->table);
            return FLOE_EFAIL;
        }
        s->new_token = token;
    }
    return FLOE_OK;
}

int floe_table_swap_metadata_all(floe_call_t *call, floe_table_swap_t *swaps, size_t n, size_t *failed)
{
    swap_all_args_t a = {swaps, n, 0, FLOE_EFAIL};

    if (floe_call_in_transaction(call, swap_all_body, &a) == FLOE_OK)
        return FLOE_OK;
    for (size_t i = 0; i < n; i++)
        swaps[i].new_token = NULL; /* rolled back: no token guards anything */
    if (a.rc == FLOE_ECHANGED || a.rc == FLOE_ENOTFOUND) {
        assert(a.failed < n);
        *failed = a.failed;
    }
    return a.rc;
}

/* ---- deleting and renaming (design note 5) ---- */

/* Why a guarded delete or rename of table `t` changed nothing: the name the request gave no longer
 * names the table (FLOE_ENOTFOUND), or its token moved on (FLOE_ECHANGED). */
static int refused_change(floe_call_t *call, const floe_table_row_t *t)
{
    switch (read_once(call, floe_sql_bind(call, sql_table_still_named, "iit", t->id, t->ns.id, t->name))) {
    case FLOE_OK: return FLOE_ECHANGED;
    case FLOE_ENOTFOUND: return FLOE_ENOTFOUND;
    default: return FLOE_EFAIL;
    }
}

typedef struct delete_args {
    const floe_table_row_t *t;
    const char *token;
    bool is_refused; /* the guard matched nothing */
} delete_args_t;

static int delete_body(floe_call_t *call, void *arg)
{
    delete_args_t *a = arg;
    int deleted = read_once(call, floe_sql_bind(call, sql_delete_table, "itit", a->t->id, a->token, a->t->ns.id,
                                                a->t->name));

    if (deleted == FLOE_EFAIL)
        return FLOE_EFAIL;
    if (deleted == FLOE_ENOTFOUND) {
        a->is_refused = true;
        return FLOE_EFAIL;
    }
    if (floe_janitor_enqueue(floe_call_state(call), a->t->warehouse_bucket, floe_call_now(call)) != FLOE_OK)
        return floe_fail_internal(call, floe_state_errmsg(floe_call_state(call)));
    return FLOE_OK;
}

int floe_table_delete(floe_call_t *call, const floe_table_row_t *t, const char *token)
{
    delete_args_t a = {t, token, false};

    assert(t->id > 0 && t->ns.id > 0 && t->name != NULL && t->warehouse_bucket != NULL);
    if (floe_call_in_transaction(call, delete_body, &a) == FLOE_OK)
        return FLOE_OK;
    return a.is_refused ? refused_change(call, t) : FLOE_EFAIL;
}

int floe_table_rename(floe_call_t *call, const floe_table_row_t *t, const floe_namespace_row_t *dest,
                      const char *new_name, const char *token)
{
    int renamed;

    assert(t->id > 0 && t->ns.id > 0 && t->name != NULL && dest->id > 0 && new_name != NULL);
    renamed = step_once(call, floe_sql_bind(call, sql_rename_table, "itititit", dest->id, new_name,
                                            (int64_t)floe_call_now(call), floe_call_account(call), t->id,
                                            token, t->ns.id, t->name), FLOE_DB_UNIQUE);
    switch (renamed) {
    case FLOE_DB_ROW: return FLOE_OK;
    case FLOE_DB_DONE: return refused_change(call, t);
    case FLOE_EUNIQUE: return FLOE_EEXISTS;
    default: return FLOE_EFAIL;
    }
}

/* ---- listing ---- */


int floe_table_list(floe_call_t *call, const floe_table_list_query_t *q, floe_table_row_t **rows, size_t *n)
{
    const char *after_ns = q->after_ns != NULL ? q->after_ns : "";
    const char *after_name = q->after_name != NULL ? q->after_name : "";
    floe_table_row_t *found = NULL;
    size_t count = 0, cap = 0;
    floe_db_stmt_t *stmt;
    int rc;

    assert(q->limit >= 0);
    stmt = q->ns != NULL ? floe_sql_bind(call, sql_list_tables, "iitttn", q->bucket->id, q->ns->id, q->prefix, after_ns,
                                         after_name, q->limit)
                         : floe_sql_bind(call, sql_list_tables, "ittttn", q->bucket->id, (const char *)NULL, q->prefix,
                                         after_ns, after_name, q->limit);
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        found = floe_call_grow(call, found, count, &cap, sizeof(*found));
        found[count].bucket = *q->bucket;
        floe_table_columns_read(call, stmt, &found[count++]);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *rows = found;
    *n = count;
    return FLOE_OK;
}

int floe_table_list_names(floe_call_t *call, const floe_namespace_row_t *ns, const char *after, int limit,
                          char ***names, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_list_names, "itn", ns->id, after, limit);
    char **found = NULL;
    size_t count = 0, cap = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        found = floe_call_grow(call, found, count, &cap, sizeof(*found));
        found[count++] = floe_sql_text(call, stmt, 0);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *names = found;
    *n = count;
    return FLOE_OK;
}
