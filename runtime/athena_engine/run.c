/* One Athena query on Trino (run.h). */
#include <assert.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "athena/athena_csv.h"
#include "athena/athena_store.h"
#include "athena_engine/authorize.h"
#include "athena_engine/explain_io.h"
#include "athena_engine/hive_ddl.h"
#include "athena_engine/refusals.h"
#include "athena_engine/run.h"
#include "athena_engine/sql_words.h"
#include "athena_engine/values.h"
#include "background/object_door.h"
#include "base/failure.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "store/blob.h"
#include "trino/trino_query.h"

#define ERROR_CATEGORY_SYSTEM 1 /* AWS's Athena error catalog: 1 SYSTEM, 2 USER */
#define ERROR_CATEGORY_USER 2
#define ERROR_TYPE_INTERNAL 401     /* "Internal service error" */
#define ERROR_TYPE_USER_QUERY 1301  /* a query the engine refused: syntax, a missing table ... */
#define ERROR_TYPE_OUTPUT 1302      /* "Unable to verify/create output bucket" */
#define ERROR_TYPE_ACCESS_DENIED 1100 /* a permission the caller lacks */
#define BUCKET_MAX 256
#define UNASKED_REASON                                                                                         \
    "AccessDeniedException: under --enforce-iam the Trino at --athena-trino-url does not ask Floe before "    \
    "each table access, so Floe decides there only a SELECT, INSERT, UPDATE, DELETE or MERGE on tables of "  \
    "Floe's catalogs, from that Trino's plan of it (EXPLAIN IO); any other statement (CREATE TABLE, CREATE " \
    "TABLE AS, ALTER, DROP, SHOW, DESCRIBE ...) only the account's root may run there"
#define KEY_MAX 2048

/* The statements whose every table Trino's EXPLAIN IO names, by first word. Not a CREATE TABLE AS:
 * its EXPLAIN makes the table (Trino 476's Iceberg connector begins the create while planning). */
static const char *const plan_words[] = {"SELECT", "WITH", "VALUES", "TABLE", "INSERT", "DELETE", "UPDATE", "MERGE"};

/* ---- steps on the serving thread ---- */

typedef struct complete_step {
    const char *id;
    const floe_athena_query_end_t *end;
} complete_step_t;

static int step_complete(floe_call_t *call, void *arg)
{
    complete_step_t *s = arg;
    return floe_athena_query_complete(call, s->id, s->end);
}

static void complete(floe_background_t *bg, const floe_engine_query_t *q, const floe_athena_query_end_t *end)
{
    complete_step_t s = {q->id, end};
    floe_background_error_t err;

    if (floe_background_call(bg, NULL, step_complete, &s, &err) != FLOE_OK)
        floe_log("athena: cannot record the end of query %s: %s", q->id, err.message);
}

void floe_engine_fail(floe_background_t *bg, const floe_engine_query_t *q, int category, int type, const char *reason)
{
    floe_athena_query_end_t end = {.state = "FAILED", .reason = reason, .has_error = true, .error_category = category,
                                   .error_type = type, .error_message = reason};
    complete(bg, q, &end);
}

typedef struct state_step {
    const char *id;
    bool is_cancelled;
} state_step_t;

static int step_state(floe_call_t *call, void *arg)
{
    state_step_t *s = arg;
    char *state;

    if (floe_athena_query_state(call, s->id, &state) != FLOE_OK)
        return FLOE_EFAIL;
    s->is_cancelled = state == NULL || strcmp(state, "CANCELLED") == 0;
    return FLOE_OK;
}

bool floe_engine_is_cancelled(floe_background_t *bg, const floe_engine_query_t *q)
{
    state_step_t s = {q->id, false};

    /* a stopping Floe ends the query too: the next start records it as interrupted */
    if (floe_background_call(bg, NULL, step_state, &s, NULL) != FLOE_OK)
        return floe_background_is_stopping(bg);
    return s.is_cancelled;
}

typedef struct prepared_step {
    const char *workgroup, *name;
    char *sql; /* malloc'ed, NULL when there is no such statement */
} prepared_step_t;

