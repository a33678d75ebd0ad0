/*
 * Finding, configuring, starting and stopping Floe's own Trino (trino_server.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "trino/trino_query.h"
#include "trino/trino_server.h"

#define MIN_JAVA 24            /* Trino 476's floor */
#define JVM_DIR "/usr/lib/jvm" /* where Debian and Temurin's packages put JDKs */
#define STOP_WAIT_MS 20000     /* Trino's graceful stop, before SIGKILL */

struct floe_trino_server {
    pid_t pid;
    char url[64];
    char log[PATH_MAX];
};

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The major version a JDK's `release` file names (JAVA_VERSION="25.0.1"), 0 when unreadable. */
static int java_major(const char *java_home)
{
    char path[PATH_MAX], line[256];
    int major = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/release", java_home);
    if ((f = fopen(path, "r")) == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "JAVA_VERSION=\"", 14) == 0)
            major = atoi(line + 14);
    }
    fclose(f);
    snprintf(path, sizeof(path), "%s/bin/java", java_home);
    return is_file(path) ? major : 0;
}

/* The newest JDK of JVM_DIR that is new enough. */
static bool scan_jvms(char *out, size_t size)
{
    int best = 0;
    DIR *d = opendir(JVM_DIR);
    struct dirent *e;

    while (d != NULL && (e = readdir(d)) != NULL) {
        char home[PATH_MAX];
        int major;

        if (e->d_name[0] == '.')
            continue;
        snprintf(home, sizeof(home), "%s/%s", JVM_DIR, e->d_name);
        if ((major = java_major(home)) >= MIN_JAVA && major > best) {
            best = major;
            snprintf(out, size, "%s", home);
        }
    }
    if (d != NULL)
        closedir(d);
    return best > 0;
}

static int find_java(const floe_config_t *config, floe_trino_place_t *out, char *why, size_t n)
{
    const char *env = getenv("JAVA_HOME");

    if (config->athena_java_home != NULL) {
        snprintf(out->java_home, sizeof(out->java_home), "%s", config->athena_java_home);
        if (java_major(out->java_home) >= MIN_JAVA)
            return FLOE_OK;
        snprintf(why, n, "--athena-java-home %s is not a JDK %d or newer, which Trino %s needs.",
                 config->athena_java_home, MIN_JAVA, FLOE_TRINO_VERSION);
        return FLOE_ENOTFOUND;
    }
    if (env != NULL && *env && java_major(env) >= MIN_JAVA) {
        snprintf(out->java_home, sizeof(out->java_home), "%s", env);
        return FLOE_OK;
    }
    if (scan_jvms(out->java_home, sizeof(out->java_home)))
        return FLOE_OK;
    snprintf(why, n,
             "Trino %s needs a JDK %d or newer, and none was found (JAVA_HOME, %s); install one (for example "
             "Temurin 25) and pass --athena-java-home.",
             FLOE_TRINO_VERSION, MIN_JAVA, JVM_DIR);
    return FLOE_ENOTFOUND;
}

int floe_trino_find(const floe_config_t *config, floe_trino_place_t *out, char *why, size_t n)
{
    const char *cache = getenv("FLOE_TRINO_CACHE"), *home = getenv("HOME");
    char root[PATH_MAX / 2], launcher[PATH_MAX + 16];

    memset(out, 0, sizeof(*out));
    if (cache != NULL && *cache)
        snprintf(root, sizeof(root), "%s", cache);
    else
        snprintf(root, sizeof(root), "%s/.cache/floe-trino", home != NULL ? home : ".");
    if (config->athena_trino_home != NULL)
        snprintf(out->home, sizeof(out->home), "%s", config->athena_trino_home);
    else
        snprintf(out->home, sizeof(out->home), "%s/trino-server-%s", root, FLOE_TRINO_VERSION);
    snprintf(launcher, sizeof(launcher), "%s/bin/launcher", out->home);
    if (!is_file(launcher)) {
        snprintf(why, n,
                 "Athena queries need Trino: Trino is not installed. Run scripts/setup-deps --athena, which puts "
                 "it where Floe looks (%s), or start Floe with --athena-trino-home or with --athena-trino-url "
                 "pointing at a running Trino.",
                 out->home);
        return FLOE_ENOTFOUND;
    }
    /* setup-deps' directory of the three plugins Floe uses (Iceberg, Hive for Glue's default
     * catalog, and OPA for --enforce-iam) when it is beside the server, else all of them: Trino
     * starts faster with three */
    snprintf(out->plugins, sizeof(out->plugins), "%s/plugins-floe", root);
    if (config->athena_trino_home != NULL || !is_file(out->plugins))
        snprintf(out->plugins, sizeof(out->plugins), "%.*s/plugin", PATH_MAX / 2, out->home);
    return find_java(config, out, why, n);
}

static int free_port(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "w")) == NULL)
        return FLOE_EIO;
    fputs(text, f);
    return fclose(f) == 0 ? FLOE_OK : FLOE_EIO;
}

