/*
 * Settings of one Floe process, filled by cli.c from flags and FLOE_* environment variables and
 * read-only once the server starts. Everything configurable lives here; nothing else is global.
 */
#ifndef FLOE_BASE_CONFIG_H
#define FLOE_BASE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define FLOE_VERSION "0.1.0"
#define FLOE_DEFAULT_HOST "127.0.0.1"
#define FLOE_DEFAULT_PORT 4566
#define FLOE_DEFAULT_REGION "us-east-1"
#define FLOE_DEFAULT_ACCOUNT_ID "000000000000"
#define FLOE_DEFAULT_MAINTENANCE_INTERVAL_S 3600 /* AWS runs maintenance jobs periodically; hourly here */

/** A key pair accepted by --strict-signatures. */
typedef struct floe_credential {
    char *access_key;
    char *secret_key;
} floe_credential_t;

typedef struct floe_config {
    char *host;
    int port;
    char *data_dir;   /* absolute; for --in-memory a temporary directory removed at exit */
    bool in_memory;
    int threads;
    char *region;
    char *account_id;
    bool quiet;
    bool fsync_commits;  /* SQLite synchronous=FULL: commits survive power loss, not only crashes */
    bool strict_signatures;     /* verify SigV4 signatures against `credentials` */
    bool enforce_iam;           /* --enforce-iam: authorize each call as AWS evaluates policies (docs/authorization.md) */
    floe_credential_t *credentials;
    size_t n_credentials;
    bool warehouse_s3_full;     /* --warehouse-s3 full: every S3 operation on warehouse buckets (debugging) */
    bool iceberg_stage_create;  /* --iceberg-stage-create: accept the REST catalog's stage-create, which AWS refuses */
    int maintenance_interval_s; /* --maintenance-interval: seconds between scheduled maintenance sweeps; 0: none */
    char *athena_trino_url;  /* --athena-trino-url: a running Trino for Athena's queries; NULL: Floe starts its own */
    char *athena_trino_home; /* --athena-trino-home: NULL: where scripts/setup-deps --athena puts it */
    char *athena_java_home;  /* --athena-java-home: NULL: JAVA_HOME when 24+, else the newest JDK 24+ found */
    char *engine_secret;     /* the secret of Floe's own engine key (base/engine_key.h), random per process */
    char *arn_bucket_prefix; /* "arn:aws:s3tables:{region}:{account}:bucket/", derived once */
} floe_config_t;

#endif
