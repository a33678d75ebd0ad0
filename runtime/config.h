/*
 * Settings of one Floe process, filled by cli.c from flags and FLOE_* environment variables and
 * read-only once the server starts. Everything configurable lives here; nothing else is global.
 */
#ifndef FLOE_CONFIG_H
#define FLOE_CONFIG_H

#include <stdbool.h>

#define FLOE_VERSION "0.1.0"
#define FLOE_DEFAULT_HOST "127.0.0.1"
#define FLOE_DEFAULT_PORT 4566
#define FLOE_DEFAULT_REGION "us-east-1"
#define FLOE_DEFAULT_ACCOUNT_ID "000000000000"

typedef struct floe_config {
    char *host;
    int port;
    char *data_dir;   /* absolute; for --in-memory a temporary directory removed at exit */
    bool in_memory;
    int threads;
    char *region;
    char *account_id;
    bool quiet;
    char *arn_bucket_prefix; /* "arn:aws:s3tables:{region}:{account}:bucket/", derived once */
} floe_config_t;

#endif
