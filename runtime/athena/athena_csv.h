/*
 * Athena's result files as Athena writes them (<OutputLocation>/<QueryExecutionId>.csv): a header
 * of column names, then one record per row, every value in double quotes with quotes doubled, a
 * NULL as an empty unquoted field, records ended by "\n". Writing (the engine) and reading back
 * (GetQueryResults) are both here so the two cannot disagree. No I/O.
 */
#ifndef FLOE_ATHENA_CSV_H
#define FLOE_ATHENA_CSV_H

#include <stdbool.h>
#include <stddef.h>

/** A growing text buffer (malloc'ed; the owner frees data). */
typedef struct floe_athena_csv {
    char *data;
    size_t len, cap;
} floe_athena_csv_t;

/** Appends n bytes as they are (the buffer serves other text too). */
void floe_athena_csv_append(floe_athena_csv_t *b, const char *s, size_t n);

/** Appends one field: `text` quoted, or NULL as an empty field; `first` for a record's first. */
void floe_athena_csv_field(floe_athena_csv_t *b, const char *text, bool first);

/** Ends a record. */
void floe_athena_csv_end_record(floe_athena_csv_t *b);

/** One record read back: n fields, each NUL-terminated text or NULL (an empty unquoted field). */
typedef struct floe_athena_csv_record {
    char **fields;
    size_t n;
} floe_athena_csv_record_t;

/**
 * Reads up to max whole records from data[0..len) into *out (malloc'ed: free each field, each
 * fields array and the array with floe_athena_csv_records_free); *used is the bytes they span, so a
 * page that starts at a file's offset o ends at o + *used. With is_end the text ends the file and a
 * last record without its "\n" is whole; otherwise a record the text cuts is left for a longer read.
 * FLOE_OK, or FLOE_EINVAL when the text is not such a file (an unterminated quote, text after a quote).
 */
int floe_athena_csv_read(const char *data, size_t len, bool is_end, size_t max, floe_athena_csv_record_t **out,
                         size_t *n, size_t *used);

void floe_athena_csv_records_free(floe_athena_csv_record_t *records, size_t n);

/**
 * Where query `id`'s file `<id><suffix>` goes under `output_location` ("s3://bucket/prefix/"):
 * its bucket and key into the buffers. FLOE_OK, or FLOE_EINVAL when the location is no s3:// URI.
 */
int floe_athena_result_place(const char *output_location, const char *id, const char *suffix, char *bucket,
                             size_t bucket_size, char *key, size_t key_size);

#endif
