/*
 * Running one maintenance request to the end (maintenance.h, floe_maintenance_run): resolve the
 * ARN to its tables and each table's settings (one serving-thread step), run the job's entry
 * point on each enabled table, record each run as the job's status (a second step), and answer
 * with the figures as JSON. Runs on the maintenance thread.
 *
 * The ARN may name a table or a table bucket; a bucket means each of its tables. A job that is
 * disabled is refused on demand (400: "does nothing") and skipped by the schedule; a table
 * without metadata has nothing to maintain and succeeds with a note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "catalog/lookup.h"
#include "catalog/maintenance.h"
#include "catalog/maintenance_job.h"
#include "catalog/replication_queue.h"
#include "catalog/rules.h"
#include "catalog/settings.h"
#include "maintenance/maintenance.h"

typedef int (*job_entry_fn)(floe_job_t *job);

static const job_entry_fn entries[FLOE_JOB_TYPE_COUNT + 1] = {
    NULL,
    floe_maintenance_compaction_run,
    floe_maintenance_snapshots_run,
    floe_maintenance_unreferenced_run,
    floe_maintenance_expiration_run,
};

/** One table the request runs on. */
typedef struct target {
    floe_job_t job;
    bool is_enabled;
    bool has_metadata;
    int rc;
} target_t;

typedef struct resolve_step {
    const char *arn;
    floe_job_type_t type;
    bool is_found;
    target_t *targets; /* malloc'ed */
    size_t n;
    size_t n_replicas; /* tables left out: replicas are read-only and AWS maintains none */
} resolve_step_t;

/* ---- resolving (serving thread) ---- */

/* Fills the job's settings for t and says whether the job is enabled. */
static int read_settings(floe_call_t *call, floe_job_type_t type, const floe_table_row_t *t, target_t *out)
{
    floe_job_settings_t *s = &out->job.settings;
    floe_table_maintenance_t tm;
    floe_bucket_maintenance_t bm;
    floe_record_expiration_t re;

    switch (type) {
    case FLOE_JOB_COMPACTION:
    case FLOE_JOB_SNAPSHOT_MANAGEMENT:
        if (floe_maintenance_read(call, t->id,
                                  type == FLOE_JOB_COMPACTION ? FLOE_TableMaintenanceType_ICEBERG_COMPACTION
                                                              : FLOE_TableMaintenanceType_ICEBERG_SNAPSHOT_MANAGEMENT,
                                  &tm))
            return FLOE_EFAIL;
        out->is_enabled = tm.status != FLOE_MaintenanceStatus_DISABLED;
        s->target_file_size_mb = tm.target_file_size_mb;
        s->strategy = tm.strategy != NULL ? floe_xstrdup(tm.strategy) : NULL;
        s->min_snapshots_to_keep = tm.min_snapshots_to_keep;
        s->max_snapshot_age_hours = tm.max_snapshot_age_hours;
        return FLOE_OK;
    case FLOE_JOB_UNREFERENCED_FILE_REMOVAL:
        if (floe_settings_bucket_maintenance_get(call, t->bucket.id,
                                                 FLOE_TableBucketMaintenanceType_ICEBERG_UNREFERENCED_FILE_REMOVAL, &bm))
            return FLOE_EFAIL;
        out->is_enabled = bm.status != FLOE_MaintenanceStatus_DISABLED; /* 0: never set, AWS's default is enabled */
        s->unreferenced_days = bm.status != 0 ? bm.unreferenced_days : FLOE_RULES_DEFAULT_UNREFERENCED_DAYS;
        s->non_current_days = bm.status != 0 ? bm.non_current_days : FLOE_RULES_DEFAULT_NON_CURRENT_DAYS;
        return FLOE_OK;
    case FLOE_JOB_RECORD_EXPIRATION:
        if (floe_maintenance_read_expiration(call, t->id, &re))
            return FLOE_EFAIL;
        out->is_enabled = re.is_enabled && re.has_days;
        s->expiration_days = re.days;
        return FLOE_OK;
    }
    return FLOE_EFAIL;
}

