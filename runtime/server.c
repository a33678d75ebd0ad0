/*
 * The server of server.h.
 *
 * Design notes:
 *  1. Each thread owns an h2o event loop, an h2o context (inside floe_worker_t) and a SQLite
 *     connection; threads share only read-only data (the configuration, the route table, the
 *     compiled patterns) and one listening socket: it is bound once, without SO_REUSEPORT, and
 *     each loop watches its own dup() of it and accepts from it. SO_REUSEPORT would let a second
 *     floe (or any process of the same user) bind the same port and silently take a share of the
 *     connections; a single bind makes the port refuse it, whatever the thread count.
 *  2. The listener is bound on the main thread before any thread starts, so a port in use (by
 *     another floe or any other program) fails start-up with a clear message instead of a silent
 *     thread.
 *  3. Handlers run on the loop thread and may block it (SQLite, fsync): other connections of that
 *     thread wait. --threads N gives N loops.
 *  4. Shutdown: a signal sets `stopping`; each loop notices within STOP_POLL_MS, closes its
 *     listener, shuts down every open client socket (keep-alive connections would otherwise wait
 *     out the request timeout), lets h2o close them, then disposes its context and state; the
 *     main thread joins the others.
 *  5. Background threads (stacks, maintenance, replication) reach the state only through the first
 *     worker's background door (background.h), which shutdown closes before the janitor stops;
 *     the CloudFormation stack engine (cloudformation/stack_thread.h) is joined right after.
 *  6. Before any thread starts, floe_store_recover() removes what a crash left in the object store
 *     (store.h) and floe_janitor_recover() queues the warehouse buckets a crash left without a
 *     table (janitor.h), both on the first worker's connection, opened first so that start-up
 *     opens the database once (each open and close of the only connection creates and removes
 *     the WAL files: about 0.5 ms apiece). After every loop turn each connection's file-backed input buffer has its
 *     received pages released (s3/spill.h), so a large upload does not stay resident while it
 *     arrives.
 *  7. h2o's configuration is built on a short-lived thread while the main thread opens the
 *     database: the two share nothing. The main thread joins it before any worker starts.
 *  8. h2o_config_init fills a default MIME map of about a hundred file extensions, rebuilding its
 *     type index after each one: 2.6M instructions, as much as the rest of Floe's start-up. Floe
 *     serves nothing by file extension (no h2o file handler; every response names its own
 *     Content-Type) and registers no filter that reads the map (compression), so while
 *     configure_h2o runs h2o_config_init the types are not defined:
 *     h2o_mimemap_define_mimetype below is the executable's, which takes the place of libh2o's
 *     (libh2o calls it through its PLT), and at any other moment it passes the call on to
 *     libh2o's. The map keeps its default type, application/octet-stream.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "athena_engine/engine.h"
#include "awsjson/awsjson.h"
#include "background/background.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "call/worker.h"
#include "catalog/janitor.h"
#include "catalog/table_bucket.h"
#include "cloudformation/stack_thread.h"
#include "db/state.h"
#include "front.h"
#include "iceberg_rest/iceberg_rest.h"
#include "maintenance/maintenance.h"
#include "query/query.h"
#include "replication/replicator.h"
#include "s3/s3.h"
#include "s3/spill.h"
#include "s3tables/dispatch.h"
#include "server.h"
#include "store/store.h"

#define STOP_POLL_MS 200
#define DRAIN_TIMEOUT_MS 3000
#define LISTEN_BACKLOG 1024
/* h2o 2.2 applies the HTTP/1 request timeout to the whole upload; S3 PUTs of large objects
 * must not be cut off (the default is 10 s). */
#define HTTP1_REQUEST_TIMEOUT_MS (10 * 60 * 1000)
/* S3's largest single PUT is 5 GiB. */
#define MAX_REQUEST_ENTITY_SIZE ((size_t)5 << 30)

static volatile sig_atomic_t stopping;

typedef struct server {
    const floe_config_t *config;
    floe_maintenance_t *maintenance; /* maintenance/maintenance.h: started on the first worker */
    h2o_globalconf_t globalconf;
    char db_path[4096];
} server_t;

typedef struct worker_thread {
    server_t *server;
    int index;
    int listen_fd;
    floe_state_t *state; /* the first worker's connection, opened before threads start; else NULL */
    int failed;
    pthread_t tid;
} worker_thread_t;

