/*
 * The yardstick for bench/s3: h2o 2.2's own static file handler (h2o_file_register) serving a
 * directory on one event-loop thread, as Floe serves S3 by default. The benchmark fetches the
 * same object file through both and reports Floe's GET throughput as a ratio of this one. Not a
 * server for anything else: no TLS, no configuration, no logging.
 *
 *   bench_h2o_file_server PORT DIRECTORY      (stops on SIGTERM or SIGINT)
 *
 * Built by `cmake --build <dir> --target bench_h2o_file_server` (not part of `all`).
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define H2O_USE_LIBUV 0
#include <h2o.h>

#define LISTEN_BACKLOG 1024
#define POLL_MS 200

static volatile sig_atomic_t stopping;

static void on_signal(int signo)
{
    (void)signo;
    stopping = 1;
}

static void on_accept(h2o_socket_t *listener, const char *err)
{
    h2o_socket_t *sock;

    if (err != NULL)
        return;
    while ((sock = h2o_evloop_socket_accept(listener)) != NULL)
        h2o_accept(listener->data, sock);
}

static int listen_on(int port)
{
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), on = 1;

    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0 ||
        bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(fd, LISTEN_BACKLOG) != 0) {
        perror("bench_h2o_file_server: listen");
        return -1;
    }
    return fd;
}

int main(int argc, char **argv)
{
    h2o_globalconf_t conf;
    h2o_context_t ctx;
    h2o_accept_ctx_t accept_ctx = {0};
    h2o_evloop_t *loop;
    h2o_socket_t *listener;
    h2o_hostconf_t *host;
    int fd;

    if (argc != 3) {
        fprintf(stderr, "usage: %s PORT DIRECTORY\n", argv[0]);
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    h2o_config_init(&conf);
    host = h2o_config_register_host(&conf, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    h2o_file_register(h2o_config_register_path(host, "/", 0), argv[2], NULL, NULL, 0);
    if ((fd = listen_on(atoi(argv[1]))) < 0)
        return 1;
    loop = h2o_evloop_create();
    h2o_context_init(&ctx, loop, &conf);
    accept_ctx.ctx = &ctx;
    accept_ctx.hosts = conf.hosts;
    listener = h2o_evloop_socket_create(loop, fd, H2O_SOCKET_FLAG_DONT_READ);
    listener->data = &accept_ctx;
    h2o_socket_read_start(listener, on_accept);
    while (!stopping)
        h2o_evloop_run(loop, POLL_MS);
    return 0; /* the process exits; nothing to flush */
}