static int step_prepared(floe_call_t *call, void *arg)
{
    prepared_step_t *s = arg;
    floe_athena_prepared_row_t row;
    bool found;

    if (floe_athena_prepared_read(call, s->workgroup, s->name, &found, &row) != FLOE_OK)
        return FLOE_EFAIL;
    s->sql = found ? floe_xstrdup(row.query_statement) : NULL;
    return FLOE_OK;
}

typedef struct root_step {
    const char *id;
    bool is_root;
} root_step_t;

static int step_root(floe_call_t *call, void *arg)
{
    root_step_t *s = arg;
    return floe_engine_caller_is_root(call, s->id, &s->is_root);
}

/* Whether q may run on t's Trino without Floe deciding its plan's tables first: always on Floe's
 * own, which asks Floe before each access under --enforce-iam; on a Trino named by
 * --athena-trino-url, which asks nothing, only for a caller who may do everything in its account
 * (authorize.h). */
static bool may_run(floe_engine_trino_t *t, const floe_engine_query_t *q)
{
    root_step_t s = {q->id, false};

    if (!t->config->enforce_iam || t->config->athena_trino_url == NULL)
        return true;
    return floe_background_call(t->bg, NULL, step_root, &s, NULL) == FLOE_OK && s.is_root;
}

/* ---- the result as it arrives ---- */

typedef struct result {
    floe_engine_trino_t *t;
    const floe_engine_query_t *q;
    bool has_header;          /* a SELECT's file starts with the column names */
    floe_athena_csv_t csv;
    cJSON *columns;           /* [{name, type, precision, scale}] */
    char **types;             /* each column's Trino type (malloc'ed), which its values' text follows */
    size_t n_columns;
    int64_t rows;
    int pages;
} result_t;

static int on_columns(void *arg, const cJSON *columns)
{
    result_t *r = arg;
    const cJSON *c;

    r->n_columns = (size_t)cJSON_GetArraySize(columns);
    r->types = floe_xcalloc(r->n_columns + 1, sizeof(*r->types));
    r->columns = cJSON_CreateArray();
    for (size_t i = 0; (c = cJSON_GetArrayItem(columns, (int)i)) != NULL; i++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
        cJSON *info = cJSON_CreateObject();
        char athena[FLOE_ATHENA_TYPE_MAX];
        int precision, scale;

        r->types[i] = floe_xstrdup(cJSON_IsString(type) ? type->valuestring : "varchar");
        floe_athena_type_of(r->types[i], athena, &precision, &scale);
        cJSON_AddStringToObject(info, "name", cJSON_IsString(name) ? name->valuestring : "");
        cJSON_AddStringToObject(info, "type", athena);
        cJSON_AddNumberToObject(info, "precision", precision);
        cJSON_AddNumberToObject(info, "scale", scale);
        cJSON_AddItemToArray(r->columns, info);
        if (r->has_header)
            floe_athena_csv_field(&r->csv, cJSON_IsString(name) ? name->valuestring : "", i == 0);
    }
    if (r->has_header)
        floe_athena_csv_end_record(&r->csv);
    return FLOE_OK;
}

static int on_rows(void *arg, const cJSON *data)
{
    result_t *r = arg;
    const cJSON *row;

    cJSON_ArrayForEach(row, data)
    {
        for (size_t i = 0; i < r->n_columns; i++) {
            char buf[FLOE_VALUE_TEXT_MAX], *owned;
            const char *text = floe_value_text(cJSON_GetArrayItem(row, (int)i), r->types[i], buf, &owned);

            floe_athena_csv_field(&r->csv, text, i == 0);
            free(owned);
        }
        floe_athena_csv_end_record(&r->csv);
        r->rows++;
    }
    return FLOE_OK;
}

/* Asked between pages: a step each time would slow a long result, so every fourth page. */
static bool is_cancelled(void *arg)
{
    result_t *r = arg;
    return r->pages++ % 4 == 3 && floe_engine_is_cancelled(r->t->bg, r->q);
}

/* ---- the run ---- */

/* The first word of the SQL (sql_words.h), upper-cased into out. */
static void first_word(const char *sql, char out[FLOE_SQL_WORD_MAX])
{
    char words[1][FLOE_SQL_WORD_MAX];

    if (floe_sql_leading_words(sql, words, 1) == 0)
        words[0][0] = '\0';
    for (size_t i = 0;; i++) {
        out[i] = (char)toupper((unsigned char)words[0][i]);
        if (out[i] == '\0')
            break;
    }
}