/* etc/ for one coordinator that also works, on 127.0.0.1:port, with dynamic catalogs in memory. */
static int write_etc(const char *etc, const char *data, const char *plugins, int port, const char *access_control_uri)
{
    char text[PATH_MAX * 2 + 1024];
    int rc = FLOE_OK;

    snprintf(text, sizeof(text), "node.environment=floe\nnode.id=floe-athena\nnode.data-dir=%s\n", data);
    rc |= write_file(etc, "node.properties", text);
    rc |= write_file(etc, "jvm.config",
                     "-server\n-Xmx2G\n-XX:+UseG1GC\n-XX:+ExitOnOutOfMemoryError\n-Djdk.attach.allowAttachSelf=true\n");
    snprintf(text, sizeof(text),
             "coordinator=true\nnode-scheduler.include-coordinator=true\nhttp-server.http.port=%d\n"
             "discovery.uri=http://127.0.0.1:%d\nnode.internal-address=127.0.0.1\nplugin.dir=%s\n"
             "catalog.management=dynamic\ncatalog.store=memory\n"
             "query.max-memory=1GB\nquery.max-memory-per-node=1GB\n",
             port, port, plugins);
    rc |= write_file(etc, "config.properties", text);
    rc |= write_file(etc, "log.properties", "io.trino=WARN\n");
    if (access_control_uri != NULL) {
        snprintf(text, sizeof(text), "access-control.name=opa\nopa.policy.uri=%s\n", access_control_uri);
        rc |= write_file(etc, "access-control.properties", text);
    } else {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof(path), "%s/access-control.properties", etc);
        unlink(path); /* a data directory's earlier run may have enforced */
    }
    return rc == FLOE_OK ? FLOE_OK : FLOE_EIO;
}

/* What the child execs, prepared before fork: the child may make async-signal-safe calls only. */
typedef struct exec_args {
    char launcher[PATH_MAX + 16], java_env[PATH_MAX + 16], path_env[PATH_MAX + 64];
    char *argv[7], *envp[4];
} exec_args_t;

static void prepare_exec(exec_args_t *x, const floe_trino_place_t *place, char *etc, char *data)
{
    snprintf(x->launcher, sizeof(x->launcher), "%s/bin/launcher", place->home);
    snprintf(x->java_env, sizeof(x->java_env), "JAVA_HOME=%s", place->java_home);
    snprintf(x->path_env, sizeof(x->path_env), "PATH=%s/bin:/usr/bin:/bin", place->java_home);
    x->argv[0] = x->launcher, x->argv[1] = "run", x->argv[2] = "--etc-dir", x->argv[3] = etc;
    x->argv[4] = "--data-dir", x->argv[5] = data, x->argv[6] = NULL;
    x->envp[0] = x->java_env, x->envp[1] = x->path_env, x->envp[2] = "LANG=C.UTF-8", x->envp[3] = NULL;
}

static void exec_trino(const exec_args_t *x, int log_fd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* design note 1 */
    setpgid(0, 0);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    execve(x->launcher, x->argv, x->envp);
    _exit(127);
}

int floe_trino_server_start(const floe_trino_place_t *place, const char *work_dir, const char *access_control_uri,
                            floe_trino_server_t **out, char *why, size_t n)
{
    char etc[PATH_MAX], data[PATH_MAX];
    floe_trino_server_t *s;
    exec_args_t x;
    int port = free_port(), log_fd;
    pid_t pid;

    *out = NULL;
    snprintf(etc, sizeof(etc), "%s/etc", work_dir);
    snprintf(data, sizeof(data), "%s/data", work_dir);
    mkdir(work_dir, 0700);
    mkdir(etc, 0700);
    mkdir(data, 0700);
    if (port < 0 || write_etc(etc, data, place->plugins, port, access_control_uri) != FLOE_OK) {
        snprintf(why, n, "cannot configure Trino in %s: %s", work_dir, strerror(errno));
        return FLOE_EFAIL;
    }
    s = floe_xcalloc(1, sizeof(*s));
    snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", port);
    snprintf(s->log, sizeof(s->log), "%s/trino.log", work_dir);
    if ((log_fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) < 0) {
        snprintf(why, n, "cannot open %s: %s", s->log, strerror(errno));
        free(s);
        return FLOE_EFAIL;
    }
    prepare_exec(&x, place, etc, data);
    if ((pid = fork()) == 0)
        exec_trino(&x, log_fd);
    close(log_fd);
    if (pid < 0) {
        snprintf(why, n, "cannot start Trino: %s", strerror(errno));
        free(s);
        return FLOE_EFAIL;
    }
    s->pid = pid;
    *out = s;
    return FLOE_OK;
}

const char *floe_trino_server_url(const floe_trino_server_t *s)
{
    return s->url;
}

int floe_trino_server_ready(floe_trino_server_t *s, char *why, size_t n)
{
    floe_trino_session_t session = {.url = s->url, .user = "floe"};
    floe_trino_outcome_t out;
    int status;

    if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
        s->pid = 0;
        snprintf(why, n, "Trino stopped while starting (exit status %d); its log is %s",
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), s->log);
        return FLOE_EFAIL;
    }
    if (floe_trino_run(&session, "SELECT 1", &floe_trino_discard, &out) != FLOE_OK || out.end != FLOE_TRINO_FINISHED)
        return FLOE_ESTATE;
    return FLOE_OK;
}

void floe_trino_server_stop(floe_trino_server_t *s)
{
    struct timespec pause = {0, 100 * 1000 * 1000};

    if (s == NULL)
        return;
    if (s->pid > 0) {
        kill(-s->pid, SIGTERM);
        for (int waited = 0; waitpid(s->pid, NULL, WNOHANG) == 0; waited += 100) {
            if (waited >= STOP_WAIT_MS) {
                kill(-s->pid, SIGKILL);
                waitpid(s->pid, NULL, 0);
                break;
            }
            nanosleep(&pause, NULL);
        }
    }
    free(s);
}
