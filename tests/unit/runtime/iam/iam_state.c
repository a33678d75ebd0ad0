/*
 * Tests of runtime/iam/: whose an issued key is, as the signature check (floe_iam_key_lookup) and
 * authorization (floe_principal_of_key) ask it, from the moment the key is made until it is
 * deleted or its session expires, and the identity policies a principal carries. Each test runs
 * calls on a freshly migrated database, with no HTTP request.
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/state.h"
#include "harness.h"
#include "iam/credential.h"
#include "iam/entity.h"
#include "iam/managed_policy.h"
#include "iam/principal.h"

#define IAM_DOC_INLINE "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3tables:GetTable\",\"Resource\":\"*\"}]}"
#define IAM_DOC_MANAGED "{\"Statement\":[{\"Effect\":\"Deny\",\"Action\":\"s3tables:DeleteTable\",\"Resource\":\"*\"}]}"
#define IAM_SESSION_S 900

typedef struct iam_fixture {
    char dir[PATH_MAX];
    floe_state_t *st;
    floe_config_t config;
    h2o_mem_pool_t pool;
    floe_call_t call;
} iam_fixture_t;

static int iam_remove_path(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int iam_fixture_open(iam_fixture_t *f)
{
    char db[PATH_MAX + 16];

    memset(f, 0, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "%s/floe-iam-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(db, sizeof(db), "%s/floe.db", f->dir);
    if (floe_state_open(db, 0, &f->st) != 0)
        return -1;
    f->config.account_id = FLOE_DEFAULT_ACCOUNT_ID;
    h2o_mem_init_pool(&f->pool);
    floe_call_init(&f->call, &f->pool, f->st, &f->config);
    return 0;
}

static void iam_fixture_close(iam_fixture_t *f)
{
    h2o_mem_clear_pool(&f->pool);
    floe_state_close(f->st);
    nftw(f->dir, iam_remove_path, 16, FTW_DEPTH | FTW_PHYS);
}

/* An entity named `name` with one inline policy and one attached managed policy. */
static int64_t iam_entity_with_policies(iam_fixture_t *f, floe_iam_kind_t kind, const char *name)
{
    floe_iam_entity_t e = {.name = (char *)name, .path = "/", .trust_policy = "{\"Statement\":[]}",
                           .max_session_duration = 3600};
    floe_iam_managed_policy_t p = {.name = (char *)name, .path = "/"};

    CHECK(floe_iam_entity_create(&f->call, kind, &e) == FLOE_OK, "the entity is created");
    CHECK(floe_iam_inline_put(&f->call, kind, e.row, "inline", IAM_DOC_INLINE) == FLOE_OK, "an inline policy");
    CHECK(floe_iam_policy_create(&f->call, &p, IAM_DOC_MANAGED) == FLOE_OK, "a managed policy");
    CHECK(floe_iam_attach(&f->call, kind, e.row, p.row) == FLOE_OK, "attached");
    return e.row;
}

TEST(iam_an_access_key_is_its_users_until_deleted)
{
    iam_fixture_t f;
    floe_iam_access_key_t key;
    floe_iam_key_t found;
    floe_principal_t *p;
    int64_t user;

    CHECK(iam_fixture_open(&f) == 0, "a fresh database opens");
    user = iam_entity_with_policies(&f, FLOE_IAM_USER, "alice");
    CHECK(floe_iam_access_key_create(&f.call, user, &key) == FLOE_OK, "a key is made");
    CHECK(floe_iam_key_lookup(f.st, &f.pool, key.id, strlen(key.id), floe_call_now(&f.call), &found) == FLOE_OK &&
              strcmp(found.secret, key.secret) == 0 && found.session_token == NULL &&
              strcmp(found.account_id, FLOE_DEFAULT_ACCOUNT_ID) == 0,
          "the signature check finds its secret and account at once, with no session token");
    CHECK(floe_principal_of_key(&f.call, key.id, &p) == FLOE_OK && p->kind == FLOE_PRINCIPAL_USER &&
              strcmp(p->arn, "arn:aws:iam::" FLOE_DEFAULT_ACCOUNT_ID ":user/alice") == 0 && p->role_arn == NULL,
          "the key's principal is the user");
    CHECK(p->n_policies == 2 && strcmp(p->policies[0], IAM_DOC_INLINE) == 0 &&
              strcmp(p->policies[1], IAM_DOC_MANAGED) == 0,
          "carrying its inline policy and its attached policy's default version");
    CHECK(floe_iam_access_key_delete(&f.call, user, key.id) == FLOE_OK, "the key is deleted");
    CHECK(floe_iam_key_lookup(f.st, &f.pool, key.id, strlen(key.id), floe_call_now(&f.call), &found) ==
              FLOE_ENOTFOUND,
          "a deleted key is no one's to the signature check");
    CHECK(floe_principal_of_key(&f.call, key.id, &p) == FLOE_ENOTFOUND, "nor to authorization");
    iam_fixture_close(&f);
}

