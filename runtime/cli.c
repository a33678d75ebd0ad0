/*
 * The command line of cli.h: parses flags and FLOE_* variables into a floe_config_t, prepares the
 * data directory and hands over to the server. Not for serving itself (server.c).
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "base/engine_key.h"
#include "base/failure.h"
#include "base/scope.h"
#include "base/xalloc.h"
#include "cli.h"
#include "maintenance/client.h"
#include "maintenance/route.h"
#include "s3tables/dispatch.h"
#include "server.h"

#define MAX_THREADS 64

static const char usage[] =
    "usage: floe <command> [options]\n"
    "\n"
    "commands:\n"
    "  serve      run the S3 Tables + S3 emulator\n"
    "  env [serve options]\n"
    "             print shell exports that point AWS clients at Floe: eval \"$(floe env)\"; give it\n"
    "             the --host, --port, --region and --credentials the server runs with (the first\n"
    "             --credentials pair becomes AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)\n"
    "  maintenance run [--endpoint URL] --arn ARN --type TYPE [--now TIME] [--credentials AK:SK]\n"
    "             run one maintenance job on a running Floe to the end and print its status (JSON);\n"
    "             TYPE: icebergCompaction, icebergSnapshotManagement, icebergUnreferencedFileRemoval,\n"
    "             recordExpiration; TIME: RFC 3339, the clock the job's age rules use. URL defaults\n"
    "             to AWS_ENDPOINT_URL; the request is signed (SigV4) with --credentials, else with\n"
    "             AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as --strict-signatures requires\n"
    "  version    print the version\n"
    "\n"
    "serve options (environment variable in brackets):\n"
    "  --host H          address to listen on [FLOE_HOST] (default 127.0.0.1)\n"
    "  --port P          port [FLOE_PORT] (default 4566)\n"
    "  --data-dir D      persistent state directory [FLOE_DATA_DIR]\n"
    "                    (default $XDG_DATA_HOME/floe or ~/.local/share/floe)\n"
    "  --in-memory       keep state in a temporary directory removed at exit [FLOE_IN_MEMORY=1]\n"
    "  --threads N       event-loop threads [FLOE_THREADS] (default 1)\n"
    "  --region R        region in ARNs [FLOE_REGION] (default us-east-1)\n"
    "  --account-id A    12-digit account id in ARNs [FLOE_ACCOUNT_ID] (default 000000000000)\n"
    "  --quiet           no per-request log lines [FLOE_QUIET=1]\n"
    "  --fsync-commits   fsync every database commit, so commits survive power loss as well as\n"
    "                    crashes (default: crashes only) [FLOE_FSYNC_COMMITS=1]\n"
    "  --strict-signatures  verify SigV4 signatures (header and presigned; SigV2 presigned S3 URLs\n"
    "                    too) [FLOE_STRICT_SIGNATURES=1]\n"
    "  --credentials AK:SK  a key pair strict mode accepts; repeat for more [FLOE_CREDENTIALS=AK:SK,AK2:SK2]\n"
    "  --enforce-iam     authorize calls as AWS evaluates IAM and resource policies (a 12-digit\n"
    "                    access key is that account's root); needs --strict-signatures [FLOE_ENFORCE_IAM=1]\n"
    "  --warehouse-s3 M  what S3 serves on a table's warehouse bucket [FLOE_WAREHOUSE_S3]: 'table'\n"
    "                    (default: only the object operations AWS supports on table storage) or\n"
    "                    'full' (every S3 operation, for debugging)\n"
    "  --maintenance-interval S  seconds between scheduled maintenance runs [FLOE_MAINTENANCE_INTERVAL]\n"
    "                    (default 3600; 0: jobs run only through POST /_floe/maintenance/run)\n"
    "  --iceberg-stage-create  accept the REST catalog's stage-create (CTAS), which AWS refuses\n"
    "                    (default: refused as AWS does) [FLOE_ICEBERG_STAGE_CREATE=1]\n"
    "  --athena-trino-url URL  run Athena's queries on this running Trino (its catalogs must be dynamic)\n"
    "                    [FLOE_ATHENA_TRINO_URL] (default: Floe starts Trino on the first query)\n"
    "  --athena-trino-home D  the Trino server Floe starts [FLOE_ATHENA_TRINO_HOME]\n"
    "                    (default ~/.cache/floe-trino/trino-server-476, where scripts/setup-deps --athena puts it)\n"
    "  --athena-java-home D  the JDK (24 or newer) Trino runs on [FLOE_ATHENA_JAVA_HOME]\n"
    "                    (default: JAVA_HOME if new enough, else the newest in /usr/lib/jvm)\n";

static int add_credentials(floe_config_t *c, const char *list);

/* --warehouse-s3 / FLOE_WAREHOUSE_S3 (`source`, named in the message): "table" (AWS's behaviour)
 * or "full". */
