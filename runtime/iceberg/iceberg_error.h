/*
 * How the Iceberg metadata module reports failure: a return code that says which answer the
 * caller owes its client, and one sentence saying why. Shared by iceberg_metadata.c (reading
 * stored files), iceberg_create.c (S3 Tables CreateTable) and iceberg_commit.c (REST commits).
 *
 * Not an HTTP error: the S3 Tables handler turns FLOE_ICEBERG_EINVALID into BadRequestException,
 * the REST catalog turns it into 400 BadRequestException and FLOE_ICEBERG_ECONFLICT into 409
 * CommitFailedException (Iceberg REST spec, /v1/{prefix}/namespaces/{namespace}/tables/{table}).
 */
#ifndef FLOE_ICEBERG_ERROR_H
#define FLOE_ICEBERG_ERROR_H

#define FLOE_ICEBERG_OK 0
/** The input is malformed or asks for something invalid: a bad request (400). */
#define FLOE_ICEBERG_EINVALID (-1)
/** A commit requirement does not hold against the current metadata: a conflict (409). */
#define FLOE_ICEBERG_ECONFLICT (-2)
/** The stored metadata.json cannot be read: Floe's own fault (500). */
#define FLOE_ICEBERG_ECORRUPT (-3)

#define FLOE_ICEBERG_MESSAGE_MAX 384

typedef struct floe_iceberg_error {
    int code;                               /* one of the FLOE_ICEBERG_E* codes, or FLOE_ICEBERG_OK */
    char message[FLOE_ICEBERG_MESSAGE_MAX]; /* one sentence for the client; "" when code is OK */
} floe_iceberg_error_t;

/** Sets err to `code` and a printf-formatted message (truncated to fit); returns `code`, so a
 * caller can write `return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "...", ...)`. */
int floe_iceberg_fail(floe_iceberg_error_t *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Clears err to FLOE_ICEBERG_OK with an empty message. */
void floe_iceberg_error_clear(floe_iceberg_error_t *err);

#endif