TEST(iam_a_session_is_its_roles_until_it_expires)
{
    iam_fixture_t f;
    floe_iam_session_t s;
    floe_iam_key_t found;
    floe_principal_t *p;
    int64_t role;
    floe_timestamp_t end;

    CHECK(iam_fixture_open(&f) == 0, "a fresh database opens");
    role = iam_entity_with_policies(&f, FLOE_IAM_ROLE, "reader");
    CHECK(floe_iam_session_create(&f.call, role, "etl", IAM_SESSION_S, &s) == FLOE_OK, "a session is issued");
    end = floe_call_now(&f.call) + (floe_timestamp_t)IAM_SESSION_S * 1000;
    CHECK(s.expires_at == end && strncmp(s.access_key_id, "ASIA", 4) == 0, "ASIA..., for the duration asked");
    CHECK(floe_iam_key_lookup(f.st, &f.pool, s.access_key_id, strlen(s.access_key_id), end - 1, &found) == FLOE_OK &&
              strcmp(found.session_token, s.session_token) == 0,
          "until its last millisecond the session's key has its secret and the token it needs");
    CHECK(floe_iam_key_lookup(f.st, &f.pool, s.access_key_id, strlen(s.access_key_id), end, &found) ==
              FLOE_ENOTFOUND,
          "and then it is no one's");
    CHECK(floe_principal_of_key(&f.call, s.access_key_id, &p) == FLOE_OK && p->kind == FLOE_PRINCIPAL_ASSUMED_ROLE &&
              strcmp(p->arn, "arn:aws:sts::" FLOE_DEFAULT_ACCOUNT_ID ":assumed-role/reader/etl") == 0 &&
              strcmp(p->role_arn, "arn:aws:iam::" FLOE_DEFAULT_ACCOUNT_ID ":role/reader") == 0 && p->n_policies == 2,
          "the session's principal is the assumed role, with the role's policies");
    iam_fixture_close(&f);
}

TEST(iam_other_keys_are_roots_of_the_calls_account)
{
    iam_fixture_t f;
    floe_principal_t *p;

    CHECK(iam_fixture_open(&f) == 0, "a fresh database opens");
    CHECK(floe_principal_of_key(&f.call, NULL, &p) == FLOE_OK && p->kind == FLOE_PRINCIPAL_ROOT &&
              strcmp(p->arn, "arn:aws:iam::" FLOE_DEFAULT_ACCOUNT_ID ":root") == 0 && p->n_policies == 0,
          "no key is the root of the call's account");
    CHECK(floe_principal_of_key(&f.call, "111122223333", &p) == FLOE_OK && p->kind == FLOE_PRINCIPAL_ROOT,
          "a 12-digit key is a root");
    CHECK(floe_principal_of_key(&f.call, "AKIAAAAAAAAAAAAAAAAA", &p) == FLOE_ENOTFOUND,
          "an access key IAM never issued is no one's");
    iam_fixture_close(&f);
}

TEST(iam_names_are_unique_whatever_their_case)
{
    iam_fixture_t f;
    floe_iam_entity_t a = {.name = "Bob", .path = "/"}, b = {.name = "bob", .path = "/"}, got;

    CHECK(iam_fixture_open(&f) == 0, "a fresh database opens");
    CHECK(floe_iam_entity_create(&f.call, FLOE_IAM_USER, &a) == FLOE_OK, "Bob is created");
    CHECK(floe_iam_entity_create(&f.call, FLOE_IAM_USER, &b) == FLOE_EEXISTS, "bob is Bob");
    CHECK(floe_iam_entity_get(&f.call, FLOE_IAM_USER, "BOB", &got) == FLOE_OK && strcmp(got.name, "Bob") == 0,
          "found whatever the case, with the name it was given");
    iam_fixture_close(&f);
}
