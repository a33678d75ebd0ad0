/*
 * Tests of runtime/authz/input_cache.c: what authorization keeps in memory (a key's principal, a
 * resource's policies) follows every commit that changes it, made on another connection (another
 * thread's) as well as its own, and not a transaction rolled back; a session's principal ends with
 * the session; and so do the table bucket rows catalog/bucket_cache.c keeps for lookups, by the
 * same generation. Each test runs calls on a freshly migrated database, with two connections.
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authz/input_cache.h"
#include "catalog/lookup.h"
#include "catalog/settings.h"
#include "catalog/table_bucket.h"
#include "db/state.h"
#include "harness.h"
#include "iam/credential.h"
#include "iam/entity.h"

#define KEPT_DOC_A "{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3tables:Get*\",\"Resource\":\"*\"}]}"
#define KEPT_DOC_B "{\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}]}"
#define KEPT_IDENTITY_DOC "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:*\",\"Resource\":\"*\"}]}"
#define KEPT_BUCKET_ARN "arn:aws:s3tables:us-east-1:" FLOE_DEFAULT_ACCOUNT_ID ":bucket/kept"
#define KEPT_SESSION_S 900

/* Two connections to one database, as two threads have, each with a call over it. */
typedef struct kept_fixture {
    char dir[PATH_MAX];
    floe_state_t *reader_st, *writer_st;
    floe_config_t config;
    h2o_mem_pool_t pool;
    floe_call_t reader, writer;
} kept_fixture_t;

static int kept_remove_path(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int kept_open(kept_fixture_t *f)
{
    char db[PATH_MAX + 16];

    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "%s/floe-kept-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(db, sizeof(db), "%s/floe.db", f->dir);
    if (floe_state_open(db, 0, &f->reader_st) != 0 || floe_state_open(db, 0, &f->writer_st) != 0)
        return -1;
    f->config.account_id = FLOE_DEFAULT_ACCOUNT_ID;
    f->config.region = "us-east-1";
    f->config.arn_bucket_prefix = "arn:aws:s3tables:us-east-1:" FLOE_DEFAULT_ACCOUNT_ID ":bucket/";
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->reader, &f->pool, f->reader_st, &f->config);
    floe_call_init(&f->writer, &f->pool, f->writer_st, &f->config);
    return 0;
}