static int parse_warehouse_s3(const char *mode, const char *source, floe_config_t *c)
{
    if (strcmp(mode, "full") == 0 || strcmp(mode, "table") == 0) {
        c->warehouse_s3_full = strcmp(mode, "full") == 0;
        return FLOE_OK;
    }
    fprintf(stderr, "floe: %s must be 'table' or 'full', not '%s'\n", source, mode);
    return FLOE_EFAIL;
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "yes") == 0);
}

static char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return floe_xstrdup(v != NULL && *v ? v : fallback);
}

static char *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && *v ? floe_xstrdup(v) : NULL;
}

static int parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno || v < lo || v > hi)
        return FLOE_EFAIL;
    *out = (int)v;
    return FLOE_OK;
}

static char *default_data_dir(void)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char path[PATH_MAX];
    if (xdg != NULL && *xdg)
        snprintf(path, sizeof(path), "%s/floe", xdg);
    else
        snprintf(path, sizeof(path), "%s/.local/share/floe", home != NULL ? home : ".");
    return floe_xstrdup(path);
}

static void config_defaults(floe_config_t *c)
{
    const char *dir = getenv("FLOE_DATA_DIR");
    memset(c, 0, sizeof(*c));
    c->host = env_or("FLOE_HOST", FLOE_DEFAULT_HOST);
    c->region = env_or("FLOE_REGION", FLOE_DEFAULT_REGION);
    c->account_id = env_or("FLOE_ACCOUNT_ID", FLOE_DEFAULT_ACCOUNT_ID);
    c->data_dir = dir != NULL && *dir ? floe_xstrdup(dir) : NULL;
    c->in_memory = env_flag("FLOE_IN_MEMORY");
    c->quiet = env_flag("FLOE_QUIET");
    c->strict_signatures = env_flag("FLOE_STRICT_SIGNATURES");
    c->enforce_iam = env_flag("FLOE_ENFORCE_IAM");
    c->fsync_commits = env_flag("FLOE_FSYNC_COMMITS");
    c->iceberg_stage_create = env_flag("FLOE_ICEBERG_STAGE_CREATE");
    c->athena_trino_url = env_or_null("FLOE_ATHENA_TRINO_URL");
    c->athena_trino_home = env_or_null("FLOE_ATHENA_TRINO_HOME");
    c->athena_java_home = env_or_null("FLOE_ATHENA_JAVA_HOME");
    c->engine_secret = floe_xmalloc(FLOE_ENGINE_SECRET_LEN + 1);
    floe_engine_secret_new(c->engine_secret);
    c->port = FLOE_DEFAULT_PORT;
    c->threads = 1;
    c->maintenance_interval_s = FLOE_DEFAULT_MAINTENANCE_INTERVAL_S;
}

static void config_dispose(floe_config_t *c)
{
    for (size_t i = 0; i < c->n_credentials; i++) {
        free(c->credentials[i].access_key);
        free(c->credentials[i].secret_key);
    }
    free(c->credentials);
    free(c->arn_bucket_prefix);
    free(c->host);
    free(c->region);
    free(c->account_id);
    free(c->data_dir);
    free(c->athena_trino_url);
    free(c->athena_trino_home);
    free(c->athena_java_home);
    free(c->engine_secret);
}

