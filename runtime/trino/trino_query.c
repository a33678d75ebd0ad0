/*
 * Trino's client protocol (trino_query.h): https://trino.io/docs/current/develop/client-protocol.html.
 * Each answer is a QueryResults document; the query is over when one has no nextUri. A sink that
 * fails or a cancellation DELETEs the last nextUri, which is how a client cancels.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "base/percent.h"
#include "base/xalloc.h"
#include "trino/trino_http.h"
#include "trino/trino_query.h"

static int discard_part(void *arg, const cJSON *part)
{
    (void)arg, (void)part;
    return FLOE_OK;
}

static bool never_cancelled(void *arg)
{
    (void)arg;
    return false;
}

const floe_trino_sink_t floe_trino_discard = {discard_part, discard_part, never_cancelled, NULL};

#define STATEMENT_TIMEOUT_S 3600 /* one exchange; Trino answers each within about a second */
#define MAX_HEADERS 6
#define HEADER_MAX 4096

static void copy_string(char *to, size_t size, const cJSON *from)
{
    snprintf(to, size, "%s", cJSON_IsString(from) ? from->valuestring : "");
}

static int64_t number_of(const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

/* The statistics and the update type a QueryResults carries; the last one's are the query's. */
static void read_status(const cJSON *doc, floe_trino_outcome_t *out)
{
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(doc, "stats");
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(doc, "updateCount");

    copy_string(out->query_id, sizeof(out->query_id), cJSON_GetObjectItemCaseSensitive(doc, "id"));
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "updateType")))
        copy_string(out->update_type, sizeof(out->update_type), cJSON_GetObjectItemCaseSensitive(doc, "updateType"));
    if (cJSON_IsNumber(count)) {
        out->has_update_count = true;
        out->update_count = (int64_t)count->valuedouble;
    }
    if (stats != NULL) {
        out->elapsed_ms = number_of(stats, "elapsedTimeMillis");
        out->queued_ms = number_of(stats, "queuedTimeMillis");
        out->cpu_ms = number_of(stats, "cpuTimeMillis");
        out->processed_bytes = number_of(stats, "processedBytes");
        out->processed_rows = number_of(stats, "processedRows");
    }
}

static void read_error(const cJSON *error, floe_trino_outcome_t *out)
{
    out->end = FLOE_TRINO_FAILED;
    copy_string(out->error_name, sizeof(out->error_name), cJSON_GetObjectItemCaseSensitive(error, "errorName"));
    copy_string(out->error_type, sizeof(out->error_type), cJSON_GetObjectItemCaseSensitive(error, "errorType"));
    copy_string(out->message, sizeof(out->message), cJSON_GetObjectItemCaseSensitive(error, "message"));
}

#define EXACT_DIGITS 15 /* a double holds every integer of up to 15 digits exactly */

/*
 * Trino writes bigint values as JSON numbers, and cJSON reads every number as a double, which
 * rounds integers past 2^53 (snapshot ids, for one). So integer tokens longer than EXACT_DIGITS
 * are quoted before parsing, and reach the result as the exact text Trino sent. Trino writes a
 * double with a point or an exponent, and a decimal as a string, so only integers are touched.
 */
static char *quote_long_integers(const char *json, size_t len)
{
    char *out = floe_xmalloc(len * 2 + 1), *o = out;
    bool in_string = false;

    for (size_t i = 0; i < len;) {
        size_t j = i;

        if (in_string) {
            if (json[i] == '\\' && i + 1 < len)
                *o++ = json[i++];
            else if (json[i] == '"')
                in_string = false;
            *o++ = json[i++];
            continue;
        }
        if (json[i] == '"') {
            in_string = true;
            *o++ = json[i++];
            continue;
        }
        if (json[i] == '-' || (json[i] >= '0' && json[i] <= '9')) {
            for (j = i + (json[i] == '-'); j < len && json[j] >= '0' && json[j] <= '9'; j++)
                ;
            if (j - i > EXACT_DIGITS && (j == len || (json[j] != '.' && json[j] != 'e' && json[j] != 'E'))) {
                *o++ = '"';
                memcpy(o, json + i, j - i);
                o += j - i;
                *o++ = '"';
                i = j;
                continue;
            }
            /* a double's fraction and exponent go with it, so its digits are never taken for an integer */
            while (j < len && (isdigit((unsigned char)json[j]) || json[j] == '.' || json[j] == 'e' || json[j] == 'E' ||
                               json[j] == '+' || json[j] == '-'))
                j++;
            memcpy(o, json + i, j - i);
            o += j - i;
            i = j;
            continue;
        }
        *o++ = json[i++];
    }
    *o = '\0';
    return out;
}

cJSON *floe_trino_parse_results(const char *json, size_t len)
{
    char *exact = quote_long_integers(json, len);
    cJSON *doc = cJSON_Parse(exact);

    free(exact);
    return doc;
}