static int add_target(floe_call_t *call, resolve_step_t *s, const floe_table_row_t *t)
{
    target_t *target;

    if (floe_replication_is_replica(call, t->id)) {
        s->n_replicas++;
        return FLOE_OK;
    }
    s->targets = floe_xrealloc(s->targets, (s->n + 1) * sizeof(*s->targets));
    target = &s->targets[s->n++];
    memset(target, 0, sizeof(*target));
    target->job.type = s->type;
    target->job.bucket_id = t->bucket.id;
    target->job.table_id = t->id;
    target->job.bucket_arn = floe_xstrdup(t->bucket.arn);
    target->job.table_arn = floe_xstrdup(t->arn);
    target->job.namespace_name = floe_xstrdup(t->ns.name);
    target->job.table_name = floe_xstrdup(t->name);
    target->job.warehouse = floe_xstrdup(t->warehouse_bucket);
    target->job.scope = call->scope;
    target->has_metadata = t->metadata_location != NULL;
    return read_settings(call, s->type, t, target);
}

/* A lookup that found nothing leaves a modeled error; anything else is the server failing. */
static bool is_miss(floe_call_t *call)
{
    return call->failure.code != FLOE_EFAIL;
}

static int do_resolve(floe_call_t *call, void *arg)
{
    resolve_step_t *s = arg;
    floe_table_row_t t;
    floe_bucket_row_t b;
    char **arns;
    size_t n;

    if (floe_lookup_table_by_arn(call, s->arn, &t) == FLOE_OK) {
        s->is_found = true;
        return add_target(call, s, &t);
    }
    if (!is_miss(call))
        return FLOE_EFAIL;
    if (floe_lookup_bucket(call, s->arn, &b) != FLOE_OK)
        return is_miss(call) ? FLOE_OK : FLOE_EFAIL;
    s->is_found = true;
    if (floe_maintenance_tables_of_bucket(call, b.id, &arns, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if (floe_lookup_table_by_arn(call, arns[i], &t) || add_target(call, s, &t))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static void free_targets(target_t *targets, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        floe_job_t *j = &targets[i].job;
        free(j->bucket_arn);
        free(j->table_arn);
        free(j->namespace_name);
        free(j->table_name);
        free(j->warehouse);
        free((char *)j->settings.strategy);
        floe_job_dispose(j);
    }
    free(targets);
}

/* ---- recording (serving thread) ---- */

static int do_record(floe_call_t *call, void *arg)
{
    const target_t *t = arg;
    const floe_job_stats_t *st = &t->job.stats;
    floe_maintenance_run_t run = {
        .type = floe_job_type_name(t->job.type),
        .status = t->rc == FLOE_OK ? FLOE_MAINTENANCE_RUN_SUCCESSFUL : FLOE_MAINTENANCE_RUN_FAILED,
        .last_run_ms = t->job.now_ms,
        .failure_message = t->rc == FLOE_OK ? NULL : st->message,
        .files_read = st->files_read, .bytes_read = st->bytes_read,
        .files_written = st->files_written, .bytes_written = st->bytes_written,
        .files_deleted = st->files_deleted, .bytes_deleted = st->bytes_deleted,
        .snapshots_expired = st->snapshots_expired, .records_removed = st->records_removed,
        .files_marked = st->files_marked,
    };
    return floe_maintenance_run_put(call, t->job.table_id, &run);
}

/* ---- the answer ---- */

static void add_figures(cJSON *o, const floe_job_stats_t *st)
{
    cJSON_AddNumberToObject(o, "filesRead", (double)st->files_read);
    cJSON_AddNumberToObject(o, "bytesRead", (double)st->bytes_read);
    cJSON_AddNumberToObject(o, "filesWritten", (double)st->files_written);
    cJSON_AddNumberToObject(o, "bytesWritten", (double)st->bytes_written);
    cJSON_AddNumberToObject(o, "filesDeleted", (double)st->files_deleted);
    cJSON_AddNumberToObject(o, "bytesDeleted", (double)st->bytes_deleted);
    cJSON_AddNumberToObject(o, "snapshotsExpired", (double)st->snapshots_expired);
    cJSON_AddNumberToObject(o, "recordsRemoved", (double)st->records_removed);
    cJSON_AddNumberToObject(o, "filesMarkedNoncurrent", (double)st->files_marked);
}

static void sum_figures(floe_job_stats_t *sum, const floe_job_stats_t *st)
{
    sum->files_read += st->files_read;
    sum->bytes_read += st->bytes_read;
    sum->files_written += st->files_written;
    sum->bytes_written += st->bytes_written;
    sum->files_deleted += st->files_deleted;
    sum->bytes_deleted += st->bytes_deleted;
    sum->snapshots_expired += st->snapshots_expired;
    sum->records_removed += st->records_removed;
    sum->files_marked += st->files_marked;
}

static void iso_time(int64_t ms, char *buf, size_t size)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

static cJSON *table_json(const target_t *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tableARN", t->job.table_arn);
    cJSON_AddStringToObject(o, "status", !t->is_enabled ? "Disabled" : t->rc == FLOE_OK ? "Successful" : "Failed");
    if (t->is_enabled && t->rc != FLOE_OK)
        cJSON_AddStringToObject(o, "failureMessage", t->job.stats.message);
    else if (t->job.stats.message[0] != '\0')
        cJSON_AddStringToObject(o, "message", t->job.stats.message);
    add_figures(o, &t->job.stats);
    if (t->job.new_metadata_location != NULL)
        cJSON_AddStringToObject(o, "metadataLocation", t->job.new_metadata_location);
    return o;
}

/* The answer for the runs of targets[0..n): the single table's status, or the sum over a bucket's
 * tables with each table's own status in "tables". */
static char *answer_json(const floe_maintenance_request_t *r, int64_t now_ms, const target_t *targets, size_t n,
                         bool is_bucket)
{
    cJSON *o, *tables = cJSON_CreateArray();
    floe_job_stats_t sum = {0};
    bool failed = false;
    char when[96];
    char *text;

    for (size_t i = 0; i < n; i++) {
        cJSON_AddItemToArray(tables, table_json(&targets[i]));
        if (targets[i].is_enabled) {
            sum_figures(&sum, &targets[i].job.stats);
            failed |= targets[i].rc != FLOE_OK;
        }
    }
    o = n == 1 && !is_bucket ? cJSON_Duplicate(tables->child, true) : cJSON_CreateObject();
    if (n != 1 || is_bucket) {
        cJSON_AddStringToObject(o, "status", failed ? "Failed" : "Successful");
        add_figures(o, &sum);
    }
    cJSON_AddStringToObject(o, "arn", r->arn);
    cJSON_AddStringToObject(o, "type", floe_job_type_name(r->type));
    iso_time(now_ms, when, sizeof(when));
    cJSON_AddStringToObject(o, "now", when);
    if (n != 1 || is_bucket)
        cJSON_AddItemToObject(o, "tables", tables);
    else
        cJSON_Delete(tables);
    text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static void answer_error(floe_maintenance_result_t *out, int status, const char *message)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "message", message);
    out->http_status = status;
    out->json = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
}

/* ---- running ---- */

static void run_target(floe_background_t *bg, const floe_config_t *config, int64_t now_ms, bool is_scheduled,
                       volatile int *stopping, target_t *t)
{
    floe_background_error_t err;
    uint64_t started_us = floe_log_now_us();

    floe_job_init(&t->job, stopping);
    t->job.bg = bg;
    t->job.data_dir = config->data_dir;
    t->job.now_ms = now_ms;
    if (!t->has_metadata && t->job.type != FLOE_JOB_UNREFERENCED_FILE_REMOVAL) {
        snprintf(t->job.stats.message, sizeof(t->job.stats.message), "the table has no metadata yet: nothing to do");
        t->rc = FLOE_OK;
    } else {
        t->rc = entries[t->job.type](&t->job);
    }
    floe_log_job(config, floe_job_type_name(t->job.type), t->job.table_arn, t->rc == FLOE_OK ? "Successful" : "Failed",
                 started_us, is_scheduled, t->job.stats.message);
    if (floe_background_call(bg, &t->job.scope, do_record, t, &err) != FLOE_OK)
        fprintf(stderr, "floe: maintenance: cannot record the %s run on %s: %s\n", floe_job_type_name(t->job.type),
                t->job.table_arn, err.message);
}

void floe_maintenance_run(floe_background_t *bg, const floe_config_t *config, const floe_maintenance_request_t *r,
                          bool is_scheduled, volatile int *stopping, floe_maintenance_result_t *out)
{
    resolve_step_t s = {.arn = r->arn, .type = r->type};
    floe_background_error_t err;
    floe_scope_t scope;
    int64_t now_ms = r->has_now ? r->now_ms : (int64_t)time(NULL) * 1000;
    size_t n_enabled = 0;
    char message[FLOE_BACKGROUND_MESSAGE_MAX + 64];

    memset(out, 0, sizeof(*out));
    if (r->type < 1 || (int)r->type > FLOE_JOB_TYPE_COUNT)
        return answer_error(out, 400, "unknown maintenance job type");
    floe_scope_from_arn(config, r->arn, &scope);
    if (floe_background_call(bg, &scope, do_resolve, &s, &err) != FLOE_OK) {
        free_targets(s.targets, s.n);
        snprintf(message, sizeof(message), "cannot resolve the ARN: %s", err.message);
        return answer_error(out, floe_background_is_stopping(bg) ? 503 : 500, message);
    }
    if (!s.is_found) {
        snprintf(message, sizeof(message), "No table or table bucket has the ARN %s.", r->arn);
        return answer_error(out, 400, message);
    }
    if (s.n == 0 && s.n_replicas > 0 && !is_scheduled) {
        snprintf(message, sizeof(message),
                 "%s is a replica table: replicas are read-only and get no maintenance of their own, as on AWS; "
                 "maintenance on the source reaches them as commits.", r->arn);
        return answer_error(out, 400, message);
    }
    for (size_t i = 0; i < s.n; i++)
        n_enabled += s.targets[i].is_enabled;
    if (n_enabled == 0 && s.n > 0 && !is_scheduled) { /* a bucket without tables has nothing to refuse */
        free_targets(s.targets, s.n);
        snprintf(message, sizeof(message), "The %s job is disabled for %s: a disabled job never runs.",
                 floe_job_type_name(r->type), r->arn);
        return answer_error(out, 400, message);
    }
    for (size_t i = 0; i < s.n; i++) {
        if (s.targets[i].is_enabled)
            run_target(bg, config, now_ms, is_scheduled, stopping, &s.targets[i]);
    }
    out->http_status = 200;
    out->json = answer_json(r, now_ms, s.targets, s.n, strstr(r->arn, "/table/") == NULL);
    free_targets(s.targets, s.n);
}

void floe_maintenance_result_dispose(floe_maintenance_result_t *result)
{
    free(result->json);
    result->json = NULL;
}

/* ---- RFC 3339 ---- */

static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (**p < '0' || **p > '9')
            return FLOE_EFAIL;
        v = v * 10 + (**p - '0');
    }
    *out = v;
    return FLOE_OK;
}