/* Athena's StatementType from Trino's update type and the statement's first word. */
static const char *statement_type(const char *update_type, bool has_count, const char *word)
{
    if (strcmp(update_type, "INSERT") == 0 || strcmp(update_type, "DELETE") == 0 ||
        strcmp(update_type, "UPDATE") == 0 || strcmp(update_type, "MERGE") == 0 ||
        (strcmp(update_type, "CREATE TABLE") == 0 && has_count))
        return "DML";
    if (*update_type != '\0' || strcmp(word, "SHOW") == 0 || strcmp(word, "DESCRIBE") == 0)
        return "DDL";
    return strcmp(word, "EXPLAIN") == 0 ? "UTILITY" : "DML";
}

/* One statement of Floe's own (a catalog's creation) on Trino: FLOE_OK, else why[]. */
static int run_own(floe_engine_trino_t *t, const char *sql, char *why, size_t n)
{
    floe_trino_session_t session = {.url = t->url, .user = "floe"};
    floe_trino_outcome_t out;

    if (floe_trino_run(&session, sql, &floe_trino_discard, &out) != FLOE_OK || out.end != FLOE_TRINO_FINISHED) {
        snprintf(why, n, "%s", out.message);
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

void floe_engine_floe_url(const floe_config_t *config, char out[FLOE_ENGINE_URL_MAX])
{
    const char *host = strcmp(config->host, "0.0.0.0") == 0 || strcmp(config->host, "::") == 0 ? "127.0.0.1"
                                                                                                : config->host;
    snprintf(out, FLOE_ENGINE_URL_MAX, "http://%s:%d", host, config->port);
}

/* Makes Trino catalog `name` with the statement `create` (malloc'ed; freed here) unless this Trino
 * has it; a catalog left by an earlier Floe on a Trino of --athena-trino-url is made again, since
 * its key changed. */
static int make_catalog(floe_engine_trino_t *t, const char *name, char *create, char *why, size_t n)
{
    char drop[FLOE_TRINO_CATALOG_MAX + 64];
    size_t before = t->catalogs.n;
    int rc = FLOE_OK;

    floe_bucket_names_add(&t->catalogs, name, strlen(name));
    if (t->catalogs.n != before) {
        snprintf(drop, sizeof(drop), "DROP CATALOG IF EXISTS %s", name);
        rc = run_own(t, drop, why, n) == FLOE_OK ? run_own(t, create, why, n) : FLOE_EFAIL;
        if (rc != FLOE_OK)
            free(t->catalogs.names[--t->catalogs.n]);
    }
    free(create);
    return rc;
}

/* Creates the Trino catalog of each bucket the query names, and the default catalog's two when it
 * names that, that this Trino lacks (catalogs.h). Under t->catalogs_lock. */
static int create_missing_catalogs(floe_engine_trino_t *t, const floe_engine_query_t *q,
                                   const floe_bucket_names_t *named, char *why, size_t n)
{
    char floe_url[FLOE_ENGINE_URL_MAX], catalog[FLOE_TRINO_CATALOG_MAX], hive[FLOE_TRINO_CATALOG_MAX];
    const char *secret = t->config->engine_secret;

    floe_engine_floe_url(t->config, floe_url);
    for (size_t i = 0; i < named->n; i++) {
        floe_trino_catalog_name(q->account, q->region, named->names[i], catalog);
        if (make_catalog(t, catalog, floe_catalog_create_sql(catalog, floe_url, q->account, q->region,
                                                             named->names[i], secret), why, n) != FLOE_OK)
            return FLOE_EFAIL;
    }
    if (!named->default_catalog)
        return FLOE_OK;
    floe_trino_default_catalog_name(q->account, q->region, true, hive);
    floe_trino_default_catalog_name(q->account, q->region, false, catalog);
    if (make_catalog(t, hive, floe_default_catalog_create_sql(hive, true, catalog, floe_url, q->account, q->region,
                                                              secret), why, n) != FLOE_OK)
        return FLOE_EFAIL;
    return make_catalog(t, catalog, floe_default_catalog_create_sql(catalog, false, hive, floe_url, q->account,
                                                                    q->region, secret), why, n);
}

/* One worker at a time checks and makes catalogs, so two queries naming one new table bucket at once
 * make its catalog once (Trino refuses a CREATE CATALOG of a name it has); the second waits for it. */
static int ensure_catalogs(floe_engine_trino_t *t, const floe_engine_query_t *q, const floe_bucket_names_t *named,
                           char *why, size_t n)
{
    int rc;

    pthread_mutex_lock(&t->catalogs_lock);
    rc = create_missing_catalogs(t, q, named, why, n);
    pthread_mutex_unlock(&t->catalogs_lock);
    return rc;
}

/* EXECUTE <name> [USING ...]: the workgroup's prepared statement `name`, sent as Trino's
 * X-Trino-Prepared-Statement. FLOE_OK (*sql NULL when the query is no EXECUTE), or FLOE_ENOTFOUND. */
static int prepared_of(floe_engine_trino_t *t, const floe_engine_query_t *q, char **name, char **sql)
{
    char words[2][FLOE_SQL_WORD_MAX];
    size_t n = floe_sql_leading_words(q->query_string, words, 2);
    prepared_step_t s = {q->workgroup, NULL, NULL};
    floe_scope_t scope;

    *name = *sql = NULL;
    if (n < 1 || strcasecmp(words[0], "EXECUTE") != 0)
        return FLOE_OK;
    *name = floe_xstrdup(n == 2 ? words[1] : "");
    s.name = *name;
    snprintf(scope.account_id, sizeof(scope.account_id), "%s", q->account);
    snprintf(scope.region, sizeof(scope.region), "%s", q->region);
    if (floe_background_call(t->bg, &scope, step_prepared, &s, NULL) != FLOE_OK || s.sql == NULL)
        return FLOE_ENOTFOUND;
    *sql = s.sql;
    return FLOE_OK;
}

/* Runs the query with its ExecutionParameters: an EXECUTE of a workgroup's prepared statement gets
 * them as its USING list; any other statement is prepared as `floe_parameters` and executed with them. */
static void with_parameters(const floe_engine_query_t *q, char **sql, char **prepared_name, char **prepared_sql,
                            floe_trino_session_t *session)
{
    const char *execute = *prepared_sql != NULL ? *sql : "EXECUTE floe_parameters";
    size_t size = strlen(execute) + strlen(q->parameters) + sizeof(" USING ");
    char *statement = floe_xmalloc(size);

    snprintf(statement, size, "%s USING %s", execute, q->parameters);
    if (*prepared_sql == NULL) {
        *prepared_name = floe_xstrdup("floe_parameters");
        *prepared_sql = *sql;
        session->prepared_name = *prepared_name;
        session->prepared_sql = *prepared_sql;
    } else {
        free(*sql);
    }
    *sql = statement;
}

/* Writes the result file (and its metadata: the columns) where Athena writes them. */
static int write_results(floe_engine_trino_t *t, const floe_engine_query_t *q, const result_t *r, char *why, size_t n)
{
    char bucket[BUCKET_MAX], key[KEY_MAX], *meta = NULL;
    const char *suffixes[] = {".csv", ".csv.metadata"};
    int rc = FLOE_OK;

    meta = cJSON_PrintUnformatted(r->columns);
    for (size_t i = 0; i < 2 && rc == FLOE_OK; i++) {
        floe_object_door_t door = {.bg = t->bg, .data_dir = t->config->data_dir, .warehouse = bucket, .who = "athena"};
        const char *data = i == 0 ? (r->csv.data != NULL ? r->csv.data : "") : meta;
        floe_store_object_t obj = {.key = key, .content_type = i == 0 ? "text/csv" : "application/octet-stream"};
        floe_store_blob_t blob;
        char md5[33];
        int commit_rc = FLOE_EFAIL;

        floe_athena_result_place(q->output_location, q->id, suffixes[i], bucket, sizeof(bucket), key, sizeof(key));
        if (floe_store_blob_put(t->config->data_dir, data, strlen(data), &blob, md5) != FLOE_OK) {
            snprintf(why, n, "cannot write the result file s3://%.200s/%.200s", bucket, key);
            rc = FLOE_EFAIL;
            break;
        }
        memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
        obj.size = (int64_t)strlen(data);
        obj.last_modified_ms = (int64_t)time(NULL) * 1000;
        obj.etag = md5;
        if (floe_object_door_commit(&door, &obj, false, &commit_rc, NULL) != FLOE_OK || commit_rc != FLOE_OK) {
            floe_store_blob_discard(&blob);
            snprintf(why, n, "Unable to verify/create output bucket %.200s", bucket);
            rc = FLOE_ENOTFOUND;
        }
    }
    free(meta);
    return rc;
}

typedef struct denial_step {
    const char *id;
    char *denial; /* malloc'ed, NULL when none was recorded */
} denial_step_t;

static int step_denial(floe_call_t *call, void *arg)
{
    denial_step_t *s = arg;
    floe_athena_query_row_t row;
    bool found;

    if (floe_athena_query_find(call, s->id, &found, &row) != FLOE_OK)
        return FLOE_EFAIL;
    s->denial = found && row.denial != NULL ? floe_xstrdup(row.denial) : NULL;
    return FLOE_OK;
}

/* Fails q with the refusal --enforce-iam recorded on it (authorize.h), AWS's sentence: false when
 * none was recorded. */
static bool fail_denied(floe_engine_trino_t *t, const floe_engine_query_t *q)
{
    denial_step_t d = {q->id, NULL};
    size_t size;
    char *reason;

    if (floe_background_call(t->bg, NULL, step_denial, &d, NULL) != FLOE_OK || d.denial == NULL)
        return false;
    size = strlen(d.denial) + 64;
    reason = floe_xmalloc(size);
    snprintf(reason, size, "AccessDeniedException: %s", d.denial);
    floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_ACCESS_DENIED, reason);
    free(reason);
    free(d.denial);
    return true;
}

/* Athena's reason for a query Trino refused: "<ERROR_NAME>: <message>", catalogs named as the user
 * named them; an access --enforce-iam refused (authorize.h) gives AWS's sentence. */
static void trino_failed(floe_engine_trino_t *t, const floe_engine_query_t *q, const floe_bucket_names_t *named,
                         const floe_trino_outcome_t *out)
{
    if (strcmp(out->error_name, "PERMISSION_DENIED") == 0 && fail_denied(t, q))
        return;
    char *message = floe_catalogs_unmap(out->message, q->account, q->region, named);
    bool is_user = strcmp(out->error_type, "USER_ERROR") == 0;
    size_t size = strlen(message) + sizeof(out->error_name) + 4;
    char *reason = floe_xmalloc(size);

    snprintf(reason, size, "%s%s%s", out->error_name, *out->error_name ? ": " : "", message);
    floe_engine_fail(t->bg, q, is_user ? ERROR_CATEGORY_USER : ERROR_CATEGORY_SYSTEM,
                     is_user ? ERROR_TYPE_USER_QUERY : ERROR_TYPE_INTERNAL, reason);
    free(reason);
    free(message);
}

/* ---- on a Trino of --athena-trino-url: the tables of Trino's plan, decided ---- */

typedef enum plan_verdict { PLAN_ALLOWED, PLAN_DENIED, PLAN_UNCOVERED } plan_verdict_t;

typedef struct plan_step {
    const char *id;
    const floe_explain_io_t *io;
    bool allowed;
} plan_step_t;

/* Each table the plan reads as Trino's SelectFromColumns, then the one it writes (INSERT, UPDATE,
 * DELETE, MERGE) as InsertIntoTable, as Floe's own Trino asks them (authorize.h): the first refusal
 * is recorded on the query. */
static int step_plan(floe_call_t *call, void *arg)
{
    plan_step_t *s = arg;
    const floe_explain_table_t *e = &s->io->output;

    s->allowed = true;
    for (size_t i = 0; i < s->io->n_inputs && s->allowed; i++) {
        const floe_explain_table_t *in = &s->io->inputs[i];

        if (floe_engine_decide_table(call, s->id, "SelectFromColumns", in->catalog, in->schema, in->table,
                                     &s->allowed) != FLOE_OK)
            return FLOE_EFAIL;
    }
    if (s->allowed && s->io->has_output &&
        floe_engine_decide_table(call, s->id, "InsertIntoTable", e->catalog, e->schema, e->table, &s->allowed) !=
            FLOE_OK)
        return FLOE_EFAIL;
    return FLOE_OK;
}

/* Whether Floe decides table e: one of a Floe catalog of the query's account, not a listing
 * (information_schema). Another catalog of that Trino is not Floe's to decide. */
static bool is_floe_table(const floe_engine_query_t *q, const floe_explain_table_t *e)
{
    char account[FLOE_TRINO_CATALOG_MAX], region[FLOE_TRINO_CATALOG_MAX], bucket[FLOE_TRINO_CATALOG_MAX];

    if (!floe_trino_default_catalog_parts(e->catalog, account, region) &&
        !floe_trino_catalog_parts(e->catalog, account, region, bucket))
        return false;
    return strcmp(account, q->account) == 0 && strcmp(e->schema, "information_schema") != 0;
}

/* Whether a statement of first word `word` is one whose tables EXPLAIN IO names (plan_words). */
static bool has_plan(const char *word)
{
    for (size_t i = 0; i < sizeof(plan_words) / sizeof(plan_words[0]); i++) {
        if (strcmp(word, plan_words[i]) == 0)
            return true;
    }
    return false;
}

/* Whether every table the plan names is Floe's to decide. */
static bool plan_covers(const floe_engine_query_t *q, const floe_explain_io_t *io)
{
    for (size_t i = 0; i < io->n_inputs; i++) {
        if (!is_floe_table(q, &io->inputs[i]))
            return false;
    }
    return !io->has_output || is_floe_table(q, &io->output);
}

/* EXPLAIN's answer, one value: kept (malloc'ed) in *arg. */
static int on_plan_rows(void *arg, const cJSON *data)
{
    char **text = arg;
    const cJSON *value = cJSON_GetArrayItem(cJSON_GetArrayItem(data, 0), 0);

    if (*text == NULL && cJSON_IsString(value))
        *text = floe_xstrdup(value->valuestring);
    return FLOE_OK;
}

/* The verdict on `sql` before it runs in `session` on a Trino of --athena-trino-url, which asks
 * Floe nothing: that Trino's own plan of it (EXPLAIN IO) names the tables it reads and writes, each
 * decided for q's caller (step_plan); a plan with a table not Floe's, or a failed EXPLAIN, is
 * PLAN_UNCOVERED. Nothing of the statement has run. */
static plan_verdict_t plan_verdict(floe_engine_trino_t *t, const floe_engine_query_t *q,
                                   const floe_trino_session_t *session, const char *sql)
{
    static const char explain[] = "EXPLAIN (TYPE IO, FORMAT JSON) ";
    size_t size = sizeof(explain) + strlen(sql);
    char *text = NULL, *statement = floe_xmalloc(size);
    floe_trino_sink_t sink = {floe_trino_discard.on_columns, on_plan_rows, floe_trino_discard.is_cancelled, &text};
    plan_step_t s = {q->id, NULL, false};
    plan_verdict_t verdict = PLAN_UNCOVERED;
    floe_trino_outcome_t out;
    floe_explain_io_t io;

    snprintf(statement, size, "%s%s", explain, sql);
    if (floe_trino_run(session, statement, &sink, &out) == FLOE_OK && out.end == FLOE_TRINO_FINISHED &&
        text != NULL && floe_explain_io_read(text, &io) == FLOE_OK) {
        s.io = &io;
        if (plan_covers(q, &io))
            verdict = floe_background_call(t->bg, NULL, step_plan, &s, NULL) == FLOE_OK && s.allowed ? PLAN_ALLOWED
                                                                                                      : PLAN_DENIED;
        floe_explain_io_dispose(&io);
    }
    free(text);
    free(statement);
    return verdict;
}

/* Whether q runs on t's Trino: always on Floe's own, which asks Floe before each access under
 * --enforce-iam, and for its account's root; else as plan_verdict decides `sql` (the last of a
 * translation's statements, `leading` when others come before it: those are DDL), of first word
 * `word`, which is not EXPLAINed unless it is one of plan_words; q failed when not. */
static bool authorized(floe_engine_trino_t *t, const floe_engine_query_t *q, const floe_trino_session_t *session,
                       const char *sql, bool leading, const char *word)
{
    plan_verdict_t verdict;

    if (may_run(t, q))
        return true;
    verdict = leading || !has_plan(word) ? PLAN_UNCOVERED : plan_verdict(t, q, session, sql);
    if (verdict == PLAN_ALLOWED)
        return true;
    if (verdict == PLAN_UNCOVERED || !fail_denied(t, q))
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_ACCESS_DENIED, UNASKED_REASON);
    return false;
}

