/*
 * The blocking client of client.h.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "maintenance/client.h"
#include "maintenance/route.h"

#define HOST_MAX 256
#define PORT_MAX 8
#define DEFAULT_HTTP_PORT "80"
#define HEAD_MAX 2048

/* "http://host[:port][/]" into host and port. */
static int parse_endpoint(const char *endpoint, char host[HOST_MAX], char port[PORT_MAX])
{
    const char *p = endpoint, *colon, *end;

    if (strncmp(p, "http://", 7) != 0) {
        fprintf(stderr, "floe: --endpoint must be http://HOST[:PORT], not %s\n", endpoint);
        return FLOE_EFAIL;
    }
    p += 7;
    end = p + strcspn(p, "/");
    colon = memchr(p, ':', (size_t)(end - p));
    if ((colon != NULL ? colon : end) - p >= HOST_MAX || (colon != NULL && end - colon - 1 >= PORT_MAX) ||
        (colon != NULL ? colon : end) == p) {
        fprintf(stderr, "floe: cannot read the endpoint %s\n", endpoint);
        return FLOE_EFAIL;
    }
    snprintf(host, HOST_MAX, "%.*s", (int)((colon != NULL ? colon : end) - p), p);
    if (colon != NULL)
        snprintf(port, PORT_MAX, "%.*s", (int)(end - colon - 1), colon + 1);
    else
        snprintf(port, PORT_MAX, "%s", DEFAULT_HTTP_PORT);
    return FLOE_OK;
}

static int connect_to(const char *host, const char *port)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int fd = -1, rc;

    if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
        fprintf(stderr, "floe: cannot resolve %s: %s\n", host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        if ((fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
            connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        fprintf(stderr, "floe: cannot connect to %s:%s: %s\n", host, port, strerror(errno));
    return fd;
}

static int send_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FLOE_EFAIL;
        data += n;
        len -= (size_t)n;
    }
    return FLOE_OK;
}

/* Reads until the server closes the connection (the request asked it to). */
static char *read_all(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = floe_xmalloc(cap);

    for (;;) {
        ssize_t got;
        if (cap - n < 1024)
            buf = floe_xrealloc(buf, cap *= 2);
        got = recv(fd, buf + n, cap - n - 1, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static char *request_body(const char *arn, const char *type, const char *now)
{
    cJSON *o = cJSON_CreateObject();
    char *text;

    cJSON_AddStringToObject(o, "arn", arn);
    cJSON_AddStringToObject(o, "type", type);
    if (now != NULL)
        cJSON_AddStringToObject(o, "now", now);
    text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

/* The SigV4 headers for the request, or "" unsigned; the caller frees. */
static char *auth_headers(const floe_sigv4_signer_t *signer, const char *authority, const char *json)
{
    char amz_date[FLOE_SIGV4_AMZ_DATE_LEN + 1], *authorization, *headers;
    size_t size;

    if (signer == NULL)
        return floe_xstrdup("");
    authorization = floe_sigv4_sign_request(signer, "POST", authority, FLOE_MAINTENANCE_RUN_PATH, json, strlen(json),
                                            time(NULL), amz_date);
    size = strlen(authorization) + strlen(amz_date) + sizeof("Authorization: \r\nX-Amz-Date: \r\n");
    headers = floe_xmalloc(size);
    snprintf(headers, size, "Authorization: %s\r\nX-Amz-Date: %s\r\n", authorization, amz_date);
    free(authorization);
    return headers;
}

int floe_maintenance_client_run(const char *endpoint, const floe_sigv4_signer_t *signer, const char *arn,
                                const char *type, const char *now, int *status, char **body)
{
    char host[HOST_MAX], port[PORT_MAX], authority[HOST_MAX + PORT_MAX + 1], head[HEAD_MAX];
    char *json, *answer, *sep, *auth;
    size_t len;
    int fd, n;

    if (parse_endpoint(endpoint, host, port) || (fd = connect_to(host, port)) < 0)
        return FLOE_EFAIL;
    json = request_body(arn, type, now);
    snprintf(authority, sizeof(authority), "%s:%s", host, port);
    auth = auth_headers(signer, authority, json);
    n = snprintf(head, sizeof(head),
                 "POST " FLOE_MAINTENANCE_RUN_PATH " HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                 "Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
                 authority, strlen(json), auth);
    free(auth);
    if (send_all(fd, head, (size_t)n) || send_all(fd, json, strlen(json))) {
        fprintf(stderr, "floe: cannot send the request: %s\n", strerror(errno));
        free(json);
        close(fd);
        return FLOE_EFAIL;
    }
    free(json);
    answer = read_all(fd, &len);
    close(fd);
    if (sscanf(answer, "HTTP/1.%*d %d", status) != 1 || (sep = strstr(answer, "\r\n\r\n")) == NULL) {
        fprintf(stderr, "floe: the server's answer is not HTTP\n");
        free(answer);
        return FLOE_EFAIL;
    }
    *body = floe_xstrdup(sep + 4);
    free(answer);
    return FLOE_OK;
}