static void kept_close(kept_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
    floe_state_close(f->reader_st);
    floe_state_close(f->writer_st);
    nftw(f->dir, kept_remove_path, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether the bucket policy authorization reads for KEPT_BUCKET_ARN on the reader's connection is `doc`. */
static bool kept_bucket_policy_is(kept_fixture_t *f, const char *doc)
{
    floe_authz_request_t r = {0};

    CHECK(floe_authz_resource_of(&f->reader, KEPT_BUCKET_ARN, NULL, NULL, &r) == FLOE_OK &&
              strcmp(r.resource, KEPT_BUCKET_ARN) == 0,
          "the bucket is the resource");
    floe_state_end_call(f->reader_st);
    return r.bucket_policy == NULL || doc == NULL ? r.bucket_policy == doc : strcmp(r.bucket_policy, doc) == 0;
}

TEST(authz_kept_resource_policies_follow_commits_of_any_connection)
{
    kept_fixture_t f;
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, 0};
    uint64_t before;

    CHECK(kept_open(&f) == 0, "a fresh database opens twice");
    CHECK(floe_table_bucket_create(&f.writer, "kept", &bucket.id) == FLOE_OK, "a bucket");
    CHECK(kept_bucket_policy_is(&f, NULL) && kept_bucket_policy_is(&f, NULL), "without a policy, read and kept");
    CHECK(floe_settings_policy_put(&f.writer, &bucket, KEPT_DOC_A) == FLOE_OK, "another connection puts one");
    CHECK(kept_bucket_policy_is(&f, KEPT_DOC_A), "the next read has it");
    CHECK(floe_settings_policy_put(&f.writer, &bucket, KEPT_DOC_B) == FLOE_OK, "and replaces it");
    CHECK(kept_bucket_policy_is(&f, KEPT_DOC_B), "the next read has the new one");
    before = floe_state_policy_generation();
    CHECK(floe_state_begin(f.writer_st) == FLOE_OK && floe_settings_policy_delete(&f.writer, &bucket) == FLOE_OK,
          "a delete in a transaction");
    floe_state_rollback(f.writer_st);
    CHECK(floe_state_policy_generation() == before && kept_bucket_policy_is(&f, KEPT_DOC_B),
          "rolled back, it changes nothing");
    CHECK(floe_settings_policy_put(&f.reader, &bucket, KEPT_DOC_A) == FLOE_OK, "the reader's own connection puts");
    CHECK(kept_bucket_policy_is(&f, KEPT_DOC_A), "and its next read has it");
    CHECK(floe_settings_policy_delete(&f.writer, &bucket) == FLOE_OK && kept_bucket_policy_is(&f, NULL),
          "a deleted policy is gone from the next read");
    kept_close(&f);
}

TEST(authz_a_kept_principal_follows_its_policies_and_its_session)
{
    kept_fixture_t f;
    floe_iam_entity_t role = {.name = "reader", .path = "/", .trust_policy = "{\"Statement\":[]}",
                              .max_session_duration = 3600};
    floe_iam_session_t s;
    floe_principal_t *p;

    CHECK(kept_open(&f) == 0, "a fresh database opens twice");
    CHECK(floe_iam_entity_create(&f.writer, FLOE_IAM_ROLE, &role) == FLOE_OK &&
              floe_iam_session_create(&f.writer, role.row, "etl", KEPT_SESSION_S, &s) == FLOE_OK,
          "a role's session");
    CHECK(floe_authz_principal_of_key(&f.reader, s.access_key_id, &p) == FLOE_OK && p->n_policies == 0 &&
              floe_authz_principal_of_key(&f.reader, s.access_key_id, &p) == FLOE_OK && p->n_policies == 0,
          "its principal, without policies, read and kept");
    CHECK(floe_iam_inline_put(&f.writer, FLOE_IAM_ROLE, role.row, "all", KEPT_IDENTITY_DOC) == FLOE_OK,
          "another connection gives the role a policy");
    CHECK(floe_authz_principal_of_key(&f.reader, s.access_key_id, &p) == FLOE_OK && p->n_policies == 1 &&
              strcmp(p->policies[0], KEPT_IDENTITY_DOC) == 0 &&
              strcmp(p->arn, "arn:aws:sts::" FLOE_DEFAULT_ACCOUNT_ID ":assumed-role/reader/etl") == 0,
          "the session's next principal carries it");
    CHECK(floe_iam_inline_delete(&f.writer, FLOE_IAM_ROLE, role.row, "all") == FLOE_OK &&
              floe_authz_principal_of_key(&f.reader, s.access_key_id, &p) == FLOE_OK && p->n_policies == 0,
          "and not once it is deleted");
    f.reader.now = s.expires_at;
    CHECK(floe_authz_principal_of_key(&f.reader, s.access_key_id, &p) == FLOE_ENOTFOUND,
          "an expired session's key names no one, kept or not");
    kept_close(&f);
}

/* The tableBucketId of the bucket KEPT_BUCKET_ARN names, as a lookup on the reader's connection
 * finds it (in the call's pool), or NULL when the lookup finds none. */
static const char *kept_bucket_id(kept_fixture_t *f)
{
    floe_bucket_row_t row;
    int rc = floe_lookup_bucket(&f->reader, KEPT_BUCKET_ARN, &row);

    f->reader.failure.code = FLOE_OK;
    if (!floe_state_is_reading(f->reader_st))
        floe_state_end_call(f->reader_st);
    if (rc != FLOE_OK)
        return NULL;
    CHECK(strcmp(row.arn, KEPT_BUCKET_ARN) == 0 && strcmp(row.name, "kept") == 0 && strcmp(row.type, "customer") == 0,
          "the row is the bucket's, named by its ARN");
    return row.bucket_id;
}

TEST(catalog_a_kept_bucket_row_follows_commits_of_any_connection)
{
    kept_fixture_t f;
    int64_t id;
    const char *first = NULL, *second = NULL;

    CHECK(kept_open(&f) == 0, "a fresh database opens twice");
    CHECK(kept_bucket_id(&f) == NULL, "no bucket yet");
    CHECK(floe_table_bucket_create(&f.writer, "kept", &id) == FLOE_OK, "another connection creates it");
    CHECK((first = kept_bucket_id(&f)) != NULL && (second = kept_bucket_id(&f)) != NULL && strcmp(first, second) == 0,
          "the next lookups find it, read and kept");
    CHECK(floe_table_bucket_delete(&f.writer, id) == FLOE_OK && kept_bucket_id(&f) == NULL,
          "deleted on the other connection, the next lookup finds none");
    CHECK(floe_table_bucket_create(&f.writer, "kept", &id) == FLOE_OK && (second = kept_bucket_id(&f)) != NULL &&
              first != NULL && strcmp(first, second) != 0,
          "created again under the name, the next lookup finds the new bucket");
    CHECK(kept_bucket_id(&f) != NULL, "kept again");
    CHECK(floe_state_begin(f.reader_st) == FLOE_OK && floe_table_bucket_delete(&f.reader, id) == FLOE_OK,
          "the reader deletes it in a transaction");
    CHECK(kept_bucket_id(&f) == NULL, "a lookup inside that transaction sees its own delete, not the kept row");
    floe_state_rollback(f.reader_st);
    CHECK((first = kept_bucket_id(&f)) != NULL && second != NULL && strcmp(first, second) == 0,
          "rolled back, the bucket is there");
    kept_close(&f);
}
