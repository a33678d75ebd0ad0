/*
 * Tests of runtime/catalog/namespace.c, maintenance.c and replication.c: the state API the
 * namespace, maintenance, record expiration and replication handlers (and later the maintenance
 * engine and replication worker) share. Each test runs calls on a freshly migrated database, with
 * no HTTP request, as those workers will.
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "catalog/maintenance.h"
#include "catalog/namespace.h"
#include "catalog/replication.h"
#include "db/state.h"
#include "harness.h"

typedef struct config_fixture {
    char dir[PATH_MAX];
    floe_state_t *st;
    floe_config_t config;
    h2o_mem_pool_t pool;
    floe_call_t call;
    int64_t bucket_id, table_id;
} config_fixture_t;

static int remove_catalog_path(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A fresh database holding one bucket, one namespace "ns" and one table in it. */
static int config_fixture_open(config_fixture_t *f)
{
    char db[PATH_MAX + 16];

    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "%s/floe-catalog-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(db, sizeof(db), "%s/floe.db", f->dir);
    if (floe_state_open(db, 0, &f->st) != 0)
        return -1;
    f->config.account_id = FLOE_DEFAULT_ACCOUNT_ID;
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, f->st, &f->config);
    if (sqlite3_exec(floe_state_db(f->st),
                     "INSERT INTO table_bucket (id, name, bucket_id, created_at, account_id, region)"
                     " VALUES (1, 'b', 'bucket-uuid', 0, '000000000000', 'us-east-1');"
                     "INSERT INTO namespace (id, table_bucket_id, name, namespace_id, created_at, created_by)"
                     " VALUES (1, 1, 'ns', 'ns-uuid', 0, 'me');"
                     "INSERT INTO s3table (id, table_bucket_id, namespace_id, name, table_id, format, version_token,"
                     " warehouse_bucket, created_at, created_by, modified_at, modified_by)"
                     " VALUES (1, 1, 1, 't', 'table-uuid', 'ICEBERG', 'v1', 'wh--table-s3', 0, 'me', 0, 'me');",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    f->bucket_id = 1;
    f->table_id = 1;
    return 0;
}

static void config_fixture_close(config_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
    floe_state_close(f->st);
    nftw(f->dir, remove_catalog_path, 16, FTW_DEPTH | FTW_PHYS);
}

/* Breaks the database under the catalog, as a corrupt file or a failing disk would: statements on
 * `table` no longer compile. Renaming keeps the rows and the foreign keys out of the way. */
static void break_table(config_fixture_t *f, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof(sql), "ALTER TABLE %s RENAME TO broken_%s", table, table);
    CHECK(sqlite3_exec(floe_state_db(f->st), sql, NULL, NULL, NULL) == SQLITE_OK, "the test can break the schema");
}

static bool failed_internally(const config_fixture_t *f)
{
    return f->call.failure.code == FLOE_EFAIL;
}

TEST(catalog_namespace_insert_reports_a_taken_name)
{
    config_fixture_t f;
    floe_namespace_row_t row;
    bool is_taken = true;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_namespace_insert(&f.call, f.bucket_id, "sales", &row, &is_taken) == FLOE_OK && !is_taken,
          "a new name is inserted");
    CHECK(row.id > 0 && strcmp(row.name, "sales") == 0 && strlen(row.namespace_id) == FLOE_UUID_LEN,
          "the inserted row comes back with its id and namespaceId");
    CHECK(floe_namespace_insert(&f.call, f.bucket_id, "sales", &row, &is_taken) == FLOE_OK && is_taken,
          "a taken name is reported, not failed");
    CHECK(f.call.failure.code == FLOE_OK, "a taken name leaves the error to the API");
    config_fixture_close(&f);
}