/* One exchange; its QueryResults parsed into *doc. */
static int exchange(const char *method, const char *url, const char *const *headers, size_t n, const char *body,
                    cJSON **doc, floe_trino_outcome_t *out)
{
    floe_trino_http_answer_t a;

    if (floe_trino_http(method, url, headers, n, body, STATEMENT_TIMEOUT_S, &a) != FLOE_OK) {
        snprintf(out->message, sizeof(out->message), "Trino cannot be reached: %s", a.error);
        return FLOE_EFAIL;
    }
    *doc = a.status == 200 ? floe_trino_parse_results(a.body, a.len) : NULL;
    if (*doc == NULL)
        snprintf(out->message, sizeof(out->message), "Trino answered %s %s with %ld: %.300s", method, url, a.status,
                 a.body);
    floe_trino_http_dispose(&a);
    return *doc != NULL ? FLOE_OK : FLOE_EFAIL;
}

static void cancel(const char *next_uri, const char *const *headers, size_t n)
{
    floe_trino_http_answer_t a;

    if (floe_trino_http("DELETE", next_uri, headers, n, NULL, 30, &a) == FLOE_OK)
        floe_trino_http_dispose(&a);
}

/* Hands a page to the sink: its columns the first time they appear, then its rows. */
static int feed(const floe_trino_sink_t *sink, const cJSON *doc, bool *has_columns)
{
    const cJSON *columns = cJSON_GetObjectItemCaseSensitive(doc, "columns");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(doc, "data");

    if (!*has_columns && cJSON_IsArray(columns)) {
        *has_columns = true;
        if (sink->on_columns(sink->arg, columns) != FLOE_OK)
            return FLOE_EFAIL;
    }
    return cJSON_IsArray(data) ? sink->on_rows(sink->arg, data) : FLOE_OK;
}

static size_t session_headers(const floe_trino_session_t *s, char lines[MAX_HEADERS][HEADER_MAX],
                              const char **headers)
{
    size_t n = 0;

    snprintf(lines[n++], HEADER_MAX, "X-Trino-User: %s", s->user);
    snprintf(lines[n++], HEADER_MAX, "X-Trino-Source: floe-athena");
    if (s->catalog != NULL)
        snprintf(lines[n++], HEADER_MAX, "X-Trino-Catalog: %s", s->catalog);
    if (s->schema != NULL)
        snprintf(lines[n++], HEADER_MAX, "X-Trino-Schema: %s", s->schema);
    if (s->prepared_name != NULL) {
        /* the statement's text travels URL-encoded in the header, as Trino's clients send it */
        size_t len = strlen(s->prepared_sql);
        char *encoded = floe_xmalloc(FLOE_PERCENT_ENCODED_MAX(len));

        floe_percent_encode(encoded, s->prepared_sql, len, false);
        snprintf(lines[n++], HEADER_MAX, "X-Trino-Prepared-Statement: %s=%s", s->prepared_name, encoded);
        free(encoded);
    }
    for (size_t i = 0; i < n; i++)
        headers[i] = lines[i];
    return n;
}

int floe_trino_run(const floe_trino_session_t *s, const char *sql, const floe_trino_sink_t *sink,
                   floe_trino_outcome_t *out)
{
    char lines[MAX_HEADERS][HEADER_MAX]; /* on the worker's stack: several run statements at once */
    const char *headers[MAX_HEADERS];
    size_t n = session_headers(s, lines, headers);
    bool has_columns = false;
    char url[1024];
    cJSON *doc = NULL;

    memset(out, 0, sizeof(*out));
    snprintf(url, sizeof(url), "%s/v1/statement", s->url);
    if (exchange("POST", url, headers, n, sql, &doc, out) != FLOE_OK)
        return FLOE_EFAIL;
    for (;;) {
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(doc, "nextUri");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
        bool is_cancelled = false;

        read_status(doc, out);
        if (error != NULL) {
            read_error(error, out);
            break;
        }
        /* asked once a page: a sink may count its pages, and only look every few */
        if (feed(sink, doc, &has_columns) != FLOE_OK || (is_cancelled = sink->is_cancelled(sink->arg))) {
            out->end = is_cancelled ? FLOE_TRINO_CANCELLED : FLOE_TRINO_SINK_FAILED;
            if (cJSON_IsString(next))
                cancel(next->valuestring, headers, n);
            break;
        }
        if (!cJSON_IsString(next)) {
            out->end = FLOE_TRINO_FINISHED;
            break;
        }
        snprintf(url, sizeof(url), "%s", next->valuestring);
        cJSON_Delete(doc);
        doc = NULL;
        if (exchange("GET", url, headers, n, NULL, &doc, out) != FLOE_OK)
            return FLOE_EFAIL;
    }
    cJSON_Delete(doc);
    return FLOE_OK;
}