/* Derives what every request would otherwise format again. */
static void config_derive(floe_config_t *c)
{
    char prefix[256];
    snprintf(prefix, sizeof(prefix), "arn:aws:s3tables:%s:%s:bucket/", c->region, c->account_id);
    c->arn_bucket_prefix = floe_xstrdup(prefix);
}

static int check_config(const floe_config_t *c)
{
    if (!floe_scope_is_account_id(c->account_id, strlen(c->account_id))) {
        fprintf(stderr, "floe: --account-id must be 12 digits\n");
        return FLOE_EFAIL;
    }
    if (!floe_scope_is_region(c->region, strlen(c->region))) {
        fprintf(stderr, "floe: --region must be 1 to %d lower-case letters, digits and '-'\n", FLOE_REGION_MAX_LEN);
        return FLOE_EFAIL;
    }
    if (c->strict_signatures && c->n_credentials == 0) {
        fprintf(stderr, "floe: --strict-signatures needs at least one --credentials ACCESS_KEY:SECRET_KEY\n");
        return FLOE_EFAIL;
    }
    if (c->enforce_iam && !c->strict_signatures) {
        fprintf(stderr, "floe: --enforce-iam needs --strict-signatures: an unsigned call has no identity to "
                        "authorize\n");
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Applies FLOE_PORT / FLOE_THREADS / FLOE_CREDENTIALS, which need parsing. */
static int config_numbers_from_env(floe_config_t *c)
{
    const char *port = getenv("FLOE_PORT"), *threads = getenv("FLOE_THREADS"), *creds = getenv("FLOE_CREDENTIALS");
    const char *warehouse = getenv("FLOE_WAREHOUSE_S3"), *interval = getenv("FLOE_MAINTENANCE_INTERVAL");
    if (creds != NULL && *creds && add_credentials(c, creds))
        return FLOE_EFAIL;
    if (warehouse != NULL && *warehouse && parse_warehouse_s3(warehouse, "FLOE_WAREHOUSE_S3", c))
        return FLOE_EFAIL;
    if (port != NULL && *port && parse_int(port, 0, 65535, &c->port)) {
        fprintf(stderr, "floe: FLOE_PORT must be a port number\n");
        return FLOE_EFAIL;
    }
    if (threads != NULL && *threads && parse_int(threads, 1, MAX_THREADS, &c->threads)) {
        fprintf(stderr, "floe: FLOE_THREADS must be 1..%d\n", MAX_THREADS);
        return FLOE_EFAIL;
    }
    if (interval != NULL && *interval && parse_int(interval, 0, INT_MAX, &c->maintenance_interval_s)) {
        fprintf(stderr, "floe: FLOE_MAINTENANCE_INTERVAL must be a number of seconds (0: off)\n");
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

enum {
    OPT_HOST = 256, OPT_PORT, OPT_DATA_DIR, OPT_IN_MEMORY, OPT_THREADS, OPT_REGION, OPT_ACCOUNT_ID, OPT_QUIET,
    OPT_STRICT_SIGNATURES, OPT_CREDENTIALS, OPT_FSYNC_COMMITS, OPT_WAREHOUSE_S3, OPT_MAINTENANCE_INTERVAL,
    OPT_ICEBERG_STAGE_CREATE, OPT_ENFORCE_IAM, OPT_ATHENA_TRINO_URL, OPT_ATHENA_TRINO_HOME, OPT_ATHENA_JAVA_HOME,
};

static const struct option long_options[] = {
    {"host", required_argument, NULL, OPT_HOST},
    {"port", required_argument, NULL, OPT_PORT},
    {"data-dir", required_argument, NULL, OPT_DATA_DIR},
    {"in-memory", no_argument, NULL, OPT_IN_MEMORY},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"region", required_argument, NULL, OPT_REGION},
    {"account-id", required_argument, NULL, OPT_ACCOUNT_ID},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"strict-signatures", no_argument, NULL, OPT_STRICT_SIGNATURES},
    {"credentials", required_argument, NULL, OPT_CREDENTIALS},
    {"fsync-commits", no_argument, NULL, OPT_FSYNC_COMMITS},
    {"warehouse-s3", required_argument, NULL, OPT_WAREHOUSE_S3},
    {"maintenance-interval", required_argument, NULL, OPT_MAINTENANCE_INTERVAL},
    {"iceberg-stage-create", no_argument, NULL, OPT_ICEBERG_STAGE_CREATE},
    {"enforce-iam", no_argument, NULL, OPT_ENFORCE_IAM},
    {"athena-trino-url", required_argument, NULL, OPT_ATHENA_TRINO_URL},
    {"athena-trino-home", required_argument, NULL, OPT_ATHENA_TRINO_HOME},
    {"athena-java-home", required_argument, NULL, OPT_ATHENA_JAVA_HOME},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int parse_flags(int argc, char **argv, floe_config_t *c)
{
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        switch (opt) {
        case OPT_HOST: free(c->host); c->host = floe_xstrdup(optarg); break;
        case OPT_PORT:
            if (parse_int(optarg, 0, 65535, &c->port)) {
                fprintf(stderr, "floe: --port must be a port number\n");
                return FLOE_EFAIL;
            }
            break;
        case OPT_DATA_DIR: free(c->data_dir); c->data_dir = floe_xstrdup(optarg); break;
        case OPT_IN_MEMORY: c->in_memory = true; break;
        case OPT_THREADS:
            if (parse_int(optarg, 1, MAX_THREADS, &c->threads)) {
                fprintf(stderr, "floe: --threads must be 1..%d\n", MAX_THREADS);
                return FLOE_EFAIL;
            }
            break;
        case OPT_REGION: free(c->region); c->region = floe_xstrdup(optarg); break;
        case OPT_ACCOUNT_ID: free(c->account_id); c->account_id = floe_xstrdup(optarg); break;
        case OPT_QUIET: c->quiet = true; break;
        case OPT_STRICT_SIGNATURES: c->strict_signatures = true; break;
        case OPT_FSYNC_COMMITS: c->fsync_commits = true; break;
        case OPT_ICEBERG_STAGE_CREATE: c->iceberg_stage_create = true; break;
        case OPT_ENFORCE_IAM: c->enforce_iam = true; break;
        case OPT_ATHENA_TRINO_URL: free(c->athena_trino_url); c->athena_trino_url = floe_xstrdup(optarg); break;
        case OPT_ATHENA_TRINO_HOME: free(c->athena_trino_home); c->athena_trino_home = floe_xstrdup(optarg); break;
        case OPT_ATHENA_JAVA_HOME: free(c->athena_java_home); c->athena_java_home = floe_xstrdup(optarg); break;
        case OPT_CREDENTIALS:
            if (add_credentials(c, optarg))
                return FLOE_EFAIL;
            break;
        case OPT_WAREHOUSE_S3:
            if (parse_warehouse_s3(optarg, "--warehouse-s3", c))
                return FLOE_EFAIL;
            break;
        case OPT_MAINTENANCE_INTERVAL:
            if (parse_int(optarg, 0, INT_MAX, &c->maintenance_interval_s)) {
                fprintf(stderr, "floe: --maintenance-interval must be a number of seconds (0: off)\n");
                return FLOE_EFAIL;
            }
            break;
        case 'h': fputs(usage, stdout); exit(0);
        default: fputs(usage, stderr); return FLOE_EFAIL;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "floe: unexpected argument %s\n", argv[optind]);
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Adds "AK:SK[,AK2:SK2...]" to the accepted credentials. */
static int add_credentials(floe_config_t *c, const char *list)
{
    char *copy = floe_xstrdup(list), *save = NULL;
    int rc = 0;

    for (char *pair = strtok_r(copy, ",", &save); pair != NULL; pair = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(pair, ':');
        if (colon == NULL || colon == pair || colon[1] == '\0') {
            fprintf(stderr, "floe: --credentials takes ACCESS_KEY:SECRET_KEY\n");
            rc = -1;
            break;
        }
        *colon = '\0';
        c->credentials = floe_xrealloc(c->credentials, (c->n_credentials + 1) * sizeof(*c->credentials));
        c->credentials[c->n_credentials].access_key = floe_xstrdup(pair);
        c->credentials[c->n_credentials++].secret_key = floe_xstrdup(colon + 1);
    }
    free(copy);
    return rc;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return FLOE_EFAIL;
            *p = '/';
        }
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? FLOE_EFAIL : FLOE_OK;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int prepare_data_dir(floe_config_t *c)
{
    char path[PATH_MAX], resolved[PATH_MAX];

    if (c->in_memory) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        snprintf(path, sizeof(path), "%s/floe-XXXXXX", base);
        if (mkdtemp(path) == NULL) {
            perror("floe: cannot create a temporary data directory");
            return FLOE_EFAIL;
        }
        free(c->data_dir);
        c->data_dir = floe_xstrdup(path);
    } else if (c->data_dir == NULL) {
        c->data_dir = default_data_dir();
    }
    if (mkdir_p(c->data_dir) != 0 || realpath(c->data_dir, resolved) == NULL) {
        fprintf(stderr, "floe: cannot use data directory %s: %s\n", c->data_dir, strerror(errno));
        return FLOE_EFAIL;
    }
    free(c->data_dir);
    c->data_dir = floe_xstrdup(resolved);
    snprintf(path, sizeof(path), "%s/tmp", c->data_dir);
    if (mkdir_p(path) != 0) {
        fprintf(stderr, "floe: cannot create %s: %s\n", path, strerror(errno));
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int cmd_serve(int argc, char **argv)
{
    floe_config_t c;
    int rc = 1;

    config_defaults(&c);
    if (config_numbers_from_env(&c) || parse_flags(argc, argv, &c) || check_config(&c) || prepare_data_dir(&c))
        goto Exit;
    config_derive(&c);
    rc = floe_server_run(&c);
    if (c.in_memory)
        nftw(c.data_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
Exit:
    config_dispose(&c);
    return rc;
}

static int cmd_env(int argc, char **argv)
{
    floe_config_t c;
    const char *host;
    int rc = 1;

    config_defaults(&c);
    if (config_numbers_from_env(&c) || parse_flags(argc, argv, &c))
        goto Exit;
    /* A wildcard bind is reached through loopback by local clients. */
    host = strcmp(c.host, "0.0.0.0") == 0 || strcmp(c.host, "::") == 0 ? "127.0.0.1" : c.host;
    printf("export AWS_ENDPOINT_URL=http://%s:%d\n", host, c.port);
    printf("export AWS_ACCESS_KEY_ID=%s\n", c.n_credentials ? c.credentials[0].access_key : "floe");
    printf("export AWS_SECRET_ACCESS_KEY=%s\n", c.n_credentials ? c.credentials[0].secret_key : "floe");
    printf("export AWS_DEFAULT_REGION=%s\n", c.region);
    printf("export AWS_REGION=%s\n", c.region);
    printf("# aws CLI before 2.13 and boto3 before 1.28 ignore AWS_ENDPOINT_URL: pass --endpoint-url http://%s:%d\n",
           host, c.port);
    rc = 0;
Exit:
    config_dispose(&c);
    return rc;
}

/* The region a maintenance request signs for: the ARN's (arn:aws:s3tables:REGION:...), else the
 * AWS environment's, else Floe's default. Written into buf. */
static const char *signing_region(const char *arn, char *buf, size_t size)
{
    const char *p = arn, *env;
    for (int colons = 0; *p && colons < 3; p++)
        colons += *p == ':';
    if (*p && strchr(p, ':') != NULL && strchr(p, ':') > p) {
        snprintf(buf, size, "%.*s", (int)(strchr(p, ':') - p), p);
        return buf;
    }
    env = getenv("AWS_REGION") != NULL && *getenv("AWS_REGION") ? getenv("AWS_REGION") : getenv("AWS_DEFAULT_REGION");
    snprintf(buf, size, "%s", env != NULL && *env ? env : FLOE_DEFAULT_REGION);
    return buf;
}

/* The key pair a maintenance request signs with: --credentials AK:SK, else AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY: FLOE_OK, FLOE_ENOTFOUND when there is none (the request goes unsigned),
 * FLOE_EINVAL for a bad flag (said on stderr). */
static int signing_keys(const char *flag, char **access_key, char **secret_key)
{
    const char *ak = getenv("AWS_ACCESS_KEY_ID"), *sk = getenv("AWS_SECRET_ACCESS_KEY"), *colon;

    if (flag != NULL) {
        if ((colon = strchr(flag, ':')) == NULL || colon == flag || colon[1] == '\0') {
            fprintf(stderr, "floe: --credentials takes ACCESS_KEY:SECRET_KEY\n");
            return FLOE_EINVAL;
        }
        *access_key = floe_xstrdup(flag);
        (*access_key)[colon - flag] = '\0';
        *secret_key = floe_xstrdup(colon + 1);
        return FLOE_OK;
    }
    if (ak == NULL || !*ak || sk == NULL || !*sk)
        return FLOE_ENOTFOUND;
    *access_key = floe_xstrdup(ak);
    *secret_key = floe_xstrdup(sk);
    return FLOE_OK;
}

/* `floe maintenance run [--endpoint URL] --arn ARN --type TYPE [--now TIME] [--credentials AK:SK]`:
 * POST /_floe/maintenance/run on a running server, signed when keys are known, print its answer;
 * 0 only for a 200. */
static int cmd_maintenance(int argc, char **argv)
{
    static const struct option options[] = {
        {"endpoint", required_argument, NULL, 'e'}, {"arn", required_argument, NULL, 'a'},
        {"type", required_argument, NULL, 't'},     {"now", required_argument, NULL, 'n'},
        {"credentials", required_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *endpoint = getenv("AWS_ENDPOINT_URL"), *arn = NULL, *type = NULL, *now = NULL, *credentials = NULL;
    char *answer = NULL, *access_key = NULL, *secret_key = NULL, region[FLOE_REGION_MAX_LEN + 1];
    floe_sigv4_signer_t signer = {.service = FLOE_MAINTENANCE_SIGNING_NAME};
    int opt, status = 0, rc, keys;

    if (argc < 2 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "floe: usage: floe maintenance run [--endpoint URL] --arn ARN --type TYPE [--now TIME] "
                        "[--credentials AK:SK]\n");
        return 2;
    }
    optind = 1;
    while ((opt = getopt_long(argc - 1, argv + 1, "h", options, NULL)) != -1) {
        switch (opt) {
        case 'e': endpoint = optarg; break;
        case 'a': arn = optarg; break;
        case 't': type = optarg; break;
        case 'n': now = optarg; break;
        case 'c': credentials = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        default: return 2;
        }
    }
    if (endpoint == NULL || arn == NULL || type == NULL) {
        fprintf(stderr, "floe: maintenance run needs --endpoint (or AWS_ENDPOINT_URL), --arn and --type\n");
        return 2;
    }
    if ((keys = signing_keys(credentials, &access_key, &secret_key)) == FLOE_EINVAL)
        return 2;
    signer.access_key = access_key;
    signer.secret_key = secret_key;
    signer.region = signing_region(arn, region, sizeof(region));
    rc = floe_maintenance_client_run(endpoint, keys == FLOE_OK ? &signer : NULL, arn, type, now, &status, &answer);
    free(access_key);
    free(secret_key);
    if (answer != NULL)
        printf("%s\n", answer);
    free(answer);
    if (rc != 0)
        return 1;
    if (status != 200)
        fprintf(stderr, "floe: the server answered %d\n", status);
    return status == 200 ? 0 : 1;
}

int floe_cli_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    if (strcmp(argv[1], "env") == 0)
        return cmd_env(argc - 1, argv + 1);
    if (strcmp(argv[1], "maintenance") == 0)
        return cmd_maintenance(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("floe %s (S3 Tables model %s, sha256 %.12s)\n", FLOE_VERSION, floe_s3tables_model_version(),
               floe_s3tables_model_sha256());
        return 0;
    }
    fprintf(stderr, "floe: unknown command %s\n\n%s", argv[1], usage);
    return 2;
}
