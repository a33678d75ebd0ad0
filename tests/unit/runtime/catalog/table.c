/*
 * Tests of runtime/catalog/table.c and lookup.c: the table catalog's compare-and-swap and its
 * guarded renames and deletes, and that SQLite failing is a 500, never "not found" or "the name is
 * free".
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <h2o/memory.h>
#include <sqlite3.h>

#include "call/call.h"
#include "catalog/lookup.h"
#include "catalog/table.h"
#include "db/state.h"
#include "harness.h"
#include "store/recover.h"
#include "store/store.h"

typedef struct catalog_fixture {
    char dir[PATH_MAX];
    char db[PATH_MAX + 16];
    floe_state_t *st;
    h2o_mem_pool_t pool;
    floe_config_t config;
    floe_call_t call;
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
} catalog_fixture_t;

static int catalog_remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A fresh database with table bucket "b" (row 1) and its namespace "ns" (row 1). */
static int catalog_fixture_open(catalog_fixture_t *f)
{
    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "%s/floe-catalog-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(f->db, sizeof(f->db), "%s/floe.db", f->dir);
    if (floe_state_open(f->db, 0, &f->st) != 0)
        return -1;
    if (sqlite3_exec(floe_state_db(f->st),
                     "INSERT INTO table_bucket (id, name, bucket_id, created_at, account_id, region)"
                     " VALUES (1, 'b', 'bucket-id', 1, '000000000000', 'us-east-1');"
                     "INSERT INTO namespace (id, table_bucket_id, name, namespace_id, created_at, created_by)"
                     " VALUES (1, 1, 'ns', 'namespace-id', 1, '111122223333');",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    f->config.data_dir = f->dir;
    f->config.region = "us-east-1";
    f->config.account_id = "111122223333";
    f->config.arn_bucket_prefix = "arn:aws:s3tables:us-east-1:111122223333:bucket/";
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, f->st, &f->config);
    f->bucket = (floe_bucket_row_t){1, "b", "arn:aws:s3tables:us-east-1:111122223333:bucket/b", "bucket-id",
                                    "customer", 1};
    f->ns = (floe_namespace_row_t){1, "ns", "namespace-id", "111122223333", 1};
    return 0;
}

static void catalog_fixture_close(catalog_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
    floe_state_close(f->st);
    nftw(f->dir, catalog_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Creates table `name` without metadata and looks it up. */
static int catalog_create(catalog_fixture_t *f, const char *name, floe_table_row_t *t)
{
    floe_table_draft_t d;
    if (floe_table_draft(&f->call, &f->bucket, &f->ns, name, "ICEBERG", &d) != FLOE_OK ||
        floe_table_insert(&f->call, &d, NULL, NULL) != FLOE_OK)
        return -1;
    return floe_lookup_table_in(&f->call, &f->bucket, &f->ns, name, t);
}

TEST(table_swap_moves_the_pointer_once_per_token)
{
    catalog_fixture_t f;
    floe_table_row_t t;
    floe_table_draft_t d;
    char *token = NULL, *location;

    CHECK(catalog_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(catalog_create(&f, "t", &t) == 0, "a table is drafted, inserted and found by its name");
    location = floe_call_printf(&f.call, "s3://%s/metadata/00001-a.metadata.json", t.warehouse_bucket);
    CHECK(floe_table_swap_metadata(&f.call, &t, t.version_token, location, &token) == FLOE_OK,
          "the pointer moves when the token is the table's");
    CHECK(token != NULL && strcmp(token, t.version_token) != 0, "a move gives the table a new token");
    CHECK(floe_table_swap_metadata(&f.call, &t, t.version_token, location, &token) == FLOE_ECHANGED,
          "a second move with the same token is refused as stale");
    CHECK(floe_table_draft(&f.call, &f.bucket, &f.ns, "t", "ICEBERG", &d) == FLOE_EEXISTS,
          "a new table cannot take the name");
    CHECK(floe_table_delete(&f.call, &t, token) == FLOE_OK, "the table is deleted with its current token");
    CHECK(floe_table_swap_metadata(&f.call, &t, token, location, &token) == FLOE_ENOTFOUND,
          "a move on a deleted table says it is gone");
    CHECK(floe_table_delete(&f.call, &t, NULL) == FLOE_ENOTFOUND, "a second delete says it is gone");
    CHECK(f.call.failure.code == FLOE_OK, "none of these outcomes fails the call");
    catalog_fixture_close(&f);
}

TEST(table_rename_is_guarded_by_name_and_token)
{
    catalog_fixture_t f;
    floe_table_row_t t1, t2;

    CHECK(catalog_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(catalog_create(&f, "t1", &t1) == 0 && catalog_create(&f, "t2", &t2) == 0, "two tables are created");
    CHECK(floe_table_rename(&f.call, &t1, &f.ns, "t2", NULL) == FLOE_EEXISTS,
          "a rename onto another table's name is refused");
    CHECK(floe_table_rename(&f.call, &t1, &f.ns, "t3", "not-the-token") == FLOE_ECHANGED,
          "a rename with a stale token is refused");
    CHECK(floe_table_rename(&f.call, &t1, &f.ns, "t3", t1.version_token) == FLOE_OK,
          "a rename with the table's token happens");
    CHECK(floe_table_rename(&f.call, &t1, &f.ns, "t4", NULL) == FLOE_ENOTFOUND,
          "a rename by the old name finds nothing: the name no longer names the table");
    CHECK(floe_table_delete(&f.call, &t1, NULL) == FLOE_ENOTFOUND, "so does a delete by the old name");
    CHECK(f.call.failure.code == FLOE_OK, "none of these outcomes fails the call");
    catalog_fixture_close(&f);
}

/* A data file in `warehouse`, written as an engine writes one over S3 before its create commit. */
static int catalog_put_data_file(catalog_fixture_t *f, const char *warehouse)
{
    char etag[33];
    return floe_store_put_object(f->st, f->dir, warehouse, "data/00000-0.parquet", "PAR1", 4, "", 1, etag) ==
                   FLOE_OK ? 0 : -1;
}

/* The data file catalog_put_data_file wrote is in `warehouse`. */
static bool catalog_has_data_file(catalog_fixture_t *f, const char *warehouse)
{
    return floe_store_head_object(f->st, warehouse, "data/00000-0.parquet", NULL) == FLOE_OK;
}

TEST(table_staged_create_reserves_its_warehouse_for_the_create_commit)
{
    catalog_fixture_t f;
    floe_table_draft_t staged, commit, racer, other;
    floe_table_row_t t;
    const char *location;

    CHECK(catalog_fixture_open(&f) == 0 && floe_store_recover(f.st, f.dir) == 0, "a fresh catalog and store open");
    CHECK(floe_table_draft(&f.call, &f.bucket, &f.ns, "ctas", "ICEBERG", &staged) == FLOE_OK &&
              floe_table_reserve_warehouse(&f.call, &staged) == FLOE_OK,
          "a staged create reserves the warehouse its metadata names");
    CHECK(catalog_put_data_file(&f, staged.warehouse) == 0, "so an engine writes data files there before committing");
    location = floe_call_printf(&f.call, "s3://%s/", staged.warehouse);
    CHECK(floe_table_draft(&f.call, &f.bucket, &f.ns, "ctas", "ICEBERG", &commit) == FLOE_OK &&
              floe_table_draft(&f.call, &f.bucket, &f.ns, "ctas", "ICEBERG", &racer) == FLOE_OK,
          "no table has the name yet: the create commit and a racing one both draft it");
    CHECK(floe_table_draft_adopt(&f.call, &commit, staged.table_id, location) == FLOE_OK &&
              floe_table_draft_adopt(&f.call, &racer, staged.table_id, location) == FLOE_OK && commit.is_staged,
          "both adopt the staged location");
    CHECK(floe_table_store_first_metadata(&f.call, &commit, "{}") == FLOE_OK,
          "the create commit writes its first metadata into the reserved warehouse");
    CHECK(floe_table_insert(&f.call, &commit, NULL, NULL) == FLOE_OK &&
              floe_lookup_table_in(&f.call, &f.bucket, &f.ns, "ctas", &t) == FLOE_OK,
          "and the table exists");
    CHECK(strcmp(t.warehouse_bucket, staged.warehouse) == 0 && catalog_has_data_file(&f, t.warehouse_bucket),
          "in the staged warehouse, with the data file written before the commit");
    CHECK(floe_table_store_first_metadata(&f.call, &racer, "{}") == FLOE_OK &&
              floe_table_insert(&f.call, &racer, NULL, NULL) == FLOE_EEXISTS,
          "the racing create commit loses");
    CHECK(catalog_has_data_file(&f, t.warehouse_bucket), "and leaves the winner's warehouse where it is");
    CHECK(floe_table_draft(&f.call, &f.bucket, &f.ns, "other", "ICEBERG", &other) == FLOE_OK &&
              floe_table_draft_adopt(&f.call, &other, staged.table_id, location) == FLOE_EFAIL &&
              f.call.failure.code == FLOE_EINVAL,
          "another table cannot adopt a location a table has");
    catalog_fixture_close(&f);
}

static int interrupt_every_step(void *arg)
{
    (void)arg;
    return 1;
}

TEST(table_catalog_answers_500_when_sqlite_fails)
{
    catalog_fixture_t f;
    floe_table_row_t t;
    floe_table_draft_t d;
    char *token;

    CHECK(catalog_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(catalog_create(&f, "t", &t) == 0, "a table is created");
    sqlite3_progress_handler(floe_state_db(f.st), 1, interrupt_every_step, NULL);
    CHECK(floe_table_draft(&f.call, &f.bucket, &f.ns, "u", "ICEBERG", &d) == FLOE_EFAIL &&
              f.call.failure.code == FLOE_EFAIL,
          "a draft whose name check fails is a 500, not a free name");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_lookup_table_in(&f.call, &f.bucket, &f.ns, "t", &t) == FLOE_EFAIL &&
              f.call.failure.code == FLOE_EFAIL,
          "a lookup that fails is a 500, not a missing table");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_table_swap_metadata(&f.call, &t, t.version_token,
                                   floe_call_printf(&f.call, "s3://%s/m.json", t.warehouse_bucket),
                                   &token) == FLOE_EFAIL &&
              f.call.failure.code == FLOE_EFAIL,
          "a swap that fails is a 500, not a stale token or a gone table");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_table_delete(&f.call, &t, NULL) == FLOE_EFAIL &&
              f.call.failure.code == FLOE_EFAIL,
          "a delete that fails is a 500");
    sqlite3_progress_handler(floe_state_db(f.st), 0, NULL, NULL);
    catalog_fixture_close(&f);
}

/* Looks `arn` up as a table bucket (or, with is_table, a table ARN) and returns the house code it fails with. */
static int lookup_error(catalog_fixture_t *f, const char *operation, const char *arn, bool is_table)
{
    floe_bucket_row_t b;
    floe_table_row_t t;

    f->call.operation = operation;
    f->call.failure.code = FLOE_OK;
    if ((is_table ? floe_lookup_table_by_arn(&f->call, arn, &t) : floe_lookup_bucket(&f->call, arn, &b)) == FLOE_OK)
        return FLOE_OK;
    return f->call.failure.code;
}

TEST(lookup_of_another_accounts_arn_is_access_denied_and_of_your_own_not_found)
{
    catalog_fixture_t f;
    const char *other = "arn:aws:s3tables:us-east-1:123456789012:bucket/does-not-exist";

    CHECK(catalog_fixture_open(&f) == 0, "fixture opens");
    CHECK(lookup_error(&f, "GetTableBucket", other, false) == FLOE_EDENIED,
          "a table bucket ARN of another account is access denied");
    CHECK(strcmp(f.call.failure.message,
                 "User: arn:aws:iam::111122223333:root is not authorized to perform: s3tables:GetTableBucket on "
                 "resource: arn:aws:s3tables:us-east-1:123456789012:bucket/does-not-exist because no resource-based "
                 "policy allows the s3tables:GetTableBucket action") == 0,
          "in IAM's words, naming the caller, the action and the resource");
    CHECK(lookup_error(&f, "GetTable",
                       "arn:aws:s3tables:us-east-1:123456789012:bucket/b/table/f577d6ca-c1dd-4686-9f41-62130a40e91b",
                       true) == FLOE_EDENIED,
          "a table ARN of another account is access denied");
    CHECK(lookup_error(&f, "GetTableBucket", "arn:aws:s3tables:us-east-1:111122223333:bucket/does-not-exist", false) ==
              FLOE_ENOTFOUND,
          "a missing bucket of the caller's own account is not found");
    CHECK(lookup_error(&f, "GetTableBucket", "arn:aws:s3tables:eu-west-1:111122223333:bucket/b", false) ==
              FLOE_ENOTFOUND,
          "a bucket of the caller's own account in another region is not found");
    CHECK(lookup_error(&f, NULL, other, false) == FLOE_ENOTFOUND,
          "off the S3 Tables API (no operation), another account's ARN is simply not found");
    catalog_fixture_close(&f);
}