static int expect(const char **p, const char *set)
{
    if (**p == '\0' || strchr(set, **p) == NULL)
        return FLOE_EFAIL;
    (*p)++;
    return FLOE_OK;
}

static int64_t days_from_civil(int y, int m, int d)
{
    /* Howard Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar. */
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int floe_maintenance_parse_time(const char *text, int64_t *ms)
{
    static const int month_days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const char *p = text;
    int y, mo, d, h, mi, s, frac = 0, oh = 0, om = 0, sign = 0;

    if (text == NULL || digits(&p, 4, &y) || expect(&p, "-") || digits(&p, 2, &mo) || expect(&p, "-") ||
        digits(&p, 2, &d) || expect(&p, "Tt ") || digits(&p, 2, &h) || expect(&p, ":") || digits(&p, 2, &mi) ||
        expect(&p, ":") || digits(&p, 2, &s))
        return FLOE_EFAIL;
    if (*p == '.') {
        int scale = 100, n = 0;
        for (p++; *p >= '0' && *p <= '9'; p++, n++) {
            frac += (*p - '0') * scale;
            scale /= 10;
        }
        if (n == 0)
            return FLOE_EFAIL;
    }
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        sign = *p++ == '-' ? -1 : 1;
        if (digits(&p, 2, &oh) || expect(&p, ":") || digits(&p, 2, &om) || oh > 23 || om > 59)
            return FLOE_EFAIL;
    } else {
        return FLOE_EFAIL;
    }
    if (*p != '\0' || mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] || h > 23 || mi > 59 || s > 60)
        return FLOE_EFAIL;
    *ms = ((days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) - sign * (oh * 3600 + om * 60)) * 1000 +
          frac;
    return FLOE_OK;
}