static void on_signal(int signo)
{
    (void)signo;
    stopping = 1;
}

static int create_listener(const floe_config_t *config)
{
    struct addrinfo hints = {0}, *res = NULL;
    char port[16];
    int fd = -1, on = 1, rc;

    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(port, sizeof(port), "%d", config->port);
    if ((rc = getaddrinfo(config->host, port, &hints, &res)) != 0) {
        floe_log("cannot resolve %s: %s", config->host, gai_strerror(rc));
        return -1;
    }
    if ((fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, LISTEN_BACKLOG) != 0) {
        floe_log("cannot listen on %s:%d: %s%s", config->host, config->port, strerror(errno),
                 errno == EADDRINUSE ? " (another program, or another floe, holds the port)" : "");
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

typedef struct conn_track {
    h2o_linklist_t link; /* in floe_worker_t.conns */
    h2o_socket_t *sock;
} conn_track_t;

static void on_socket_close(void *data)
{
    conn_track_t *t = data;
    h2o_linklist_unlink(&t->link);
    free(t);
}

static void on_accept(h2o_socket_t *listener, const char *err)
{
    h2o_accept_ctx_t *accept_ctx = listener->data;
    floe_worker_t *w = (floe_worker_t *)accept_ctx->ctx;
    h2o_socket_t *sock;

    if (err != NULL)
        return;
    while ((sock = h2o_evloop_socket_accept(listener)) != NULL) {
        conn_track_t *t = floe_xcalloc(1, sizeof(*t));
        t->sock = sock;
        h2o_linklist_insert(&w->conns, &t->link);
        /* set before h2o_accept, as h2o's own server does: h2o calls it when the socket is freed */
        sock->on_close.cb = on_socket_close;
        sock->on_close.data = t;
        h2o_accept(accept_ctx, sock);
    }
}

/* Shuts down every client socket and runs the loop until h2o has closed them all. Returns FLOE_OK
 * when none is left, FLOE_EFAIL (the caller logs it) if some outlived DRAIN_TIMEOUT_MS. */
static int drain_connections(floe_worker_t *w, h2o_evloop_t *loop)
{
    uint64_t deadline = floe_log_now_us() + (uint64_t)DRAIN_TIMEOUT_MS * 1000;

    for (h2o_linklist_t *node = w->conns.next; node != &w->conns; node = node->next) {
        conn_track_t *t = H2O_STRUCT_FROM_MEMBER(conn_track_t, link, node);
        shutdown(h2o_socket_get_fd(t->sock), SHUT_RDWR);
    }
    while (!h2o_linklist_is_empty(&w->conns) && floe_log_now_us() < deadline)
        h2o_evloop_run(loop, 10);
    return h2o_linklist_is_empty(&w->conns) ? FLOE_OK : FLOE_EFAIL;
}

/* Releases the resident pages of large uploads still arriving (s3/spill.h). */
static void trim_spilled_uploads(floe_worker_t *w)
{
    for (h2o_linklist_t *node = w->conns.next; node != &w->conns; node = node->next)
        floe_s3_spill_trim(H2O_STRUCT_FROM_MEMBER(conn_track_t, link, node)->sock);
}

static void *run_worker(void *arg)
{
    worker_thread_t *t = arg;
    server_t *server = t->server;
    h2o_evloop_t *loop = h2o_evloop_create();
    floe_worker_t *w = floe_xcalloc(1, sizeof(*w));
    h2o_accept_ctx_t accept_ctx = {0};
    floe_stack_engine_t *stacks = NULL; /* CloudFormation's engine, on the first worker */
    floe_replicator_t *replicator = NULL; /* the replication worker, on the first worker */
    floe_athena_engine_t *athena = NULL;  /* Athena's engine, on the first worker */
    h2o_socket_t *sock;

    h2o_context_init(&w->super, loop, &server->globalconf);
    h2o_linklist_init_anchor(&w->conns);
    w->config = server->config;
    w->index = t->index;
    floe_json_init(&w->json);
    w->state = t->state;
    if ((w->state == NULL && floe_state_open(server->db_path, server->config->threads <= 1, &w->state) != 0) ||
        (server->config->fsync_commits && floe_state_fsync_commits(w->state) != 0)) {
        t->failed = 1;
        stopping = 1;
        goto Exit;
    }
    floe_replicator_watch(w->state); /* commits here wake the replication worker */
    floe_athena_engine_watch(w->state); /* and queries submitted here Athena's engine */
    if (t->index == 0) {
        w->background = floe_background_new(w);
        stacks = floe_stack_engine_start(w->background);
        replicator = floe_replicator_start(w->background, server->config);
        athena = floe_athena_engine_start(w->background, server->config);
        floe_janitor_start(w);
        if (floe_maintenance_start(server->maintenance, w->background) != 0)
            stopping = 1;
    }
    floe_maintenance_attach(server->maintenance, w);
    accept_ctx.ctx = &w->super;
    accept_ctx.hosts = server->globalconf.hosts;
    sock = h2o_evloop_socket_create(loop, t->listen_fd, H2O_SOCKET_FLAG_DONT_READ);
    sock->data = &accept_ctx;
    h2o_socket_read_start(sock, on_accept);
    while (!stopping) {
        h2o_evloop_run(loop, STOP_POLL_MS);
        trim_spilled_uploads(w);
    }
    h2o_socket_read_stop(sock);
    h2o_socket_close(sock);
    if (w->background != NULL) /* background threads finish their step, then see it; the maintenance thread is joined */
        floe_maintenance_stop(server->maintenance, w->background);
    floe_maintenance_detach(w); /* answers this worker's waiting maintenance requests */
    floe_stack_engine_stop(stacks);          /* joins the stack engine, which stops between steps */
    floe_replicator_stop(replicator);        /* joins the replication worker likewise */
    floe_athena_engine_stop(athena);         /* and Athena's engine, which then stops its Trino */
    floe_janitor_stop(w);
    if (drain_connections(w, loop) != 0) {
        /* h2o cannot dispose a context that still has connections: leave it to process exit. */
        floe_log("thread %d: connections still open at shutdown", t->index);
        floe_state_close(w->state);
        floe_json_dispose(&w->json);
        floe_codec_thread_exit();
        return NULL;
    }
Exit:
    floe_background_free(w->background);
    floe_state_close(w->state);
    floe_json_dispose(&w->json);
    h2o_context_dispose(&w->super);
    h2o_evloop_destroy(loop);
    free(w);
    floe_codec_thread_exit();
    return NULL;
}

/* True on the thread running configure_h2o's h2o_config_init (design note 8). */
static __thread bool defining_default_mime_types;

typedef void define_mimetype_fn(h2o_mimemap_t *, const char *, const char *, h2o_mime_attributes_t *);

/* Takes the place of libh2o's h2o_mimemap_define_mimetype (design note 8): skips h2o's default
 * types, passes any other definition on to libh2o. */
void h2o_mimemap_define_mimetype(h2o_mimemap_t *mimemap, const char *ext, const char *mime, h2o_mime_attributes_t *attr)
{
    static define_mimetype_fn *libh2o_define;
    define_mimetype_fn *define = __atomic_load_n(&libh2o_define, __ATOMIC_ACQUIRE);

    if (defining_default_mime_types)
        return;
    if (define == NULL) {
        *(void **)&define = dlsym(RTLD_NEXT, "h2o_mimemap_define_mimetype");
        __atomic_store_n(&libh2o_define, define, __ATOMIC_RELEASE);
    }
    define(mimemap, ext, mime, attr);
}

static void configure_h2o(server_t *server)
{
    h2o_hostconf_t *host;

    defining_default_mime_types = true;
    h2o_config_init(&server->globalconf);
    defining_default_mime_types = false;
    server->globalconf.server_name = h2o_iovec_init(H2O_STRLIT("Floe"));
    server->globalconf.max_request_entity_size = MAX_REQUEST_ENTITY_SIZE;
    server->globalconf.http1.req_timeout = HTTP1_REQUEST_TIMEOUT_MS;
    /* "default" with port 65535 catches every Host, virtual-hosted bucket names included. */
    host = h2o_config_register_host(&server->globalconf, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    floe_front_register(h2o_config_register_path(host, "/", 0));
}

static void spill_large_bodies_to(const char *data_dir)
{
    /* h2o spills request bodies above the threshold to an unlinked temp file from this template:
     * keep it inside the data directory rather than /tmp. */
    snprintf(h2o_socket_buffer_mmap_settings.fn_template, sizeof(h2o_socket_buffer_mmap_settings.fn_template),
             "%s/tmp/h2o-body.XXXXXX", data_dir);
}

/* Takes an exclusive lock on <data_dir>/floe.lock for the life of the process: two servers on one
 * data directory would each believe they own the objects and the database. Returns the lock's
 * descriptor, or -1 (logged) when another process holds it. */
static int lock_data_dir(const char *data_dir)
{
    char path[4096];
    int fd;

    snprintf(path, sizeof(path), "%s/floe.lock", data_dir);
    if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
        floe_log("cannot open %s: %s", path, strerror(errno));
    } else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        floe_log("another floe is serving the data directory %s", data_dir);
        close(fd);
        fd = -1;
    }
    return fd;
}

static void install_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static int start_threads(server_t *server, worker_thread_t *threads, int n, int first_fd)
{
    for (int i = 0; i < n; i++) {
        threads[i].server = server;
        threads[i].index = i;
        threads[i].listen_fd = i == 0 ? first_fd : fcntl(first_fd, F_DUPFD_CLOEXEC, 0); /* design note 1 */
        if (threads[i].listen_fd < 0) {
            floe_log("cannot share the listening socket with thread %d: %s", i, strerror(errno));
            return i;
        }
        if (i > 0 && pthread_create(&threads[i].tid, NULL, run_worker, &threads[i]) != 0)
            return i;
    }
    return n;
}

/* configure_h2o on a thread of its own (design note 7). */
static void *configure_h2o_thread(void *arg)
{
    configure_h2o(arg);
    return NULL;
}

int floe_server_run(const floe_config_t *config)
{
    server_t server = {.config = config};
    int n = config->threads > 0 ? config->threads : 1, started = 0, failed = 0, rc = 1;
    worker_thread_t *threads = NULL;
    floe_state_t *first_state = NULL; /* until run_worker takes it over */
    int fd, lock_fd;
    pthread_t h2o_tid;
    bool h2o_on_thread;

    /* The models' patterns are not compiled here: each compiles on its first use (codec.h). */
    if (floe_s3tables_init() != 0 || floe_iceberg_rest_init() != 0 || floe_s3_init() != 0 ||
        floe_awsjson_init() != 0 ||
        (lock_fd = lock_data_dir(config->data_dir)) < 0)
        return 1;
    h2o_on_thread = pthread_create(&h2o_tid, NULL, configure_h2o_thread, &server) == 0;
    if (!h2o_on_thread)
        configure_h2o(&server);
    snprintf(server.db_path, sizeof(server.db_path), "%s/%s", config->data_dir, FLOE_STATE_FILE);
    if (floe_state_open(server.db_path, config->threads <= 1, &first_state) != 0 ||
        floe_store_recover(first_state, config->data_dir) != 0 ||
        floe_table_bucket_adopt_unscoped(first_state, config->account_id, config->region) < 0 ||
        floe_janitor_recover(first_state, (int64_t)time(NULL) * 1000) < 0)
        goto Exit;
    threads = floe_xcalloc((size_t)n, sizeof(*threads));
    threads[0].state = first_state;
    spill_large_bodies_to(config->data_dir);
    install_signals();
    if ((fd = create_listener(config)) < 0)
        goto Exit;
    if (h2o_on_thread)
        pthread_join(h2o_tid, NULL);
    h2o_on_thread = false;
    server.maintenance = floe_maintenance_new(config);
    started = start_threads(&server, threads, n, fd);
    if (started == n) {
        floe_log("serving S3 Tables and S3 on http://%s:%d (data: %s%s)", config->host, config->port,
                 config->in_memory ? "in memory at " : "", config->data_dir);
        first_state = NULL; /* run_worker closes it */
        run_worker(&threads[0]);
    }
    stopping = 1;
    for (int i = 1; i < started; i++)
        pthread_join(threads[i].tid, NULL);
    for (int i = 0; i < n; i++)
        failed |= threads[i].failed;
    rc = started == n && !failed ? 0 : 1;
Exit:
    if (h2o_on_thread)
        pthread_join(h2o_tid, NULL);
    floe_state_close(first_state);
    h2o_config_dispose(&server.globalconf);
    floe_maintenance_free(server.maintenance);
    free(threads);
    close(lock_fd);
    return rc;
}
