/* Athena's CSV result files (athena_csv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "athena/athena_csv.h"
#include "base/failure.h"
#include "base/xalloc.h"

static void put(floe_athena_csv_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = floe_xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void floe_athena_csv_append(floe_athena_csv_t *b, const char *s, size_t n)
{
    put(b, s, n);
}

void floe_athena_csv_field(floe_athena_csv_t *b, const char *text, bool first)
{
    if (!first)
        put(b, ",", 1);
    if (text == NULL)
        return;
    put(b, "\"", 1);
    for (const char *q; (q = strchr(text, '"')) != NULL; text = q + 1) {
        put(b, text, (size_t)(q - text));
        put(b, "\"\"", 2);
    }
    put(b, text, strlen(text));
    put(b, "\"", 1);
}

void floe_athena_csv_end_record(floe_athena_csv_t *b)
{
    put(b, "\n", 1);
}

#define CUT 1   /* the text ended inside a quoted field */
#define ENDED 2 /* the text ended after a field, before its record's "\n" */

/* One field at *p: quoted (quotes doubled inside) or empty; *p then at the ',' or '\n' after it. */
static int read_field(const char **p, const char *end, bool is_end, char **out)
{
    floe_athena_csv_t text = {0};

    *out = NULL;
    if (*p == end || **p != '"')
        return FLOE_OK; /* empty: NULL */
    for ((*p)++;; (*p)++) {
        if (*p == end) {
            free(text.data);
            return CUT;
        }
        if (**p == '"') {
            if (*p + 1 == end && !is_end) {
                free(text.data); /* a closing quote, or the first of a doubled one */
                return CUT;
            }
            if (*p + 1 < end && (*p)[1] == '"') {
                put(&text, "\"", 1);
                (*p)++;
                continue;
            }
            (*p)++;
            break;
        }
        put(&text, *p, 1);
    }
    *out = text.data != NULL ? text.data : floe_xstrdup("");
    return FLOE_OK;
}

static void record_dispose(floe_athena_csv_record_t *r)
{
    for (size_t j = 0; j < r->n; j++)
        free(r->fields[j]);
    free(r->fields);
}

/* One record at *p, through its '\n': FLOE_OK, CUT or ENDED when the text ends first, or FLOE_EINVAL. */
static int read_record(const char **p, const char *end, bool is_end, floe_athena_csv_record_t *r)
{
    r->fields = NULL;
    r->n = 0;
    for (;;) {
        char *field;
        int rc = read_field(p, end, is_end, &field);

        if (rc != FLOE_OK)
            return rc;
        r->fields = floe_xrealloc(r->fields, (r->n + 1) * sizeof(*r->fields));
        r->fields[r->n++] = field;
        if (*p == end)
            return ENDED;
        if (**p == ',') {
            (*p)++;
            continue;
        }
        if (**p == '\n') {
            (*p)++;
            return FLOE_OK;
        }
        return FLOE_EINVAL;
    }
}

int floe_athena_csv_read(const char *data, size_t len, bool is_end, size_t max, floe_athena_csv_record_t **out,
                         size_t *n, size_t *used)
{
    const char *p = data, *end = data + len;

    *out = NULL;
    *n = 0;
    *used = 0;
    while (p < end && *n < max) {
        floe_athena_csv_record_t r;
        int rc = read_record(&p, end, is_end, &r);

        if (rc == ENDED && is_end)
            rc = FLOE_OK; /* the file's last record, without its "\n" */
        if (rc != FLOE_OK) {
            record_dispose(&r);
            if ((rc == CUT || rc == ENDED) && !is_end)
                break;
            floe_athena_csv_records_free(*out, *n);
            *out = NULL;
            *n = 0;
            *used = 0;
            return FLOE_EINVAL;
        }
        *out = floe_xrealloc(*out, (*n + 1) * sizeof(**out));
        (*out)[(*n)++] = r;
        *used = (size_t)(p - data);
    }
    return FLOE_OK;
}

void floe_athena_csv_records_free(floe_athena_csv_record_t *records, size_t n)
{
    for (size_t i = 0; i < n; i++)
        record_dispose(&records[i]);
    free(records);
}

int floe_athena_result_place(const char *output_location, const char *id, const char *suffix, char *bucket,
                             size_t bucket_size, char *key, size_t key_size)
{
    const char *name = output_location, *slash;
    size_t n, prefix;

    if (strncmp(name, "s3://", 5) != 0)
        return FLOE_EINVAL;
    name += 5;
    slash = strchr(name, '/');
    n = slash != NULL ? (size_t)(slash - name) : strlen(name);
    if (n == 0 || n >= bucket_size)
        return FLOE_EINVAL;
    memcpy(bucket, name, n);
    bucket[n] = '\0';
    slash = slash != NULL ? slash + 1 : "";
    prefix = strlen(slash);
    snprintf(key, key_size, "%s%s%s%s", slash, prefix > 0 && slash[prefix - 1] != '/' ? "/" : "", id, suffix);
    return FLOE_OK;
}