static void finish(floe_engine_trino_t *t, const floe_engine_query_t *q, const floe_bucket_names_t *named,
                   result_t *r, const floe_trino_outcome_t *out, const char *word)
{
    floe_athena_query_end_t end = {.state = "SUCCEEDED"};
    char why[512], *columns;

    assert(out->end != FLOE_TRINO_SINK_FAILED); /* on_columns and on_rows never fail */
    if (out->end == FLOE_TRINO_CANCELLED)
        return; /* StopQueryExecution recorded it */
    if (out->end == FLOE_TRINO_FAILED) {
        trino_failed(t, q, named, out);
        return;
    }
    end.statement_type = statement_type(out->update_type, out->has_update_count, word);
    end.substatement_type = floe_athena_substatement_type(out->update_type, out->has_update_count, word);
    end.update_count = out->has_update_count ? out->update_count : 0;
    if (*out->update_type != '\0') { /* DDL and DML writes leave an empty result, as Athena's do */
        free(r->csv.data);
        r->csv = (floe_athena_csv_t){0};
        cJSON_Delete(r->columns);
        r->columns = cJSON_CreateArray();
        r->rows = 0;
    } else if (r->columns == NULL) { /* a statement of neither rows nor an update type */
        r->columns = cJSON_CreateArray();
    }
    if (write_results(t, q, r, why, sizeof(why)) != FLOE_OK) {
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_OUTPUT, why);
        return;
    }
    columns = cJSON_PrintUnformatted(r->columns);
    end.result_columns = columns;
    end.data_scanned = out->processed_bytes;
    end.engine_ms = out->elapsed_ms - out->queued_ms;
    end.queue_ms = out->queued_ms;
    end.result_rows = r->rows;
    complete(t->bg, q, &end);
    free(columns);
}