TEST(catalog_namespace_list_pages_by_name_and_prefix)
{
    config_fixture_t f;
    floe_namespace_row_t row, *rows;
    bool is_taken;
    size_t n;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_namespace_insert(&f.call, f.bucket_id, "sales", &row, &is_taken) == FLOE_OK &&
              floe_namespace_insert(&f.call, f.bucket_id, "salt", &row, &is_taken) == FLOE_OK,
          "namespaces are inserted");
    CHECK(floe_namespace_list(&f.call, f.bucket_id, "", NULL, FLOE_NAMESPACE_LIST_ALL, &rows, &n) == FLOE_OK && n == 3,
          "a listing without limit has every namespace");
    CHECK(n == 3 && strcmp(rows[0].name, "ns") == 0 && strcmp(rows[2].name, "salt") == 0, "names come in order");
    CHECK(floe_namespace_list(&f.call, f.bucket_id, "ns", "sal", 1, &rows, &n) == FLOE_OK && n == 1 &&
              strcmp(rows[0].name, "sales") == 0,
          "a page starts after `after`, keeps the prefix and stops at the limit");
    config_fixture_close(&f);
}

TEST(catalog_namespace_with_a_table_is_not_removed)
{
    config_fixture_t f;
    floe_namespace_row_t row;
    bool has_tables = false, is_taken;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_namespace_remove(&f.call, 1, &has_tables) == FLOE_OK && has_tables,
          "a namespace with a table reports it and stays");
    CHECK(floe_namespace_insert(&f.call, f.bucket_id, "empty", &row, &is_taken) == FLOE_OK &&
              floe_namespace_set_property(&f.call, row.id, "owner", "me") == FLOE_OK,
          "an empty namespace with a property is made");
    CHECK(floe_namespace_remove(&f.call, row.id, &has_tables) == FLOE_OK && !has_tables,
          "an empty namespace is removed with its properties");
    config_fixture_close(&f);
}

TEST(catalog_namespace_properties_round_trip)
{
    config_fixture_t f;
    floe_namespace_properties_t p;
    bool was_set;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_namespace_set_property(&f.call, 1, "b", "2") == FLOE_OK &&
              floe_namespace_set_property(&f.call, 1, "a", "1") == FLOE_OK &&
              floe_namespace_set_property(&f.call, 1, "b", "3") == FLOE_OK,
          "properties are set and replaced");
    CHECK(floe_namespace_read_properties(&f.call, 1, &p) == FLOE_OK && p.n == 2, "each key is kept once");
    CHECK(p.n == 2 && strcmp(p.keys[0], "a") == 0 && strcmp(p.values[1], "3") == 0,
          "properties come sorted by key with their last value");
    CHECK(floe_namespace_unset_property(&f.call, 1, "a", &was_set) == FLOE_OK && was_set, "a set key is removed");
    CHECK(floe_namespace_unset_property(&f.call, 1, "a", &was_set) == FLOE_OK && !was_set,
          "removing a missing key says so");
    config_fixture_close(&f);
}

TEST(catalog_maintenance_defaults_until_written)
{
    config_fixture_t f;
    floe_table_maintenance_t m;
    floe_record_expiration_t e;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_maintenance_read(&f.call, f.table_id, FLOE_TableMaintenanceType_ICEBERG_COMPACTION, &m) == FLOE_OK,
          "an unconfigured table's compaction reads");
    CHECK(m.status == FLOE_MaintenanceStatus_ENABLED && m.target_file_size_mb == 512 && strcmp(m.strategy, "auto") == 0,
          "an unconfigured table has AWS's compaction defaults");
    m.status = FLOE_MaintenanceStatus_DISABLED;
    m.target_file_size_mb = 128;
    CHECK(floe_maintenance_write(&f.call, f.table_id, FLOE_TableMaintenanceType_ICEBERG_COMPACTION, &m) == FLOE_OK,
          "a compaction setting is written");
    memset(&m, 0, sizeof(m));
    CHECK(floe_maintenance_read(&f.call, f.table_id, FLOE_TableMaintenanceType_ICEBERG_COMPACTION, &m) == FLOE_OK &&
              m.status == FLOE_MaintenanceStatus_DISABLED && m.target_file_size_mb == 128,
          "the written setting reads back");
    CHECK(floe_maintenance_read(&f.call, f.table_id, FLOE_TableMaintenanceType_ICEBERG_SNAPSHOT_MANAGEMENT, &m) ==
                  FLOE_OK &&
              m.min_snapshots_to_keep == 1 && m.max_snapshot_age_hours == 120,
          "another type keeps its defaults");
    CHECK(floe_maintenance_read_expiration(&f.call, f.table_id, &e) == FLOE_OK && !e.is_enabled && !e.has_days,
          "records do not expire by default");
    e = (floe_record_expiration_t){.is_enabled = true, .has_days = true, .days = 30};
    CHECK(floe_maintenance_write_expiration(&f.call, f.table_id, &e) == FLOE_OK, "record expiration is written");
    memset(&e, 0, sizeof(e));
    CHECK(floe_maintenance_read_expiration(&f.call, f.table_id, &e) == FLOE_OK && e.is_enabled && e.has_days &&
              e.days == 30,
          "record expiration reads back");
    config_fixture_close(&f);
}

