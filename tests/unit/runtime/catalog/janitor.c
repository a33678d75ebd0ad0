/*
 * Tests of runtime/catalog/janitor.c: a backlog of deleted tables' warehouses is freed as fast as
 * the event loop allows, not at a fixed rate, and a removal that fails leaves every warehouse
 * whole or wholly gone. Uses store.c's fixture (included before this file in main.c).
 */
#include <sqlite3.h>

#include "base/log.h"
#include "catalog/janitor.h"

#define JANITOR_BACKLOG 200
#define JANITOR_DRAIN_DEADLINE_MS 8000 /* 4 warehouses a 200 ms tick, as before, need 10 s */

/* Queues `n` warehouses named wh-<i>, each holding one object, as DeleteTable does. */
static int janitor_queue_warehouses(store_fixture_t *f, int n)
{
    char name[64], etag[33];

    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "wh-%04d--table-s3", i);
        if (floe_store_create_bucket(f->st, name, true, 1) != FLOE_OK ||
            floe_store_put_object(f->st, f->dir, name, "data/a.parquet", "rows", 4, NULL, 1, etag) != FLOE_OK ||
            floe_janitor_enqueue(f->st, name, 1) != FLOE_OK)
            return -1;
    }
    return 0;
}

static int janitor_count(store_fixture_t *f, const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    int n = -1;

    if (sqlite3_prepare_v2(floe_state_db(f->st), sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        n = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return n;
}

static int janitor_queued(store_fixture_t *f)
{
    return janitor_count(f, "SELECT count(*) FROM warehouse_deletion");
}

TEST(janitor_drains_a_backlog_without_waiting_a_tick_per_batch)
{
    store_fixture_t f;
    floe_config_t config = {0};
    floe_worker_t w = {0};
    uint64_t started_us, elapsed_ms;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    CHECK(janitor_queue_warehouses(&f, JANITOR_BACKLOG) == 0, "the deleted tables' warehouses are queued");
    CHECK(count_object_files(&f) == JANITOR_BACKLOG, "each queued warehouse still holds its object's file");
    config.data_dir = f.dir;
    w.super.loop = h2o_evloop_create();
    w.state = f.st;
    w.config = &config;
    floe_janitor_start(&w);
    started_us = floe_log_now_us();
    do {
        h2o_evloop_run(w.super.loop, 10);
        elapsed_ms = (floe_log_now_us() - started_us) / 1000;
    } while (janitor_queued(&f) > 0 && elapsed_ms < JANITOR_DRAIN_DEADLINE_MS);
    floe_janitor_stop(&w);
    CHECK(janitor_queued(&f) == 0, "the janitor freed the whole backlog within the deadline");
    CHECK(count_object_files(&f) == 0, "every queued warehouse's file is removed");
    CHECK(janitor_count(&f, "SELECT count(*) FROM s3_bucket") == 0, "every queued warehouse's bucket row is gone");
    h2o_evloop_destroy(w.super.loop);
    fixture_close(&f);
}

TEST(janitor_failed_batch_leaves_every_warehouse_whole_or_gone)
{
    store_fixture_t f;
    int removed = -1, rc = FLOE_OK;

    CHECK(fixture_open(&f) == 0, "a fresh data directory opens");
    CHECK(janitor_queue_warehouses(&f, 8) == 0, "eight warehouses are queued");
    /* The fifth warehouse's removal fails, as a disk error at that point of the batch would. */
    CHECK(sqlite3_exec(floe_state_db(f.st),
                       "CREATE TEMP TRIGGER fail_fifth BEFORE DELETE ON s3_bucket"
                       " WHEN old.name = 'retired/wh-0004--table-s3' BEGIN SELECT RAISE(ABORT, 'injected'); END",
                       NULL, NULL, NULL) == SQLITE_OK,
          "the fault is armed");
    /* Passes until one meets the fault: a pass may end at its time budget before the fifth. */
    for (int pass = 0; pass < 8 && rc == FLOE_OK; pass++)
        rc = floe_janitor_run_once(f.st, f.dir, 8, &removed);
    CHECK(rc == FLOE_EFAIL, "the failed removal is reported");
    CHECK(janitor_count(&f, "SELECT count(*) FROM s3_bucket WHERE name NOT IN (SELECT bucket FROM warehouse_deletion)")
              == 0,
          "no warehouse left the queue while its bucket row stayed");
    CHECK(janitor_count(&f, "SELECT count(*) FROM s3_object") == janitor_count(&f, "SELECT count(*) FROM s3_bucket"),
          "each warehouse that stayed kept its object row");
    CHECK(count_object_files(&f) == janitor_count(&f, "SELECT count(*) FROM s3_bucket"),
          "exactly the files of the warehouses that stayed remain");
    sqlite3_exec(floe_state_db(f.st), "DROP TRIGGER fail_fifth", NULL, NULL, NULL);
    for (int pass = 0; pass < 8 && janitor_queued(&f) > 0; pass++)
        CHECK(floe_janitor_run_once(f.st, f.dir, 8, &removed) == FLOE_OK, "once the fault is gone, passes succeed");
    CHECK(janitor_queued(&f) == 0 && count_object_files(&f) == 0, "and free what was left");
    fixture_close(&f);
}