/* Runs the statements a translation put before its last (hive_ddl.h: ADD COLUMNS of several
 * columns, CHANGE COLUMN), in order, until one does not finish: out says how the last one run ended. */
static int run_leading(const floe_trino_session_t *session, const floe_engine_query_t *q, const char *first,
                       const char *last, floe_bucket_names_t *named, floe_trino_outcome_t *out)
{
    out->end = FLOE_TRINO_FINISHED;
    for (const char *s = first; s != last && out->end == FLOE_TRINO_FINISHED; s = floe_hive_ddl_next(s)) {
        char *sql = floe_catalogs_rewrite(s, q->account, q->region, named);
        int rc = floe_trino_run(session, sql, &floe_trino_discard, out);

        free(sql);
        if (rc != FLOE_OK)
            return rc;
    }
    return FLOE_OK;
}

void floe_engine_run(floe_engine_trino_t *t, const floe_engine_query_t *q)
{
    floe_bucket_names_t named = {0};
    char *sql = NULL, *trino_sql = NULL, *statement = NULL;
    const char *last;
    char context[FLOE_TRINO_CATALOG_MAX], word[FLOE_SQL_WORD_MAX], kind[FLOE_SQL_WORD_MAX], why[2048], user[64];
    char *prepared_name = NULL, *prepared_sql = NULL;
    floe_trino_session_t session = {.url = t->url, .user = user, .schema = q->database};
    /* Athena's context is Glue's default catalog when the query names none */
    bool in_default = q->catalog == NULL || strcasecmp(q->catalog, FLOE_DEFAULT_CATALOG) == 0, on_table_bucket;
    result_t r = {.t = t, .q = q};
    floe_trino_outcome_t out;

    /* Trino's user names the query, so its access control knows whose query asks (authorize.h) */
    snprintf(user, sizeof(user), "%s%s", FLOE_ENGINE_USER_PREFIX, q->id);
    first_word(q->query_string, word);
    memcpy(kind, word, sizeof(kind));
    /* what Athena refuses on S3 Tables, when the query names a table bucket or runs in one */
    on_table_bucket = !in_default || strcasestr(q->query_string, "\"" FLOE_CATALOG_PREFIX) != NULL;
    if (floe_athena_refusal(q->query_string, on_table_bucket) != NULL) {
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_USER_QUERY,
                         floe_athena_refusal(q->query_string, on_table_bucket));
        goto Done;
    }
    if (floe_catalogs_name_foreign(q->query_string, q->account)) {
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_USER_QUERY,
                         "CATALOG_NOT_FOUND: the query names a catalog that does not exist");
        goto Done;
    }
    /* Athena's DDL is Hive's: Trino's first, then its `s3tablescatalog/<bucket>` names, now quoted, are
     * rewritten as every query's are. A closing semicolon, which Athena takes and Trino refuses, goes. */
    statement = floe_xmalloc(floe_sql_unterminated_length(q->query_string) + 1);
    snprintf(statement, floe_sql_unterminated_length(q->query_string) + 1, "%s", q->query_string);
    if (floe_hive_ddl_translate(statement, in_default, &trino_sql, why, sizeof(why)) != FLOE_OK) {
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_USER_QUERY, why);
        goto Done;
    }
    for (last = trino_sql; floe_hive_ddl_next(last) != NULL;)
        last = floe_hive_ddl_next(last);
    sql = floe_catalogs_rewrite(last, q->account, q->region, &named);
    if (q->catalog != NULL && strncmp(q->catalog, FLOE_CATALOG_PREFIX, strlen(FLOE_CATALOG_PREFIX)) == 0) {
        const char *bucket = q->catalog + strlen(FLOE_CATALOG_PREFIX);
        floe_bucket_names_add(&named, bucket, strlen(bucket));
        floe_trino_catalog_name(q->account, q->region, bucket, context);
        session.catalog = context;
    } else if (in_default) {
        named.default_catalog = true;
        floe_trino_default_catalog_name(q->account, q->region, false, context);
        session.catalog = context;
    }
    if (session.catalog == NULL)
        session.schema = NULL; /* Trino takes a schema only with a catalog */
    if (prepared_of(t, q, &prepared_name, &prepared_sql) != FLOE_OK) {
        snprintf(why, sizeof(why), "PREPARED_STATEMENT_NOT_FOUND: Prepared statement not found: %s", prepared_name);
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_USER, ERROR_TYPE_USER_QUERY, why);
        goto Done;
    }
    if (prepared_sql != NULL) {
        char *rewritten = floe_catalogs_rewrite(prepared_sql, q->account, q->region, &named);
        free(prepared_sql);
        prepared_sql = rewritten;
        session.prepared_name = prepared_name;
        session.prepared_sql = prepared_sql;
    }
    if (q->parameters != NULL) /* ExecutionParameters: Trino's EXECUTE ... USING them */
        with_parameters(q, &sql, &prepared_name, &prepared_sql, &session);
    if (ensure_catalogs(t, q, &named, why, sizeof(why)) != FLOE_OK) {
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_SYSTEM, ERROR_TYPE_INTERNAL, why);
        goto Done;
    }
    if (strcmp(word, "EXECUTE") == 0 && prepared_sql != NULL) /* a workgroup's prepared statement's own kind */
        first_word(prepared_sql, kind);
    if (!authorized(t, q, &session, sql, last != trino_sql, kind))
        goto Done;
    r.has_header = strcmp(statement_type("", false, word), "DML") == 0;
    floe_trino_sink_t sink = {on_columns, on_rows, is_cancelled, &r};
    int rc = run_leading(&session, q, trino_sql, last, &named, &out);
    if (rc == FLOE_OK && out.end == FLOE_TRINO_FINISHED)
        rc = floe_trino_run(&session, sql, &sink, &out);
    if (rc != FLOE_OK)
        floe_engine_fail(t->bg, q, ERROR_CATEGORY_SYSTEM, ERROR_TYPE_INTERNAL, out.message);
    else
        finish(t, q, &named, &r, &out, word);
Done:
    cJSON_Delete(r.columns);
    for (size_t i = 0; i < r.n_columns; i++)
        free(r.types[i]);
    free(r.types);
    free(r.csv.data);
    free(prepared_name);
    free(prepared_sql);
    free(trino_sql);
    free(statement);
    free(sql);
    floe_bucket_names_dispose(&named);
}