TEST(catalog_replication_rules_round_trip_in_order)
{
    config_fixture_t f;
    char *first[] = {"arn:a", "arn:b"}, *second[] = {"arn:c"};
    floe_replication_rule_t rules[] = {{2, first}, {1, second}}, *stored;
    char token[FLOE_UUID_LEN + 1];
    floe_replication_row_t row;
    size_t n;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    CHECK(floe_replication_read(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, &row) == FLOE_OK && !row.is_configured,
          "a table starts without replication");
    CHECK(floe_replication_write(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, "arn:role", rules, 2, token) ==
              FLOE_OK,
          "a configuration is written");
    CHECK(floe_replication_read(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, &row) == FLOE_OK && row.is_configured &&
              strcmp(row.version_token, token) == 0 && strcmp(row.role, "arn:role") == 0,
          "the configuration reads back with its token and role");
    CHECK(floe_replication_read_rules(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, &stored, &n) == FLOE_OK && n == 2,
          "every rule reads back");
    CHECK(n == 2 && stored[0].n_destinations == 2 && strcmp(stored[0].destination_arns[1], "arn:b") == 0 &&
              stored[1].n_destinations == 1 && strcmp(stored[1].destination_arns[0], "arn:c") == 0,
          "destinations keep their rule and order");
    CHECK(floe_replication_read(&f.call, FLOE_REPLICATION_OF_BUCKET, f.bucket_id, &row) == FLOE_OK && !row.is_configured,
          "a table's configuration is not its bucket's");
    CHECK(floe_replication_remove(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id) == FLOE_OK &&
              floe_replication_read_rules(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, &stored, &n) == FLOE_OK &&
              n == 0,
          "a removed configuration takes its destinations with it");
    config_fixture_close(&f);
}

/* A read that fails is a 500, never "not configured" or "the default". */
TEST(catalog_config_sqlite_failure_is_internal_not_a_miss)
{
    config_fixture_t f;
    floe_table_maintenance_t m;
    floe_record_expiration_t e;
    floe_replication_row_t row;
    floe_namespace_row_t *rows;
    floe_namespace_properties_t p;
    size_t n;

    CHECK(config_fixture_open(&f) == 0, "a fresh catalog opens");
    break_table(&f, "table_maintenance");
    break_table(&f, "table_record_expiration");
    break_table(&f, "table_replication_destination");
    break_table(&f, "table_replication");
    break_table(&f, "namespace_property");
    CHECK(floe_maintenance_read(&f.call, f.table_id, FLOE_TableMaintenanceType_ICEBERG_COMPACTION, &m) == FLOE_EFAIL &&
              failed_internally(&f),
          "a maintenance read that fails is an internal error, not the default");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_maintenance_read_expiration(&f.call, f.table_id, &e) == FLOE_EFAIL && failed_internally(&f),
          "a record expiration read that fails is an internal error, not the default");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_replication_read(&f.call, FLOE_REPLICATION_OF_TABLE, f.table_id, &row) == FLOE_EFAIL &&
              failed_internally(&f),
          "a replication read that fails is an internal error, not 'not configured'");
    f.call.failure.code = FLOE_OK;
    CHECK(floe_namespace_read_properties(&f.call, 1, &p) == FLOE_EFAIL && failed_internally(&f),
          "a properties read that fails is an internal error, not 'no properties'");
    f.call.failure.code = FLOE_OK;
    break_table(&f, "namespace");
    CHECK(floe_namespace_list(&f.call, f.bucket_id, "", NULL, FLOE_NAMESPACE_LIST_ALL, &rows, &n) == FLOE_EFAIL &&
              failed_internally(&f),
          "a namespace listing that fails is an internal error, not an empty list");
    config_fixture_close(&f);
}
