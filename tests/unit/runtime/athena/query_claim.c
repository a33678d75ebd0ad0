/*
 * Tests of the Athena engine's claim (runtime/athena/athena_store.c): each QUEUED query is claimed
 * once, oldest first, moved to RUNNING in the transaction that found it; a stopped one is never
 * claimed; a restart fails what was claimed rather than run it again. Included after
 * catalog/table.c (its fixture: a fresh database and a call on it).
 */
#include "athena/athena_store.h"

static int queue_query(catalog_fixture_t *f, const char *id)
{
    floe_athena_query_row_t q = {.id = (char *)id, .workgroup = "primary", .query_string = "SELECT 1",
                                 .statement_type = "DML", .engine_version = "AUTO", .state = "QUEUED"};
    return floe_athena_query_insert(&f->call, &q);
}

/* Query `id`'s state, "gone" when there is none. */
static const char *state_of(catalog_fixture_t *f, const char *id)
{
    char *state = NULL;
    return floe_athena_query_state(&f->call, id, &state) == FLOE_OK && state != NULL ? state : "gone";
}

static const char *claim_next(catalog_fixture_t *f)
{
    floe_athena_query_row_t q;
    bool found;

    if (floe_athena_query_claim(&f->call, &found, &q) != FLOE_OK)
        return "failed";
    return !found ? "none" : strcmp(q.state, "RUNNING") == 0 && q.state_reason == NULL ? q.id : "not running";
}

TEST(athena_claim_takes_each_queued_query_once_oldest_first)
{
    catalog_fixture_t f;
    floe_athena_query_row_t row;
    bool any = false, found = false;

    CHECK(catalog_fixture_open(&f) == 0, "a fresh database opens");
    CHECK(queue_query(&f, "q1") == FLOE_OK && queue_query(&f, "q2") == FLOE_OK && queue_query(&f, "q3") == FLOE_OK,
          "three queries are queued");
    CHECK(floe_athena_query_hold_queued(&f.call, "Starting Trino", &any) == FLOE_OK && any,
          "queued queries are held with a reason, and found there");
    CHECK(floe_athena_query_find(&f.call, "q3", &found, &row) == FLOE_OK && found &&
              strcmp(row.state_reason, "Starting Trino") == 0,
          "each queued query says why it waits");
    CHECK(strcmp(claim_next(&f), "q1") == 0, "the oldest is claimed first, RUNNING without the waiting reason");
    CHECK(strcmp(state_of(&f, "q1"), "RUNNING") == 0, "the claim is stored: another worker finds it RUNNING");
    CHECK(strcmp(claim_next(&f), "q2") == 0, "the next claim takes the next query, never the one claimed");
    CHECK(floe_athena_query_finish(&f.call, "q3", "CANCELLED", "Query cancelled by user") == FLOE_OK &&
              strcmp(claim_next(&f), "none") == 0,
          "a query stopped while queued is never claimed");
    CHECK(floe_athena_query_hold_queued(&f.call, "Starting Trino", &any) == FLOE_OK && !any, "nothing is left queued");
    CHECK(floe_athena_query_fail_every(&f.call, "RUNNING", 1, 401, "Floe stopped") == FLOE_OK &&
              strcmp(state_of(&f, "q1"), "FAILED") == 0 && strcmp(state_of(&f, "q2"), "FAILED") == 0 &&
              strcmp(state_of(&f, "q3"), "CANCELLED") == 0,
          "a restart fails the claimed queries and leaves the stopped one");
    CHECK(strcmp(claim_next(&f), "none") == 0, "a query claimed before a restart is never claimed again");
    CHECK(f.call.failure.code == FLOE_OK, "nothing failed the call");
    catalog_fixture_close(&f);
}
